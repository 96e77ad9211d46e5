"""Layout components: Column, Row, List (vertical or horizontal) and Card.

Columns stack children; a child with a natural width (text, button, icon) is placed by the column's
alignment (start by default; stretch gives it the full width). Rows give fixed-size children their natural
width and share the rest among the others by ``weight`` (1 by default); left-over space follows the row's
distribution, and children are aligned vertically (center by default).
"""

from __future__ import annotations

from mmtsb.ui.render.painter import BORDER, GAP, WHITE, Ctx, Kind, Painter, register
from mmtsb.ui.tree import Node

CARD_PAD = 14
_FLEX_KINDS = {"Column", "Row", "List", "Card", "TextField", "DateTimeInput", "MultipleChoice", "Slider"}


# ------------------------------------------------------------------------------------------ column
def _stack_natural(p: Painter, node: Node, ctx: Ctx) -> int | None:
    return None


def _stack_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    inner = Ctx(fg=ctx.fg)
    heights = [p.measure(c, _child_width(p, c, width, node, inner), inner) for c in node.children]
    return sum(heights) + GAP * max(len(heights) - 1, 0)


def _child_width(p: Painter, child: Node, width: int, parent: Node, ctx: Ctx) -> int:
    align = parent.props.get("alignment") or "start"
    natural = p.natural(child, ctx)
    if align == "stretch" or natural is None or child.kind == "Divider":
        return width
    return min(natural, width)


def _stack_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    inner = Ctx(fg=ctx.fg)
    align = node.props.get("alignment") or "start"
    for child in node.children:
        w = _child_width(p, child, width, node, inner)
        h = p.measure(child, w, inner)
        dx = {"center": (width - w) // 2, "end": width - w}.get(align, 0)
        p.paint(child, x + dx, y, w, h, inner)
        y += h + GAP


# ------------------------------------------------------------------------------------------ row
def row_widths(p: Painter, children: list[Node], width: int, ctx: Ctx) -> tuple[list[int], int]:
    """Widths of a row's children and the free space left over (for the distribution)."""
    n = len(children)
    avail = max(width - GAP * (n - 1), n)
    naturals = [None if c.weight is not None or c.kind in _FLEX_KINDS else p.natural(c, ctx) for c in children]
    flex = {i: (c.weight if c.weight and c.weight > 0 else 1.0)
            for i, (c, nat) in enumerate(zip(children, naturals)) if nat is None}
    fixed = {i: min(nat, avail) for i, nat in enumerate(naturals) if nat is not None}
    if not flex and sum(fixed.values()) > avail:
        # too wide: texts shrink (in proportion to their length), then everything proportionally
        flex = {i: float(w) for i, w in fixed.items() if children[i].kind == "Text"}
        fixed = {i: w for i, w in fixed.items() if i not in flex}
        used = sum(fixed.values())
        if used > avail or not flex:
            scale = avail / max(used, 1)
            fixed = {i: max(int(w * scale), 1) for i, w in fixed.items()}
    used = sum(fixed.values())
    widths = [0] * n
    for i, w in fixed.items():
        widths[i] = w
    if flex:
        rest = max(avail - used, len(flex))
        total = sum(flex.values())
        for i, wt in flex.items():
            widths[i] = max(int(rest * wt / total), 1)
        return widths, 0
    return widths, max(avail - used, 0)


def _row_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    if not node.children:
        return 0
    inner = Ctx(in_row=True, fg=ctx.fg)
    widths, _ = row_widths(p, node.children, width, inner)
    return max(p.measure(c, w, inner) for c, w in zip(node.children, widths))


def _row_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    if not node.children:
        return
    inner = Ctx(in_row=True, fg=ctx.fg)
    widths, free = row_widths(p, node.children, width, inner)
    n = len(node.children)
    distribution = node.props.get("distribution") or "start"
    gap, start = GAP, 0
    if free:
        if distribution == "center":
            start = free // 2
        elif distribution == "end":
            start = free
        elif distribution == "spaceBetween" and n > 1:
            gap += free // (n - 1)
        elif distribution == "spaceAround":
            gap += free // n
            start = free // (2 * n)
        elif distribution == "spaceEvenly":
            gap += free // (n + 1)
            start = free // (n + 1)
    align = node.props.get("alignment") or "center"
    cx = x + start
    for child, w in zip(node.children, widths):
        h = height if align == "stretch" or child.kind == "Divider" else p.measure(child, w, inner)
        dy = {"center": (height - h) // 2, "end": height - h}.get(align, 0)
        p.paint(child, cx, y + max(dy, 0), w, h, inner)
        cx += w + gap


# ------------------------------------------------------------------------------------------ list
def _list_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    if node.props.get("direction") == "horizontal":
        return _row_measure(p, node, width, ctx)
    return _stack_measure(p, node, width, ctx)


def _list_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    if node.props.get("direction") == "horizontal":
        _row_paint(p, node, x, y, width, height, ctx)
    else:
        _stack_paint(p, node, x, y, width, height, ctx)


# ------------------------------------------------------------------------------------------ card
def _card_measure(p: Painter, node: Node, width: int, ctx: Ctx) -> int:
    inner = Ctx(fg=ctx.fg)
    return sum(p.measure(c, width - 2 * CARD_PAD, inner) for c in node.children) + 2 * CARD_PAD


def _card_paint(p: Painter, node: Node, x: int, y: int, width: int, height: int, ctx: Ctx) -> None:
    p.box(x, y, x + width, y + height, fill=WHITE, outline=BORDER, radius=10)
    inner = Ctx(fg=ctx.fg)
    for child in node.children:
        h = p.measure(child, width - 2 * CARD_PAD, inner)
        p.paint(child, x + CARD_PAD, y + CARD_PAD, width - 2 * CARD_PAD, h, inner)


register("Column", Kind(_stack_natural, _stack_measure, _stack_paint))
register("Row", Kind(_stack_natural, _row_measure, _row_paint))
register("List", Kind(_stack_natural, _list_measure, _list_paint))
register("Card", Kind(_stack_natural, _card_measure, _card_paint))
