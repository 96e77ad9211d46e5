"""Pieces of photo-like scenes: surfaces (table, wall, pavement), clutter that is never an answer (stray marks,
sticky notes with words only, coffee rings, out-of-focus objects), and simple drawn objects."""

from __future__ import annotations

import random

from PIL import ImageDraw, ImageFilter

from pipelines.procedural.render.canvas import RGB, Canvas

__all__ = ["DISTRACTOR_WORDS", "SURFACES", "clutter", "object_blob"]

#: what a surface behind a sheet looks like (wood, desk, wall, pavement, fabric)
SURFACES: tuple[RGB, ...] = ((139, 105, 76), (96, 96, 104), (190, 184, 170), (72, 78, 70), (160, 120, 96),
                             (118, 132, 150))
#: words a distractor may carry: no digits, no names, nothing a task could ask for
DISTRACTOR_WORDS = ("thanks", "draft", "copy", "see back", "ok", "later", "urgent?", "ask", "misc", "file",
                    "hold", "keep", "note", "scan", "done", "check")


def clutter(c: Canvas, n: int, rng: random.Random, avoid: list[tuple[float, float, float, float]] | None = None,
            words: bool = True) -> None:
    """``n`` distractors outside the ``avoid`` boxes: pen strokes, coffee rings, small sticky notes with a
    word, smudges."""
    avoid = avoid or []
    for _ in range(n):
        for _attempt in range(16):
            x, y = rng.uniform(0, c.width - 72), rng.uniform(0, c.height - 50)
            box = (x, y, x + 72, y + 50)
            if not any(box[0] < b[2] and box[2] > b[0] and box[1] < b[3] and box[3] > b[1] for b in avoid):
                break
        else:
            continue  # no free room: never cover what the image is read for
        kind = rng.choice(["stroke", "ring", "note", "smudge"] if words else ["stroke", "ring", "smudge"])
        if kind == "stroke":
            pts = [(x + rng.uniform(0, 70), y + rng.uniform(0, 40)) for _ in range(4)]
            c.draw.line(pts, fill=rng.choice([(40, 60, 140), (150, 40, 40), (60, 60, 60)]), width=2)
        elif kind == "ring":
            r = rng.uniform(16, 26)
            c.draw.ellipse((x, y, x + 2 * r, y + 2 * r), outline=(165, 120, 80), width=3)
        elif kind == "note":
            col = rng.choice([(255, 240, 140), (255, 200, 210), (200, 235, 255)])
            c.draw.rectangle(box, fill=col)
            c.text(x + 6, y + 14, rng.choice(DISTRACTOR_WORDS), 13, (60, 60, 70), face="cm_italic")
        else:
            r = rng.uniform(10, 22)
            c.draw.ellipse((x, y, x + 2 * r, y + r), fill=(200, 200, 196))


def object_blob(c: Canvas, box: tuple[float, float, float, float], color: RGB, rng: random.Random,
                kind: str = "box") -> None:
    """A simple object (a box, a jar, a can, a bottle) with shading, drawn inside ``box``."""
    x0, y0, x1, y1 = box
    shade = tuple(max(0, v - 45) for v in color)
    light = tuple(min(255, v + 40) for v in color)
    if kind == "jar":
        c.draw.rounded_rectangle(box, radius=int((x1 - x0) / 4), fill=color, outline=shade, width=2)
        c.draw.rectangle((x0 + 6, y0 - 10, x1 - 6, y0 + 4), fill=(90, 90, 96))
    elif kind == "can":
        c.draw.rectangle(box, fill=color, outline=shade, width=2)
        c.draw.ellipse((x0, y0 - 6, x1, y0 + 6), fill=light, outline=shade)
    elif kind == "bottle":
        neck = (x1 - x0) / 3
        c.draw.rounded_rectangle((x0, y0 + (y1 - y0) * 0.3, x1, y1), radius=8, fill=color, outline=shade, width=2)
        c.draw.rectangle((x0 + neck, y0, x1 - neck, y0 + (y1 - y0) * 0.32), fill=color, outline=shade)
    else:
        c.draw.rectangle(box, fill=color, outline=shade, width=2)
        c.draw.polygon([(x1, y0), (x1 + 10, y0 - 8), (x1 + 10, y1 - 8), (x1, y1)], fill=shade)
        c.draw.polygon([(x0, y0), (x0 + 10, y0 - 8), (x1 + 10, y0 - 8), (x1, y0)], fill=light)


def soften(c: Canvas, radius: float) -> None:
    """Blur the whole canvas (an out-of-focus background)."""
    c.img = c.img.filter(ImageFilter.GaussianBlur(radius))
    c.draw = ImageDraw.Draw(c.img)
