"""ProviderLimits: one asyncio semaphore per provider, shared by every client (and episode) of a process.

Why: the reference has no shared rate limiter (SPEC §9.3), so 16 workers each retrying blindly pile onto
one provider. Create one ProviderLimits per process (per Ray actor) and pass it to every LLMClient.
A slot is held only while an HTTP attempt is in flight, never during a backoff wait.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager


class ProviderLimits:
    """Per-provider concurrency caps. The size of a provider's cap is, in order: ``overrides[provider]``,
    the ``concurrency`` of the first config that uses it, ``default``."""

    def __init__(self, overrides: Mapping[str, int] | None = None, default: int = 16) -> None:
        self._overrides = dict(overrides or {})
        self._default = default
        self._sizes: dict[str, int] = {}
        # asyncio primitives belong to one event loop; keep one set per loop so a process that runs
        # several loops (tests, threads) never shares a semaphore across them.
        self._semaphores: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = (
            weakref.WeakKeyDictionary())
        self._in_flight: dict[str, int] = {}
        self.peak: dict[str, int] = {}
        self._lock = threading.Lock()

    def size(self, provider: str, requested: int | None = None) -> int:
        """The cap for ``provider`` (fixed the first time the provider is seen)."""
        with self._lock:
            if provider not in self._sizes:
                self._sizes[provider] = self._overrides.get(provider, requested or self._default)
            return self._sizes[provider]

    def _semaphore(self, provider: str, requested: int | None) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        size = self.size(provider, requested)
        with self._lock:
            per_loop = self._semaphores.setdefault(loop, {})
            if provider not in per_loop:
                per_loop[provider] = asyncio.Semaphore(size)
            return per_loop[provider]

    @asynccontextmanager
    async def slot(self, provider: str, requested: int | None = None) -> AsyncIterator[None]:
        """Hold one of ``provider``'s slots for the duration of the block."""
        async with self._semaphore(provider, requested):
            with self._lock:
                self._in_flight[provider] = self._in_flight.get(provider, 0) + 1
                self.peak[provider] = max(self.peak.get(provider, 0), self._in_flight[provider])
            try:
                yield
            finally:
                with self._lock:
                    self._in_flight[provider] -= 1

    def in_flight(self, provider: str) -> int:
        with self._lock:
            return self._in_flight.get(provider, 0)
