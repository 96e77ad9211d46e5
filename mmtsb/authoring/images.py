"""Image templates for scenario images (receipts, business documents, flyers, phone screens, cards, charts,
book covers, passport pages, session cards, transit maps): each returns PNG bytes whose printed content is the
ground truth a scenario's specs and reference solution rely on."""

from __future__ import annotations

import textwrap

from PIL import Image

from mmtsb.authoring.draw import GREY, INK, LIGHT, RGB, Sheet, png_bytes

__all__ = ["ITEM_COLUMNS", "bar_chart", "book_cover", "card", "document", "passport_page", "phone_screen", "poster",
           "receipt", "recipe_card", "talk_card", "zone_map"]


def receipt(header: list[str], meta: list[str], items: list[tuple[str, str]], totals: list[tuple[str, str]],
            footer: list[str], width: int = 460) -> bytes:
    """A till receipt: centred header, meta lines, item lines, totals (the last in bold), footer."""
    height = 150 + 26 * len(header) + 26 * len(meta) + 30 * len(items) + 32 * len(totals) + 26 * len(footer)
    s = Sheet(width, height, (252, 251, 247))
    y = 30
    for i, line in enumerate(header):
        s.center(y, line, 24 if i == 0 else 16, bold=i == 0)
        y += 34 if i == 0 else 24
    y += 10
    for line in meta:
        s.text(30, y, line, 16, GREY)
        y += 24
    s.hline(y + 8, 24, width - 24, GREY, 2, dashed=True)
    y += 24
    for left, right in items:
        s.pair(30, width - 30, y, left, right, 17)
        y += 30
    s.hline(y + 4, 24, width - 24, GREY, 2, dashed=True)
    y += 18
    for i, (left, right) in enumerate(totals):
        last = i == len(totals) - 1
        s.pair(30, width - 30, y, left, right, 20 if last else 17, bold=last)
        y += 32
    y += 10
    for line in footer:
        s.center(y, line, 15, GREY)
        y += 24
    return s.png()


#: default table columns (x, anchor): description, quantity, unit price, amount
ITEM_COLUMNS = ((40, "la"), (470, "ra"), (620, "ra"), (780, "ra"))


def document(letterhead: str, sub: str, accent: RGB, title: str,
             fields: list[tuple[str, str]], table: tuple[list[str], list[list[str]]] | None = None,
             totals: list[tuple[str, str]] | None = None, paragraphs: list[str] | None = None,
             columns: tuple[tuple[int, str], ...] = ITEM_COLUMNS, width: int = 820) -> bytes:
    """A business document: letterhead band, title, key/value fields, an optional table, totals and notes
    (the page is cropped below its content)."""
    s = Sheet(width, 1400)
    s.rect((0, 0, width, 96), fill=accent)
    s.text(40, 22, letterhead, 30, (255, 255, 255), bold=True)
    s.text(40, 62, sub, 16, (240, 240, 240))
    s.text(40, 128, title, 28, INK, bold=True)
    y = 184
    for key, value in fields:
        s.text(40, y, key, 17, GREY)
        s.text(250, y, value, 17)
        y += 30
    if table:
        heads, rows = table
        y += 16
        s.rect((30, y - 8, width - 30, y + 28), fill=(240, 241, 245))
        for (x, anchor), head in zip(columns, heads):
            s.text(x, y, head, 16, GREY, bold=True, anchor=anchor)
        y += 40
        for row in rows:
            for (x, anchor), cell in zip(columns, row):
                s.text(x, y, cell, 17, anchor=anchor)
            y += 32
            s.hline(y - 6, 30, width - 30)
    if totals:
        y += 10
        for i, (left, right) in enumerate(totals):
            last = i == len(totals) - 1
            s.pair(width - 360, columns[-1][0], y, left, right, 19 if last else 17, bold=last)
            y += 32
    for p in paragraphs or []:
        y += 14
        y = s.wrapped(40, y, p, 80, 17)
    s.img = s.img.crop((0, 0, width, max(int(y) + 60, 520)))
    return s.png()


def poster(background: RGB, accent: RGB, kicker: str, title: list[str],
           lines: list[str], badge: str, width: int = 640, height: int = 860) -> bytes:
    """An event flyer: kicker, large title, detail lines and a price badge."""
    s = Sheet(width, height, background)
    s.rect((30, 30, width - 30, height - 30), outline=accent, width=6)
    s.center(80, kicker.upper(), 20, accent, bold=True)
    y = 140
    for t in title:
        s.center(y, t, 52, INK, bold=True)
        y += 66
    y += 30
    s.hline(y, 120, width - 120, accent, 4)
    y += 40
    for line in lines:
        s.center(y, line, 24, INK)
        y += 44
    s.rect((width / 2 - 200, height - 190, width / 2 + 200, height - 100), fill=accent, radius=18)
    s.center(height - 166, badge, 34, (255, 255, 255), bold=True)
    return s.png()


def phone_screen(app: str, color: RGB, heading: str, rows: list[tuple[str, str, str]],
                 note: str = "", width: int = 480, height: int = 900) -> bytes:
    """A phone app screen: status bar, coloured app bar, a heading and list rows (title, detail, right)."""
    s = Sheet(width, height, (246, 246, 249))
    s.rect((0, 0, width, 44), fill=(20, 20, 24))
    s.text(20, 12, "9:41", 17, (255, 255, 255), bold=True)
    s.text(width - 20, 12, "100%", 16, (255, 255, 255), anchor="ra")
    s.rect((0, 44, width, 124), fill=color)
    s.text(24, 70, app, 28, (255, 255, 255), bold=True)
    s.text(24, 148, heading, 21, INK, bold=True)
    y = 192
    for title, detail, right in rows:
        lines = textwrap.wrap(detail, 40) if detail else []
        h = 64 + 24 * max(0, len(lines) - 1)
        s.rect((16, y, width - 16, y + h), fill=(255, 255, 255), outline=LIGHT, radius=12)
        s.text(32, y + 12, title, 19, INK, bold=True)
        for i, line in enumerate(lines):
            s.text(32, y + 38 + 24 * i, line, 16, GREY)
        if right:
            s.text(width - 32, y + 12, right, 18, color, bold=True, anchor="ra")
        y += h + 12
    if note:
        s.wrapped(24, y + 10, note, 44, 16, GREY)
    return s.png()


def card(name: str, title: str, company: str, email: str, phone: str, color: RGB,
         width: int = 700, height: int = 400) -> bytes:
    """A business card."""
    s = Sheet(width, height, (250, 250, 247))
    s.rect((0, 0, 26, height), fill=color)
    s.text(70, 60, company, 30, color, bold=True)
    s.text(70, 160, name, 36, INK, bold=True)
    s.text(70, 210, title, 21, GREY)
    s.hline(262, 70, width - 70, LIGHT, 2)
    s.text(70, 290, email, 20)
    s.text(70, 326, phone, 20)
    return s.png()


def recipe_card(title: str, serves: str, ingredients: list[str], color: RGB) -> bytes:
    """A recipe card: coloured title band, the servings line and one bulleted line per ingredient."""
    s = Sheet(620, 200 + 40 * len(ingredients), (255, 253, 245))
    s.rect((0, 0, 620, 90), fill=color)
    s.text(30, 26, title, 32, (255, 255, 255), bold=True)
    s.text(30, 112, f"{serves}  |  Ingredients", 18, GREY)
    y = 156
    for item in ingredients:
        s.draw.ellipse((34, y + 6, 44, y + 16), fill=color)
        s.text(60, y, item, 21)
        y += 40
    return s.png()


def bar_chart(title: str, labels: list[str], values: list[float], color: str, ylabel: str, *,
              ymax: float | None = None, value_format: str = "{:g}") -> bytes:
    """A bar chart with each bar's value printed above it (``value_format``, e.g. ``"${:g}K"``), the y axis
    from 0 to ``ymax`` (matplotlib's choice when None); rendered by matplotlib's Agg canvas (no pyplot, so no
    global backend is set), encoded by PIL."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # imported lazily: only charts need it
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.4), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    bars = ax.bar(labels, values, color=color, width=0.6)
    ax.set_title(title, fontsize=14, fontweight="bold")
    ax.set_ylabel(ylabel)
    if ymax is not None:
        ax.set_ylim(0, ymax)
    ax.spines[["top", "right"]].set_visible(False)
    for b, v in zip(bars, values):
        ax.text(b.get_x() + b.get_width() / 2, v + 4, value_format.format(v), ha="center", fontsize=12, fontweight="bold")
    fig.tight_layout()
    fig.canvas.draw()
    img = Image.frombuffer("RGBA", fig.canvas.get_width_height(), bytes(fig.canvas.buffer_rgba())).convert("RGB")
    return png_bytes(img)


def book_cover(title: list[str], author: str, background: RGB, rating: str) -> bytes:
    """A photographed book cover with a handwritten-style sticky note carrying the owner's rating."""
    s = Sheet(560, 760, (214, 204, 190))
    s.rect((70, 40, 490, 720), fill=background)
    y = 150
    for t in title:
        s.center(y, t, 44, (255, 255, 255), bold=True)
        y += 58
    s.hline(y + 20, 150, 410, (255, 255, 255), 3)
    s.center(y + 50, author.upper(), 22, (245, 245, 245))
    s.rect((300, 520, 530, 680), fill=(255, 235, 120), outline=(214, 190, 60), width=2)
    s.text(415, 560, "My rating:", 22, (60, 60, 60), anchor="ma")
    s.text(415, 600, rating, 40, (30, 30, 30), bold=True, anchor="ma")
    return s.png()


def passport_page(fields: list[tuple[str, str]], machine_lines: list[str],
                  header: str = "PASSPORT  -  UNITED STATES OF AMERICA") -> bytes:
    """A passport data page (fictional layout): header band, photo box, labelled fields and the
    machine-readable lines."""
    s = Sheet(900, 600, (233, 240, 236))
    s.rect((0, 0, 900, 70), fill=(26, 35, 126))
    s.text(30, 20, header, 26, (255, 255, 255), bold=True)
    s.rect((40, 110, 250, 380), fill=(200, 208, 204), outline=(120, 130, 126), width=2)
    s.text(145, 235, "PHOTO", 22, (120, 130, 126), anchor="ma")
    y = 100
    for label, value in fields:
        s.text(290, y, label, 15, GREY)
        s.text(290, y + 20, value, 22, INK, bold=True)
        y += 58
    s.rect((0, 480, 900, 600), fill=(246, 248, 247))
    for i, line in enumerate(machine_lines):
        s.text(40, 500 + 40 * i, line, 24, INK)
    return s.png()


def talk_card(event: str, title: list[str], speaker: str, affiliation: str, when: str, room: str,
              color: RGB) -> bytes:
    """A conference session card: the event in a coloured band, the talk title, speaker, affiliation, time
    and room."""
    s = Sheet(640, 420, (255, 255, 255))
    s.rect((0, 0, 640, 64), fill=color)
    s.text(24, 20, event, 22, (255, 255, 255), bold=True)
    y = 96
    for t in title:
        s.text(24, y, t, 34, INK, bold=True)
        y += 44
    s.text(24, y + 20, speaker, 26, color, bold=True)
    s.text(24, y + 56, affiliation, 18, GREY)
    s.hline(330, 24, 616, LIGHT, 2)
    s.text(24, 350, when, 22, INK)
    s.text(616, 350, room, 22, INK, bold=True, anchor="ra")
    return s.png()


def zone_map(line: str, stations: list[tuple[str, int]], colors: dict[int, RGB], footnote: str = "") -> bytes:
    """A transit line diagram: one band per station coloured by its fare zone (``colors`` maps zone to
    colour), the line with its stops, and an optional footnote."""
    s = Sheet(900, 420, (255, 255, 255))
    s.text(30, 24, f"{line} - fare zones", 30, INK, bold=True)
    x0, step_x = 90, 180
    for i, (_, zone) in enumerate(stations):
        x = x0 + i * step_x
        s.rect((x - step_x / 2, 110, x + step_x / 2, 330), fill=colors[zone])
        s.text(x, 300, f"Zone {zone}", 18, (60, 60, 60), bold=True, anchor="ma")
    s.draw.line((x0, 200, x0 + step_x * (len(stations) - 1), 200), fill=(21, 101, 192), width=10)
    for i, (name, _) in enumerate(stations):
        x = x0 + i * step_x
        s.draw.ellipse((x - 14, 186, x + 14, 214), fill=(255, 255, 255), outline=(21, 101, 192), width=5)
        s.text(x, 230, name, 19, INK, anchor="ma")
    if footnote:
        s.text(30, 370, footnote, 17, GREY)
    return s.png()
