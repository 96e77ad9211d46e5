"""A user's interaction with a surface: fill inputs through their data bindings, click a component, resolve
the action's context and report the result as a validated A2UI ``userAction``."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from mmtsb.ui.elements import INTERACTIVE, interactive_nodes
from mmtsb.ui.models import INPUT_VALUE_PROP
from mmtsb.ui.pointer import set_at
from mmtsb.ui.render.widgets import slider_range
from mmtsb.ui.state import Surface
from mmtsb.ui.tree import Node, bound, bound_text, build_tree, display, find, write_pointer
from mmtsb.ui.validation import validate_user_action


@dataclass
class Interaction:
    """What one ``ui_user_interact`` call did."""

    user_action: dict[str, Any]
    clicked: Node
    #: (instance id, data pointer or None, value) per filled input
    fields: list[tuple[str, str | None, Any]] = field(default_factory=list)


def parse_field_values(field_values: Any) -> dict[str, Any]:
    """``field_values`` as a dict (None -> {}; a JSON object string is accepted)."""
    if field_values is None:
        return {}
    if isinstance(field_values, str):
        try:
            field_values = json.loads(field_values) if field_values.strip() else {}
        except json.JSONDecodeError as e:
            raise ValueError(f"field_values is not valid JSON ({e.msg} at column {e.colno}); pass an object "
                             'mapping input component ids to values, e.g. {"name_field": "Ada"}.') from None
    if not isinstance(field_values, dict):
        raise ValueError("field_values must be an object mapping input component ids to values, e.g. "
                         f'{{"name_field": "Ada", "agree_box": true}}; got {type(field_values).__name__}.')
    return field_values


def interact(surface: Surface, component_id: str, action_name: str, field_values: dict[str, Any],
             timestamp: str) -> Interaction:
    """Apply field values to ``surface`` (in place), then click ``component_id``; returns the interaction."""
    tree = build_tree(surface)
    filled = [_fill(surface, tree, fid, value) for fid, value in field_values.items()]
    tree = build_tree(surface)  # values may drive templates or labels
    clicked = find(tree, component_id)
    if clicked is None:
        raise ValueError(f"No component {component_id!r} on surface {surface.surface_id!r}. "
                         f"{_choices(tree)}")
    context = _click(surface, clicked, action_name)
    action = {"name": action_name, "surfaceId": surface.surface_id, "sourceComponentId": clicked.iid,
              "timestamp": timestamp, "context": context}
    validate_user_action(action)
    return Interaction(action, clicked, filled)


def _choices(tree: Node) -> str:
    nodes = interactive_nodes(tree)
    buttons = [n.iid for n in nodes if n.kind == "Button"]
    inputs = [n.iid for n in nodes if n.kind != "Button"]
    return (f"Buttons: {', '.join(buttons) or 'none'}. Inputs: {', '.join(inputs) or 'none'}.")


def _click(surface: Surface, node: Node, action_name: str) -> dict[str, Any]:
    if node.kind == "Button":
        action = node.props.get("action") or {}
        expected = action.get("name")
        if action_name != expected:
            raise ValueError(f"Component {node.iid!r} sends the action {expected!r}, not {action_name!r}; call "
                             f"ui_user_interact again with action_name={expected!r}.")
        return {entry["key"]: bound(surface, entry.get("value"), node.scope)[1]
                for entry in action.get("context") or []}
    if node.kind in INTERACTIVE:
        prop = INPUT_VALUE_PROP[node.kind]
        value = surface.local_values.get(node.iid, bound(surface, node.props.get(prop), node.scope)[1])
        return {node.iid: value}
    raise ValueError(f"Component {node.iid!r} is a {node.kind}, which cannot be clicked. "
                     f"{_choices(build_tree(surface))}")


# ------------------------------------------------------------------------------------------ inputs
def _fill(surface: Surface, tree: Node, fid: str, value: Any) -> tuple[str, str | None, Any]:
    node = find(tree, str(fid))
    if node is None or node.kind not in INPUT_VALUE_PROP:
        what = "no component" if node is None else f"a {node.kind}, not an input,"
        raise ValueError(f"field_values: {fid!r} is {what} on surface {surface.surface_id!r}. {_choices(tree)}")
    coerced = coerce_input(surface, node, value)
    pointer = write_pointer(surface, node.props.get(INPUT_VALUE_PROP[node.kind]), node.scope)
    if pointer is None:
        surface.local_values[node.iid] = coerced
    else:
        surface.data = set_at(surface.data, pointer, coerced)
    return node.iid, pointer, coerced


def coerce_input(surface: Surface, node: Node, value: Any) -> Any:
    """The value an input stores for what the user entered; a precise error when it does not fit."""
    where = f"field_values[{node.iid!r}] ({node.kind})"
    if node.kind == "TextField":
        return _text_value(node, value, where)
    if node.kind == "DateTimeInput":
        return _datetime_value(node, value, where)
    if node.kind == "CheckBox":
        return _bool_value(value, where)
    if node.kind == "Slider":
        return _slider_value(node, value, where)
    return _choice_value(surface, node, value, where)


def _text_value(node: Node, value: Any, where: str) -> str:
    if isinstance(value, dict | list) or value is None:
        raise ValueError(f"{where} expects a string, got {json.dumps(value)}.")
    text = display(value)
    if node.props.get("textFieldType") == "number":
        try:
            float(text)
        except ValueError:
            raise ValueError(f"{where} is a number field; {text!r} is not a number.") from None
    pattern = node.props.get("validationRegexp")
    if pattern:
        try:
            ok = re.search(pattern, text) is not None
        except re.error:
            ok = True  # an unusable pattern is the screen's problem, not the user's
        if not ok:
            raise ValueError(f"{where}: {text!r} does not match the field's validation pattern {pattern!r}.")
    return text


def _datetime_value(node: Node, value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where} expects an ISO 8601 string such as 2026-05-01, 14:30 or 2026-05-01T14:30, "
                         f"got {json.dumps(value)}.")
    text = value.strip()
    for parse in (datetime.fromisoformat, date.fromisoformat, time.fromisoformat):
        try:
            parse(text.replace("Z", "+00:00"))
            return text
        except ValueError:
            continue
    raise ValueError(f"{where}: {text!r} is not an ISO 8601 date or time (use e.g. 2026-05-01, 14:30 or "
                     "2026-05-01T14:30).")


def _bool_value(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError(f"{where} expects true or false, got {json.dumps(value)}.")


def _slider_value(node: Node, value: Any, where: str) -> float | int:
    number: Any = value
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
        raise ValueError(f"{where} expects a number, got {json.dumps(value)}.")
    lo, hi = slider_range(node)
    if not lo <= number <= hi:
        raise ValueError(f"{where}: {display(number)} is outside the slider's range {display(lo)}..{display(hi)}.")
    return int(number) if isinstance(number, float) and number.is_integer() else number


def _choice_value(surface: Surface, node: Node, value: Any, where: str) -> list[str]:
    picked = value if isinstance(value, list) else [value]
    options = [(o.get("value"), bound_text(surface, o.get("label"), node.scope))
               for o in node.props.get("options") or []]
    by_label = {label.lower(): v for v, label in options if label}
    values = [v for v, _ in options]
    out: list[str] = []
    for item in picked:
        key = display(item) if not isinstance(item, dict | list) else json.dumps(item)
        chosen = key if key in values else by_label.get(key.lower())
        if chosen is None:
            listed = ", ".join(f"{v!r} ({label})" for v, label in options)
            raise ValueError(f"{where}: {key!r} is not one of the options: {listed}.")
        if chosen not in out:
            out.append(chosen)
    most = node.props.get("maxAllowedSelections")
    if most is not None and len(out) > most:
        raise ValueError(f"{where}: {len(out)} options selected but at most {most} may be.")
    return out
