"""Shared test constants and helpers (imported as `testkit`; conftest files only hold fixtures)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO.parent / "shared" / "reference"
MAIN_EMAIL = "brenda.webe@gmail.com"
MAIN_ID = 50
REFERENCE_TIME = "2026-04-16T23:51:15+00:00"


def call_ok(session, name, **args):
    """Call a tool and assert it succeeded; returns the value."""
    out = session.call(name, args)
    assert out.ok, f"{name}({args}) failed: {out.error}"
    return out.value


def call_err(session, name, **args):
    """Call a tool and assert it failed; returns the ToolError."""
    out = session.call(name, args)
    assert not out.ok, f"{name}({args}) unexpectedly succeeded: {out.value!r}"
    return out.error


def mailed_code(world, app: str, identity: str, kind: str) -> str:
    """The latest verification (``verify``) or password-reset (``reset``) code of an account, as mailed to it."""
    column = "verification_code" if kind == "verify" else "password_reset_code"
    ident = "phone_number" if app == "phone" else "email"
    return world.select(f"{app}.users", f"{ident} = ?", (identity,))[0][column]


def run_async(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coro`` in a fresh loop, then drain litellm's background logging before the loop closes."""
    from mmtsb.llm import flush_litellm_logging

    async def main() -> Any:
        try:
            return await coro
        finally:
            await flush_litellm_logging()

    return asyncio.run(main())


async def while_ticking(coro: Coroutine[Any, Any, Any]) -> tuple[Any, int]:
    """Await ``coro`` beside a task that counts its own turns on the loop: (the result, the turns). A count near
    0 means ``coro`` held the loop (worked inline); a large one, that the loop ran other tasks meanwhile."""
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.ensure_future(ticker())
    await asyncio.sleep(0)
    ticks = 0
    try:
        return await coro, ticks
    finally:
        done.set()
        await task
