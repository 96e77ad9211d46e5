"""litellm, imported on first use and set up for offline, quiet, retry-free use (:func:`load_litellm`).

Why lazily: importing litellm costs ~2 s and ~140 MB per process, and the direct route, the oracle and the
static roles never need it. Why the settings: litellm would otherwise fetch its price map from the internet
at import, print help banners on every error, and retry on its own underneath our policy. They are litellm's
own module flags (not our state).

:func:`lean_litellm_call` wraps each of mmtsb's own litellm calls: it skips per-call work whose result mmtsb
never uses (litellm's logging pipeline; litellm's own pricing of a call that mmtsb prices itself) and has
litellm's HTTP handler write the request body with orjson. Outside such a call litellm behaves as shipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from types import ModuleType
from typing import TYPE_CHECKING, Any

import orjson

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


#: litellm's module flags naming callbacks; with any of them set, litellm's logging pipeline must run
_CALLBACK_FLAGS = ("callbacks", "success_callback", "failure_callback", "_async_success_callback",
                   "_async_failure_callback", "input_callback", "service_callback")

#: set for the duration of one of mmtsb's litellm calls (:func:`lean_litellm_call`), read by the hooks below
_OWN_CALL: ContextVar[bool] = ContextVar("mmtsb_litellm_call", default=False)
_SKIP_COST: ContextVar[bool] = ContextVar("mmtsb_litellm_skip_cost", default=False)


def _has_callbacks(litellm: ModuleType) -> bool:
    return any(getattr(litellm, name, None) for name in _CALLBACK_FLAGS)


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
    if flag is None or _has_callbacks(litellm):
        yield
        return
    token = flag.set(True)
    try:
        yield
    finally:
        flag.reset(token)


@contextlib.contextmanager
def lean_litellm_call(litellm: ModuleType, *, priced_by_mmtsb: bool) -> Iterator[None]:
    """One of mmtsb's litellm calls: litellm's logging pipeline skipped (:func:`without_litellm_logging`); the
    request body written by orjson (:func:`_request_json_hook`); and, when ``priced_by_mmtsb`` (the call's
    cost is computed by :func:`mmtsb.llm.parse.cost_of` without litellm's figure) and no litellm callback is
    configured (a callback would read litellm's figure), litellm's own pricing of the response skipped
    (:func:`_response_cost_hook`).

    Why: litellm prices every response (``_hidden_params["response_cost"]``), and a model it does not know
    (any model served on an ``api_base``) costs it a raised and caught exception each call; and its
    HTTP handler encodes the body with the standard library's JSON encoder, whose cost grows with the base64
    images of the conversation (≈ 0.5 ms a call for an episode with a few screenshots, 30 times orjson's)."""
    tokens = [(_OWN_CALL, _OWN_CALL.set(True))] if _request_json_hook() else []
    if priced_by_mmtsb and _response_cost_hook() and not _has_callbacks(litellm):
        tokens.append((_SKIP_COST, _SKIP_COST.set(True)))
    try:
        with without_litellm_logging(litellm):
            yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


#: non-string keys become strings (as json.dumps writes them); dataclasses and datetimes, which json.dumps
#: refuses, are refused too (the fallback then raises as before)
_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def _dumps_request(obj: Any, **options: Any) -> str:
    """``json.dumps`` as litellm's HTTP handler calls it: within one of mmtsb's calls and without options,
    orjson's text (the same JSON, compact and UTF-8: the bytes the direct route sends); else, or for what
    orjson refuses (integers beyond 64 bits, unknown objects: the standard encoder then raises as before),
    the standard library's."""
    if not options and _OWN_CALL.get():
        try:
            return orjson.dumps(obj, option=_ORJSON_OPTIONS).decode()
        except (orjson.JSONEncodeError, TypeError):
            pass
    return json.dumps(obj, **options)


class _RequestJson(ModuleType):
    """Stands in for the ``json`` module inside litellm's HTTP handler: ``dumps`` is :func:`_dumps_request`,
    every other name the standard library's."""

    dumps = staticmethod(_dumps_request)

    def __getattr__(self, name: str) -> Any:
        return getattr(json, name)


@functools.cache
def _request_json_hook() -> bool:
    """Route litellm's request-body encoding (``llm_http_handler.json.dumps``, litellm 1.83) through
    :func:`_dumps_request`, once per process. False (nothing changed) on a litellm laid out otherwise."""
    try:
        from litellm.llms.custom_httpx import llm_http_handler
    except ImportError:
        return False
    current = getattr(llm_http_handler, "json", None)
    if isinstance(current, _RequestJson):
        return True
    if current is not json:
        return False
    llm_http_handler.json = _RequestJson("json")
    return True


@functools.cache
def _response_cost_hook() -> bool:
    """Let :func:`lean_litellm_call` skip litellm's pricing of a response (``Logging._response_cost_calculator``,
    litellm 1.83: its None is what litellm itself records for a model it cannot price), once per process.
    False (nothing changed) on a litellm without that method."""
    try:
        from litellm.litellm_core_utils.litellm_logging import Logging
    except ImportError:
        return False
    original = getattr(Logging, "_response_cost_calculator", None)
    if original is None:
        return False
    if getattr(original, "__mmtsb_hook__", False):
        return True

    @functools.wraps(original)
    def _response_cost_calculator(self: Any, *args: Any, **kwargs: Any) -> Any:
        if _SKIP_COST.get():
            return None
        return original(self, *args, **kwargs)

    _response_cost_calculator.__mmtsb_hook__ = True  # type: ignore[attr-defined]
    Logging._response_cost_calculator = _response_cost_calculator
    return True


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

