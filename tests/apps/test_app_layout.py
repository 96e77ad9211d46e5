"""Every app package follows one file layout (see :mod:`mmtsb.apps.base`): ``schema.py`` for its tables,
``seed.py`` for its base state when it has one, ``core.py`` for helpers its tool modules share, and tool
modules named ``tools.py`` (a single module) or ``tools_<area>.py``; ``__init__.py`` declares ``APP``."""

from __future__ import annotations

import ast
import importlib
import importlib.util
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


@pytest.mark.parametrize("package", ["", *APP_PACKAGES])
def test_init_declares_its_public_names(package):
    name = f"mmtsb.apps.{package}" if package else "mmtsb.apps"
    mod = importlib.import_module(name)
    exported = getattr(mod, "__all__", None)
    assert exported is not None, f"{name}/__init__.py has no __all__"
    assert package == "" or "APP" in exported
    assert [n for n in exported if not hasattr(mod, n)] == []


def _imports_from_app_packages() -> list[tuple[str, str, str]]:
    """(file, package, name) for every ``from mmtsb.apps[.<app>] import name`` in the repository's code."""
    root = APPS_DIR.parents[1]
    packages = {"mmtsb.apps", *(f"mmtsb.apps.{p}" for p in APP_PACKAGES)}
    found = []
    for top in ("mmtsb", "tests", "benchmarks", "scenarios", "pipelines"):
        for path in sorted((root / top).rglob("*.py")):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError, OSError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in packages:
                    found += [(str(path.relative_to(root)), node.module, a.name) for a in node.names]
    return found


def test_other_modules_import_only_public_names():
    """What a module imports from an app package's root is in that package's ``__all__`` (or a submodule)."""
    private = []
    for file, package, name in _imports_from_app_packages():
        mod = importlib.import_module(package)
        if name not in mod.__all__ and importlib.util.find_spec(f"{package}.{name}") is None:
            private.append(f"{file}: from {package} import {name}")
    assert private == []


def test_the_world_package_knows_no_app():
    """``mmtsb.world`` sits below the apps: it imports nothing from ``mmtsb.apps`` (the apps pass it what it needs)."""
    world_dir = APPS_DIR.parent / "world"
    offending = []
    for path in sorted(world_dir.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            offending += [f"{path.name}: {n}" for n in names if n == "mmtsb.apps" or n.startswith("mmtsb.apps.")]
    assert offending == []


def test_account_apps_are_the_apps_with_users():
    from mmtsb.apps import account_apps, all_apps

    assert account_apps() == tuple(sorted(a.name for a in all_apps() if a.has_accounts))
    assert {"supervisor", "calendar", "reminder", "setting"}.isdisjoint(account_apps())
    assert all(f"{name}.users" in {t.key for t in app(name).tables} for name in account_apps())


def test_the_base_world_logs_into_every_account_app(world):
    from mmtsb.apps import account_apps
    from mmtsb.world import device

    assert [a.name for a in mmtsb.apps.all_apps() if device.is_logged_in(world, a.name)] == \
        [a for a in APP_PACKAGES if a in account_apps()]
