"""Every app package follows one file layout (see :mod:`mmtsb.apps.base`): ``schema.py`` for its tables,
``seed.py`` for its base state when it has one, ``core.py`` for helpers its tool modules share, and tool
modules named ``tools.py`` (a single module) or ``tools_<area>.py``; ``__init__.py`` declares ``APP``."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import mmtsb.apps
from mmtsb.apps import APP_PACKAGES, app
from mmtsb.tools.spec import spec_of

APPS_DIR = Path(mmtsb.apps.__file__).parent


def _modules(package: str) -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(APPS_DIR / package)]))


def _is_tool_module(name: str) -> bool:
    return name == "tools" or name.startswith("tools_")


def test_every_package_is_listed_once():
    packages = sorted(m.name for m in pkgutil.iter_modules([str(APPS_DIR)]) if m.ispkg)
    assert sorted(APP_PACKAGES) == packages
    assert len(set(APP_PACKAGES)) == len(APP_PACKAGES)


@pytest.mark.parametrize("package", APP_PACKAGES)
def test_package_layout(package):
    modules = _modules(package)
    assert "schema" in modules, f"{package} keeps its tables in schema.py"
    tool_modules = [m for m in modules if _is_tool_module(m)]
    assert tool_modules, f"{package} has no tools.py / tools_<area>.py"
    assert "tools" not in tool_modules or tool_modules == ["tools"], f"{package}: tools.py or tools_<area>.py, not both"
    declared = app(package).tool_modules
    assert sorted(declared) == [f"mmtsb.apps.{package}.{m}" for m in tool_modules]


@pytest.mark.parametrize("package", APP_PACKAGES)
def test_tools_live_only_in_tool_modules(package):
    for name in _modules(package):
        if _is_tool_module(name):
            continue
        mod = importlib.import_module(f"mmtsb.apps.{package}.{name}")
        tools = [k for k, v in vars(mod).items() if spec_of(v) is not None and v.__module__ == mod.__name__]
        assert not tools, f"mmtsb.apps.{package}.{name} defines tools {tools}: move them to a tools module"
