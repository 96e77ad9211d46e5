"""GatedLimits: the ProviderLimits an episode actor gives its RoleFactory, so that every LLM client in the
actor takes its provider slots from the run-wide :class:`~mmtsb.runner.gate.ProviderGate` actor.

The roles find it where they look for limits (``shared["limits"]``, see ``mmtsb.roles.llm_common``); the
LLM client only calls ``slot(provider, requested)``, which this class overrides. Fast path: an episode has at
most one model call in flight, so a provider whose cap is at least the run's episode concurrency can never
be over-subscribed; its slots are taken locally, without a round trip to the gate.

A gate that died or is restarting (Ray restarts it: ``max_restarts=-1``) is an outage, not an episode failure:
the acquire is withdrawn and asked again with a fresh token, with a short backoff, until the gate answers. A
gate that stays unreachable for :data:`FALLBACK_AFTER_S` or the gate timeout, whichever is shorter (it was
killed for good), no longer blocks anyone: calls then take this actor's local caps (the provider's cap per
actor, not across the run) and the gate is tried again on every call, so the run-wide caps come back with it.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from mmtsb.llm.limits import ProviderLimits

log = logging.getLogger("mmtsb.runner")

#: a gate unreachable for this long (or the whole gate timeout, if shorter) is treated as gone: local caps
FALLBACK_AFTER_S = 60.0
#: waits between two attempts to reach a gate that is down (it is usually back within a second)
RETRY_DELAYS_S = (0.05, 0.1, 0.2, 0.5, 1.0)


class ProviderGateTimeout(TimeoutError):
    """No provider slot within the gate timeout (an infrastructure failure: the episode is retried)."""


def gate_down_errors() -> tuple[type[BaseException], ...]:
    """The errors that say the gate actor is dead or restarting (not that it refused a slot)."""
    try:
        from ray.exceptions import ActorUnavailableError, RayActorError
    except ImportError:   # no Ray (the in-process tests hand a plain object): nothing is an outage
        return ()
    return (RayActorError, ActorUnavailableError)


class GatedLimits(ProviderLimits):
    """Per-provider caps enforced by a shared gate actor (``gate`` is its Ray actor handle)."""

    def __init__(self, gate: Any, holder: str, *, overrides: Mapping[str, int] | None = None, default: int = 16,
                 bypass_at: int | None = None, timeout_s: float | None = None,
                 fallback_after_s: float = FALLBACK_AFTER_S) -> None:
        super().__init__(overrides, default)
        self._gate = gate
        self._holder = holder
        self._bypass_at = bypass_at
        self._timeout_s = timeout_s
        self._fallback_after_s = fallback_after_s
        self._down: tuple[type[BaseException], ...] = gate_down_errors()
        self._down_since: float | None = None   # monotonic time of the first failed call of the current outage
        self.gate_calls = 0
        self.gate_outages = 0                   # calls that found the gate dead or restarting
        self.local_fallbacks = 0                # slots taken locally because the gate stayed unreachable

    def _count(self, provider: str, delta: int) -> None:
        with self._lock:
            self._in_flight[provider] = self._in_flight.get(provider, 0) + delta
            self.peak[provider] = max(self.peak.get(provider, 0), self._in_flight[provider])

    def _release(self, token: str) -> None:
        """Give ``token`` back, fire and forget (a late release only under-uses the cap; a gate that is down
        has forgotten the token anyway)."""
        try:
            ref = self._gate.release.remote(token)
        except Exception:  # noqa: BLE001 (the gate is gone: nothing to give back)
            return
        future = getattr(ref, "future", None)
        if future is not None:   # look at the outcome, so a failed release is never reported as unhandled
            try:
                future().add_done_callback(lambda f: f.cancelled() or f.exception())
            except Exception:  # noqa: BLE001
                pass

    def _gone(self) -> bool:
        """The current outage has lasted long enough to stop waiting for the gate."""
        if self._down_since is None:
            return False
        limit = self._fallback_after_s if self._timeout_s is None else min(self._fallback_after_s, self._timeout_s)
        return time.monotonic() - self._down_since >= limit

    async def _acquire(self, provider: str, requested: int | None) -> str | None:
        """A granted token, or None when the gate has been unreachable for too long (take a local slot)."""
        deadline = None if self._timeout_s is None else time.monotonic() + self._timeout_s
        attempt = 0
        while True:
            token = uuid.uuid4().hex
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            self.gate_calls += 1
            try:
                granted = await self._gate.acquire.remote(provider, token, self._holder, requested, remaining)
            except asyncio.CancelledError:
                self._release(token)   # withdraw (or free, if it was granted meanwhile)
                raise
            except self._down as e:
                self._release(token)   # the call may have reached a gate that still lives: never leak it
                self.gate_outages += 1
                now = time.monotonic()
                if self._down_since is None:
                    self._down_since = now
                    log.warning("provider gate unreachable (%s); waiting for it to come back", type(e).__name__)
                if self._gone() or (deadline is not None and now >= deadline):
                    return None   # an outage never fails an episode: the caller takes a local slot
                delay = RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]
                if deadline is not None:
                    delay = min(delay, deadline - now)
                attempt += 1
                await asyncio.sleep(delay)
                continue
            if self._down_since is not None:
                log.warning("provider gate reachable again after %.1f s", time.monotonic() - self._down_since)
                self._down_since = None
            if not granted:
                raise ProviderGateTimeout(f"no {provider!r} slot from the provider gate within "
                                          f"{self._timeout_s:g} s" if self._timeout_s else
                                          f"the provider gate refused a {provider!r} slot")
            return token

    @asynccontextmanager
    async def slot(self, provider: str, requested: int | None = None) -> AsyncIterator[None]:
        size = self.size(provider, requested)
        if self._bypass_at is not None and size >= self._bypass_at:
            async with super().slot(provider, requested):
                yield
            return
        token = await self._acquire(provider, requested)
        if token is None:   # the gate is gone: this actor's own caps still hold
            self.local_fallbacks += 1
            if self.local_fallbacks == 1:
                log.warning("provider gate gone for %.0f s: taking %r slots from this actor's own caps",
                            time.monotonic() - (self._down_since or time.monotonic()), provider)
            async with super().slot(provider, requested):
                yield
            return
        self._count(provider, 1)
        try:
            yield
        finally:
            self._count(provider, -1)
            self._release(token)
