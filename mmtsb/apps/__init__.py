"""The simulated apps. Each package under ``mmtsb/apps`` exposes ``APP`` (see :mod:`mmtsb.apps.base`)."""

from __future__ import annotations

import functools
import importlib

from mmtsb.apps.base import App, BaseContext
from mmtsb.world.schema import Table

#: every app package, in seeding order (the supervisor first: other apps read its profile)
APP_PACKAGES: tuple[str, ...] = (
    "supervisor", "phone", "simple_note", "todoist", "gmail", "file_system", "amazon", "spotify", "splitwise",
    "venmo", "calendar", "reminder", "setting",
)


@functools.cache
def all_apps() -> tuple[App, ...]:
    """Every app definition (immutable; imported once)."""
    return tuple(importlib.import_module(f"mmtsb.apps.{name}").APP for name in APP_PACKAGES)


@functools.cache
def account_apps() -> tuple[str, ...]:
    """The apps with user accounts, alphabetically: the ones the base world logs the main user into (the
    reference's ``auto_login``) and whose passwords the supervisor keeps."""
    return tuple(sorted(a.name for a in all_apps() if a.has_accounts))


def app(name: str) -> App:
    for a in all_apps():
        if a.name == name:
            return a
    raise KeyError(f"unknown app {name!r}; apps: {', '.join(APP_PACKAGES)}")


def all_tables() -> list[Table]:
    """Every table of every app."""
    return [t for a in all_apps() for t in a.tables]


__all__ = ["App", "BaseContext", "APP_PACKAGES", "account_apps", "all_apps", "app", "all_tables"]
