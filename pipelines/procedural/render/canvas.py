"""A drawing canvas that applies the knobs while drawing: font sizes scaled by ``text_scale``, ink pulled toward
the paper by ``contrast``; text in any face of :mod:`~pipelines.procedural.render.fonts`."""

from __future__ import annotations

import textwrap

from PIL import Image, ImageDraw

from pipelines.procedural.render.fonts import font
from pipelines.procedural.render.knobs import Knobs

__all__ = ["GREY", "INK", "RGB", "Canvas", "mix"]

RGB = tuple[int, int, int]
INK: RGB = (28, 28, 32)
GREY: RGB = (105, 105, 112)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved toward ``b`` by ``t`` (0: a, 1: b)."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


class Canvas:
    """A PIL image with text and shape operations under ``knobs`` (``img``/``draw`` stay reachable)."""

    def __init__(self, width: int, height: int, paper: RGB, knobs: Knobs) -> None:
        self.width, self.height, self.paper, self.knobs = width, height, paper, knobs
        self.img = Image.new("RGB", (width, height), paper)
        self.draw = ImageDraw.Draw(self.img)

    # -------------------------------------------------------------------------------- sizes and colours
    def px(self, size: float) -> int:
        """A font size after ``text_scale``."""
        return max(7, round(size * self.knobs.text_scale))

    def ink(self, color: RGB) -> RGB:
        """``color`` after ``contrast`` (toward the paper)."""
        return mix(color, self.paper, (1.0 - self.knobs.contrast) * 0.8)

    def width_of(self, s: str, size: float, face: str = "sans") -> float:
        return self.draw.textlength(s, font=font(face, self.px(size)))

    # -------------------------------------------------------------------------------- text
    def text(self, x: float, y: float, s: str, size: float = 16, fill: RGB = INK, face: str = "sans",
             anchor: str = "la") -> float:
        """One line; returns its advance width."""
        f = font(face, self.px(size))
        self.draw.text((x, y), s, font=f, fill=self.ink(fill), anchor=anchor)
        return self.draw.textlength(s, font=f)

    def center(self, y: float, s: str, size: float = 16, fill: RGB = INK, face: str = "sans",
               x0: float = 0, x1: float | None = None) -> None:
        x1 = self.width if x1 is None else x1
        self.text((x0 + x1) / 2, y, s, size, fill, face, anchor="ma")

    def pair(self, x0: float, x1: float, y: float, left: str, right: str, size: float = 16, fill: RGB = INK,
             face: str = "sans") -> None:
        """A left-aligned label and a right-aligned value on one line."""
        self.text(x0, y, left, size, fill, face)
        self.text(x1, y, right, size, fill, face, anchor="ra")

    def wrapped(self, x: float, y: float, s: str, width_px: float, size: float = 16, fill: RGB = INK,
                face: str = "sans", spacing: float = 1.4) -> float:
        """Wrapped text within ``width_px``; returns the y below it."""
        avg = max(1.0, self.width_of("abcdefghij klmnopqrst", size, face) / 21)
        for line in textwrap.wrap(s, max(8, int(width_px / avg))):
            self.text(x, y, line, size, fill, face)
            y += self.px(size) * spacing
        return y

    def line_height(self, size: float, spacing: float = 1.45) -> float:
        return self.px(size) * spacing

    # -------------------------------------------------------------------------------- shapes
    def rect(self, box: tuple[float, float, float, float], fill: RGB | None = None, outline: RGB | None = None,
             width: int = 1, radius: int = 0) -> None:
        fill = self.ink(fill) if fill is not None and self.knobs.contrast < 1 and sum(fill) < 600 else fill
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def hline(self, y: float, x0: float, x1: float, fill: RGB = (205, 205, 212), width: int = 1,
              dashed: bool = False) -> None:
        if not dashed:
            self.draw.line((x0, y, x1, y), fill=fill, width=width)
            return
        x = x0
        while x < x1:
            self.draw.line((x, y, min(x + 7, x1), y), fill=fill, width=width)
            x += 12
