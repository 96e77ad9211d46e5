"""The UI documentation served by the discovery tools: categories, items, lookup and a ranked text search.

Categories: Concepts and the server/client actions (hand-written, :mod:`mmtsb.ui.docs_text`), Components
(descriptions and properties from :mod:`mmtsb.ui.models` plus a usage example each) and Examples (the
project's own screens, :mod:`mmtsb.ui.examples`).
"""

from __future__ import annotations

import difflib
import functools
import json
import re
import types
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from mmtsb.ui import docs_text
from mmtsb.ui.examples import EXAMPLES
from mmtsb.ui.models import COMPONENTS, MESSAGES

CATEGORIES: dict[str, str] = {
    "Concepts": "how A2UI screens work: messages, components, data binding, templates, actions, images, workflow",
    "Components": "the 18 component types of the standard catalog, with properties and a usage example",
    "Server Actions": "the four messages you send: surfaceUpdate, dataModelUpdate, beginRendering, deleteSurface",
    "Client Actions": "what comes back when the user interacts: userAction",
    "Examples": "complete example screens written for this toolbox (booking form, contact list, ...)",
}
_PLACEHOLDER_TYPES = {"Video", "AudioPlayer", "Tabs", "Modal"}


@dataclass(frozen=True)
class DocItem:
    """One documentation entry."""

    category: str
    name: str
    description: str
    content: str

    @property
    def line(self) -> str:
        return f"{self.name}: {self.description}"


# ------------------------------------------------------------------------------------------ building
def _type_text(ann: Any) -> str:
    origin = typing.get_origin(ann)
    args = [a for a in typing.get_args(ann) if a is not type(None)]
    if origin is typing.Literal:
        return " | ".join(json.dumps(a) for a in typing.get_args(ann))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_type_text(a) for a in args)
    if origin is list:
        return f"list of {_type_text(args[0])}" if args else "list"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return "{" + ", ".join(ann.model_fields) + "}"
    return getattr(ann, "__name__", str(ann))


def properties_text(model: type[BaseModel]) -> str:
    """One line per property: name, type, required or optional, description."""
    lines = []
    for name, f in model.model_fields.items():
        need = "required" if f.is_required() else "optional"
        about = f" - {f.description}" if f.description else ""
        lines.append(f"- {name} ({need}): {_type_text(f.annotation)}{about}")
    return "\n".join(lines)


def _component_item(name: str, model: type[BaseModel], example: list[dict[str, Any]]) -> DocItem:
    description = (model.__doc__ or name).strip().splitlines()[0]
    note = "\nScreenshots show it as a grey placeholder." if name in _PLACEHOLDER_TYPES else ""
    content = (f"{name}: {description}{note}\n\nProperties:\n{properties_text(model)}\n\nUsage (components of a "
               f"surfaceUpdate):\n{json.dumps(example, indent=1)}")
    return DocItem("Components", name, description, content)


def _example_item(name: str, description: str, build: Any) -> DocItem:
    messages = build()
    content = (f"{name}: {description}\n\nrender_ui_screen(ui_json=...) with:\n"
               f"{json.dumps(messages, indent=1)}")
    return DocItem("Examples", name, description, content)


@functools.cache
def all_items() -> tuple[DocItem, ...]:
    items = [DocItem("Concepts", n, d, f"{n}: {d}\n\n{body}") for n, (d, body) in docs_text.CONCEPTS.items()]
    examples = docs_text.component_examples()
    items += [_component_item(n, m, examples[n]) for n, m in COMPONENTS.items()]
    for name, (desc, body) in docs_text.SERVER_ACTIONS.items():
        fields = properties_text(MESSAGES[name])
        items.append(DocItem("Server Actions", name, desc, f"{name}: {desc}\n\nFields:\n{fields}\n\nExample:\n{body}"))
    items += [DocItem("Client Actions", n, d, f"{n}: {d}\n\n{body}")
              for n, (d, body) in docs_text.CLIENT_ACTIONS.items()]
    items += [_example_item(n, d, b) for n, (d, b) in EXAMPLES.items()]
    return tuple(items)


# ------------------------------------------------------------------------------------------ lookup
def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def resolve_category(category: str) -> str:
    """The category named by ``category`` (case, spaces and a plural 's' are ignored)."""
    wanted = _norm(str(category)).rstrip("s")
    for name in CATEGORIES:
        if _norm(name).rstrip("s") == wanted:
            return name
    close = difflib.get_close_matches(str(category), list(CATEGORIES), n=1, cutoff=0.5)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"Unknown category {category!r}.{hint} Categories: {', '.join(CATEGORIES)}.")


def items_in(category: str) -> list[DocItem]:
    name = resolve_category(category)
    return [i for i in all_items() if i.category == name]


def item_details(category: str, item_name: str) -> DocItem:
    """The item ``item_name`` of ``category`` (case and separators ignored)."""
    items = items_in(category)
    wanted = _norm(str(item_name))
    for item in items:
        if _norm(item.name) == wanted:
            return item
    elsewhere = [i for i in all_items() if _norm(i.name) == wanted]
    if elsewhere:
        raise ValueError(f"{item_name!r} is not in {items[0].category!r}; it is in {elsewhere[0].category!r}: call "
                         f"ui_get_item_details(category={elsewhere[0].category!r}, item_name={elsewhere[0].name!r}).")
    names = [i.name for i in items]
    close = difflib.get_close_matches(str(item_name), names, n=1, cutoff=0.5)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise ValueError(f"No item {item_name!r} in {items[0].category!r}.{hint} Items: {', '.join(names)}.")


# ------------------------------------------------------------------------------------------ search
def _words(text: str) -> list[str]:
    """Lower-case words; camelCase and snake_case names are split (DateTimeInput -> date time input)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return re.findall(r"[a-z0-9]+", spaced.lower())


def _stem(term: str) -> str:
    """A crude stem used as a word prefix: pickers -> picker, templated -> templat, lists -> list.

    Not :func:`mmtsb.text.plural_stem`: doc words are matched unstemmed by prefix, so a query term is only
    cut short (entries -> entri still starts "entries"; plural_stem's "entry" would not)."""
    for suffix in ("ing", "ed", "es", "s"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 4:
            return term[: -len(suffix)]
    return term


@functools.cache
def _index(item: DocItem) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    return tuple(_words(item.name)) + (item.name.lower(),), tuple(_words(item.description)), \
        tuple(_words(item.content))


def score(item: DocItem, terms: list[str], query: str) -> float:
    """Per query term: +10 when a name word starts with it, +5 for a description word, +1 per content word
    (at most 5); +15 when the whole query is the item's name."""
    name, desc, content = _index(item)
    total = 0.0
    for term in terms:
        stem = _stem(term)
        if any(w.startswith(stem) for w in name):
            total += 10
        if any(w.startswith(stem) for w in desc):
            total += 5
        total += min(sum(1 for w in content if w.startswith(stem)), 5)
    if _norm(query) and _norm(query) == _norm(item.name):
        total += 15
    return total


def search(query: str, limit: int = 10) -> list[tuple[DocItem, float]]:
    """The best matching items, most relevant first."""
    terms = list(dict.fromkeys(_words(query)))
    ranked = [(item, score(item, terms, query)) for item in all_items()]
    ranked = [(i, s) for i, s in ranked if s > 0]
    ranked.sort(key=lambda pair: -pair[1])  # stable: ties keep the category order
    return ranked[:limit]


# ------------------------------------------------------------------------------------------ quick start
def quick_start() -> str:
    booking = json.dumps(EXAMPLES["booking_form"][1](), indent=1)
    components = "\n".join(f"- {i.line}" for i in items_in("Components"))
    examples = "\n".join(f"- {i.line}" for i in items_in("Examples"))
    return f"""\
A2UI v0.8 QUICK START

FORMAT: render_ui_screen(ui_json=[message, ...]). A message is an object with exactly one key:
- surfaceUpdate {{surfaceId, components: [{{id, component: {{"<Type>": {{...properties}}}}, weight?}}]}}
- dataModelUpdate {{surfaceId, path?, contents: [{{key, valueString|valueNumber|valueBoolean|valueMap}}]}}
- beginRendering {{surfaceId, root}}   (send it last: it decides what is drawn)
- deleteSurface {{surfaceId}}

PATTERNS:
- Components form a flat list and refer to children by id: Column/Row/List "children": {{"explicitList": [ids]}}
  or {{"template": {{"componentId", "dataBinding"}}}}; Card and Button "child": id (a Button's child is its Text label).
- Values are {{"literalString": "..."}} or {{"path": "/json/pointer"}} into the data model (dataModelUpdate).
- Inputs (TextField text, DateTimeInput value, Slider value, CheckBox value, MultipleChoice selections) should
  bind to paths; a Button's action {{"name", "context": [{{"key", "value": {{"path": ...}}}}]}} reads them when clicked.
- Images of this conversation: url {{"literalString": "IMAGE_URL_1"}} and
  render_ui_screen(..., image_placeholders={{"IMAGE_URL_1": <image id>}}).
- Then call show_ui_to_user() and wait: the user's click comes back as a <ui_state_server> User Interaction message.

FULL EXAMPLE (booking_form):
{booking}

COMPONENTS:
{components}

EXAMPLES (ui_get_item_details("Examples", name)):
{examples}

More: ui_explore_capabilities(), ui_list_items(category), ui_get_item_details(category, item_name),
ui_search_docs(query)."""
