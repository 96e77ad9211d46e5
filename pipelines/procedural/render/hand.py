"""Handwriting-like text: each glyph of an italic face drawn on its own with a little rotation, size change and
baseline wobble, in pen or marker colours, on lined paper, a sticky note or a whiteboard."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from pipelines.procedural.render.canvas import RGB, Canvas
from pipelines.procedural.render.fonts import font

__all__ = ["PENS", "hand_line", "lined_paper"]

#: ink colours of pens and markers
PENS: tuple[RGB, ...] = ((22, 42, 120), (20, 20, 28), (30, 70, 160), (120, 20, 30), (16, 90, 60))
HAND_FACES = ("cm_italic", "stix_italic", "serif_italic", "sans_italic")


def hand_line(c: Canvas, x: float, y: float, s: str, size: float, ink: RGB, rng: random.Random,
              face: str = "cm_italic", wobble: float = 1.0) -> float:
    """Draw ``s`` glyph by glyph from (x, y); returns the x after it. ``wobble`` scales the jitter."""
    px = c.px(size)
    color = c.ink(ink)
    drift = 0.0
    for ch in s:
        f = font(face, max(7, round(px * rng.uniform(0.93, 1.08))))
        adv = c.draw.textlength(ch, font=f)
        if ch.strip():
            pad = int(px * 0.6)
            glyph = Image.new("L", (int(adv) + 2 * pad, px * 2 + 2 * pad), 0)
            ImageDraw.Draw(glyph).text((pad, pad), ch, font=f, fill=255)
            glyph = glyph.rotate(rng.uniform(-7, 7) * wobble, resample=Image.Resampling.BICUBIC)
            layer = Image.new("RGB", glyph.size, color)
            drift += rng.uniform(-0.35, 0.35) * wobble
            drift = max(-2.5, min(2.5, drift))
            c.img.paste(layer, (int(x - pad), int(y - pad + drift + rng.uniform(-0.8, 0.8) * wobble)), glyph)
        x += adv * rng.uniform(0.96, 1.06)
    return x


def lined_paper(c: Canvas, top: float, step: float, color: RGB = (170, 195, 225), margin_x: float | None = None) -> None:
    """Ruled lines every ``step`` pixels from ``top``, and a red margin line."""
    y = top
    while y < c.height - 4:
        c.draw.line((0, y, c.width, y), fill=color, width=1)
        y += step
    if margin_x is not None:
        c.draw.line((margin_x, 0, margin_x, c.height), fill=(225, 150, 150), width=2)
