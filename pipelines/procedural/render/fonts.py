"""Fonts from installed packages only, so every machine draws the same glyphs: the DejaVu, STIX and Computer
Modern faces matplotlib ships in ``mpl-data/fonts/ttf`` (DejaVu: Bitstream Vera licence; STIX: SIL OFL;
Computer Modern: Knuth's licence as distributed with matplotlib)."""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

__all__ = ["FACES", "face_path", "font"]

#: face name -> file in matplotlib's font folder
FACES = {
    "sans": "DejaVuSans.ttf", "sans_bold": "DejaVuSans-Bold.ttf", "sans_italic": "DejaVuSans-Oblique.ttf",
    "sans_bold_italic": "DejaVuSans-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf", "serif_bold": "DejaVuSerif-Bold.ttf", "serif_italic": "DejaVuSerif-Italic.ttf",
    "mono": "DejaVuSansMono.ttf", "mono_bold": "DejaVuSansMono-Bold.ttf",
    "stix": "STIXGeneral.ttf", "stix_bold": "STIXGeneralBol.ttf", "stix_italic": "STIXGeneralItalic.ttf",
    "cm_roman": "cmr10.ttf", "cm_sans": "cmss10.ttf", "cm_mono": "cmtt10.ttf", "cm_italic": "cmti10.ttf",
}


@functools.cache
def _folder() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


def face_path(face: str) -> Path:
    """The font file of ``face`` (a key of :data:`FACES`)."""
    if face not in FACES:
        raise ValueError(f"unknown font face {face!r}; known: {sorted(FACES)}")
    return _folder() / FACES[face]


@functools.cache
def font(face: str, size: int) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` pixels (at least 6)."""
    return ImageFont.truetype(str(face_path(face)), max(6, int(size)))
