"""The drawing canvas behind every procedurally drawn scenario image: a PIL sheet with a few text and shape
operations, and deterministic PNG encoding (so regenerated images are byte-identical)."""

from __future__ import annotations

import functools
import io
import textwrap

from PIL import Image, ImageDraw, ImageFont

__all__ = ["GREY", "INK", "LIGHT", "RGB", "Sheet", "font", "png_bytes"]

RGB = tuple[int, int, int]

#: body text
INK: RGB = (28, 28, 32)
#: secondary text (labels, captions)
GREY: RGB = (110, 110, 118)
#: rules and outlines
LIGHT: RGB = (225, 225, 230)


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """PIL's bundled scalable font at ``size`` pixels (no system fonts: the same glyphs on every machine)."""
    return ImageFont.load_default(size=size)


def png_bytes(img: Image.Image) -> bytes:
    """The image encoded as an optimised PNG (deterministic for the same pixels)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


class Sheet:
    """A canvas with the few drawing operations the images need (``img`` and ``draw`` stay reachable for the
    rest of PIL)."""

    def __init__(self, width: int, height: int, background: RGB = (255, 255, 255)) -> None:
        self.width, self.height = width, height
        self.img = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.img)

    def text(self, x: float, y: float, s: str, size: int = 18, fill: RGB = INK, bold: bool = False,
             anchor: str = "la") -> None:
        """One line of text; ``bold`` strokes the glyphs, ``anchor`` is PIL's (``la``, ``ma``, ``ra``...)."""
        self.draw.text((x, y), s, font=font(size), fill=fill, anchor=anchor, stroke_width=1 if bold else 0,
                       stroke_fill=fill)

    def center(self, y: float, s: str, size: int = 18, fill: RGB = INK, bold: bool = False) -> None:
        """One line of text centred horizontally on the sheet."""
        self.text(self.width / 2, y, s, size, fill, bold, anchor="ma")

    def pair(self, x0: float, x1: float, y: float, left: str, right: str, size: int = 18, fill: RGB = INK,
             bold: bool = False) -> None:
        """A left-aligned label and a right-aligned value on one line."""
        self.text(x0, y, left, size, fill, bold)
        self.text(x1, y, right, size, fill, bold, anchor="ra")

    def wrapped(self, x: float, y: float, s: str, width_chars: int, size: int = 18, fill: RGB = INK,
                spacing: float = 1.45) -> float:
        """Draw wrapped text; returns the y below it."""
        for line in textwrap.wrap(s, width_chars):
            self.text(x, y, line, size, fill)
            y += size * spacing
        return y

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None = None, outline: RGB | None = None,
             width: int = 1, radius: int = 0) -> None:
        """A rectangle, with rounded corners when ``radius`` is set."""
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def hline(self, y: float, x0: float, x1: float, fill: RGB = LIGHT, width: int = 2, dashed: bool = False) -> None:
        """A horizontal rule from ``x0`` to ``x1``, solid or dashed (8 px dashes every 14 px)."""
        if not dashed:
            self.draw.line((x0, y, x1, y), fill=fill, width=width)
            return
        x = x0
        while x < x1:
            self.draw.line((x, y, min(x + 8, x1), y), fill=fill, width=width)
            x += 14

    def png(self) -> bytes:
        """The sheet as PNG bytes."""
        return png_bytes(self.img)
