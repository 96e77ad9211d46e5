"""Leaf components: Text, Image, Icon, Divider, Button, the inputs, placeholders and error markers."""

from __future__ import annotations

import re

from PIL import Image, ImageDraw

from mmtsb.ui.render import fonts
from mmtsb.ui.render.painter import (
    BORDER,
    FAINT,
    INK,
    MUTED,
    RED,
    TEXT_SIZES,
    WHITE,
    Ctx,
    Kind,
    Painter,
    register,
)
from mmtsb.ui.tree import Node, bound_text, display, field_value

BODY = 14
CAPTION = 12
FIELD_H = 36
LONG_FIELD_H = 76
PLACEHOLDER_FILL = (226, 228, 232)


def _none(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return None


# ------------------------------------------------------------------------------------------ text
def clean_markdown(text: str) -> str:
    """Plain text from simple Markdown: no heading marks, bullets as '•', no emphasis or link syntax."""
    out = []
    for line in text.split("\n"):
        line = re.sub(r"^\s{0,3}#{1,6}\s+", "", line)
        line = re.sub(r"^(\s*)[-*+]\s+", r"\1• ", line)
        line = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", line)
        out.append(line.replace("**", "").replace("__", "").replace("`", ""))
    return "\n".join(out)


def _text_style(node: Node) -> tuple[int, bool]:
    hint = node.props.get("usageHint") or "body"
    return TEXT_SIZES.get(hint, BODY), hint.startswith("h")


def _text(p: Painter, node: Node) -> str:
    return clean_markdown(bound_text(p.surface, node.props.get("text"), node.scope))


def _text_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    size, bold = _text_style(node)
    f = fonts.font(size, bold)
    return max((fonts.text_width(line, f) for line in _text(p, node).split("\n")), default=0) + 1


def _text_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    size, bold = _text_style(node)
    return len(fonts.wrap(_text(p, node), fonts.font(size, bold), width)) * fonts.line_height(size)


def _text_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    size, bold = _text_style(node)
    colour = MUTED if node.props.get("usageHint") == "caption" else (ctx.fg or INK)
    p.lines(x, y, fonts.wrap(_text(p, node), fonts.font(size, bold), width), size, colour, bold)


# ------------------------------------------------------------------------------------------ image
_HINT_BOX = {"icon": (24, 24), "avatar": (48, 48), "smallFeature": (96, 96), "mediumFeature": (200, 200)}


def _image_source(p: Painter, node: Node) -> tuple[Image.Image | None, str]:
    """The decoded image (None when not available offline) and a label for the placeholder."""
    url = bound_text(p.surface, node.props.get("url"), node.scope)
    alt = bound_text(p.surface, node.props.get("altText"), node.scope)
    img = p.load_image(url) if url.startswith("data:") else None
    if img is not None:
        return img, alt
    if url.startswith("[") or not url:
        return None, f"Image {url or '(no url)'}"
    if url.startswith("data:"):
        return None, "Image (unreadable data URI)"
    name = url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    return None, f"Image: {alt or name}"


def _image_size(p: Painter, node: Node, width: int, ctx: Ctx) -> tuple[int, int]:
    hint = node.props.get("usageHint")
    img, _ = _image_source(p, node)
    if hint in ("icon", "avatar"):
        w, h = _HINT_BOX[hint]
        return min(w, width), h
    if hint == "header":
        return width, 160
    if hint in _HINT_BOX:
        max_w, max_h = _HINT_BOX[hint]
    elif hint == "largeFeature":
        max_w, max_h = width, 320
    else:
        max_w, max_h = (100, 100) if ctx.in_row else (width, 240)
    max_w = min(max_w, width)
    if img is None:
        return (max_w, max_h) if (hint or ctx.in_row) else (min(max_w, 240), 135)
    if node.props.get("fit") in ("cover", "fill") and hint:
        return max_w, max_h
    scale = min(max_w / img.width, max_h / img.height, 2.0)
    return max(int(img.width * scale), 1), max(int(img.height * scale), 1)


def _image_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return _image_size(p, node, 568, ctx)[0]


def _image_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    return _image_size(p, node, width, ctx)[1]


def _image_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    w, h = _image_size(p, node, width, ctx)
    img, label = _image_source(p, node)
    if img is None:
        placeholder_box(p, x, y, w, h, label)
        return
    fit = node.props.get("fit") or "contain"
    if fit == "cover" or node.props.get("usageHint") in ("avatar", "header", "icon"):
        img = _cover(img, w, h)
    else:
        img = img.resize((w, h), Image.Resampling.LANCZOS)
    mask = img.getchannel("A") if img.mode == "RGBA" else None
    if node.props.get("usageHint") == "avatar":
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).ellipse((0, 0, w - 1, h - 1), fill=255)
    assert p.canvas is not None
    p.canvas.paste(img.convert("RGB"), (x, y), mask)


def _cover(img: Image.Image, w: int, h: int) -> Image.Image:
    scale = max(w / img.width, h / img.height)
    resized = img.resize((max(int(img.width * scale + 0.5), w), max(int(img.height * scale + 0.5), h)),
                         Image.Resampling.LANCZOS)
    left, top = (resized.width - w) // 2, (resized.height - h) // 2
    return resized.crop((left, top, left + w, top + h))


def placeholder_box(p: Painter, x: int, y: int, w: int, h: int, label: str) -> None:
    """A grey box with a centred label (images that are not available offline, unsupported components)."""
    p.box(x, y, x + w, y + h, fill=PLACEHOLDER_FILL, outline=BORDER, radius=4)
    if w < 90:  # too small for a description: just say what it is
        label = label.split(":")[0].split(" ")[0]
    f = fonts.font(CAPTION if w >= 40 else 9)
    lines = fonts.wrap(label, f, w - 8)[: max((h - 4) // fonts.line_height(CAPTION), 1)]
    lines = [fonts.ellipsize(line, f, w - 8) for line in lines]
    top = y + (h - len(lines) * fonts.line_height(CAPTION)) // 2
    for i, line in enumerate(lines):
        tx = x + (w - fonts.text_width(line, f)) // 2
        p.text(max(tx, x + 2), top + i * fonts.line_height(CAPTION), line, f, MUTED)


# ------------------------------------------------------------------------------------------ icon, divider
def _icon_name(p: Painter, node: Node) -> str:
    return bound_text(p.surface, node.props.get("name"), node.scope) or "icon"


def _icon_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return fonts.text_width(_icon_name(p, node), fonts.font(11)) + 14


def _icon_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    return 22


def _icon_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    f = fonts.font(11)
    name = fonts.ellipsize(_icon_name(p, node), f, width - 12)
    colour = ctx.fg or p.primary
    p.box(x, y, x + width, y + 22, outline=colour, radius=11)
    p.text(x + 7, y + 4, name, f, colour)


def _divider_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return 9 if node.props.get("axis") == "vertical" else None


def _divider_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    return 20 if node.props.get("axis") == "vertical" else 9


def _divider_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    assert p.draw is not None
    if node.props.get("axis") == "vertical":
        p.draw.line((x + width // 2, y, x + width // 2, y + height - 1), fill=BORDER, width=1)
    else:
        p.draw.line((x, y + height // 2, x + width - 1, y + height // 2), fill=BORDER, width=1)


# ------------------------------------------------------------------------------------------ button
PAD_X, PAD_Y = 16, 9


def _label_child(node: Node) -> Node | None:
    child = node.children[0] if node.children else None
    return child if child is not None and child.kind == "Text" else None


def _button_label(p: Painter, node: Node) -> str:
    child = _label_child(node)
    return _text(p, child) if child is not None else ""


def _button_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    if _label_child(node) is None and node.children:
        inner = p.natural(node.children[0], ctx)
        return None if inner is None else inner + 2 * PAD_X
    return fonts.text_width(_button_label(p, node), fonts.font(BODY, True)) + 2 * PAD_X + 1


def _button_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    if _label_child(node) is None and node.children:
        return p.measure(node.children[0], width - 2 * PAD_X, ctx) + 2 * PAD_Y
    lines = fonts.wrap(_button_label(p, node), fonts.font(BODY, True), width - 2 * PAD_X)
    return len(lines) * fonts.line_height(BODY) + 2 * PAD_Y


def _button_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    primary = bool(node.props.get("primary"))
    colour = p.primary
    p.box(x, y, x + width, y + height, fill=colour if primary else WHITE, outline=colour, radius=6)
    fg = WHITE if primary else colour
    child = node.children[0] if node.children else None
    if child is None:
        return
    inner_w = width - 2 * PAD_X
    if child.kind == "Text":
        f = fonts.font(BODY, True)
        lines = fonts.wrap(_text(p, child), f, inner_w)
        p.boxes.setdefault(child.iid, (x, y, x + width, y + height))
        for i, line in enumerate(lines):
            lx = x + (width - fonts.text_width(line, f)) // 2
            p.text(lx, y + PAD_Y + i * fonts.line_height(BODY), line, f, fg)
        return
    h = p.measure(child, inner_w, Ctx(fg=fg))
    p.paint(child, x + PAD_X, y + PAD_Y, inner_w, h, Ctx(fg=fg))


# ------------------------------------------------------------------------------------------ inputs
def _label(p: Painter, node: Node) -> str:
    return bound_text(p.surface, node.props.get("label"), node.scope)


def _field_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    label = _label(p, node) if node.kind == "TextField" else _datetime_label(node)
    label_h = fonts.line_height(CAPTION) + 4 if label else 0
    tall = node.kind == "TextField" and node.props.get("textFieldType") == "longText"
    return label_h + (LONG_FIELD_H if tall else FIELD_H)


def _field_text(p: Painter, node: Node) -> tuple[str, bool]:
    """The text shown in an input box and whether it is a faint hint (no value yet)."""
    found, value = field_value(p.surface, node)
    text = display(value) if found else ""  # an input whose path holds nothing yet is simply empty
    if node.kind == "TextField" and node.props.get("textFieldType") == "obscured" and found:
        return "•" * len(text), False
    if not text and node.kind == "DateTimeInput":
        return _datetime_hint(node), True
    return text, False


def _datetime_label(node: Node) -> str:
    date, time = node.props.get("enableDate"), node.props.get("enableTime")
    return "Time" if time and not date else "Date and time" if time and date else "Date"


def _datetime_hint(node: Node) -> str:
    return {"Time": "HH:MM", "Date and time": "YYYY-MM-DD HH:MM"}.get(_datetime_label(node), "YYYY-MM-DD")


def _field_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    label = _label(p, node) if node.kind == "TextField" else _datetime_label(node)
    cf = fonts.font(CAPTION)
    if label:
        p.text(x, y, fonts.ellipsize(label, cf, width), cf, MUTED)
        y += fonts.line_height(CAPTION) + 4
    tall = node.kind == "TextField" and node.props.get("textFieldType") == "longText"
    box_h = LONG_FIELD_H if tall else FIELD_H
    p.box(x, y, x + width, y + box_h, fill=WHITE, outline=BORDER, radius=4)
    text, hint = _field_text(p, node)
    f = fonts.font(BODY)
    rows = fonts.wrap(text, f, width - 20)[: (box_h - 8) // fonts.line_height(BODY)] if tall else \
        [fonts.ellipsize(text, f, width - 20)]
    top = y + 8 if tall else y + (box_h - fonts.line_height(BODY)) // 2 + 1
    p.lines(x + 10, top, rows, BODY, FAINT if hint else INK)


def _checkbox_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return 28 + fonts.text_width(_label(p, node), fonts.font(BODY))


def _checkbox_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    lines = fonts.wrap(_label(p, node), fonts.font(BODY), width - 28)
    return max(20, len(lines) * fonts.line_height(BODY))


def _checkbox_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    found, value = field_value(p.surface, node)
    checked = found and value is True
    colour = p.primary
    p.box(x, y + 1, x + 18, y + 19, fill=colour if checked else WHITE, outline=colour if checked else MUTED,
          radius=3, width=2)
    if checked:
        assert p.draw is not None
        p.draw.line((x + 4, y + 10, x + 8, y + 14, x + 14, y + 5), fill=WHITE, width=2)
    p.lines(x + 28, y, fonts.wrap(_label(p, node), fonts.font(BODY), width - 28), BODY, ctx.fg or INK)


CHIP_H, CHIP_PAD, CHIP_GAP = 28, 12, 6


def _options(p: Painter, node: Node) -> list[tuple[str, str]]:
    return [(bound_text(p.surface, o.get("label"), node.scope) or o.get("value", ""), o.get("value", ""))
            for o in node.props.get("options") or []]


def _selected(p: Painter, node: Node) -> list[str]:
    found, value = field_value(p.surface, node)
    if not found or value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _chip_label(label: str, on: bool) -> str:
    return f"✓ {label}" if on else label


def _chip_rows(p: Painter, node: Node, width: int) -> list[list[tuple[str, str, int]]]:
    f = fonts.font(CAPTION + 1)
    selected = set(_selected(p, node))
    rows: list[list[tuple[str, str, int]]] = [[]]
    used = 0
    for label, value in _options(p, node):
        w = min(fonts.text_width(_chip_label(label, value in selected), f) + 2 * CHIP_PAD, width)
        if rows[-1] and used + CHIP_GAP + w > width:
            rows.append([])
            used = 0
        used += (CHIP_GAP if rows[-1] else 0) + w
        rows[-1].append((label, value, w))
    return rows


def _choice_caption(node: Node) -> str:
    most = node.props.get("maxAllowedSelections")
    return "" if most is None else "Select one" if most == 1 else f"Select up to {most}"


def _choice_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    caption = fonts.line_height(CAPTION) + 4 if _choice_caption(node) else 0
    rows = _chip_rows(p, node, width)
    return caption + len(rows) * CHIP_H + (len(rows) - 1) * CHIP_GAP


def _choice_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    caption = _choice_caption(node)
    if caption:
        p.text(x, y, caption, fonts.font(CAPTION), MUTED)
        y += fonts.line_height(CAPTION) + 4
    selected = set(_selected(p, node))
    f = fonts.font(CAPTION + 1)
    colour = p.primary
    for row in _chip_rows(p, node, width):
        cx = x
        for label, value, w in row:
            on = value in selected
            p.box(cx, y, cx + w, y + CHIP_H, fill=colour if on else WHITE, outline=colour if on else BORDER,
                  radius=CHIP_H // 2)
            text = fonts.ellipsize(_chip_label(label, on), f, w - 2 * CHIP_PAD)
            p.text(cx + (w - fonts.text_width(text, f)) // 2, y + 6, text, f, WHITE if on else INK)
            cx += w + CHIP_GAP
        y += CHIP_H + CHIP_GAP


def slider_range(node: Node) -> tuple[float, float]:
    lo = node.props.get("minValue")
    hi = node.props.get("maxValue")
    lo = 0.0 if lo is None else float(lo)
    hi = 100.0 if hi is None else float(hi)
    return lo, hi


def _slider_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    label = fonts.line_height(CAPTION) + 4 if _label(p, node) else 0
    return label + 24 + fonts.line_height(11)


def _slider_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    label = _label(p, node)
    if label:
        p.text(x, y, fonts.ellipsize(label, fonts.font(CAPTION), width), fonts.font(CAPTION), MUTED)
        y += fonts.line_height(CAPTION) + 4
    lo, hi = slider_range(node)
    found, value = field_value(p.surface, node)
    number = float(value) if found and isinstance(value, int | float) and not isinstance(value, bool) else None
    track_w = max(width - 70, 20)
    frac = 0.0 if number is None or hi <= lo else min(max((number - lo) / (hi - lo), 0.0), 1.0)
    assert p.draw is not None
    mid = y + 12
    p.draw.rounded_rectangle((x, mid - 2, x + track_w, mid + 2), radius=2, fill=BORDER)
    knob = x + int(frac * track_w)
    colour = p.primary
    p.draw.rounded_rectangle((x, mid - 2, knob, mid + 2), radius=2, fill=colour)
    p.draw.ellipse((knob - 8, mid - 8, knob + 8, mid + 8), fill=colour, outline=WHITE, width=2)
    shown = display(number) if number is not None else display(value) if found else ""
    f = fonts.font(BODY, True)
    p.text(x + track_w + 14, mid - 9, fonts.ellipsize(shown, f, 56), f, ctx.fg or INK)
    small = fonts.font(11)
    p.text(x, y + 24, display(lo), small, MUTED)
    hi_text = display(hi)
    p.text(x + track_w - fonts.text_width(hi_text, small), y + 24, hi_text, small, MUTED)


# ------------------------------------------------------------------------------------------ placeholders
def placeholder_label(p: Painter, node: Node) -> str:
    """'[Type] detail' for components drawn as placeholders."""
    props = node.props
    if node.kind == "Tabs":
        titles = [bound_text(p.surface, t.get("title"), node.scope) for t in props.get("tabItems") or []]
        return f"[Tabs] {' | '.join(titles)}"
    if node.kind == "Modal":
        return f"[Modal] opened by '{props.get('entryPointChild', '')}'"
    if node.kind == "AudioPlayer":
        desc = bound_text(p.surface, props.get("description"), node.scope)
        return f"[AudioPlayer] {desc or bound_text(p.surface, props.get('url'), node.scope)}"
    if node.kind == "Video":
        return f"[Video] {bound_text(p.surface, props.get('url'), node.scope)}"
    if node.kind == "Limit":
        return f"[not drawn: {node.cid}]"
    return f"[{node.kind}]"


def _placeholder_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    return 44


def _placeholder_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    placeholder_box(p, x, y, width, 44, placeholder_label(p, node))


def _marker_text(node: Node) -> str:
    return f"{'Missing' if node.kind == 'Missing' else 'Cycle'}: {node.cid}"


def _marker_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return fonts.text_width(_marker_text(node), fonts.font(CAPTION, True)) + 16


def _marker_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    return 24


def _marker_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    p.box(x, y, x + width, y + 24, fill=(253, 232, 232), outline=RED, radius=4)
    f = fonts.font(CAPTION, True)
    p.text(x + 8, y + 5, fonts.ellipsize(_marker_text(node), f, width - 16), f, RED)


register("Text", Kind(_text_natural, _text_measure, _text_paint))
register("Image", Kind(_image_natural, _image_measure, _image_paint))
register("Icon", Kind(_icon_natural, _icon_measure, _icon_paint))
register("Divider", Kind(_divider_natural, _divider_measure, _divider_paint))
register("Button", Kind(_button_natural, _button_measure, _button_paint))
register("TextField", Kind(_none, _field_measure, _field_paint))
register("DateTimeInput", Kind(_none, _field_measure, _field_paint))
register("CheckBox", Kind(_checkbox_natural, _checkbox_measure, _checkbox_paint))
register("MultipleChoice", Kind(_none, _choice_measure, _choice_paint))
register("Slider", Kind(_none, _slider_measure, _slider_paint))
register("Missing", Kind(_marker_natural, _marker_measure, _marker_paint))
register("Cycle", Kind(_marker_natural, _marker_measure, _marker_paint))
register("_placeholder", Kind(_none, _placeholder_measure, _placeholder_paint))
