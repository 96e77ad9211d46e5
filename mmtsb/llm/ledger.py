"""UsageLedger: tokens, calls and cost per role (agent, user, judge, ...) for one episode or run.

Why: the reference counts agent and user tokens but never the judges' (SPEC §9.9); every role that calls a
model through LLMClient is counted here. Responses served from the cache are counted like the original
call (so an exact re-run reports the same usage) and also tallied as ``cached_calls``. Every HTTP attempt
that failed (a retried 5xx, a timeout, a malformed body, and the last attempt of a call that gave up) is
tallied as ``failed_calls``: a provider may bill them, and a run's cost of failures should be visible.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from mmtsb.llm.types import Usage


@dataclass
class RoleUsage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    api_calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True

    def as_dict(self) -> dict[str, int | float | bool]:
        return dict(self.__dict__)


class UsageLedger:
    """Thread-safe accumulator; ``totals()`` is what gets written into the results."""

    def __init__(self) -> None:
        self._roles: dict[str, RoleUsage] = {}
        self._lock = threading.Lock()

    def add(self, role: str, usage: Usage, cost: float, *, cost_known: bool = True,
            cached: bool = False) -> None:
        with self._lock:
            entry = self._roles.setdefault(role, RoleUsage())
            entry.prompt_tokens += usage.prompt_tokens
            entry.completion_tokens += usage.completion_tokens
            entry.total_tokens += usage.total_tokens
            entry.api_calls += 1
            entry.cached_calls += int(cached)
            entry.cost_usd += cost
            entry.cost_known = entry.cost_known and cost_known

    def add_failures(self, role: str, count: int = 1) -> None:
        """Count ``count`` failed HTTP attempts of ``role`` (no tokens: a failed answer reports none)."""
        if count <= 0:
            return
        with self._lock:
            self._roles.setdefault(role, RoleUsage()).failed_calls += count

    def totals(self) -> dict[str, dict[str, int | float | bool]]:
        """{role: {prompt_tokens, completion_tokens, total_tokens, api_calls, cached_calls, failed_calls,
        cost_usd, cost_known}}; ``cost_known`` is False when some call's price was unknown (counted as 0)."""
        with self._lock:
            return {role: entry.as_dict() for role, entry in self._roles.items()}

    def total_cost(self) -> float:
        with self._lock:
            return sum(entry.cost_usd for entry in self._roles.values())

    def merge(self, other: UsageLedger) -> None:
        """Add another ledger's totals into this one (e.g. episodes into a run)."""
        for role, entry in other.totals().items():
            with self._lock:
                mine = self._roles.setdefault(role, RoleUsage())
                for name in ("prompt_tokens", "completion_tokens", "total_tokens", "api_calls",
                             "cached_calls", "failed_calls", "cost_usd"):
                    setattr(mine, name, getattr(mine, name) + entry[name])
                mine.cost_known = mine.cost_known and bool(entry["cost_known"])
