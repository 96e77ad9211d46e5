"""Phone and desktop app screens with small, dense text (the UI-screenshot category): the status bar, an app
bar, list rows, a desktop window with a sidebar, and dense tables."""

from __future__ import annotations

import random

from pipelines.procedural.render.canvas import GREY, INK, RGB, Canvas, mix
from pipelines.procedural.render.knobs import Knobs

__all__ = ["desktop", "phone", "phone_rows", "table"]

WHITE: RGB = (255, 255, 255)


def _status_bar(c: Canvas, y: float, width: float, dark: bool) -> None:
    col = WHITE if dark else INK
    c.text(18, y + 6, "4:51", 13, col, "sans_bold")
    x = width - 20
    c.rect((x - 24, y + 9, x, y + 19), outline=col, width=1)
    c.rect((x - 22, y + 11, x - 8, y + 17), fill=col)
    for i in range(4):
        c.rect((x - 62 + i * 5, y + 17 - 3 * i, x - 59 + i * 5, y + 19), fill=col)


def phone(knobs: Knobs, rng: random.Random, app: str, accent: RGB, title: str, *, height: int = 760,
          subtitle: str = "") -> tuple[Canvas, float]:
    """A phone screen (390 px wide) with a status bar and ``app``'s title bar; returns the canvas and the y where
    the content starts."""
    dark = rng.random() < 0.25
    bg = (24, 26, 32) if dark else (246, 246, 249)
    c = Canvas(390, height, bg, knobs)
    c.rect((0, 0, 390, 28), fill=accent)
    _status_bar(c, 0, 390, dark=True)
    c.rect((0, 28, 390, 84 if not subtitle else 100), fill=accent)
    c.text(16, 38, f"< {app}", 12, mix(WHITE, accent, 0.2))
    c.text(16, 56, title, 17, WHITE, "sans_bold")
    if subtitle:
        c.text(16, 80, subtitle, 11, mix(WHITE, accent, 0.25))
    c.dark = dark  # type: ignore[attr-defined]
    return c, (112 if subtitle else 96)


def phone_rows(c: Canvas, y: float, rows: list[tuple[str, str, str]], *, size: float = 13) -> float:
    """List rows (title, detail, right-aligned value) as cards; returns the y below them."""
    dark = getattr(c, "dark", False)
    card = (38, 40, 48) if dark else WHITE
    fg = (235, 235, 240) if dark else INK
    sub = (160, 160, 170) if dark else GREY
    h = c.line_height(size) * 2 + 14
    for title, detail, right in rows:
        c.rect((10, y, c.width - 10, y + h), fill=card, radius=8)
        c.text(22, y + 8, title, size, fg, "sans_bold")
        if right:
            c.text(c.width - 22, y + 8, right, size, fg, "sans_bold", anchor="ra")
        c.text(22, y + 8 + c.line_height(size), detail, size - 2, sub)
        y += h + 8
    return y


def desktop(knobs: Knobs, rng: random.Random, app: str, accent: RGB, title: str, sidebar: list[str], *,
            width: int = 1040, height: int = 660) -> tuple[Canvas, float, float]:
    """A desktop window: title bar with its three buttons, a sidebar of ``sidebar`` entries (the first selected)
    and a content header; returns the canvas and the content's (x, y)."""
    c = Canvas(width, height, (250, 250, 252), knobs)
    c.rect((0, 0, width, 30), fill=(228, 228, 234))
    for i, col in enumerate(((236, 95, 87), (245, 190, 80), (98, 196, 84))):
        c.draw.ellipse((12 + 20 * i, 9, 24 + 20 * i, 21), fill=col)
    c.center(8, f"{app} - {title}", 12, GREY)
    c.rect((0, 30, 190, height), fill=mix(accent, WHITE, 0.88))
    c.text(16, 44, app, 15, accent, "sans_bold")
    y = 80
    for i, item in enumerate(sidebar):
        if i == 0:
            c.rect((8, y - 4, 182, y + 18), fill=mix(accent, WHITE, 0.65), radius=4)
        c.text(18, y, item, 12, INK if i == 0 else GREY)
        y += 26
    c.text(210, 46, title, 18, INK, "sans_bold")
    c.hline(76, 200, width - 12)
    return c, 210.0, 90.0


def table(c: Canvas, x: float, y: float, widths: list[float], header: list[str], rows: list[list[str]], *,
          size: float = 12, align: list[str] | None = None, zebra: RGB = (244, 245, 249),
          head_fill: RGB = (232, 234, 242), face: str = "sans") -> float:
    """A dense table; ``align`` per column ``l`` or ``r``; returns the y below it."""
    align = align or ["l"] * len(widths)
    h = c.line_height(size, 1.7)
    total = sum(widths)
    c.rect((x, y, x + total, y + h), fill=head_fill)

    def cells(yy: float, values: list[str], bold: bool) -> None:
        cx = x
        for w, v, a in zip(widths, values, align):
            if a == "r":
                c.text(cx + w - 8, yy + h * 0.2, v, size, INK, face + ("_bold" if bold and face == "sans" else ""),
                       anchor="ra")
            else:
                c.text(cx + 8, yy + h * 0.2, v, size, INK, face + ("_bold" if bold and face == "sans" else ""))
            cx += w

    cells(y, header, True)
    y += h
    for i, r in enumerate(rows):
        if i % 2:
            c.rect((x, y, x + total, y + h), fill=zebra)
        cells(y, r, False)
        y += h
    c.draw.rectangle((x, y - h * (len(rows) + 1), x + total, y), outline=(200, 202, 210))
    return y
