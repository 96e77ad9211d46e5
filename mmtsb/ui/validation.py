"""Validation of A2UI v0.8 messages with precise, path-named error messages.

``parse_messages`` accepts what an agent sends (a list of messages, one message, a JSON string, or JSON
Lines) and returns the validated messages as ``(type, body)`` pairs. Every problem is reported with the
path of the offending value, e.g. ``messages[0].surfaceUpdate.components[2] (id 'ok').component.Button:
missing required property 'action'``, so that an agent can fix its UI in one step.

The checks are our pydantic models (:mod:`mmtsb.ui.models`), not a JSON-schema validator: they give those
messages and hints, and add the protocol's "exactly one of" rules that its schema only states in prose. The
tests hold them to the reference JSON schemas with jsonschema (``tests/ui/test_ui_reference_schema.py``).
"""

from __future__ import annotations

import difflib
import json
import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from mmtsb.ui.models import (
    COMPONENTS,
    MESSAGES,
    VALUE_KEYS,
    ClientError,
    UserAction,
)

#: the most problems listed in one error message (the rest are counted)
MAX_LISTED = 12
_V09_NAMES = {"createSurface": "beginRendering", "updateComponents": "surfaceUpdate",
              "updateDataModel": "dataModelUpdate"}
_TYPE_WORDS = {"string_type": "a string", "float_type": "a number", "int_type": "an integer",
               "bool_type": "a boolean", "list_type": "a list", "model_type": "an object", "dict_type": "an object",
               "int_from_float": "an integer", "float_parsing": "a number", "model_attributes_type": "an object"}


class A2UIValidationError(ValueError):
    """Messages that do not follow A2UI v0.8; ``problems`` lists one line per problem."""

    def __init__(self, problems: list[str], what: str = "UI description") -> None:
        self.problems = problems
        shown = problems[:MAX_LISTED]
        more = len(problems) - len(shown)
        lines = "\n".join(f"- {p}" for p in shown) + (f"\n- ... and {more} more" if more > 0 else "")
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"{what} does not match the A2UI v0.8 schema ({len(problems)} {noun}):\n{lines}")


# ------------------------------------------------------------------------------------------ loading
def load_messages(ui_json: Any) -> list[Any]:
    """The list of raw messages in ``ui_json`` (a list, one message dict, a JSON string or JSON Lines)."""
    if isinstance(ui_json, str):
        ui_json = _parse_json_text(ui_json)
    if isinstance(ui_json, dict):
        if set(ui_json) == {"messages"} and isinstance(ui_json["messages"], list):
            return list(ui_json["messages"])
        return [ui_json]
    if isinstance(ui_json, list | tuple):
        if not ui_json:
            raise A2UIValidationError(["ui_json: the message list is empty; send at least a surfaceUpdate and a "
                                       "beginRendering message"])
        return list(ui_json)
    raise A2UIValidationError([f"ui_json: expected a list of A2UI messages, one message object or a JSON string, "
                               f"got {type(ui_json).__name__}"])


def _parse_json_text(text: str) -> Any:
    stripped = text.strip()
    if stripped.startswith("```"):  # a fenced block pasted as is
        stripped = stripped.strip("`").removeprefix("json").strip()
    if not stripped:
        raise A2UIValidationError(["ui_json: the string is empty"])
    try:
        return json.loads(stripped)
    except json.JSONDecodeError as first:
        lines = [ln for ln in stripped.splitlines() if ln.strip()]
        if len(lines) > 1:  # JSON Lines: one message per line
            try:
                return [json.loads(ln) for ln in lines]
            except json.JSONDecodeError:
                pass
        raise A2UIValidationError([f"ui_json: invalid JSON at line {first.lineno} column {first.colno}: "
                                   f"{first.msg}"]) from None


# ------------------------------------------------------------------------------------------ validation
def parse_messages(ui_json: Any) -> list[tuple[str, dict[str, Any]]]:
    """Validate every message; returns ``(message type, body)`` pairs or raises :class:`A2UIValidationError`."""
    raw = load_messages(ui_json)
    problems: list[str] = []
    out: list[tuple[str, dict[str, Any]]] = []
    for i, msg in enumerate(raw):
        where = f"messages[{i}]"
        kind = _message_kind(msg, where, problems)
        if kind is None:
            continue
        body = msg[kind]
        before = len(problems)
        problems += model_problems(MESSAGES[kind], body, f"{where}.{kind}")
        if kind == "surfaceUpdate" and isinstance(body, dict) and isinstance(body.get("components"), list):
            for j, entry in enumerate(body["components"]):
                problems += component_problems(entry, f"{where}.surfaceUpdate.components[{j}]")
        if kind == "dataModelUpdate" and isinstance(body, dict) and isinstance(body.get("contents"), list):
            problems += _data_entry_problems(body["contents"], f"{where}.dataModelUpdate.contents")
        if len(problems) == before:
            out.append((kind, body))
    if problems:
        raise A2UIValidationError(problems)
    return out


def _message_kind(msg: Any, where: str, problems: list[str]) -> str | None:
    allowed = ", ".join(MESSAGES)
    if not isinstance(msg, dict):
        problems.append(f"{where}: expected an object with exactly one of {allowed}; got {_short(msg)}")
        return None
    keys = list(msg)
    unknown = [k for k in keys if k not in MESSAGES]
    for k in unknown:
        hint = f" ('{k}' is A2UI v0.9; in v0.8 use '{_V09_NAMES[k]}')" if k in _V09_NAMES else _suggest(k, MESSAGES)
        problems.append(f"{where}: unknown message type '{k}'{hint}; a message has exactly one of {allowed}")
    known = [k for k in keys if k in MESSAGES]
    if len(known) > 1:
        problems.append(f"{where}: a message must contain exactly one of {allowed}, found {', '.join(known)}; "
                        "send them as separate messages in the list")
        return None
    if not known:
        if not unknown:
            problems.append(f"{where}: empty message; it needs exactly one of {allowed}")
        return None
    return known[0] if not unknown else None


def component_problems(entry: Any, where: str) -> list[str]:
    """Problems of one surfaceUpdate component entry (wrapper and properties of its type)."""
    if not isinstance(entry, dict):
        return []  # already reported by the SurfaceUpdate model
    cid = entry.get("id")
    if isinstance(cid, str):
        where = f"{where} (id '{cid}')"
    wrapper = entry.get("component")
    if not isinstance(wrapper, dict):
        return []  # reported by the ComponentEntry model
    where = f"{where}.component"
    if len(wrapper) != 1:
        found = ", ".join(wrapper) or "none"
        return [f"{where}: must contain exactly one key, the component type (e.g. {{\"Text\": {{...}}}}); "
                f"found {found}"]
    (ctype, props), = wrapper.items()
    model = COMPONENTS.get(ctype)
    if model is None:
        return [f"{where}: unknown component type '{ctype}'{_suggest(ctype, COMPONENTS)}; the standard catalog "
                f"has {', '.join(COMPONENTS)}"]
    problems = model_problems(model, props, f"{where}.{ctype}")
    children = props.get("children") if isinstance(props, dict) else None
    if isinstance(children, dict) and not problems:
        given = [k for k in ("explicitList", "template") if children.get(k) is not None]
        if len(given) != 1:
            problems.append(f"{where}.{ctype}.children: needs exactly one of explicitList (a list of ids) or "
                            f"template ({{componentId, dataBinding}}); found {', '.join(given) or 'neither'}")
    return problems


def _data_entry_problems(contents: list[Any], where: str) -> list[str]:
    problems = []
    for i, entry in enumerate(contents):
        if not isinstance(entry, dict):
            continue
        problems += _one_value(entry, f"{where}[{i}]", VALUE_KEYS)
        if isinstance(entry.get("valueMap"), list):
            for j, sub in enumerate(entry["valueMap"]):
                if isinstance(sub, dict):
                    problems += _one_value(sub, f"{where}[{i}].valueMap[{j}]", VALUE_KEYS[:3])
    return problems


def _one_value(entry: dict[str, Any], where: str, keys: tuple[str, ...]) -> list[str]:
    given = [k for k in keys if entry.get(k) is not None]
    if len(given) == 1:
        return []
    key = f" (key '{entry['key']}')" if isinstance(entry.get("key"), str) else ""
    return [f"{where}{key}: needs exactly one of {', '.join(keys)}; found {', '.join(given) or 'none'}"]


def model_problems(model: type[BaseModel], value: Any, where: str) -> list[str]:
    """Validate ``value`` against ``model``; one readable line per pydantic error."""
    try:
        model.model_validate(value)
    except ValidationError as e:
        return [_describe(model, err, where) for err in e.errors()]
    return []


def _describe(model: type[BaseModel], err: Any, where: str) -> str:
    loc = tuple(err["loc"])
    kind = err["type"]
    if kind == "missing":
        return f"{_path(where, loc[:-1])}: missing required property '{loc[-1]}'"
    if kind == "extra_forbidden":
        allowed = _fields_at(model, loc[:-1])
        listed = f" (allowed: {', '.join(allowed)})" if allowed else ""
        return f"{_path(where, loc[:-1])}: unknown property '{loc[-1]}'{listed}"
    got = _short(err.get("input"))
    if kind == "literal_error":
        expected = str(err.get("ctx", {}).get("expected", ""))
        hint = _suggest(err["input"], re.findall(r"'([^']*)'", expected)) if isinstance(err.get("input"), str) else ""
        return f"{_path(where, loc)}: must be one of {expected}; got {got}{hint}"
    if kind in _TYPE_WORDS:
        return f"{_path(where, loc)}: expected {_TYPE_WORDS[kind]}, got {got}"
    if kind == "too_short":
        return f"{_path(where, loc)}: must not be empty"
    if kind == "string_pattern_mismatch":
        pattern = err.get("ctx", {}).get("pattern", "")
        return f"{_path(where, loc)}: {got} does not match the pattern {pattern}"
    msg = str(err.get("msg", kind)).removeprefix("Value error, ")
    return f"{_path(where, loc)}: {msg}"


def _path(where: str, loc: tuple[Any, ...]) -> str:
    out = where
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _fields_at(model: Any, loc: tuple[Any, ...]) -> list[str]:
    """Field names of the nested model reached by ``loc`` (for 'allowed: ...' hints)."""
    current = model
    for part in loc:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)) or part not in current.model_fields:
            return []
        current = _inner_model(current.model_fields[part].annotation)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _inner_model(ann: Any) -> Any:
    """The model inside ``X | None`` / ``list[X]`` annotations."""
    origin = typing.get_origin(ann)
    if origin in (typing.Union, types.UnionType, list):
        for arg in typing.get_args(ann):
            inner = _inner_model(arg)
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                return inner
        return None
    return ann


def _suggest(name: str, options: Any) -> str:
    close = difflib.get_close_matches(name, list(options), n=1, cutoff=0.6)
    if not close:
        close = [o for o in options if o.lower() == name.lower()]
    return f" (did you mean '{close[0]}'?)" if close else ""


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ------------------------------------------------------------------------------------------ client -> server
def validate_user_action(user_action: dict[str, Any]) -> dict[str, Any]:
    """Validate a ``{"userAction": {...}}`` client message; returns it unchanged or raises."""
    return validate_client_message({"userAction": user_action})["userAction"]


def validate_client_message(message: Any) -> dict[str, Any]:
    """Validate a client-to-server message: exactly one of ``userAction`` or ``error``."""
    if not isinstance(message, dict) or len(message) != 1 or next(iter(message)) not in ("userAction", "error"):
        keys = ", ".join(message) if isinstance(message, dict) else type(message).__name__
        raise A2UIValidationError([f"message: must contain exactly one of userAction, error; found {keys or 'none'}"],
                                  what="Client message")
    (kind, body), = message.items()
    problems = model_problems(UserAction if kind == "userAction" else ClientError, body, kind)
    if problems:
        raise A2UIValidationError(problems, what="Client message")
    return message
