"""Registries per toolbox level: FULL is the base registry; MEDIUM/COMPACT/MINI are built from ``levels.json``
and the FULL registry (level tools dispatch to the FULL specs; passthrough members are the FULL specs)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from mmtsb.tools.levels.data import LEVELS, table
from mmtsb.tools.levels.dispatch import build_level_spec
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.spec import ToolSpec


class LevelRegistry(ToolRegistry):
    """A reduced-level toolbox; remembers its level (the oracle translates its steps to it)."""

    def __init__(self, specs: Iterable[ToolSpec], level: str, missing: Iterable[str] = ()) -> None:
        super().__init__(specs)
        self.level = level
        #: members of the level not built because none of their FULL tools is registered yet
        self.missing = tuple(missing)


def level_of(registry: ToolRegistry) -> str:
    """The toolbox level of a registry (``full`` for anything that is not a level registry)."""
    return getattr(registry, "level", "full")


def registry_for_level(level: str) -> ToolRegistry:
    """The toolbox of a level: ``full`` | ``medium`` | ``compact`` | ``mini`` (ValueError otherwise)."""
    level = str(getattr(level, "value", level)).lower()
    if level not in LEVELS:
        raise ValueError(f"unknown toolbox level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "full":
        from mmtsb.tools.toolbox import full_registry

        return full_registry()
    return _level_registry(level)


@functools.cache
def _level_registry(level: str) -> LevelRegistry:
    from mmtsb.tools.toolbox import full_registry

    full = full_registry()
    t = table(level)
    specs: list[ToolSpec] = []
    missing: list[str] = []
    for name in t.members:
        defn = t.defs.get(name)
        spec = build_level_spec(defn, full) if defn is not None else (full.get(name) if name in full else None)
        if spec is None:
            missing.append(name)
        else:
            specs.append(spec)
    return LevelRegistry(specs, level, missing)


def expected_count(level: str) -> int:
    """The number of tools the reference registers at a level (511 / 276 / 165 / 29)."""
    return table(level).reference_count
