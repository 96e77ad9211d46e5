"""A ToolSession is the toolbox as one episode sees it: the World, the registry, the role rules, the
discovery working set, and the one entry point for calling a tool (:meth:`ToolSession.call`).

A call never raises: validation problems, missing device state and exceptions inside the tool all come
back as a :class:`ToolOutcome` with a structured :class:`ToolError`, and whatever the tool wrote before
failing is rolled back (the call runs in a World savepoint).
"""

from __future__ import annotations

import enum
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal
from collections.abc import Iterable

from pydantic import ValidationError

from mmtsb.tools.registry import ToolRegistry, UnknownToolError
from mmtsb.tools.spec import ParamSpec, Role, ToolSpec
from mmtsb.tools.types import NOT_GIVEN
from mmtsb.vision.store import ImageResult
from mmtsb.world import device
from mmtsb.world.world import World

Mode = Literal["tool_use", "code_exec"]


@dataclass(frozen=True)
class ToolError:
    """A failed call as the caller sees it: an exception type name and a message."""

    type: str
    message: str

    def __str__(self) -> str:
        return f"{self.type}: {self.message}"


@dataclass
class ToolOutcome:
    """The result of one call: the value or the error, with images produced and the duration."""

    tool: str
    arguments: dict[str, Any]
    value: Any = None
    error: ToolError | None = None
    images: list[int] = field(default_factory=list)
    duration_s: float = 0.0
    #: a reduced-level tool's call: the FULL tool it ran (tool recall compares FULL names with expected_tools)
    full_tool: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        out = {"tool": self.tool, "arguments": self.arguments, "ok": self.ok, "value": to_jsonable(self.value),
               "error": None if self.error is None else {"type": self.error.type, "message": self.error.message},
               "images": self.images, "duration_s": round(self.duration_s, 6)}
        if self.full_tool is not None:
            out["full_tool"] = self.full_tool
        return out


class ArgumentError(TypeError):
    """Wrong, missing or unknown arguments (the message names the tool and the parameter)."""

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        #: the parameter at fault, when there is one
        self.param = param


class WorkingSet:
    """The LRU set of discovered tools offered to a tool-use agent (capacity 100 in the reference)."""

    def __init__(self, capacity: int = 100, pinned: Iterable[str] = ()) -> None:
        self.capacity = capacity
        pinned = list(dict.fromkeys(pinned))  # keep the given order: names() stays deterministic
        self.pinned = set(pinned)
        self._lru: OrderedDict[str, None] = OrderedDict((p, None) for p in pinned)

    def __contains__(self, name: object) -> bool:
        return name in self._lru

    def __len__(self) -> int:
        return len(self._lru)

    def names(self) -> list[str]:
        """Least recently used first."""
        return list(self._lru)

    def touch(self, names: Iterable[str]) -> list[str]:
        """Add or refresh names (most recent last); returns the names evicted to stay within capacity."""
        for n in names:
            self._lru.pop(n, None)
            self._lru[n] = None
        evicted = []
        while len(self._lru) > self.capacity:
            victim = next((n for n in self._lru if n not in self.pinned), None)
            if victim is None:
                break
            del self._lru[victim]
            evicted.append(victim)
        return evicted


class ToolSession:
    """One episode's access to tools.

    Args:
        world: the episode's World.
        registry: the toolbox (a level's tools).
        mode: ``tool_use`` (discovery registers tools into the working set) or ``code_exec`` (all tools
            are available and discovery returns full docs).
        working_set: the LRU of discovered tools (tool-use mode); None offers every tool.
        search_method: how discovery ranks tools: ``bm25`` (ours) or ``reference`` (keyword scoring).
    """

    def __init__(self, world: World, registry: ToolRegistry, *, mode: Mode = "tool_use",
                 working_set: WorkingSet | None = None, search_method: Literal["bm25", "reference"] = "bm25") -> None:
        self.world = world
        self.registry = registry
        self.mode = mode
        self.working_set = working_set
        self.search_method = search_method
        #: runs agent code for the ``execute_code`` tool (the episode's sandbox interpreter), if any
        self.code_runner: Any = None
        self.history: list[ToolOutcome] = []

    def available(self, role: Role = "agent") -> list[ToolSpec]:
        """The tools this role may call right now (the working set, in tool-use mode with discovery)."""
        if role == "agent" and self.working_set is not None:
            return self.registry.visible_among(self.working_set.names(), role)
        return self.registry.visible_to(role)

    def call(self, name: str, arguments: dict[str, Any] | None = None, *, role: Role = "agent") -> ToolOutcome:
        """Validate and run one tool call atomically; never raises."""
        started = time.perf_counter()
        args_in = dict(arguments or {}) if isinstance(arguments, dict) else arguments
        outcome = ToolOutcome(tool=name, arguments=args_in if isinstance(args_in, dict) else {"_raw": args_in})
        try:
            spec = self.registry.get(name)
            if role not in spec.visible_to:
                raise PermissionError(f"Tool {name!r} is not available to the {role} "
                                      f"(it is for: {', '.join(spec.visible_to)}).")
            if role == "agent" and self.working_set is not None and name not in self.working_set:
                raise PermissionError(f"Tool {name!r} is not in your working set (it was never found or has been "
                                      "evicted); find it with api_docs_search_api_docs first.")
            kwargs = validate_arguments(spec, args_in)
            if spec.route is not None:
                outcome.full_tool = spec.route(kwargs)
            check_requirements(spec, self.world)
            target = self if spec.needs_context else self.world
            with self.world.savepoint():
                value = spec.fn(target, **kwargs)
            outcome.value = value
            outcome.images = collect_images(value)
            if self.working_set is not None and role == "agent":
                self.working_set.touch([name])
        except UnknownToolError as e:
            outcome.error = ToolError("UnknownToolError", str(e))
        except Exception as e:  # every tool failure is an observation, never a crash
            outcome.error = ToolError(type(e).__name__, str(e) or type(e).__name__)
        outcome.duration_s = time.perf_counter() - started
        self.history.append(outcome)
        return outcome


def validate_arguments(spec: ToolSpec, arguments: Any) -> dict[str, Any]:
    """Check names, presence and types of arguments; fill defaults (NOT_GIVEN stays NOT_GIVEN)."""
    if not isinstance(arguments, dict):
        raise ArgumentError(f"Tool {spec.name!r}: arguments must be a JSON object of parameter names to values, "
                            f"got {type(arguments).__name__}.")
    unknown = [k for k in arguments if spec.param(k) is None]
    if unknown:
        raise ArgumentError(f"Tool {spec.name!r} has no parameter(s) {', '.join(map(repr, unknown))}; "
                            f"its parameters are: {', '.join(spec.param_names) or '(none)'}.")
    missing = [p.name for p in spec.params if p.required and p.name not in arguments]
    if missing:
        raise ArgumentError(f"Tool {spec.name!r}: missing required parameter(s) {', '.join(map(repr, missing))}.")
    out: dict[str, Any] = {}
    given: dict[str, Any] = {}   # what the arguments model validates
    errors: list[ArgumentError] = []
    for p in spec.params:
        if p.name not in arguments:
            out[p.name] = p.default
        elif arguments[p.name] is None and not (p.required and p.nullable):
            try:
                out[p.name] = _null_value(spec, p)
            except ArgumentError as e:
                errors.append(e)
        else:
            value = arguments[p.name]
            if p.core_type is int and isinstance(value, float) and value.is_integer():
                value = int(value)
            given[p.name] = value
    if given:
        try:
            checked = spec.arguments_model.model_validate(given)
        except ValidationError as e:
            # a required parameter given as null is not in ``given``: pydantic calls it missing (reported above)
            errors += [_argument_error(spec, given, x) for x in e.errors()
                       if not (x["type"] == "missing" and len(x["loc"]) == 1)]
        else:
            out.update({f.alias or k: getattr(checked, k) for k, f in type(checked).model_fields.items()
                        if (f.alias or k) in given})
    if errors:  # the first bad parameter in signature order, whether wrongly typed or wrongly null
        raise min(errors, key=lambda e: spec.param_names.index(e.param or ""))
    return {p.name: out[p.name] for p in spec.params}


def _null_value(spec: ToolSpec, p: ParamSpec) -> Any:
    """What an explicit null means for an optional or nullable parameter (ArgumentError where it is not allowed)."""
    if p.nullable or (not p.required and p.default is None):
        return None
    if not p.required and p.default is NOT_GIVEN:
        return NOT_GIVEN  # an explicit null for an optional field means "not given"
    raise ArgumentError(f"Tool {spec.name!r}: parameter {p.name!r} must not be null "
                        f"(expected {p.catalog_type}).", param=p.name)


def _argument_error(spec: ToolSpec, given: dict[str, Any], error: Any) -> ArgumentError:
    """The ArgumentError for one of pydantic's errors (its ``loc`` starts with the parameter's name)."""
    name = str(error["loc"][0])
    value = given[name]
    return ArgumentError(f"Tool {spec.name!r}: parameter {name!r} expects {spec.param(name).catalog_type}, "
                         f"got {value!r} ({type(value).__name__}): {error['msg']}.", param=name)


def check_requirements(spec: ToolSpec, world: World) -> None:
    """Raise the reference's errors when device state forbids the call (TOOLS.md §5)."""
    req = spec.requires
    if req.wifi and not device.settings(world).get("wifi"):
        raise ConnectionError("WiFi is not enabled. Turn on WiFi to use web search.")
    if req.network and not device.network_available(world):
        raise ConnectionError("Network is not available. Enable cellular or WiFi first.")
    if req.location and not device.settings(world).get("location_service"):
        raise PermissionError("Location service is off. Turn on location service first.")
    if req.auth and not device.is_logged_in(world, req.auth):
        raise PermissionError(f"Not authenticated to {req.auth}. Call {req.auth}_login() first.")
    if req.token_of and not device.is_logged_in(world, req.token_of):
        raise PermissionError(f"No access token for {req.token_of}. Call {req.token_of}_login() first.")


def collect_images(value: Any) -> list[int]:
    """Ids of every ImageResult inside a (nested) result."""
    found: list[int] = []

    def walk(v: Any) -> None:
        if isinstance(v, ImageResult):
            found.append(v.image_id)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(value)
    return found


def to_jsonable(value: Any) -> Any:
    """A JSON-friendly copy of a tool result (ImageResult -> ``{"image_id": n}``, enums -> values)."""
    if isinstance(value, ImageResult):
        return value.to_json()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [to_jsonable(v) for v in value]
    if value is NOT_GIVEN:
        return None
    return value
