"""Shared fixtures: a base world for a known main user, and a tool session over the full toolbox.

Constants and helpers live in ``testkit`` (import them from there, never from conftest: several conftest
modules exist and share that module name).
"""

from __future__ import annotations

import os

import pytest

from testkit import MAIN_EMAIL, MAIN_ID, REFERENCE_TIME

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


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
