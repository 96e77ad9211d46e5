"""The painter: measures and draws a component tree on a PIL canvas.

Layout is two-pass: ``measure(node, width)`` gives the height a node needs at a width (memoised), then
``paint(node, x, y, width, height)`` draws it in that box and records the box by instance id (used to
highlight a clicked component). Each component kind supplies three functions (natural width, measure,
paint) registered in :data:`KINDS` by :mod:`.containers` and :mod:`.widgets`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from collections.abc import Callable

from PIL import Image, ImageColor, ImageDraw

from mmtsb.ui.render import fonts
from mmtsb.ui.state import Surface
from mmtsb.ui.tree import Node

# ------------------------------------------------------------------------------------------ style
WIDTH = 600
PADDING = 16
MIN_HEIGHT = 100
MAX_HEIGHT = 2000
BACKGROUND = (245, 245, 245)
INK = (32, 33, 36)
MUTED = (95, 99, 104)
FAINT = (160, 164, 168)
BORDER = (200, 203, 208)
WHITE = (255, 255, 255)
BLUE = (26, 115, 232)
RED = (211, 47, 47)
GAP = 8
TEXT_SIZES = {"h1": 26, "h2": 22, "h3": 18, "h4": 16, "h5": 14, "caption": 12, "body": 14}


@dataclass(frozen=True)
class Ctx:
    """Inherited drawing context: inside a Row (images become thumbnails) and the text colour override."""

    in_row: bool = False
    fg: tuple[int, int, int] | None = None


class Kind(NamedTuple):
    """How one component type is laid out and drawn."""

    natural: Callable[["Painter", Node, Ctx], int | None]   # preferred width, None = fill the width
    measure: Callable[["Painter", Node, int, Ctx], int]      # height at a width
    paint: Callable[["Painter", Node, int, int, int, int, Ctx], None]


KINDS: dict[str, Kind] = {}


def register(name: str, kind: Kind) -> None:
    KINDS[name] = kind


@dataclass
class Painter:
    """Draws one surface. ``draw`` is None during measuring."""

    surface: Surface
    image_loader: Callable[[str], Image.Image | None]
    warnings: list[str] = field(default_factory=list)
    boxes: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    canvas: Image.Image | None = None
    draw: ImageDraw.ImageDraw | None = None
    _memo: dict[tuple[int, int, Ctx], int] = field(default_factory=dict)
    _images: dict[str, Image.Image | None] = field(default_factory=dict)

    @property
    def primary(self) -> tuple[int, int, int]:
        colour = self.surface.styles.get("primaryColor")
        try:
            return ImageColor.getrgb(colour)[:3] if colour else BLUE
        except ValueError:
            return BLUE

    def kind(self, node: Node) -> Kind:
        return KINDS.get(node.kind) or KINDS["_placeholder"]

    def natural(self, node: Node, ctx: Ctx) -> int | None:
        try:
            return self.kind(node).natural(self, node, ctx)
        except Exception:  # a broken component must not break the screen
            return None

    def measure(self, node: Node, width: int, ctx: Ctx) -> int:
        key = (id(node), width, ctx)
        if key not in self._memo:
            try:
                self._memo[key] = max(0, self.kind(node).measure(self, node, max(width, 1), ctx))
            except Exception:
                self._memo[key] = fonts.line_height(12) + 8
        return self._memo[key]

    def paint(self, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
        self.boxes.setdefault(node.iid, (x, y, x + width, y + height))
        try:
            self.kind(node).paint(self, node, x, y, width, height, ctx)
        except Exception as e:
            self.warnings.append(f"component '{node.iid}' ({node.kind}) could not be drawn: {e}")
            self.text(x, y, f"Rendering Error: {e}", fonts.font(12), RED)

    # ---------------------------------------------------------------------------------- drawing helpers
    def text(self, x: int, y: int, text: str, f: fonts.Font, colour: tuple[int, int, int]) -> None:
        assert self.draw is not None
        self.draw.text((x, y), text, font=f, fill=colour)

    def lines(self, x: int, y: int, lines: list[str], size: int, colour: tuple[int, int, int],
              bold: bool = False) -> None:
        f = fonts.font(size, bold)
        for i, line in enumerate(lines):
            self.text(x, y + i * fonts.line_height(size), line, f, colour)

    def box(self, x0: int, y0: int, x1: int, y1: int, *, fill: Any = None, outline: Any = None,
            radius: int = 6, width: int = 1) -> None:
        assert self.draw is not None
        if x1 <= x0 or y1 <= y0:
            return
        self.draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=min(radius, (y1 - y0) // 2, (x1 - x0) // 2),
                                    fill=fill, outline=outline, width=width)

    # ---------------------------------------------------------------------------------- images
    def load_image(self, url: str) -> Image.Image | None:
        """The decoded image behind a data URI (None for remote URLs, which are never fetched)."""
        key = hashlib.sha1(url.encode("utf-8", "replace")).hexdigest()
        if key not in self._images:
            self._images[key] = self.image_loader(url)
        return self._images[key]


def decode_data_uri(url: str) -> Image.Image | None:
    """A PIL image from a ``data:image/...;base64,...`` URI; None when it is not one or is unreadable."""
    if not url.startswith("data:") or "," not in url:
        return None
    header, payload = url.split(",", 1)
    if ";base64" not in header:
        return None
    try:
        img = Image.open(io.BytesIO(base64.b64decode(payload, validate=False)))
        img.load()
    except (binascii.Error, OSError, ValueError):
        return None
    return img.convert("RGBA") if img.mode in ("RGBA", "LA", "P") else img.convert("RGB")
