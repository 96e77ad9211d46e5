"""Small file helpers for downloads: atomic writes, SHA-256 of files, JPEG re-encoding as the reference does."""

from __future__ import annotations

import hashlib
import io
import os
import uuid
from pathlib import Path

from PIL import Image

CHUNK = 1 << 20
#: the reference's image download re-encodes decoded images as RGB JPEG at this quality
JPEG_QUALITY = 95


def write_bytes_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` through a hidden temp file beside ``target`` and rename it into place, so a reader (or
    an interrupted run) never sees half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.parent / f".{target.name}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        tmp.write_bytes(data)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def reencode_jpeg(image: Image.Image | bytes) -> bytes:
    """An image (decoded, or encoded bytes of any format PIL reads) as RGB JPEG at quality 95: the bytes the
    reference's download writes for the sources it re-encodes."""
    img = Image.open(io.BytesIO(image)) if isinstance(image, (bytes, bytearray)) else image
    if img.mode != "RGB":
        img = img.convert("RGB")
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=JPEG_QUALITY)
    return out.getvalue()
