"""GatedLimits: the ProviderLimits an episode actor gives its RoleFactory, so that every LLM client in the
actor takes its provider slots from the run-wide :class:`~mmtsb.runner.gate.ProviderGate` actor.

The roles find it where they look for limits (``shared["limits"]``, see ``mmtsb.roles.llm_common``); the
LLM client only calls ``slot(provider, requested)``, which this class overrides. Fast path: an episode has at
most one model call in flight, so a provider whose cap is at least the run's episode concurrency can never
be over-subscribed; its slots are taken locally, without a round trip to the gate.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from mmtsb.llm.limits import ProviderLimits


class ProviderGateTimeout(TimeoutError):
    """No provider slot within the gate timeout (an infrastructure failure: the episode is retried)."""


class GatedLimits(ProviderLimits):
    """Per-provider caps enforced by a shared gate actor (``gate`` is its Ray actor handle)."""

    def __init__(self, gate: Any, holder: str, *, overrides: Mapping[str, int] | None = None, default: int = 16,
                 bypass_at: int | None = None, timeout_s: float | None = None) -> None:
        super().__init__(overrides, default)
        self._gate = gate
        self._holder = holder
        self._bypass_at = bypass_at
        self._timeout_s = timeout_s
        self.gate_calls = 0

    def _count(self, provider: str, delta: int) -> None:
        with self._lock:
            self._in_flight[provider] = self._in_flight.get(provider, 0) + delta
            self.peak[provider] = max(self.peak.get(provider, 0), self._in_flight[provider])

    @asynccontextmanager
    async def slot(self, provider: str, requested: int | None = None) -> AsyncIterator[None]:
        size = self.size(provider, requested)
        if self._bypass_at is not None and size >= self._bypass_at:
            async with super().slot(provider, requested):
                yield
            return
        token = uuid.uuid4().hex
        self.gate_calls += 1
        try:
            granted = await self._gate.acquire.remote(provider, token, self._holder, requested, self._timeout_s)
        except asyncio.CancelledError:
            self._gate.release.remote(token)   # withdraw (or free, if it was granted meanwhile)
            raise
        if not granted:
            raise ProviderGateTimeout(f"no {provider!r} slot from the provider gate within "
                                      f"{self._timeout_s:g} s" if self._timeout_s else
                                      f"the provider gate refused a {provider!r} slot")
        self._count(provider, 1)
        try:
            yield
        finally:
            self._count(provider, -1)
            self._gate.release.remote(token)   # fire and forget: a late release only under-uses the cap
