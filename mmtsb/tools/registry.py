"""The tool registry: every tool of a toolbox, looked up by name, with clear errors for unknown names."""

from __future__ import annotations

import difflib
import importlib
from types import ModuleType
from typing import Any
from collections.abc import Iterable, Iterator

from mmtsb.tools.spec import Role, ToolSpec, spec_of


class UnknownToolError(LookupError):
    """A tool name that is not registered (the message suggests close names)."""


class ToolRegistry:
    """An immutable set of tools keyed by name."""

    def __init__(self, specs: Iterable[ToolSpec]) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for s in specs:
            if s.name in self._specs:
                raise ValueError(f"tool {s.name!r} is registered twice ({s.fn.__module__} and "
                                 f"{self._specs[s.name].fn.__module__})")
            self._specs[s.name] = s
        self._search_index: Any = None
        self._visible: dict[str, list[ToolSpec]] = {}      # per role, in registration order (derived once)
        self._position = {name: i for i, name in enumerate(self._specs)}

    @classmethod
    def from_modules(cls, modules: Iterable[ModuleType | str]) -> "ToolRegistry":
        """Collect every ``@tool`` function defined in the given modules (in definition order)."""
        specs = []
        for m in modules:
            mod = importlib.import_module(m) if isinstance(m, str) else m
            for obj in vars(mod).values():
                spec = spec_of(obj)
                if spec is not None and getattr(obj, "__module__", None) == mod.__name__:
                    specs.append(spec)
        return cls(specs)

    def __len__(self) -> int:
        return len(self._specs)

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._specs.values())

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def names(self) -> list[str]:
        return list(self._specs)

    def get(self, name: str) -> ToolSpec:
        spec = self._specs.get(name)
        if spec is None:
            close = difflib.get_close_matches(name, self._specs, n=3, cutoff=0.6)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise UnknownToolError(f"Unknown tool {name!r}.{hint} Use api_docs_search_api_docs to find tools.")
        return spec

    def visible_to(self, role: Role) -> list[ToolSpec]:
        """The tools ``role`` may see, in registration order (a new list each call; derived once per role)."""
        if role not in self._visible:
            self._visible[role] = [s for s in self._specs.values() if role in s.visible_to]
        return list(self._visible[role])

    def visible_among(self, names: Iterable[str], role: Role) -> list[ToolSpec]:
        """The tools of ``names`` that ``role`` may see, in registration order (unknown names skipped): what
        ``visible_to`` filtered by membership gives, at the cost of ``names`` instead of the whole toolbox."""
        found = [self._specs[n] for n in names if n in self._specs and role in self._specs[n].visible_to]
        return sorted(found, key=lambda s: self._position[s.name])

    def domains(self) -> list[str]:
        return sorted({s.domain for s in self._specs.values()})

    def subset(self, names: Iterable[str]) -> "ToolRegistry":
        """A registry with only these tools (unknown names raise)."""
        return ToolRegistry(self.get(n) for n in names)

    @property
    def search_index(self) -> Any:
        """The BM25 index over this registry (built on first use)."""
        if self._search_index is None:
            from mmtsb.tools.discovery import ToolSearchIndex

            self._search_index = ToolSearchIndex(list(self._specs.values()))
        return self._search_index
