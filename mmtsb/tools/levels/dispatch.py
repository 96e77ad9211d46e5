"""Level tools as real :class:`ToolSpec` objects that dispatch to the FULL tool functions.

A level tool's signature is generated: its dispatch parameters (``Literal`` of the allowed values, or ``bool``
for like/follow switches) followed by the union of the routed FULL tools' parameters, every one optional
(``NOT_GIVEN``) unless every route requires it. A call resolves the route from the dispatch values, forwards
only the arguments the routed tool accepts (an argument that does not apply to the chosen operation is an
error, never silently dropped) and then validates and runs the FULL tool exactly as ``ToolSession.call``
does: the same validation, the same device-state checks, the same function, inside the level call's savepoint.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from mmtsb.tools.levels.data import LevelToolDef, Route
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ArgumentError, check_requirements, validate_arguments
from mmtsb.tools.spec import ParamSpec, Requirements, Role, ToolSpec
from mmtsb.tools.types import NOT_GIVEN, NotGiven

#: domain of level tools that span several apps (``app_*``, ``manage_notifications``, ...)
CROSS_APP_DOMAIN = "cross_app"
_SUMMARY_LIST_LIMIT = 12
#: dispatch parameters that choose *what to do* (the others choose *on what*: app, entity type, setting, ...)
_OPERATION_KEYS = frozenset({"action", "email_action", "thread_action", "like", "follow", "direction"})


# ----------------------------------------------------------------------------------------- resolution
def resolve_route(name: str, dispatch: Sequence[str], routes: Sequence[Route], given: dict[str, Any],
                  accepts: Callable[[Route, str], bool] | None = None,
                  required_of: Callable[[Route], Sequence[str]] | None = None) -> Route:
    """The route selected by the dispatch values in ``given`` (ArgumentError names what is missing or wrong).

    Dispatch parameters are resolved in order; each narrows the candidate routes. A parameter that only some
    of the remaining routes use is optional: leaving it out keeps the routes that do not use it. Routes with
    equal dispatch values (e.g. "show one draft" and "list drafts") are told apart by the other arguments:
    the first route whose tool accepts every given argument and gets all its required ones wins.
    """
    candidates = list(routes)
    chosen: list[str] = []
    for key in dispatch:
        using = [r for r in candidates if key in r.values]
        if not using:
            continue
        context = f" for {', '.join(chosen)}" if chosen else ""
        allowed = list(dict.fromkeys(r.values[key] for r in using))
        if key not in given or given[key] is NOT_GIVEN or given[key] is None:
            if len(using) == len(candidates):
                raise ArgumentError(f"Tool {name!r}: parameter {key!r} is required{context}; one of: "
                                    f"{_values(allowed)}.")
            candidates = [r for r in candidates if key not in r.values]
            continue
        value = given[key]
        matching = [r for r in using if r.values[key] == value]
        if not matching:
            raise ArgumentError(f"Tool {name!r}: {key}={value!r} is not valid{context}; allowed values: "
                                f"{_values(allowed)}.")
        candidates = matching
        chosen.append(f"{key}={value!r}")
    unused = [k for k in dispatch if given.get(k, NOT_GIVEN) not in (NOT_GIVEN, None)
              and not any(k in r.values for r in candidates)]
    if unused and not (accepts and all(accepts(candidates[0], k) for k in unused)):
        raise ArgumentError(f"Tool {name!r}: parameter(s) {', '.join(map(repr, unused))} do(es) not apply to "
                            f"{', '.join(chosen) or 'this call'}.")
    if len(candidates) > 1 and accepts is not None and required_of is not None:
        extra = [k for k, v in given.items() if v is not NOT_GIVEN and k not in dispatch]
        for r in candidates:
            if all(accepts(r, k) for k in extra) and all(k in extra for k in required_of(r)):
                return r
    return candidates[0]


def _values(values: Iterable[Any]) -> str:
    return ", ".join(repr(v) for v in values)


# ----------------------------------------------------------------------------------------- the spec
def build_level_spec(defn: LevelToolDef, full: ToolRegistry) -> ToolSpec | None:
    """The ToolSpec of a level tool over the FULL tools registered in ``full`` (routes whose FULL tool is not
    registered are left out); None when none of its FULL tools is registered."""
    routes = tuple(r for r in defn.routes if r.tool in full)
    if not routes:
        return None
    targets = {r.tool: full.get(r.tool) for r in routes}
    dispatch = tuple(k for k in defn.dispatch if any(k in r.values for r in routes))
    params = _dispatch_params(dispatch, routes) + _union_params(dispatch, routes, targets)
    params = tuple(sorted(params, key=lambda p: not p.required))  # stable: required first, keeps order
    specs = list(targets.values())
    domains = {s.domain for s in specs}
    needs_context = any(s.needs_context for s in specs)
    fn, route = _make_call(defn.name, dispatch, routes, targets, needs_context)
    visible: list[Role] = []
    for s in specs:
        visible.extend(v for v in s.visible_to if v not in visible)
    summary = _summary(defn.name, dispatch, routes, targets, domains)
    description = summary + "\n\n" + _operations_doc(dispatch, routes, targets) + \
        "\n\nReturns: what the selected operation returns (listed per operation above)."
    return ToolSpec(
        name=defn.name, domain=domains.pop() if len(domains) == 1 else CROSS_APP_DOMAIN, fn=fn, params=params,
        summary=summary, description=description, returns="the selected operation's result",
        visible_to=tuple(visible), mutates=any(s.mutates for s in specs),
        requires=Requirements(network=all(s.requires.network for s in specs),
                              wifi=all(s.requires.wifi for s in specs)),
        tables=tuple(dict.fromkeys(t for s in specs for t in s.tables)), needs_context=needs_context,
        absorbs=tuple(t for t in targets if t != defn.name), route=route)


def _make_call(name: str, dispatch: tuple[str, ...], routes: tuple[Route, ...], targets: dict[str, ToolSpec],
               needs_context: bool) -> tuple[Callable[..., Any], Callable[[dict[str, Any]], str]]:
    """The level tool's function, and its router (the FULL tool a call's arguments select)."""
    def accepts(route: Route, param: str) -> bool:
        return targets[route.tool].param(param) is not None

    def required_of(route: Route) -> list[str]:
        return [p.name for p in targets[route.tool].params if p.required]

    def call_level_tool(target: Any, /, **kwargs: Any) -> Any:
        given = {k: v for k, v in kwargs.items() if v is not NOT_GIVEN}
        route = resolve_route(name, dispatch, routes, given, accepts, required_of)
        spec = targets[route.tool]
        # dispatch values stay out unless the routed tool has a parameter of that name; an explicit null for a
        # parameter the operation does not have means "not given" (models often send nulls for unused fields)
        forward = {k: v for k, v in given.items() if spec.param(k) is not None
                   or (k not in route.values and v is not None)}
        foreign = [k for k in forward if spec.param(k) is None]
        if foreign:
            raise ArgumentError(f"Tool {name!r}: parameter(s) {', '.join(map(repr, foreign))} do(es) not apply to "
                                f"{route.label()} ({route.tool}); its parameters are: "
                                f"{', '.join(spec.param_names) or '(none)'}.")
        full_kwargs = validate_arguments(spec, forward)
        world = target.world if needs_context else target
        check_requirements(spec, world)
        return spec.fn(target if spec.needs_context else world, **full_kwargs)

    def routed_tool(arguments: dict[str, Any]) -> str:
        given = {k: v for k, v in arguments.items() if v is not NOT_GIVEN}
        return resolve_route(name, dispatch, routes, given, accepts, required_of).tool

    call_level_tool.__name__ = name
    call_level_tool.__qualname__ = name
    return call_level_tool, routed_tool


def _dispatch_params(dispatch: tuple[str, ...], routes: tuple[Route, ...]) -> list[ParamSpec]:
    out = []
    for key in dispatch:
        using = [r for r in routes if key in r.values]
        values = list(dict.fromkeys(r.values[key] for r in using))
        core: Any = bool if all(isinstance(v, bool) for v in values) else Literal[tuple(values)]  # type: ignore[misc]
        required = len(using) == len(routes)
        where = "" if required else f" Used with: {_group_label(dispatch, using, exclude=key)}."
        if core is bool:
            desc = f"Selects the operation: true or false.{where}"
        else:
            desc = f"Selects the operation; one of: {_values(values)}.{where}"
        out.append(_param(key, core, required, desc))
    return out


def _union_params(dispatch: tuple[str, ...], routes: tuple[Route, ...],
                  targets: dict[str, ToolSpec]) -> list[ParamSpec]:
    order: dict[str, list[ParamSpec]] = {}
    for r in routes:
        for p in targets[r.tool].params:
            if p.name not in dispatch:
                order.setdefault(p.name, [])
                if p not in order[p.name]:
                    order[p.name].append(p)
    out = []
    for pname, variants in order.items():
        using = [r for r in routes if targets[r.tool].param(pname) is not None]
        required = len(using) == len(routes) and all(targets[r.tool].param(pname).required for r in routes)
        cores = list(dict.fromkeys(v.core_type for v in variants))
        core = functools.reduce(operator.or_, cores)
        desc = variants[0].description
        if len(using) < len(routes):
            desc = f"{desc} Used with: {_group_label(dispatch, using)}."
        out.append(_param(pname, core, required, desc.strip()))
    return out


def _param(name: str, core: Any, required: bool, description: str) -> ParamSpec:
    annotation = core if required else core | NotGiven
    # optional level parameters accept an explicit null and forward it: the FULL tool decides what null means
    return ParamSpec(name=name, annotation=annotation, core_type=core, required=required,
                     default=None if required else NOT_GIVEN, description=description, nullable=not required)


# ----------------------------------------------------------------------------------------- docs
def group_routes(dispatch: Sequence[str], routes: Sequence[Route],
                 signature: Callable[[Route, str], Any] = lambda r, k: 0,
                 exclude: str | None = None) -> list[tuple[dict[str, tuple[Any, ...]], list[Route]]]:
    """Merge routes that differ in one dispatch value and share a signature: ``app in (...), action='login'``.

    ``signature(route, key)`` says what must be equal for routes differing in ``key`` to merge."""
    groups: list[tuple[dict[str, tuple[Any, ...]], list[Route]]] = [
        ({k: (v,) for k, v in r.when if k != exclude}, [r]) for r in routes]
    for key in dispatch:
        merged: dict[Any, tuple[dict[str, tuple[Any, ...]], list[Route]]] = {}
        for when, members in groups:
            if key not in when:
                bucket: Any = ("single", id(members))
            else:
                rest = tuple(sorted((k, v) for k, v in when.items() if k != key))
                bucket = (rest, tuple(signature(m, key) for m in members[:1]))
            if bucket in merged:
                w, m = merged[bucket]
                w[key] = w[key] + tuple(v for v in when[key] if v not in w[key])
                m.extend(members)
            else:
                merged[bucket] = (dict(when), list(members))
        groups = list(merged.values())
    return groups


def tool_pattern(route: Route, key: str) -> str:
    """The routed tool's name with the value of ``key`` abstracted: ``spotify_login`` -> ``<app>_login``."""
    value = route.values.get(key)
    if isinstance(value, str) and value in route.tool:
        return route.tool.replace(value, f"<{key}>", 1)
    return route.tool


def _label(dispatch: Sequence[str], when: dict[str, tuple[Any, ...]]) -> str:
    parts = []
    for k in sorted(when, key=lambda k: list(dispatch).index(k) if k in dispatch else len(dispatch)):
        vs = when[k]
        parts.append(f"{k}={vs[0]!r}" if len(vs) == 1 else f"{k} in ({_values(vs)})")
    return ", ".join(parts)


def _group_label(dispatch: Sequence[str], routes: Sequence[Route], exclude: str | None = None) -> str:
    return "; ".join(_label(dispatch, w) for w, _ in group_routes(dispatch, routes, exclude=exclude))


def _param_list(spec: ToolSpec, dispatch: Sequence[str]) -> str:
    names = [p.name + ("*" if p.required else "") for p in spec.params if p.name not in dispatch]
    return ", ".join(names) or "none"


def _operations_doc(dispatch: tuple[str, ...], routes: tuple[Route, ...], targets: dict[str, ToolSpec]) -> str:
    def signature(r: Route, key: str) -> Any:
        if key in _OPERATION_KEYS:
            return r.tool  # different operations never share a line, even with equal parameters
        s = targets[r.tool]
        return tool_pattern(r, key), tuple((p.name, p.required) for p in s.params)

    lines = ["Operations (parameters marked * are required; pass only the parameters of the chosen operation):"]
    for when, members in group_routes(dispatch, routes, signature):
        spec = targets[members[0].tool]
        tools = _tools_label(when, members)
        line = f"- {_label(dispatch, when)} -> {tools}: {spec.summary} Parameters: {_param_list(spec, dispatch)}."
        if spec.returns:
            line += f" Returns: {spec.returns}"
        lines.append(line)
    return "\n".join(lines)


def _tools_label(when: dict[str, tuple[Any, ...]], members: list[Route]) -> str:
    if len(members) == 1:
        return members[0].tool
    name = members[0].tool
    for key, values in when.items():
        v = members[0].values.get(key)
        if len(values) > 1 and isinstance(v, str) and v in name:
            name = name.replace(v, f"<{key}>", 1)
    if all(_fits(name, r) for r in members):
        return name
    return " | ".join(r.tool for r in members)


def _fits(pattern: str, route: Route) -> bool:
    name = pattern
    for key, value in route.when:
        name = name.replace(f"<{key}>", str(value))
    return name == route.tool


def _summary(name: str, dispatch: tuple[str, ...], routes: tuple[Route, ...], targets: dict[str, ToolSpec],
             domains: set[str]) -> str:
    shown = []
    for r in routes:
        words = r.tool
        domain = targets[r.tool].domain
        if len(domains) == 1 and words.startswith(domain + "_"):
            words = words[len(domain) + 1:]
        shown.append(words.replace("_", " "))
    shown = list(dict.fromkeys(shown))
    more = len(shown) - _SUMMARY_LIST_LIMIT
    listed = ", ".join(shown[:_SUMMARY_LIST_LIMIT]) + (f" and {more} more" if more > 0 else "")
    label = "/".join(sorted(domains)) if len(domains) <= 3 else "cross-app"
    return (f"One tool for {len(routes)} {label} operations, chosen by {' + '.join(dispatch)}: {listed}.")

