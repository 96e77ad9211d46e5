"""From FULL tool calls to level tool calls: the inverse of a level tool's dispatch.

The oracle's reference solutions are written against FULL tools; to play a scenario at a reduced level it
translates each step: the level tool that reaches the FULL tool, with the route's dispatch values added to the
FULL arguments (level tools use the FULL tools' own parameter names, so the arguments pass through unchanged).
"""

from __future__ import annotations

from typing import Any

from mmtsb.tools.levels.data import table
from mmtsb.tools.levels.dispatch import resolve_route


class UnreachableToolError(LookupError):
    """A FULL tool that the level does not offer (e.g. vision tools at MINI)."""


def to_level_call(level: str, full_tool: str, arguments: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The level tool and arguments that perform ``full_tool(**arguments)`` at ``level``.

    Raises:
        UnreachableToolError: the level has no tool reaching ``full_tool``.
        ValueError: an argument collides with a dispatch parameter of the level tool.
    """
    arguments = dict(arguments or {})
    level = str(getattr(level, "value", level)).lower()
    if level == "full":
        return full_tool, arguments
    t = table(level)
    name = t.level_tool_for(full_tool)
    if name is None:
        raise UnreachableToolError(f"{full_tool!r} is not reachable at toolbox level {level!r}")
    if name == full_tool:
        return full_tool, arguments
    defn = t.defs[name]
    route = next(r for r in defn.routes if r.tool == full_tool)
    clash = [k for k in route.values if k in arguments and arguments[k] != route.values[k]]
    if clash:
        raise ValueError(f"{full_tool}: argument(s) {clash} collide with dispatch parameters of {name}")
    out = {**route.values, **arguments}
    # routes with equal dispatch values are chosen by the arguments: make sure this call lands on full_tool
    same = [r for r in defn.routes if r.values == route.values]
    if len(same) > 1:
        from mmtsb.tools.toolbox import full_registry

        full = full_registry()
        got = resolve_route(name, defn.dispatch, defn.routes, out,
                            lambda r, k: r.tool in full and full.get(r.tool).param(k) is not None,
                            lambda r: [p.name for p in full.get(r.tool).params if p.required] if r.tool in full else [])
        if got.tool != full_tool:
            raise ValueError(f"{full_tool}({', '.join(arguments)}) would reach {got.tool} through {name}")
    return name, out


def reachable(level: str, full_tool: str) -> bool:
    """Whether a FULL tool can be called (directly or through a level tool) at ``level``."""
    return level == "full" or table(level).level_tool_for(full_tool) is not None


def level_python(runner: Any, round_number: int, level: str) -> str:
    """A reference-solution round rendered as Python calls of the level's tools (cf. ``SolutionRunner.to_python``,
    which renders the FULL calls)."""
    from mmtsb.scenarios.solution import render_value

    lines = []
    for step in runner.steps(round_number):
        name, args = to_level_call(level, step.tool, step.arguments)
        rendered = ", ".join(f"{k}={render_value(v)}" for k, v in args.items())
        call = f"{name}({rendered})"
        lines.append(f"{step.save_as} = {call}" if step.save_as else call)
    return "\n".join(lines)
