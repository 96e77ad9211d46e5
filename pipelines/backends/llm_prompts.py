"""Prompt files of the LLM backend and what fills them: section loading, a ``{{name}}`` renderer, and the
compact descriptions (JSON schemas, people, tables, tool signatures) the prompts embed.

Why a ``{{name}}`` renderer and not ``str.format``/``string.Template``: the prompts quote JSON (braces) and
solution references (``$name.path``), which both of those would try to interpret.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel

__all__ = ["IMAGES", "MAIN_USER_IDS", "compact_schema", "load_sections", "people_block", "render", "section",
           "split_images", "table_schema", "tool_signatures"]

_PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")
_HEADER = re.compile(r"^## (.+?)\s*$", re.MULTILINE)
#: the placeholder a user section uses for where the image parts go (see :func:`split_images`)
IMAGES = "images"
_IMAGE_MARK = "\x00IMAGES\x00"

#: base people offered as the scenario's main user (ids and identities of mmtsb/world/people.py)
MAIN_USER_IDS = (50, 55, 22, 66, 98, 105, 12, 20)


@functools.cache
def load_sections(name: str) -> dict[str, str]:
    """The ``## <title>`` sections of ``pipelines/prompts/<name>.md`` (title -> body, stripped); the text
    before the first header documents the file and is never sent."""
    text = importlib.resources.files("pipelines").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")
    heads = list(_HEADER.finditer(text))
    out: dict[str, str] = {}
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out[head.group(1)] = text[head.end():end].strip()
    return out


def section(name: str, title: str) -> str:
    """One section of a prompt file; a missing one is a bug of ours, so it raises KeyError naming both."""
    sections = load_sections(name)
    if title not in sections:
        raise KeyError(f"prompt {name}.md has no section '## {title}' (has: {', '.join(sections)})")
    return sections[title]


def render(template: str, values: Mapping[str, Any]) -> str:
    """Fill every ``{{name}}`` of ``template`` in one pass (inserted text is not scanned again); a
    placeholder without a value raises KeyError. ``{{images}}`` becomes a marker for :func:`split_images`."""
    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == IMAGES and key not in values:
            return _IMAGE_MARK
        if key not in values:
            raise KeyError(f"prompt placeholder {{{{{key}}}}} has no value")
        return str(values[key])

    return _PLACEHOLDER.sub(fill, template)


def split_images(text: str) -> tuple[str, str]:
    """The rendered text before and after the image block (all before it when the template has none)."""
    before, _, after = text.partition(_IMAGE_MARK)
    return before.rstrip(), after.lstrip()


@functools.cache
def compact_schema(model: type[BaseModel]) -> str:
    """``model``'s JSON schema as one compact line (titles dropped: they only repeat the field names). Made once
    per model class: generating it costs milliseconds, more than the rest of a request's preparation."""
    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "title" or not isinstance(v, str)}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return json.dumps(strip(model.model_json_schema()), separators=(",", ":"))


def people_block(ids: Iterable[int] = MAIN_USER_IDS) -> str:
    """One line per offered base person: ``- id 50: Brenda Webster <brenda.webe@gmail.com>``."""
    from mmtsb.world.people import KNOWN_PEOPLE

    return "\n".join(f"   - id {uid}: {KNOWN_PEOPLE[uid][0]} {KNOWN_PEOPLE[uid][1]} <{KNOWN_PEOPLE[uid][2]}>"
                     for uid in ids if uid in KNOWN_PEOPLE)


@functools.cache
def _tables_by_key() -> dict[str, Any]:
    from mmtsb.apps import all_tables

    return {t.key: t for t in all_tables()}


@functools.cache
def _specs() -> dict[str, Any]:
    from mmtsb.tools.toolbox import full_registry

    return {s.name: s for s in full_registry()}


def _domain_tool_names(domain: str) -> list[str]:
    from pipelines.catalog import domain_tools

    return [name for name, _ in domain_tools().get(domain, ())]


def table_schema(domain: str, tools: Iterable[str] = ()) -> str:
    """The tables a scenario of ``domain`` can touch (those of the domain's tools and of ``tools``, plus the
    contacts table and the touched apps' users tables), one line each: ``key [source] (column:type, ...)``."""
    specs, tables = _specs(), _tables_by_key()
    keys: dict[str, None] = {}
    for name in [*_domain_tool_names(domain), *tools]:
        for key in getattr(specs.get(name), "tables", ()) or ():
            keys.setdefault(key, None)
    keys.setdefault("phone.contacts", None)
    for key in list(keys):
        if "." in key:
            keys.setdefault(key.split(".", 1)[0] + ".users", None)
    lines = []
    for key in keys:
        table = tables.get(key)
        if table is None or table.internal or key.startswith("supervisor."):
            continue
        source = "appworld table" if "." in key else "agentsandbox namespace"
        cols = ", ".join(f"{c.name}:{c.type}" for c in table.columns)
        lines.append(f"- {key} [{source}; key {table.primary_key}] ({cols})")
    return "\n".join(lines)


def _type_name(t: Any) -> str:
    return t.__name__ if isinstance(t, type) else str(t).replace("typing.", "")


def tool_signatures(domain: str, tools: Iterable[str] = (), extras: Iterable[str] = ("contacts_search_contacts",)) -> str:
    """``name(param: type, opt?: type) -> returns: summary`` for ``tools``, the domain's tools and ``extras``
    (the contact search most scenarios need to find a person), known names only, each once."""
    specs = _specs()
    names = list(dict.fromkeys([*tools, *_domain_tool_names(domain), *extras]))
    lines = []
    for name in names:
        spec = specs.get(name)
        if spec is None:
            continue
        params = ", ".join(f"{p.name}{'' if p.required else '?'}: {_type_name(p.core_type)}" for p in spec.params)
        returns = f" -> {spec.returns}" if spec.returns else ""
        lines.append(f"- {name}({params}){returns}: {spec.summary}")
    return "\n".join(lines)
