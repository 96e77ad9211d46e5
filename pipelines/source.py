"""Where the images come from: a folder, a JSON-lines manifest in the form the reference's image download
writes (``{"image_paths": [...], "meta_data": {...}, "dataset_type": "..."}`` per line), or procedurally drawn
images (which write such a manifest, with each image's ground truth under ``meta_data.truth``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pipelines.items import SourceImage

__all__ = ["IMAGE_SUFFIXES", "SourceError", "image_id_of", "read_folder", "read_manifest"]

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif"})


class SourceError(ValueError):
    """A source that cannot be read: the message names the file and line."""


def image_id_of(path: Path) -> str:
    """A content id: the same file always gets the same id, wherever it lies."""
    return "img-" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _image(path: Path, dataset_type: str, meta: dict[str, Any]) -> SourceImage:
    truth = meta.get("truth") if isinstance(meta.get("truth"), dict) else None
    rest = {k: v for k, v in meta.items() if k != "truth"}
    return SourceImage(image_id=image_id_of(path), path=str(path.resolve()), dataset_type=dataset_type,
                       meta=rest, truth=truth)


def read_folder(folder: Path, *, limit: int | None = None, dataset_type: str | None = None) -> list[SourceImage]:
    """Every image file under ``folder`` (sorted by path; duplicates by content kept once)."""
    if not folder.is_dir():
        raise SourceError(f"source.path: {folder} is not a folder")
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
    return _unique([_image(p, dataset_type or folder.name, {"slug": p.stem[:40]}) for p in files], limit)


def read_manifest(path: Path, *, limit: int | None = None) -> list[SourceImage]:
    """The images of a JSON-lines manifest; paths are relative to the manifest's folder. A line that is not
    JSON, lacks ``image_paths`` or names a missing file is an error naming the line."""
    if not path.is_file():
        raise SourceError(f"source.path: manifest {path} does not exist")
    out: list[SourceImage] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as e:
            raise SourceError(f"{path}:{n}: not JSON ({e.msg})") from None
        paths = entry.get("image_paths") if isinstance(entry, dict) else None
        if not isinstance(paths, list) or not paths:
            raise SourceError(f"{path}:{n}: 'image_paths' must be a non-empty list")
        meta = entry.get("meta_data") or {}
        if not isinstance(meta, dict):
            raise SourceError(f"{path}:{n}: 'meta_data' must be an object")
        dataset_type = str(entry.get("dataset_type") or "unknown")
        for rel in paths:
            file = (path.parent / str(rel)).resolve()
            if not file.is_file():
                raise SourceError(f"{path}:{n}: image {rel} does not exist (looked for {file})")
            out.append(_image(file, dataset_type, {"slug": Path(str(rel)).stem[:40], **meta}))
    return _unique(out, limit)


def _unique(images: list[SourceImage], limit: int | None) -> list[SourceImage]:
    seen: dict[str, SourceImage] = {}
    for im in images:
        seen.setdefault(im.image_id, im)
    out = list(seen.values())
    return out[:limit] if limit is not None else out
