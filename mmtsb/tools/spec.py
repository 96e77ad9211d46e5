"""The ``@tool`` decorator and :class:`ToolSpec`: one typed function is the whole definition of a tool.

Everything else about a tool (its OpenAI function schema, its search document, its catalog-style
parameter list, its validation) is derived here from the signature and the Google-style docstring. The
arguments of a call are validated by one pydantic model per tool (:attr:`ToolSpec.arguments_model`), and the
tool's JSON schema is that model's ``model_json_schema()`` brought to the function-calling shape.
"""

from __future__ import annotations

import copy
import enum
import functools
import inspect
import types
import typing
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union
from collections.abc import Callable, Sequence

import docstring_parser
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

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
    #: a reduced-level tool's router: the FULL tool a call with these arguments runs (raises if none)
    route: Callable[[dict[str, Any]], str] | None = field(default=None, compare=False, repr=False)

    @property
    def param_names(self) -> list[str]:
        return [p.name for p in self.params]

    def param(self, name: str) -> ParamSpec | None:
        return next((p for p in self.params if p.name == name), None)

    @functools.cached_property
    def arguments_model(self) -> type[BaseModel]:
        """The pydantic model that validates this tool's arguments and gives its JSON schema (built on first
        use)."""
        return arguments_model(self.name, self.params)

    @functools.cached_property
    def _parameters_schema(self) -> dict[str, Any]:
        return parameters_schema(self.arguments_model)

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema (``{"type": "function", "function": {...}}``), a fresh copy."""
        return {"type": "function", "function": {
            "name": self.name,
            "description": self.description,
            "parameters": copy.deepcopy(self._parameters_schema),
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


# ----------------------------------------------------------------------------------- arguments model
#: what a parameter of any type is advertised as (function schemas of some providers need a type)
_ANY_SCHEMA: dict[str, Any] = {"type": "object"}
#: keyword order of a parameter's schema: the type first, then what describes it
_KEY_ORDER = ("type", "enum", "items", "additionalProperties", "anyOf")
_LAST_KEYS = ("description", "default")


def _not_given() -> Any:
    return NOT_GIVEN


def arguments_model(name: str, params: Sequence[ParamSpec]) -> type[BaseModel]:
    """A pydantic model with one field per parameter: the core type (a required nullable one also takes
    None), the docstring's description and the default (``NOT_GIVEN`` comes from a factory, so it never shows
    in the schema). Field names that BaseModel uses itself become aliases."""
    fields: dict[str, Any] = {}
    for p in params:
        ann: Any = p.core_type
        if ann is Any:
            ann = Annotated[Any, WithJsonSchema(_ANY_SCHEMA)]
        elif p.required and p.nullable:
            ann = ann | None
        key = f"arg_{p.name}" if hasattr(BaseModel, p.name) or p.name.startswith("_") else p.name
        extra: dict[str, Any] = {"alias": p.name} if key != p.name else {}
        if p.required:
            info = Field(..., description=p.description, **extra)
        elif p.default is NOT_GIVEN:
            info = Field(default_factory=_not_given, description=p.description, **extra)
        else:
            info = Field(default=p.default, description=p.description, **extra)
        fields[key] = (ann, info)
    return create_model(f"{name}_arguments", __config__=ConfigDict(protected_namespaces=()), **fields)


def parameters_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model.model_json_schema()`` in the function-calling shape: ``{"type": "object", "properties",
    "required"}`` with ``$ref``s inlined, no titles, no null defaults and one-value literals as enums."""
    raw = model.model_json_schema()
    defs = raw.get("$defs", {})
    return {"type": "object",
            "properties": {k: _plain(v, defs) for k, v in raw.get("properties", {}).items()},
            "required": list(raw.get("required", []))}


def _plain(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
    out: dict[str, Any] = {}
    for k, v in node.items():
        if k == "title" or (k == "default" and v is None):
            continue
        if k == "const":
            k, v = "enum", [v]
        elif k in ("items", "additionalProperties") and isinstance(v, dict):
            v = _plain(v, defs)
        elif k == "anyOf":
            v = [_plain(x, defs) for x in v]
        elif k == "properties":
            v = {name: _plain(x, defs) for name, x in v.items()}
        out[k] = v
    first = [k for k in _KEY_ORDER if k in out]
    last = [k for k in _LAST_KEYS if k in out]
    return {k: out[k] for k in first + [k for k in out if k not in first and k not in last] + last}


def _jsonable(v: Any) -> Any:
    return v.value if isinstance(v, enum.Enum) else v
