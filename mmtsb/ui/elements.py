"""The interactive-elements listing that accompanies a screenshot: one line per button or input, with the ids,
actions and data paths a caller needs for ``ui_user_interact``."""

from __future__ import annotations

import json

from mmtsb.ui.models import INPUT_VALUE_PROP
from mmtsb.ui.render.widgets import slider_range
from mmtsb.ui.state import Surface
from mmtsb.ui.tree import Node, bound_text, display, field_value, write_pointer

INTERACTIVE = ("Button", *INPUT_VALUE_PROP)


def interactive_nodes(tree: Node) -> list[Node]:
    """Buttons and inputs in drawing order."""
    return [n for n in tree.walk() if n.kind in INTERACTIVE]


def element_line(surface: Surface, node: Node) -> str:
    """One line describing a button or an input."""
    p = node.props
    if node.kind == "Button":
        label = button_label(surface, node)
        action = (p.get("action") or {}).get("name", "")
        keys = [c.get("key") for c in (p.get("action") or {}).get("context") or []]
        ctx = f", context: {', '.join(keys)}" if keys else ""
        return f'Button "{label}" (id: {node.iid}, action: {action}{ctx})'
    pointer = write_pointer(surface, p.get(INPUT_VALUE_PROP[node.kind]), node.scope) or "no data binding"
    found, value = field_value(surface, node)
    if node.kind == "TextField":
        label = bound_text(surface, p.get("label"), node.scope)
        kind = p.get("textFieldType") or "shortText"
        shown = "(hidden)" if kind == "obscured" and found and value else json.dumps(display(value) if found else "")
        return f'TextField "{label}" (id: {node.iid}, type: {kind}, path: {pointer}, value: {shown})'
    if node.kind == "DateTimeInput":
        what = "date and time" if p.get("enableDate") and p.get("enableTime") else \
            "time" if p.get("enableTime") else "date"
        shown = json.dumps(display(value) if found else "")
        return f"DateTimeInput {what} (id: {node.iid}, path: {pointer}, value: {shown})"
    if node.kind == "CheckBox":
        label = bound_text(surface, p.get("label"), node.scope)
        checked = display(bool(found and value is True))
        return f'CheckBox "{label}" (id: {node.iid}, path: {pointer}, checked: {checked})'
    if node.kind == "Slider":
        label = bound_text(surface, p.get("label"), node.scope)
        lo, hi = slider_range(node)
        return (f'Slider "{label}" [{display(lo)}-{display(hi)}] (id: {node.iid}, path: {pointer}, '
                f'value: {display(value) if found else ""})')
    options = ", ".join(f"{bound_text(surface, o.get('label'), node.scope)}={o.get('value')}"
                        for o in p.get("options") or [])
    most = p.get("maxAllowedSelections")
    limit = f", max selections: {most}" if most is not None else ""
    selected = value if found and isinstance(value, list) else []
    return (f"MultipleChoice [{options}] (id: {node.iid}, path: {pointer}, "
            f"selected: {json.dumps(selected)}{limit})")


def button_label(surface: Surface, node: Node) -> str:
    """The text drawn inside a button."""
    texts = [bound_text(surface, n.props.get("text"), n.scope) for n in node.walk() if n.kind == "Text"]
    return " ".join(t for t in texts if t)


def elements_text(surface: Surface, tree: Node) -> str:
    """Every interactive element of the surface plus how to use them."""
    nodes = interactive_nodes(tree)
    head = f"Surface: {surface.surface_id}"
    if not nodes:
        return f"{head}\n(no interactive elements: this screen is display-only)"
    lines = [head, *(f"- {element_line(surface, n)}" for n in nodes)]
    lines.append(
        f'To interact, call ui_user_interact(action_name=<the button\'s action>, surface_id="{surface.surface_id}", '
        "component_id=<the button's id>, field_values={<input id>: <value>, ...}) and fill the inputs in the same "
        "call as the click. Values: TextField and DateTimeInput take strings (dates in ISO 8601, e.g. 2026-05-01 "
        "or 2026-05-01T14:30), CheckBox true/false, Slider a number in its range, MultipleChoice a list of option "
        "values.")
    return "\n".join(lines)
