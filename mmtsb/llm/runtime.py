"""litellm, imported on first use and set up for offline, quiet, retry-free use (:func:`load_litellm`).

Why lazily: importing litellm costs ~2 s and ~140 MB per process, and the direct route, the oracle and the
static roles never need it. Why the settings: litellm would otherwise fetch its price map from the internet
at import, print help banners on every error, and retry on its own underneath our policy. They are litellm's
own module flags (not our state).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mmtsb.protocol.model_settings import ModelSettings

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# one process plays hundreds of episodes against the same provider host: litellm's shared aiohttp pool
# (500 connections per host by default) would queue requests beyond that and throttle the run
os.environ.setdefault("AIOHTTP_CONNECTOR_LIMIT", "8192")
os.environ.setdefault("AIOHTTP_CONNECTOR_LIMIT_PER_HOST", "4096")


@functools.cache
def load_litellm() -> ModuleType:
    """The litellm module, imported and configured (:func:`configure_litellm`) on the first call only."""
    import litellm

    configure_litellm(litellm)
    return litellm


@functools.cache
def _internal_call_flag() -> ContextVar[bool] | None:
    """litellm's ``is_internal_call`` context variable (litellm 1.83), or None on a litellm without it."""
    if importlib.util.find_spec("litellm._internal_context") is None:
        return None
    return getattr(importlib.import_module("litellm._internal_context"), "is_internal_call", None)


@contextlib.contextmanager
def without_litellm_logging(litellm: ModuleType) -> Iterator[None]:
    """Run a litellm call without litellm's own success/failure logging pipeline, when nobody registered a
    litellm callback (mmtsb never does: it accounts tokens, cost and errors itself).

    Why: per call, that pipeline builds a standard logging payload (copying the messages and cutting base64
    images out of them), prices the call again and queues it on a background worker: about a third of a
    litellm call's CPU, and with hundreds of episodes per core that CPU is queueing delay. litellm skips it
    for its own internal sub-calls through the ``is_internal_call`` context variable (litellm 1.83); we set it
    for the call's task only. With any litellm callback configured, or on a litellm without that variable,
    nothing changes."""
    flag = _internal_call_flag()
    callbacks = (getattr(litellm, name, None) or [] for name in
                 ("callbacks", "success_callback", "failure_callback", "_async_success_callback",
                  "_async_failure_callback", "input_callback", "service_callback"))
    if flag is None or any(callbacks):
        yield
        return
    token = flag.set(True)
    try:
        yield
    finally:
        flag.reset(token)


def uses_litellm(settings: ModelSettings) -> bool:
    """Whether calls with ``settings`` import litellm: every route but ``direct`` calls through it, and the direct
    route prices a model from litellm's (local) price map unless the settings carry their own prices."""
    return bool(settings.model) and (not settings.direct or not settings.has_prices)


def configure_litellm(litellm: ModuleType | None = None) -> None:
    """Idempotent: no telemetry, no debug banners, no downloads, no litellm-level retries."""
    if litellm is None:
        import litellm
    litellm.telemetry = False
    litellm.suppress_debug_info = True
    litellm.set_verbose = False
    litellm.disable_hf_tokenizer_download = True
    litellm.num_retries = None
    litellm.redact_messages_in_exceptions = True


async def flush_litellm_logging(timeout: float = 5.0) -> None:
    """Drain and stop litellm's background logging worker in the current event loop.

    Call it before closing an event loop that made litellm calls (e.g. at the end of ``asyncio.run``),
    otherwise litellm's queued success handlers are garbage-collected unawaited and warn. Nothing to do when
    litellm was never imported.
    """
    if "litellm" not in sys.modules:
        return
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

    for _ in range(3):  # litellm enqueues its handlers from tasks created after the call returned
        await asyncio.sleep(0)
    if _bound_to_another_loop(GLOBAL_LOGGING_WORKER):
        _forget_stale_worker(GLOBAL_LOGGING_WORKER)
        return
    try:
        await asyncio.wait_for(GLOBAL_LOGGING_WORKER.flush(), timeout)
    except TimeoutError:
        await GLOBAL_LOGGING_WORKER.clear_queue()
    await GLOBAL_LOGGING_WORKER.stop()


def _bound_to_another_loop(worker: object) -> bool:
    """Whether litellm's logging worker still holds tasks of an earlier event loop (one closed without a flush,
    e.g. by an ``asyncio.run`` that raised): cancelling those would fail with "Event loop is closed"."""
    bound = getattr(worker, "_bound_loop", None)
    return bound is not None and bound is not asyncio.get_running_loop()


def _forget_stale_worker(worker: Any) -> None:
    """Drop the state litellm's worker keeps for a closed loop (its tasks can never run again); litellm
    rebuilds it on the next call in the current loop. Queued logging coroutines are closed, not dropped."""
    queue = getattr(worker, "_queue", None)
    while queue is not None and not queue.empty():
        task = queue.get_nowait()
        coroutine = task.get("coroutine") if isinstance(task, dict) else getattr(task, "coroutine", None)
        if asyncio.iscoroutine(coroutine):
            coroutine.close()
    for name, empty in (("_queue", None), ("_sem", None), ("_worker_task", None), ("_bound_loop", None)):
        if hasattr(worker, name):
            setattr(worker, name, empty)
    running = getattr(worker, "_running_tasks", None)
    if running is not None:
        running.clear()

