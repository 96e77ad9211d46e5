"""A pure-PIL renderer of A2UI surfaces: a 600 px wide screenshot, as tall as the content (100..2000 px).

``render_surface`` draws a surface's tree (see :mod:`mmtsb.ui.tree`); ``highlight`` outlines one component
in red with a "CLICKED" tag (the screenshot after a user interaction).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from mmtsb.ui.render import containers as _containers  # noqa: F401  (registers the layout kinds)
from mmtsb.ui.render import fonts
from mmtsb.ui.render import widgets as _widgets  # noqa: F401  (registers the leaf kinds)
from mmtsb.ui.render.painter import (
    BACKGROUND,
    MAX_HEIGHT,
    MIN_HEIGHT,
    MUTED,
    PADDING,
    RED,
    WHITE,
    WIDTH,
    Ctx,
    Painter,
    decode_data_uri,
)
from mmtsb.ui.state import Surface
from mmtsb.ui.tree import Node, build_tree


__all__ = ["Rendering", "render_empty", "render_surface"]

@dataclass
class Rendering:
    """A screenshot with what the renderer noticed and where each component landed."""

    image: Image.Image
    tree: Node
    warnings: list[str]
    boxes: dict[str, tuple[int, int, int, int]]


def render_surface(surface: Surface, highlight: str | None = None) -> Rendering:
    """Draw ``surface`` from its root; ``highlight`` is the instance id of a component to mark as clicked."""
    warnings: list[str] = []
    tree = build_tree(surface, warnings)
    painter = Painter(surface, decode_data_uri, warnings)
    content_w = WIDTH - 2 * PADDING
    content_h = painter.measure(tree, content_w, Ctx())
    full = content_h + 2 * PADDING
    height = min(max(full, MIN_HEIGHT), MAX_HEIGHT)
    if full > MAX_HEIGHT:
        warnings.append(f"the screen is {full} px tall; the screenshot shows only the first {MAX_HEIGHT} px")
    painter.canvas = Image.new("RGB", (WIDTH, height), BACKGROUND)
    painter.draw = ImageDraw.Draw(painter.canvas)
    painter.paint(tree, PADDING, PADDING, content_w, content_h, Ctx())
    if highlight is not None:
        _highlight(painter, highlight)
    return Rendering(painter.canvas, tree, warnings, painter.boxes)


def _highlight(painter: Painter, iid: str) -> None:
    box = painter.boxes.get(iid)
    if box is None or painter.draw is None:
        return
    x0, y0, x1, y1 = box
    draw = painter.draw
    draw.rectangle((x0 - 4, y0 - 4, x1 + 3, y1 + 3), outline=RED, width=3)
    f = fonts.font(11, True)
    tag = "CLICKED"
    w = fonts.text_width(tag, f) + 10
    ty = y0 - 20 if y0 - 20 >= 0 else y0 - 1
    tx = min(x1 + 3 - w, WIDTH - w)
    draw.rectangle((tx, ty, tx + w, ty + 16), fill=RED)
    draw.text((tx + 5, ty + 1), tag, font=f, fill=WHITE)


def render_empty(message: str = "No UI surface to display.") -> Image.Image:
    """A small screenshot saying there is nothing to show (every surface was deleted)."""
    img = Image.new("RGB", (WIDTH, MIN_HEIGHT), BACKGROUND)
    ImageDraw.Draw(img).text((PADDING, PADDING), message, font=fonts.font(14), fill=MUTED)
    return img
