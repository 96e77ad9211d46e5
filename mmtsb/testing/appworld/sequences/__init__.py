"""The harness's call sequences, one module per AppWorld app (each exposes ``SEQUENCES``)."""

from __future__ import annotations

import importlib

from mmtsb.testing.appworld.plan import APPS, Sequence

MODULES = ("accounts", *APPS)


def all_sequences(apps: tuple[str, ...] | None = None) -> list[Sequence]:
    """Every sequence (or those whose first call is in one of ``apps``)."""
    found = [q for m in MODULES for q in importlib.import_module(f"{__name__}.{m}").SEQUENCES]
    return [q for q in found if apps is None or q.app in apps]
