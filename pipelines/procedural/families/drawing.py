"""What every knob-aware family's renderer ends with, and shared bits of look: paper tints, accent colours,
the photo look of a sheet on a surface."""

from __future__ import annotations

import random

from PIL import Image, ImageDraw

from pipelines.procedural.render.canvas import RGB, Canvas
from pipelines.procedural.render.finish import encode, finish
from pipelines.procedural.render.knobs import Knobs
from pipelines.procedural.render.scene import SURFACES, clutter

__all__ = ["ACCENTS", "done", "paper"]

ACCENTS: tuple[RGB, ...] = ((32, 84, 147), (150, 38, 52), (24, 110, 90), (110, 60, 150), (190, 90, 20),
                            (40, 40, 48), (0, 120, 150), (140, 110, 20))


def paper(st: random.Random) -> RGB:
    """An off-white paper tint."""
    return (st.randint(246, 255), st.randint(244, 253), st.randint(236, 248))


def _resize_canvas(c: Canvas, height: int) -> None:
    grown = Image.new("RGB", (c.width, height), c.paper)
    grown.paste(c.img.crop((0, 0, c.width, min(height, c.height))), (0, 0))
    c.img, c.height = grown, height
    c.draw = ImageDraw.Draw(c.img)


def done(c: Canvas, knobs: Knobs, st: random.Random, *, photo: bool = False, keep: list | None = None,
         tilt: float = 0.0, perspective: float = 0.0, lighting: float = 0.0, noise: float = 0.0,
         max_side: int = 1000, crop_to: float | None = None) -> bytes:
    """Crop the canvas below ``crop_to`` when given; add the knobs' clutter outside the ``keep`` boxes (the
    whole drawing by default), in a strip of free room added below it, so a distractor never covers what the
    image is read for; then finish (photo look when ``photo``, plus the knobs) and encode."""
    if crop_to is not None:
        _resize_canvas(c, int(crop_to))
    if knobs.clutter:
        keep = keep if keep is not None else [(0, 0, c.width, c.height)]
        _resize_canvas(c, c.height + 70)
        clutter(c, knobs.clutter, st, keep)
    surface = st.choice(SURFACES)
    img = finish(c.img, knobs, st, photo=photo, surface=surface, base_tilt=tilt, base_perspective=perspective,
                 base_lighting=lighting, base_noise=noise, max_side=max_side)
    return encode(img, knobs)
