"""Resolving a scenario's ``image_paths`` against an image root, or generating placeholders.

The released images come from public datasets that are not shipped; ``placeholder`` mode draws a
deterministic stand-in (its path written on it) so scenarios can be validated and played without them.
"""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw

ImagesMode = Literal["require", "placeholder"]


class MissingImagesError(FileNotFoundError):
    """Some images of a scenario are not under the image root (all missing paths are listed)."""

    def __init__(self, missing: list[str], root: Path) -> None:
        self.missing = missing
        self.root = root
        super().__init__(f"{len(missing)} image(s) not found under {root}: {', '.join(missing)} "
                         "(pass --image-root, or --images placeholder to validate without the datasets)")


class ImagePathError(ValueError):
    """Image paths that lead outside the image root (``/etc/passwd``, ``../../x``): a scenario file may only
    name images under its root, so a file cannot make the platform read (and send to a model) any other file."""

    def __init__(self, outside: list[str], root: Path) -> None:
        self.outside = outside
        super().__init__(f"{len(outside)} image path(s) lead outside the image root {root}: {', '.join(outside)}")


def outside_root(paths: list[str], root: Path) -> list[str]:
    """The paths that, with ``..`` and ``.`` collapsed, do not lie under ``root``. Judged on the path as
    written (a symbolic link that the user placed under the root, e.g. to a dataset folder, is followed as
    usual): the file names the image, the user decides what the root holds."""
    base = os.path.abspath(root)
    out = []
    for raw in paths:
        full = os.path.normpath(os.path.join(base, raw))  # an absolute ``raw`` replaces ``base``
        if full != base and not full.startswith(base.rstrip(os.sep) + os.sep):
            out.append(raw)
    return out


def resolve_image_paths(paths: list[str], root: Path) -> tuple[list[Path], list[str]]:
    """Paths under ``root`` (relative ones joined to it; absolute ones must lie inside it). Returns (resolved,
    missing); raises ImagePathError for paths leading outside ``root``."""
    if outside := outside_root(paths, root):
        raise ImagePathError(outside, root)
    resolved, missing = [], []
    for raw in paths:
        p = Path(raw)
        full = p if p.is_absolute() else root / p
        resolved.append(full)
        if not full.is_file():
            missing.append(raw)
    return resolved, missing


def placeholder_image(label: str, size: tuple[int, int] = (640, 480)) -> bytes:
    """A deterministic PNG stand-in: a tinted card with the image's path written on it."""
    digest = hashlib.sha256(label.encode()).digest()
    tint = (180 + digest[0] % 60, 180 + digest[1] % 60, 180 + digest[2] % 60)
    img = Image.new("RGB", size, tint)
    draw = ImageDraw.Draw(img)
    draw.rectangle([8, 8, size[0] - 9, size[1] - 9], outline=(60, 60, 60), width=3)
    draw.text((24, 24), "placeholder image", fill=(20, 20, 20))
    for i in range(0, len(label), 60):
        draw.text((24, 56 + 16 * (i // 60)), label[i:i + 60], fill=(20, 20, 20))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def load_images(paths: list[str], root: Path, mode: ImagesMode = "require") -> list[tuple[str, bytes]]:
    """(path, bytes) per image in order; raises MissingImagesError listing every missing path in
    ``require`` mode, or substitutes placeholders for them in ``placeholder`` mode."""
    resolved, missing = resolve_image_paths(paths, root)
    if missing and mode == "require":
        raise MissingImagesError(missing, root)
    out = []
    for raw, full in zip(paths, resolved):
        out.append((raw, full.read_bytes() if raw not in missing else placeholder_image(raw)))
    return out
