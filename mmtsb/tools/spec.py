"""The ``@tool`` decorator and :class:`ToolSpec`: one typed function is the whole definition of a tool.

Everything else about a tool (its OpenAI function schema, its search document, its catalog-style
parameter list, its validation) is derived here from the signature and the Google-style docstring.
"""

from __future__ import annotations

import enum
import inspect
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, Union
from collections.abc import Callable

import docstring_parser
from pydantic import TypeAdapter

from mmtsb.tools.types import NOT_GIVEN, ImageId, NotGiven

Role = Literal["agent", "user"]
_TOOL_ATTR = "__mmtsb_tool__"


@dataclass(frozen=True)
class Requirements:
    """Device state a tool depends on (checked before every call)."""

    network: bool = False            # wifi or cellular must be on
    wifi: bool = False               # wifi specifically (web search)
    auth: str | None = None          # app whose login session is required
    token_of: str | None = None      # app whose token is read without a login decorator (phone)
    location: bool = False           # location service must be on


@dataclass(frozen=True)
class ParamSpec:
    """One parameter as the catalog describes it, plus what validation needs."""

    name: str
    annotation: Any
    core_type: Any                   # the annotation without None/NotGiven
    required: bool
    default: Any
    description: str
    nullable: bool                   # explicit None accepted

    @property
    def catalog_type(self) -> str:
        return catalog_type_string(self.annotation)

    @property
    def catalog_default(self) -> Any:
        if self.required:
            return None
        if self.default is NOT_GIVEN:
            return "NOT_GIVEN"
        if isinstance(self.default, enum.Enum):
            return self.default.value
        return self.default


@dataclass(frozen=True)
class ToolSpec:
    """A registered tool."""

    name: str
    domain: str
    fn: Callable[..., Any]
    params: tuple[ParamSpec, ...]
    summary: str
    description: str
    returns: str
    visible_to: tuple[Role, ...]
    mutates: bool
    requires: Requirements
    tables: tuple[str, ...]
    needs_context: bool
    #: names of FULL tools a reduced-level tool absorbs (searched together with its own name)
    absorbs: tuple[str, ...] = ()
    _adapters: dict[str, TypeAdapter] = field(default_factory=dict, compare=False, repr=False)

    @property
    def param_names(self) -> list[str]:
        return [p.name for p in self.params]

    def param(self, name: str) -> ParamSpec | None:
        return next((p for p in self.params if p.name == name), None)

    def adapter(self, p: ParamSpec) -> TypeAdapter:
        ad = self._adapters.get(p.name)
        if ad is None:
            ad = TypeAdapter(p.core_type)
            self._adapters[p.name] = ad
        return ad

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema (``{"type": "function", "function": {...}}``)."""
        props = {p.name: param_json_schema(p) for p in self.params}
        return {"type": "function", "function": {
            "name": self.name,
            "description": self.description,
            "parameters": {"type": "object", "properties": props,
                           "required": [p.name for p in self.params if p.required]},
        }}

    def doc_entry(self) -> dict[str, Any]:
        """The full documentation record (code-exec discovery results)."""
        return {"app_name": self.domain, "tool_name": self.name, "description": self.summary,
                "parameters": [{"name": p.name, "type": p.catalog_type, "required": p.required,
                                "description": p.description, "default": _jsonable(p.catalog_default)}
                               for p in self.params],
                "returns": self.returns}

    def search_text(self) -> str:
        """What discovery search indexes: name, name words, domain, docs and absorbed names."""
        words = self.name.replace("_", " ")
        absorbed = " ".join(n + " " + n.replace("_", " ") for n in self.absorbs)
        params = " ".join(f"{p.name.replace('_', ' ')} {p.description}" for p in self.params)
        return f"{self.name} {words} {self.domain} {self.summary} {self.description} {params} {absorbed}"


def tool(*, domain: str, mutates: bool = False, visible_to: tuple[Role, ...] = ("agent",),
         requires: Requirements = Requirements(), tables: tuple[str, ...] = (), name: str | None = None,
         needs_context: bool = False, absorbs: tuple[str, ...] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a plain typed function as a tool.

    The function's first parameter receives the World (or, with ``needs_context``, the
    :class:`~mmtsb.tools.session.ToolSession`); the others are the tool's parameters. The function stays
    callable as before; the registry reads the attached :class:`ToolSpec`.
    """

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        spec = build_spec(fn, domain=domain, mutates=mutates, visible_to=visible_to, requires=requires,
                          tables=tables, name=name or fn.__name__, needs_context=needs_context, absorbs=absorbs)
        setattr(fn, _TOOL_ATTR, spec)
        return fn

    return wrap


def spec_of(obj: Any) -> ToolSpec | None:
    """The ToolSpec attached by ``@tool``, if any."""
    return getattr(obj, _TOOL_ATTR, None)


def build_spec(fn: Callable[..., Any], *, domain: str, mutates: bool, visible_to: tuple[Role, ...],
               requires: Requirements, tables: tuple[str, ...], name: str, needs_context: bool,
               absorbs: tuple[str, ...]) -> ToolSpec:
    doc = docstring_parser.parse(inspect.getdoc(fn) or "")
    if not doc.short_description:
        raise TypeError(f"tool {name}: a docstring summary is required (it is what the agent reads)")
    arg_docs = {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}
    hints = typing.get_type_hints(fn)
    sig = inspect.signature(fn)
    params = []
    for i, (pname, p) in enumerate(sig.parameters.items()):
        if i == 0:
            continue  # world / session
        if pname not in hints:
            raise TypeError(f"tool {name}: parameter {pname!r} needs a type hint")
        ann = hints[pname]
        required = p.default is inspect.Parameter.empty
        params.append(ParamSpec(name=pname, annotation=ann, core_type=_core_type(ann), required=required,
                                default=None if required else p.default, description=arg_docs.get(pname, ""),
                                nullable=_accepts_none(ann)))
    missing_docs = [p.name for p in params if not p.description]
    if missing_docs:
        raise TypeError(f"tool {name}: document every parameter in the docstring's Args section "
                        f"(missing: {missing_docs})")
    returns = " ".join((doc.returns.description if doc.returns else "").split())
    summary = doc.short_description.strip()
    description = summary
    if doc.long_description:
        description += "\n\n" + doc.long_description.strip()
    if returns:
        description += f"\n\nReturns: {returns}"
    return ToolSpec(name=name, domain=domain, fn=fn, params=tuple(params), summary=summary,
                    description=description, returns=returns, visible_to=tuple(visible_to), mutates=mutates,
                    requires=requires, tables=tuple(tables), needs_context=needs_context, absorbs=tuple(absorbs))


# ---------------------------------------------------------------------------------------------- types
def _union_args(ann: Any) -> tuple[Any, ...] | None:
    origin = typing.get_origin(ann)
    if origin is Union or origin is types.UnionType:
        return typing.get_args(ann)
    return None


def _core_type(ann: Any) -> Any:
    """The annotation without ``None`` and ``NotGiven``."""
    args = _union_args(ann)
    if args is None:
        return ann
    kept = [a for a in args if a is not type(None) and a is not NotGiven]
    if len(kept) == 1:
        return kept[0]
    return Union[tuple(kept)]  # type: ignore[return-value]  # noqa: UP007 (a runtime-built union)


def _accepts_none(ann: Any) -> bool:
    args = _union_args(ann)
    return ann is Any or (args is not None and type(None) in args)


def _type_name(t: Any) -> str:
    if t is ImageId:
        return "ImageId"
    if t is Any:
        return "Any"
    if isinstance(t, type) and issubclass(t, enum.Enum):
        return t.__name__
    origin = typing.get_origin(t)
    if origin is list:
        (inner,) = typing.get_args(t) or (Any,)
        return f"list[{_type_name(inner)}]"
    if origin is dict or t is dict:
        return "dict"
    if origin is Literal:
        return "str"
    if isinstance(t, type):
        return t.__name__
    return str(t)


def catalog_type_string(ann: Any) -> str:
    """Render an annotation the way tool_catalog.json writes types: ``int|None``, ``list[str]|None``."""
    args = _union_args(ann)
    if args is None:
        return _type_name(ann)
    parts = [_type_name(a) for a in args if a is not type(None) and a is not NotGiven]
    if type(None) in args:
        parts.append("None")
    return "|".join(parts)


def _json_type(t: Any) -> dict[str, Any]:
    if t is ImageId or t is int:
        return {"type": "integer"}
    if t is float:
        return {"type": "number"}
    if t is str:
        return {"type": "string"}
    if t is bool:
        return {"type": "boolean"}
    if isinstance(t, type) and issubclass(t, enum.Enum):
        return {"type": "string", "enum": [m.value for m in t]}
    origin = typing.get_origin(t)
    if origin is Literal:
        return {"type": "string", "enum": list(typing.get_args(t))}
    if origin is list:
        (inner,) = typing.get_args(t) or (Any,)
        return {"type": "array", "items": _json_type(inner)} if inner is not Any else {"type": "array"}
    args = _union_args(t)
    if args is not None:
        if set(args) == {int, float}:
            return {"type": "number"}
        return {"anyOf": [_json_type(a) for a in args]}
    return {"type": "object"}


def param_json_schema(p: ParamSpec) -> dict[str, Any]:
    schema = _json_type(p.core_type)
    if p.description:
        schema = {**schema, "description": p.description}
    if not p.required and p.default is not NOT_GIVEN and p.default is not None:
        schema = {**schema, "default": _jsonable(p.catalog_default)}
    return schema


def _jsonable(v: Any) -> Any:
    return v.value if isinstance(v, enum.Enum) else v
