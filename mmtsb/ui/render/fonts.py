"""Fonts and pixel word-wrapping for the UI renderer.

DejaVu Sans (wide Unicode coverage: arrows, bullets, accents) when the system has it, else Pillow's
bundled scalable font, else Pillow's bitmap default; so rendering works on any machine.
"""

from __future__ import annotations

import functools

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
_REGULAR = ("DejaVuSans.ttf", "Arial.ttf", "arial.ttf")
_BOLD = ("DejaVuSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf")


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """A font of ``size`` pixels (bold when available)."""
    for name in (_BOLD if bold else ()) + _REGULAR:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError, OSError):
        return ImageFont.load_default()


def line_height(size: int) -> int:
    """Vertical advance of one text line."""
    return int(round(size * 1.4))


def text_width(text: str, f: Font) -> int:
    return int(round(f.getlength(text))) if text else 0


def wrap(text: str, f: Font, width: int) -> list[str]:
    """Lines of ``text`` that fit ``width`` pixels: breaks at spaces, and inside words longer than a line."""
    width = max(width, 8)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if text_width(candidate, f) <= width:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = ""
            while text_width(word, f) > width:
                cut = _fit(word, f, width)
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    return lines


def _fit(word: str, f: Font, width: int) -> int:
    """How many leading characters of ``word`` fit ``width`` (at least one)."""
    lo, hi = 1, len(word)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(word[:mid], f) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def ellipsize(text: str, f: Font, width: int) -> str:
    """``text`` cut with '…' to fit one line of ``width`` pixels."""
    if text_width(text, f) <= width:
        return text
    cut = _fit(text + "…", f, max(width - text_width("…", f), 8))
    return text[: max(cut - 1, 1)] + "…"
