"""Process-wide litellm settings for offline, quiet, retry-free use, applied once on import.

Why: litellm would otherwise fetch its price map from the internet at import, print help banners on every
error, and retry on its own underneath our policy. These are litellm's own module flags (not our state).
"""

from __future__ import annotations

import asyncio
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# one process plays hundreds of episodes against the same provider host: litellm's shared aiohttp pool
# (500 connections per host by default) would queue requests beyond that and throttle the run
os.environ.setdefault("AIOHTTP_CONNECTOR_LIMIT", "8192")
os.environ.setdefault("AIOHTTP_CONNECTOR_LIMIT_PER_HOST", "4096")

import litellm


def configure_litellm() -> None:
    """Idempotent: no telemetry, no debug banners, no downloads, no litellm-level retries."""
    litellm.telemetry = False
    litellm.suppress_debug_info = True
    litellm.set_verbose = False
    litellm.disable_hf_tokenizer_download = True
    litellm.num_retries = None
    litellm.redact_messages_in_exceptions = True


async def flush_litellm_logging(timeout: float = 5.0) -> None:
    """Drain and stop litellm's background logging worker in the current event loop.

    Call it before closing an event loop that made litellm calls (e.g. at the end of ``asyncio.run``),
    otherwise litellm's queued success handlers are garbage-collected unawaited and warn.
    """
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

    for _ in range(3):  # litellm enqueues its handlers from tasks created after the call returned
        await asyncio.sleep(0)
    try:
        await asyncio.wait_for(GLOBAL_LOGGING_WORKER.flush(), timeout)
    except TimeoutError:
        await GLOBAL_LOGGING_WORKER.clear_queue()
    await GLOBAL_LOGGING_WORKER.stop()


configure_litellm()
