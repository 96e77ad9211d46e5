"""JSON-pointer access to a surface's data model, and decoding of v0.8 ``dataModelUpdate`` contents.

The data model is plain JSON data (dicts, lists, scalars). Paths are JSON pointers such as ``/user/name``
or ``/items/0/title`` (``~1`` escapes ``/`` and ``~0`` escapes ``~``); ``""`` and ``"/"`` mean the root.
"""

from __future__ import annotations

from typing import Any

_MISSING = object()


def split_pointer(path: str) -> list[str]:
    """``/a/b`` -> ``["a", "b"]``; the root (``""`` or ``"/"``) -> ``[]``. A missing leading slash is tolerated."""
    text = path.strip()
    if text in ("", "/"):
        return []
    parts = text.strip("/").split("/")
    return [p.replace("~1", "/").replace("~0", "~") for p in parts]


def join_pointer(base: str, path: str) -> str:
    """``base`` + relative ``path`` as one pointer (``/items/2`` + ``name`` -> ``/items/2/name``)."""
    parts = split_pointer(base) + split_pointer(path)
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts) if parts else "/"


def get_at(data: Any, path: str) -> tuple[bool, Any]:
    """``(found, value)`` at ``path``; list items are addressed by index."""
    current = data
    for part in split_pointer(path):
        current = _child(current, part)
        if current is _MISSING:
            return False, None
    return True, current


def _child(node: Any, part: str) -> Any:
    if isinstance(node, dict):
        return node.get(part, _MISSING)
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    return _MISSING


def set_at(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """Set ``value`` at ``path`` (creating maps on the way); returns the (possibly new) root.

    Setting the root itself replaces the whole model, which must then be a map.
    """
    parts = split_pointer(path)
    if not parts:
        if not isinstance(value, dict):
            raise ValueError(f"the data model root must be a map, got {type(value).__name__}")
        return value
    node: Any = data
    for i, part in enumerate(parts[:-1]):
        nxt = _child(node, part)
        if not isinstance(nxt, dict | list):
            nxt = {}
            _assign(node, part, nxt, parts[: i + 1])
        node = nxt
    _assign(node, parts[-1], value, parts)
    return data


def _assign(node: Any, part: str, value: Any, where: list[str]) -> None:
    if isinstance(node, dict):
        node[part] = value
    elif isinstance(node, list) and part.isdigit() and int(part) <= len(node):
        if int(part) == len(node):
            node.append(value)
        else:
            node[int(part)] = value
    else:
        raise ValueError(f"cannot set /{'/'.join(where)}: its parent is a list and {part!r} is not a valid index")


def decode_value(entry: dict[str, Any]) -> Any:
    """The typed value of one contents entry (``valueMap`` becomes a dict)."""
    if entry.get("valueMap") is not None:
        return {sub["key"]: decode_value(sub) for sub in entry["valueMap"]}
    for key in ("valueString", "valueNumber", "valueBoolean"):
        if entry.get(key) is not None:
            return entry[key]
    return None


def apply_contents(model: dict[str, Any], path: str | None, contents: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply one ``dataModelUpdate``: entries merge into the root, or become the map stored at ``path``.

    An entry key may itself be a nested path (``user/name``). Returns the new root.
    """
    if path is None or not split_pointer(path):
        for entry in contents:
            model = set_at(model, entry["key"], decode_value(entry))
        return model
    decoded: dict[str, Any] = {}
    for entry in contents:
        set_at(decoded, entry["key"], decode_value(entry))
    return set_at(model, path, decoded)
