"""The component tree of a surface, with data bindings resolved.

Components reference their children by id; :func:`build_tree` expands that graph from the root into
:class:`Node` objects: templated children become one node per data entry (with a data scope, so relative
paths read the entry), unknown ids become ``Missing`` nodes and self-references ``Cycle`` nodes. The
renderer, the interactive-element listing and ``ui_user_interact`` all work on this tree.

Instance ids: a component drawn once keeps its id; a component repeated by a template gets
``<id>@<entry key>`` (nested templates add one ``@key`` per level), so each repetition can be addressed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterator

from mmtsb.ui.models import INPUT_VALUE_PROP
from mmtsb.ui.pointer import get_at, join_pointer, split_pointer
from mmtsb.ui.state import Surface

MAX_DEPTH = 40
MAX_NODES = 2000
_LITERALS = ("literalString", "literalNumber", "literalBoolean", "literalArray")


@dataclass
class Node:
    """One drawn component."""

    cid: str                    # component id
    iid: str                    # instance id (cid, or cid@key for template repetitions)
    kind: str                   # component type, or Missing / Cycle / Limit
    props: dict[str, Any]
    scope: str = ""             # data pointer relative paths resolve against ("" = root)
    weight: float | None = None
    children: list["Node"] = field(default_factory=list)

    def walk(self) -> Iterator["Node"]:
        yield self
        for c in self.children:
            yield from c.walk()


@dataclass
class _Builder:
    surface: Surface
    warnings: list[str]
    count: int = 0

    def build(self, cid: str, suffix: str, scope: str, ancestors: tuple[str, ...]) -> Node:
        iid = cid + suffix
        entry = self.surface.component(cid)
        if entry is None:
            self.warnings.append(f"component '{cid}' is referenced but not defined (drawn as 'Missing: {cid}')")
            return Node(cid, iid, "Missing", {}, scope)
        if cid in ancestors:
            self.warnings.append(f"component '{cid}' contains itself (cycle {' -> '.join((*ancestors, cid))}); "
                                 "the repetition is not drawn")
            return Node(cid, iid, "Cycle", {}, scope)
        self.count += 1
        if len(ancestors) >= MAX_DEPTH or self.count > MAX_NODES:
            if self.count == MAX_NODES + 1 or len(ancestors) == MAX_DEPTH:
                self.warnings.append(f"the screen is too large (over {MAX_NODES} components or {MAX_DEPTH} levels "
                                     "deep); the rest is not drawn")
            return Node(cid, iid, "Limit", {}, scope)
        node = Node(cid, iid, entry["type"], entry["props"], scope, entry.get("weight"))
        node.children = self._children(node, suffix, (*ancestors, cid))
        return node

    def _children(self, node: Node, suffix: str, ancestors: tuple[str, ...]) -> list[Node]:
        p = node.props
        if node.kind in ("Row", "Column", "List"):
            children = p.get("children") or {}
            if children.get("explicitList") is not None:
                return [self.build(c, suffix, node.scope, ancestors) for c in children["explicitList"]]
            if children.get("template") is not None:
                return self._template(node, children["template"], suffix, ancestors)
            return []
        if node.kind in ("Card", "Button"):
            return [self.build(p["child"], suffix, node.scope, ancestors)]
        return []  # leaves, and the placeholder-drawn Tabs/Modal/Video/AudioPlayer

    def _template(self, node: Node, template: dict[str, Any], suffix: str, ancestors: tuple[str, ...]) -> list[Node]:
        found, data, base = resolve_path(self.surface, template["dataBinding"], node.scope)
        if not found:
            self.warnings.append(f"'{node.cid}': template data {template['dataBinding']!r} is not in the data model; "
                                 "no children drawn")
            return []
        if isinstance(data, dict):
            keys = list(data)
        elif isinstance(data, list):
            keys = [str(i) for i in range(len(data))]
        else:
            self.warnings.append(f"'{node.cid}': template data {template['dataBinding']!r} is a "
                                 f"{type(data).__name__}, not a list or map; no children drawn")
            return []
        return [self.build(template["componentId"], f"{suffix}@{k}", join_pointer(base, _escape(k)), ancestors)
                for k in keys]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def build_tree(surface: Surface, warnings: list[str] | None = None) -> Node:
    """The drawn tree of ``surface`` from its root (a Missing node when the root is undefined)."""
    sink = warnings if warnings is not None else []
    return _Builder(surface, sink).build(surface.root or "root", "", "", ())


def find(tree: Node, iid: str) -> Node | None:
    """The node with this instance id, or the only instance of this component id (None when ambiguous)."""
    nodes = [n for n in tree.walk() if n.kind not in ("Missing", "Cycle", "Limit")]
    exact = next((n for n in nodes if n.iid == iid), None)
    if exact is not None:
        return exact
    same = [n for n in nodes if n.cid == iid]
    return same[0] if len(same) == 1 else None


# ------------------------------------------------------------------------------------------ bindings
def resolve_path(surface: Surface, path: str, scope: str) -> tuple[bool, Any, str]:
    """``(found, value, absolute pointer)`` of a bound path.

    Inside a template (``scope`` set) a relative path (``name``) reads the current entry; an absolute path
    (``/name``) reads the entry first, then the whole model, so both styles work in templates.
    """
    text = path.strip()
    if text in (".", "./"):
        text = ""
    candidates = []
    if scope and (not text.startswith("/") or split_pointer(text)):
        candidates.append(join_pointer(scope, text))
    candidates.append(join_pointer("", text))
    for pointer in candidates:
        found, value = get_at(surface.data, pointer)
        if found:
            return True, value, pointer
    return False, None, candidates[0]


def bound(surface: Surface, value: dict[str, Any] | None, scope: str) -> tuple[bool, Any]:
    """``(found, value)`` of a bound value: the data at its path, else its literal."""
    if not isinstance(value, dict):
        return False, None
    path = value.get("path")
    if isinstance(path, str):
        found, data, _ = resolve_path(surface, path, scope)
        if found:
            return True, data
    for key in _LITERALS:
        if key in value:
            return True, value[key]
    return False, None


def bound_text(surface: Surface, value: dict[str, Any] | None, scope: str) -> str:
    """Display text of a bound value; an unresolved path shows as ``[path]``."""
    found, data = bound(surface, value, scope)
    if found:
        return display(data)
    if isinstance(value, dict) and isinstance(value.get("path"), str):
        return f"[{value['path']}]"
    return ""


def write_pointer(surface: Surface, value: dict[str, Any] | None, scope: str) -> str | None:
    """The absolute pointer a field writes to, or None when it is bound to a literal only."""
    if not isinstance(value, dict) or not isinstance(value.get("path"), str):
        return None
    found, _, pointer = resolve_path(surface, value["path"], scope)
    if found:
        return pointer
    text = value["path"].strip()
    return join_pointer(scope, text) if scope and not text.startswith("/") else join_pointer("", text)


def display(value: Any) -> str:
    """A data value as shown on screen: integral floats without '.0', booleans in lower case."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def field_value(surface: Surface, node: Node) -> tuple[bool, Any]:
    """``(found, value)`` of an input component: what the user entered, else its binding."""
    if node.iid in surface.local_values:
        return True, surface.local_values[node.iid]
    prop = INPUT_VALUE_PROP.get(node.kind)
    return bound(surface, node.props.get(prop), node.scope) if prop else (False, None)
