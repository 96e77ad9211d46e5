"""What a screen is made of, read from its component tree: structure summaries for the UI judges and the
choice a scripted user makes on a shown screen.

- :func:`structure` summarises one drawn surface (component counts by type, nesting depth, buttons with
  their labels and actions, inputs, repeated item groups); :func:`describe` writes it as the one-line
  summary the UI judge reads ("K components (counts by type); depth D; buttons: "label" (action)").
- :func:`find_choice` finds the button a user would press to pick an option named by visible text (a
  button label, a value the button sends, or the text of the card/row holding exactly one button).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from mmtsb.ui.elements import INTERACTIVE, button_label
from mmtsb.ui.state import Surface
from mmtsb.ui.tree import Node, bound, bound_text, build_tree, display

#: components that only lay other components out (a screen of these plus Text is a "text dump")
LAYOUT = ("Column", "Row", "List", "Card", "Divider")
_NOT_DRAWN = ("Missing", "Cycle", "Limit")


@dataclass
class ButtonInfo:
    """One button as the user sees it."""

    iid: str
    label: str
    action: str
    context: dict[str, Any] = field(default_factory=dict)


@dataclass
class Structure:
    """The shape of one drawn surface."""

    surface_id: str
    components: int
    counts: dict[str, int]
    depth: int
    buttons: list[ButtonInfo]
    inputs: list[str]
    #: the largest number of sibling items a template or an explicit list repeats (0: no repetition)
    repeated_items: int

    @property
    def text_only(self) -> bool:
        """Only Text and layout components: information with nothing to act on."""
        return all(k == "Text" or k in LAYOUT for k in self.counts) and self.counts.get("Text", 0) > 0

    @property
    def interactive(self) -> bool:
        return bool(self.buttons or self.inputs)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["text_only"] = self.text_only
        return out


def button_context(surface: Surface, node: Node) -> dict[str, Any]:
    """The values a button's action would send, resolved against the data model."""
    action = node.props.get("action") or {}
    return {str(e.get("key")): bound(surface, e.get("value"), node.scope)[1] for e in action.get("context") or []}


def _depth(node: Node) -> int:
    return 1 + max((_depth(c) for c in node.children), default=0)


#: containers that make an "item" when several of them sit side by side (a card per contact, a row per product)
ITEM_KINDS = ("Card", "Row", "Column")


def _repeated(node: Node) -> int:
    """The largest group of sibling items: template repetitions of one component, or several cards/rows/
    columns in the same list (plain Text siblings are not items)."""
    best = 0
    kids = [c for c in node.children if c.kind not in _NOT_DRAWN]
    if len(kids) > 1 and node.kind in ("List", "Column", "Row"):
        groups = Counter(c.cid.split("@")[0] if "@" in c.iid else c.kind for c in kids
                         if "@" in c.iid or c.kind in ITEM_KINDS)
        best = max(groups.values(), default=0)
        best = best if best > 1 else 0
    return max([best, *(_repeated(c) for c in kids)])


def structure(surface: Surface, tree: Node | None = None) -> Structure:
    """The structure of a surface as it is drawn (templates expanded)."""
    tree = tree if tree is not None else build_tree(surface)
    drawn = [n for n in tree.walk() if n.kind not in _NOT_DRAWN]
    counts = dict(sorted(Counter(n.kind for n in drawn).items(), key=lambda kv: (-kv[1], kv[0])))
    buttons = [ButtonInfo(n.iid, button_label(surface, n), str((n.props.get("action") or {}).get("name", "")),
                          button_context(surface, n)) for n in drawn if n.kind == "Button"]
    inputs = [f"{n.kind} {n.iid}" for n in drawn if n.kind in INTERACTIVE and n.kind != "Button"]
    return Structure(surface.surface_id, len(drawn), counts, _depth(tree) if drawn else 0, buttons, inputs,
                     _repeated(tree))


def describe(s: Structure | dict[str, Any]) -> str:
    """``12 components (Text 6, Button 2, ...); depth 4; buttons: "Pick" (choose) x2; inputs: ...``."""
    d = s.to_dict() if isinstance(s, Structure) else s
    counts = ", ".join(f"{k} {v}" for k, v in d["counts"].items()) or "nothing drawn"
    labels: Counter[tuple[str, str]] = Counter((b["label"], b["action"]) for b in d["buttons"])
    buttons = "; ".join(f'"{label}" ({action})' + (f" x{n}" if n > 1 else "")
                        for (label, action), n in labels.items()) or "none"
    parts = [f"{d['components']} components ({counts})", f"depth {d['depth']}", f"buttons: {buttons}"]
    if d["inputs"]:
        parts.append(f"inputs: {', '.join(d['inputs'])}")
    if d["repeated_items"]:
        parts.append(f"repeated items: {d['repeated_items']}")
    if d.get("text_only"):
        parts.append("text only")
    return "; ".join(parts)


# ------------------------------------------------------------------------------------------ choosing
def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _texts(surface: Surface, node: Node) -> str:
    """Every visible text inside a node, joined."""
    out = []
    for n in node.walk():
        if n.kind == "Text":
            out.append(bound_text(surface, n.props.get("text"), n.scope))
        elif n.kind in ("TextField", "CheckBox", "Slider"):
            out.append(bound_text(surface, n.props.get("label"), n.scope))
        elif n.kind == "MultipleChoice":
            out += [bound_text(surface, o.get("label"), n.scope) for o in n.props.get("options") or []]
    return " ".join(t for t in out if t)


def _buttons(node: Node) -> list[Node]:
    return [n for n in node.walk() if n.kind == "Button"]


def find_choice(surface: Surface, choose: str, tree: Node | None = None) -> ButtonInfo | None:
    """The button that picks the option named ``choose`` (case-insensitive), or None.

    In order: a button whose label contains the text; a button whose action sends a value containing it;
    the only button inside the smallest container (card, row, column, list item) whose text contains it.
    """
    tree = tree if tree is not None else build_tree(surface)
    want = _norm(choose)
    if not want:
        return None
    buttons = _buttons(tree)

    def info(n: Node) -> ButtonInfo:
        return ButtonInfo(n.iid, button_label(surface, n), str((n.props.get("action") or {}).get("name", "")),
                          button_context(surface, n))

    for n in buttons:
        if want in _norm(button_label(surface, n)):
            return info(n)
    for n in buttons:
        if any(want in _norm(display(v)) for v in button_context(surface, n).values() if v is not None):
            return info(n)
    best: tuple[int, Node] | None = None
    for container in tree.walk():
        if container.kind == "Button" or not container.children:
            continue
        inside = _buttons(container)
        if len(inside) != 1 or want not in _norm(_texts(surface, container)):
            continue
        size = sum(1 for _ in container.walk())
        if best is None or size < best[0]:
            best = (size, inside[0])
    return info(best[1]) if best else None
