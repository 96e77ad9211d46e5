"""Abstract patterns: coloured shapes and no text, so nothing to extract and no tool to call. The stage-1
strict filter must reject them."""

from __future__ import annotations

import random

from mmtsb.authoring.draw import Sheet
from pipelines.procedural.families.base import Content, ImageFamily, style_rng, tint

__all__ = ["PATTERNS"]


def sample(rng: random.Random) -> Content:
    """A background and 6-14 circles or rectangles."""
    shapes = [{"shape": rng.choice(["circle", "rect"]), "x": rng.randint(0, 480), "y": rng.randint(0, 360),
               "r": rng.randint(12, 90), "color": list(tint(rng, 20, 235))} for _ in range(rng.randint(6, 14))]
    return {"background": list(tint(rng, 200, 250)), "shapes": shapes}


def draw(c: Content, style_seed: int) -> bytes:
    """The shapes on a 480x360 canvas, with an outline width from the style seed."""
    st = style_rng(style_seed, "pattern")
    s = Sheet(480, 360, tuple(c["background"]))
    width = st.randint(0, 4)
    for sh in c["shapes"]:
        box = (sh["x"] - sh["r"], sh["y"] - sh["r"], sh["x"] + sh["r"], sh["y"] + sh["r"])
        if sh["shape"] == "circle":
            s.draw.ellipse(box, fill=tuple(sh["color"]), outline=(30, 30, 30) if width else None, width=width)
        else:
            s.rect(box, fill=tuple(sh["color"]), outline=(30, 30, 30) if width else None, width=max(width, 1))
    return s.png()


PATTERNS = ImageFamily("abstract_pattern", "scene_text", "synthetic_pattern", (), False, "picture", sample, draw,
                       lambda c: [], lambda c: [f"{len(c['shapes'])} coloured shapes, no text"])
