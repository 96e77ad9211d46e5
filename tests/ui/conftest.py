"""Fixtures for the UI tests: a small World (device tables only: the UI tools read no app table) and a tool
session over the UI tools alone, so the tests do not depend on the full toolbox's registration."""

from __future__ import annotations

import pytest
from PIL import Image
from testkit import REFERENCE_TIME

from mmtsb.apps.setting.schema import BASE_SETTING_ROW, SETTING
from mmtsb.tools.registry import ToolRegistry
from mmtsb.tools.session import ToolSession
from mmtsb.world import device
from mmtsb.world.clock import Clock
from mmtsb.world.world import World


@pytest.fixture
def world():
    w = World([*device.core_tables(), SETTING], Clock.at(REFERENCE_TIME))
    w.insert("SETTING", dict(BASE_SETTING_ROW))
    yield w
    w.close()


@pytest.fixture
def ui(world):
    """A session over the UI tools."""
    return ToolSession(world, ToolRegistry.from_modules(["mmtsb.ui.tools"]))


@pytest.fixture
def photos(world) -> list[int]:
    """Two stored images: a 300x200 solid orange one (id 0) and a 200x300 solid teal one (id 1)."""
    return [world.images.add_pil(Image.new("RGB", (300, 200), (255, 140, 0)), source="test"),
            world.images.add_pil(Image.new("RGB", (200, 300), (0, 128, 128)), source="test")]
