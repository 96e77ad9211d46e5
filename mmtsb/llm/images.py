"""ImageEncoder: images -> OpenAI ``image_url`` content parts (data URLs), encoded once per image.

Why (SPEC §4, §9.6): the reference re-decodes, resizes and re-encodes every image at every API call, as
lossy JPEG, always declared ``image/jpeg``. Here the MIME type comes from the bytes themselves, an image
is resized at most once (longest side <= ``max_side``), PNG stays PNG and JPEG stays JPEG, images already
small enough pass through byte-for-byte, and the data URL is kept in an LRU keyed by content hash, so a
conversation re-sent every turn never re-encodes its images. The LRU belongs to the encoder object.

A photo costs real time to decode and shrink (a 12-megapixel JPEG ~0.26 s at full scale), so a JPEG larger than
``max_side`` is decoded at a reduced DCT scale (1/2, 1/4 or 1/8, never below the target size; the whole stream is
still read, so a cut file is still refused) before the resize, and :meth:`ImageEncoder.content_part_async`
encodes any but a small image (:func:`encodes_inline`) in a worker thread (Pillow releases the GIL while it decodes,
resizes and encodes), so an event loop with many requests in flight keeps sending while images are prepared.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import math
import os
import struct
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Protocol

from PIL import Image, ImageOps

_MIME = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "GIF": "image/gif"}
_PASS_THROUGH = set(_MIME)  # formats the major providers accept as-is

#: ``content_part_async`` encodes an image on the calling thread only up to this many bytes and pixels: for
#: such an image a thread hop costs about as much as the work. Pixels count as well as bytes because a
#: screenshot compresses far better than it decodes (a blank 4K PNG is 29 KB and takes 0.2 s to shrink).
INLINE_MAX_BYTES = 128 * 1024
INLINE_MAX_PIXELS = 1 << 20

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}   # start-of-frame markers (DHT, JPG, DAC are not)


def header_pixels(data: bytes) -> int | None:
    """Width x height from a PNG, GIF or JPEG header, without decoding (None for another format or a header
    that cannot be read this way)."""
    if data[:8] == _PNG_SIGNATURE and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width * height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width * height
    if data[:2] == b"\xff\xd8":
        pos = 2
        while pos + 9 <= len(data) and data[pos] == 0xFF:
            marker = data[pos + 1]
            if marker == 0xFF:                          # fill byte
                pos += 1
            elif marker in _JPEG_SOF:
                height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
                return width * height
            elif marker == 0x01 or 0xD0 <= marker <= 0xD8:   # markers without a length
                pos += 2
            else:
                pos += 2 + struct.unpack(">H", data[pos + 2:pos + 4])[0]
    return None


def encodes_inline(data: bytes) -> bool:
    """Whether ``data`` is small enough, in bytes and pixels, to encode without a worker thread."""
    if len(data) > INLINE_MAX_BYTES:
        return False
    pixels = header_pixels(data)
    if pixels is None:   # another format: Pillow reads the header (no pixel is decoded)
        try:
            with Image.open(io.BytesIO(data)) as probe:
                pixels = probe.size[0] * probe.size[1]
        except Exception:  # undecodable: refused at once, no thread needed
            return True
    return pixels <= INLINE_MAX_PIXELS


class DataURL(str):
    """An image's ``data:`` URL: a plain string to every consumer (JSON encoders, HTTP clients, providers),
    whose ``repr`` is short: ``<data:image/png;base64, 204800 chars>``.

    Why: litellm formats its call parameters, the messages included, into debug strings on every call whether
    or not debug logging is on; with the images of a conversation inlined (hundreds of KB per request) that
    ``repr`` was the largest single CPU cost of a litellm call (≈ 1.6 ms of ≈ 9 ms with three 200 KB images).
    Copies are the same object (a string is immutable), as for ``str``.

    ``content_sha256``: the sha256 (hex) of the bytes the URL carries, when its maker knew it (the encoder
    does): a prompt's hash names an image by it, which otherwise costs decoding and hashing the whole payload
    (≈ 1 ms for a 200 KB photo) at every call that sends the image."""

    content_sha256: str | None = None

    def __repr__(self) -> str:
        head = self[: self.find(",") + 1] if self.startswith("data:") else self[:16]
        return f"<{head} {len(self)} chars>"

    def __copy__(self) -> DataURL:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> DataURL:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataURL, (str(self),), self.__dict__ or None)


class ImageLike(Protocol):
    """Anything with encoded bytes and a MIME type, e.g. mmtsb.vision.store.StoredImage."""

    data: bytes
    mime_type: str


class ImageEncoder:
    """Encodes images to data URLs with a byte-bounded LRU; ``encode_count`` counts real encodings."""

    def __init__(self, max_side: int = 1024, jpeg_quality: int = 90,
                 max_cache_bytes: int = 256 * 1024 * 1024) -> None:
        if max_side < 16:
            raise ValueError(f"max_side must be >= 16, got {max_side}")
        self.max_side, self.jpeg_quality, self.max_cache_bytes = max_side, jpeg_quality, max_cache_bytes
        self._cache: OrderedDict[str, DataURL] = OrderedDict()
        self._cache_bytes = 0
        self._lock = threading.Lock()
        self.encode_count = 0
        self.hits = 0

    def data_url(self, data: bytes, mime_type: str | None = None) -> DataURL:
        """``data:<mime>;base64,...`` for the image bytes (``mime_type`` is only a hint: the bytes decide)."""
        key = hashlib.sha256(data).hexdigest()
        with self._lock:
            if (url := self._cache.get(key)) is not None:
                self._cache.move_to_end(key)
                self.hits += 1
                return url
        mime, encoded = self._encode(data, mime_type)
        url = DataURL(f"data:{mime};base64,{base64.b64encode(encoded).decode('ascii')}")
        url.content_sha256 = key if encoded is data else hashlib.sha256(encoded).hexdigest()
        with self._lock:
            self.encode_count += 1
            if key not in self._cache:
                self._cache[key] = url
                self._cache_bytes += len(url)
            while self._cache_bytes > self.max_cache_bytes and len(self._cache) > 1:
                _, old = self._cache.popitem(last=False)
                self._cache_bytes -= len(old)
        return url

    def content_part(self, image: ImageLike | bytes, mime_type: str | None = None,
                     detail: str | None = None) -> dict[str, Any]:
        """An OpenAI chat content part ``{"type": "image_url", "image_url": {"url": ...}}``."""
        if isinstance(image, (bytes, bytearray)):
            data, hint = bytes(image), mime_type
        else:
            data, hint = image.data, mime_type or getattr(image, "mime_type", None)
        url: dict[str, Any] = {"url": self.data_url(data, hint)}
        if detail is not None:
            url["detail"] = detail
        return {"type": "image_url", "image_url": url}

    async def content_part_async(self, image: ImageLike | bytes | os.PathLike[str], mime_type: str | None = None,
                                 detail: str | None = None) -> dict[str, Any]:
        """:meth:`content_part` for an event loop: an image (bytes, an ImageLike or a file path) is read and
        encoded in a worker thread unless it is small in bytes and in pixels (see :func:`encodes_inline`)."""
        if isinstance(image, os.PathLike):
            path = Path(image)
            if path.stat().st_size > INLINE_MAX_BYTES:
                return await asyncio.to_thread(lambda: self.content_part(path.read_bytes(), mime_type, detail))
            image = path.read_bytes()
        if encodes_inline(image if isinstance(image, (bytes, bytearray)) else image.data):
            return self.content_part(image, mime_type, detail)
        return await asyncio.to_thread(self.content_part, image, mime_type, detail)

    def content_parts(self, images: list[ImageLike | bytes]) -> list[dict[str, Any] | ValueError]:
        """:meth:`content_part` for several images; an image that cannot be decoded gives its ValueError in its
        place (the caller says so in the message instead of failing it all)."""
        def one(image: ImageLike | bytes) -> dict[str, Any] | ValueError:
            try:
                return self.content_part(image)
            except ValueError as e:
                return e

        return [one(image) for image in images]

    async def content_parts_async(self, images: list[ImageLike | bytes]) -> list[dict[str, Any] | ValueError]:
        """:meth:`content_parts` on an event loop: the images encoded concurrently (see :meth:`content_part_async`),
        an undecodable one's ValueError in its place."""
        async def one(image: ImageLike | bytes) -> dict[str, Any] | ValueError:
            try:
                return await self.content_part_async(image)
            except ValueError as e:
                return e

        return list(await asyncio.gather(*(one(image) for image in images)))

    def _encode(self, data: bytes, hint: str | None) -> tuple[str, bytes]:
        try:
            img = Image.open(io.BytesIO(data))
            fmt, size = img.format or "", img.size
            if fmt == "JPEG" and max(size) > self.max_side:
                # decode at the smallest DCT scale that is still at least the target size: a fraction of the
                # pixels, the same picture after the resize below
                scale = self.max_side / max(size)
                img.draft(None, (math.ceil(size[0] * scale), math.ceil(size[1] * scale)))
            img.load()
        except Exception as exc:  # PIL raises several types for bad input
            raise ValueError(f"cannot decode image ({len(data)} bytes, declared {hint or 'no MIME type'}): "
                             f"{exc}") from exc
        if fmt in _PASS_THROUGH and max(size) <= self.max_side:
            return _MIME[fmt], data
        return self._resize(img, fmt)

    def _resize(self, img: Image.Image, fmt: str) -> tuple[str, bytes]:
        """Shrink to fit ``max_side`` (LANCZOS) and re-encode: JPEG -> JPEG, WEBP -> WEBP, else PNG."""
        target = fmt if fmt in ("JPEG", "WEBP") else "PNG"
        img = ImageOps.exif_transpose(img)
        if target == "JPEG" and img.mode not in ("RGB", "L"):
            img = img.convert("RGB")
        elif img.mode in ("P", "1") or (target == "PNG" and img.mode not in ("RGB", "RGBA", "L", "LA")):
            img = img.convert("RGBA")
        if max(img.size) > self.max_side:
            img.thumbnail((self.max_side, self.max_side), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        options: dict[str, Any] = {"quality": self.jpeg_quality} if target in ("JPEG", "WEBP") else {}
        img.save(out, format=target, **options)
        return _MIME[target], out.getvalue()
