"""The per-World image store: stable integer ids (0, 1, 2, ... in insertion order), bytes kept as given.

Scenario images get ids 0..n-1 in ``image_paths`` order; every derived image (crop, plot, render)
gets the next id. The store takes part in tool-call atomicity through :meth:`mark`/:meth:`rollback`.
"""

from __future__ import annotations

import functools
import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

from PIL import Image


@dataclass(frozen=True)
class StoredImage:
    """One image: its id, encoded bytes, MIME type and where it came from."""

    image_id: int
    data: bytes
    mime_type: str
    source: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @functools.cached_property
    def sha256(self) -> str:
        """The hex SHA-256 of the bytes (computed once: it names the image in trajectories and run folders)."""
        return hashlib.sha256(self.data).hexdigest()

    def open(self) -> Image.Image:
        """Decode to a PIL image."""
        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img

    @property
    def size(self) -> tuple[int, int]:
        return self.open().size


@dataclass(frozen=True)
class ImageResult:
    """What an image-producing tool returns: the id of the stored image."""

    image_id: int

    def __repr__(self) -> str:
        return f"ImageResult(image_id={self.image_id})"

    def to_json(self) -> dict[str, Any]:
        return {"image_id": self.image_id}


MIME_BY_FORMAT = {"JPEG": "image/jpeg", "PNG": "image/png", "GIF": "image/gif", "WEBP": "image/webp",
                  "BMP": "image/bmp", "TIFF": "image/tiff"}


class ImageStore:
    """Images of one World, addressed by integer id."""

    def __init__(self) -> None:
        self._images: list[StoredImage] = []

    def __len__(self) -> int:
        return len(self._images)

    def add_bytes(self, data: bytes, *, source: str = "", mime_type: str | None = None,
                  meta: dict[str, Any] | None = None) -> int:
        """Store encoded image bytes; returns the new id."""
        if mime_type is None:
            with Image.open(io.BytesIO(data)) as probe:
                mime_type = MIME_BY_FORMAT.get(probe.format or "", "application/octet-stream")
        image_id = len(self._images)
        self._images.append(StoredImage(image_id, data, mime_type, source, meta or {}))
        return image_id

    def add_pil(self, image: Image.Image, *, source: str = "", fmt: str = "PNG",
                meta: dict[str, Any] | None = None) -> int:
        """Encode a PIL image (PNG by default: lossless for derived images) and store it."""
        buf = io.BytesIO()
        if fmt == "JPEG" and image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        image.save(buf, format=fmt)
        return self.add_bytes(buf.getvalue(), source=source, mime_type=MIME_BY_FORMAT[fmt], meta=meta)

    def get(self, image_id: int) -> StoredImage:
        """The image with this id; a clear error listing the valid range otherwise."""
        if isinstance(image_id, bool) or not isinstance(image_id, int):
            raise ValueError(f"image_id must be an integer, got {image_id!r}")
        if not 0 <= image_id < len(self._images):
            valid = f"0..{len(self._images) - 1}" if self._images else "none (no images in this episode)"
            raise ValueError(f"Image with ID {image_id} not found. Valid image ids: {valid}")
        return self._images[image_id]

    def ids(self) -> list[int]:
        return list(range(len(self._images)))

    def extend(self, images: list[StoredImage] | tuple[StoredImage, ...]) -> None:
        """Append images kept from another store (e.g. a cached scenario build); ids must continue in order."""
        for image in images:
            if image.image_id != len(self._images):
                raise ValueError(f"image {image.image_id} cannot take id {len(self._images)} in this store")
            self._images.append(image)

    def snapshot(self) -> tuple[StoredImage, ...]:
        """The stored images (immutable records, safe to share between stores)."""
        return tuple(self._images)

    def mark(self) -> int:
        return len(self._images)

    def rollback(self, mark: int) -> None:
        del self._images[mark:]
