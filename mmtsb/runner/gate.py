"""ProviderGate: per-provider concurrency caps that hold across every episode actor of a run.

One gate per run (a named Ray actor; an ordinary object in the in-process runner's tests). An LLM client asks
it for a slot before each HTTP attempt and gives the slot back after (through
:class:`mmtsb.runner.gated_limits.GatedLimits`). Slots are keyed by a token chosen by the caller, so:

- a release that overtakes its acquire (the caller gave up while the acquire was in flight) leaves a
  tombstone and the late acquire is refused, never leaked;
- every slot records its holder (an actor), so the driver frees the slots of an actor that died
  (:meth:`release_holder`).

Waiters are served first come, first served; an acquire that waits longer than its timeout returns False.
The cap of a provider is ``overrides[provider]``, else the concurrency requested by its first acquire, else
``default`` (the same rule as ProviderLimits). This module imports nothing heavy: the gate actor's process
stays small.

Surviving its own death: the runner starts the gate with ``max_restarts=-1``, and everything it holds is
rebuildable, so a restarted gate simply starts empty. Callers treat a dead or restarting gate as transient
(:class:`~mmtsb.runner.gated_limits.GatedLimits` waits and asks again with a fresh token); a slot held at the
moment of death is given back to the new gate as an unknown token (a harmless tombstone), so nothing waits for
it. The only cost is that, for the length of the calls in flight at the death, the new gate may grant the
provider's whole cap again.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Mapping
from typing import Any


#: tokens released before (or without) their acquire that the gate remembers; a restarted gate receives one for
#: every slot held at its predecessor's death, so the set is bounded (the oldest are forgotten first)
MAX_TOMBSTONES = 100_000


class ProviderGate:
    """Async slot dispenser (run as a Ray actor with a large ``max_concurrency``: waiters hold a call)."""

    def __init__(self, overrides: Mapping[str, int] | None = None, default: int = 16) -> None:
        self._overrides = dict(overrides or {})
        self._default = default
        self._sizes: dict[str, int] = {}
        self._used: dict[str, int] = {}
        self._waiting: dict[str, deque[tuple[str, str, asyncio.Future[bool]]]] = {}
        self._granted: dict[str, tuple[str, str]] = {}     # token -> (provider, holder)
        self._tombstones: dict[str, None] = {}              # insertion-ordered, bounded (MAX_TOMBSTONES)
        self._dead: set[str] = set()                        # holders released as dead: never granted again
        self.peak: dict[str, int] = {}
        self.grants = 0
        self.timeouts = 0
        self.started_at = time.time()                       # a restarted gate is a new process, started later
        self.pid = os.getpid()

    def size(self, provider: str, requested: int | None = None) -> int:
        if provider not in self._sizes:
            self._sizes[provider] = max(1, int(self._overrides.get(provider, requested or self._default)))
        return self._sizes[provider]

    async def acquire(self, provider: str, token: str, holder: str = "", requested: int | None = None,
                      timeout_s: float | None = None) -> bool:
        """Wait for one of ``provider``'s slots; False if refused (released before granted) or timed out."""
        if token in self._tombstones:
            del self._tombstones[token]
            return False
        if holder and holder in self._dead:  # an acquire from an actor already declared dead arrived late
            return False
        size = self.size(provider, requested)
        queue = self._waiting.setdefault(provider, deque())
        if self._used.get(provider, 0) < size and not queue:
            self._grant(provider, token, holder)
            return True
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        queue.append((token, holder, fut))
        done, _ = await asyncio.wait({fut}, timeout=timeout_s)
        if fut in done:
            return fut.result()
        self._drop_waiter(provider, token)
        fut.cancel()
        self.timeouts += 1
        return False

    def _grant(self, provider: str, token: str, holder: str) -> None:
        self._granted[token] = (provider, holder)
        used = self._used.get(provider, 0) + 1
        self._used[provider] = used
        self.peak[provider] = max(self.peak.get(provider, 0), used)
        self.grants += 1

    def _drop_waiter(self, provider: str, token: str) -> asyncio.Future[bool] | None:
        queue = self._waiting.get(provider)
        if not queue:
            return None
        for item in list(queue):
            if item[0] == token:
                queue.remove(item)
                return item[2]
        return None

    def _wake(self, provider: str) -> None:
        queue = self._waiting.get(provider)
        while queue and self._used.get(provider, 0) < self._sizes[provider]:
            token, holder, fut = queue.popleft()
            if fut.done():
                continue
            if holder and holder in self._dead:
                fut.set_result(False)
                continue
            self._grant(provider, token, holder)
            fut.set_result(True)

    def _release(self, token: str) -> bool:
        entry = self._granted.pop(token, None)
        if entry is None:
            return False
        provider = entry[0]
        self._used[provider] -= 1
        self._wake(provider)
        return True

    async def release(self, token: str) -> None:
        """Give a slot back; a token still waiting is withdrawn; an unknown token is refused later."""
        if self._release(token):
            return
        for provider in self._waiting:
            fut = self._drop_waiter(provider, token)
            if fut is not None:
                if not fut.done():
                    fut.set_result(False)
                return
        self._tombstones[token] = None
        if len(self._tombstones) > MAX_TOMBSTONES:
            del self._tombstones[next(iter(self._tombstones))]

    async def release_holder(self, holder: str) -> int:
        """Free every slot held by ``holder`` (a dead actor) and withdraw its waiters; returns slots freed.
        The holder is remembered as dead, so an acquire of its that is still in flight can never leak a slot."""
        if holder:
            self._dead.add(holder)
        for queue in self._waiting.values():       # withdraw its waiters first, so freed slots skip them
            for item in [i for i in queue if i[1] == holder]:
                queue.remove(item)
                if not item[2].done():
                    item[2].set_result(False)
        tokens = [t for t, (_, h) in self._granted.items() if h == holder]
        for t in tokens:
            self._release(t)
        return len(tokens)

    async def stats(self) -> dict[str, Any]:
        return {"sizes": dict(self._sizes), "in_use": {p: n for p, n in self._used.items() if n},
                "waiting": {p: len(q) for p, q in self._waiting.items() if q}, "peak": dict(self.peak),
                "grants": self.grants, "timeouts": self.timeouts, "started_at": self.started_at, "pid": self.pid}
