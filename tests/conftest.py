"""Shared fixtures: a base world for a known main user, and a tool session over the full toolbox."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO.parent / "shared" / "reference"
MAIN_EMAIL = "brenda.webe@gmail.com"
MAIN_ID = 50
REFERENCE_TIME = "2026-04-16T23:51:15+00:00"


@pytest.fixture
def world():
    from mmtsb.apps.base_world import build_base_world

    w = build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)
    yield w
    w.close()


@pytest.fixture
def session(world):
    from mmtsb.tools.session import ToolSession
    from mmtsb.tools.toolbox import full_registry

    return ToolSession(world, full_registry())


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
