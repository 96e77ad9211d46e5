"""Shared test constants and helpers (imported as `testkit`; conftest files only hold fixtures)."""

from __future__ import annotations

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
