"""The UI-mode scenario set ``scenarios/ui/``: six starter scenarios in which one choice is made on an
interactive A2UI screen instead of in words, evaluated with the same entity diff plus a UI judge."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mmtsb.authoring.ui import u001, u002, u003, u008, u012, u013
from mmtsb.authoring.ui.convert import definition, scenario_json
from mmtsb.authoring.ui.model import UIRound, UIVariant
from mmtsb.authoring.writer import write_set

__all__ = ["VARIANTS", "UIRound", "UIVariant", "build", "definition", "scenario_json", "variants"]

#: the set's scenarios in file order, each a function returning its variant
VARIANTS: list[Callable[[], UIVariant]] = [m.variant for m in (u001, u002, u003, u008, u012, u013)]


def variants(only: set[int] | None = None) -> list[UIVariant]:
    """The set's variants (those numbered in ``only`` when given)."""
    return [v for v in (make() for make in VARIANTS) if not only or v.number in only]


def build(out_dir: Path, only: set[int] | None = None) -> list[Path]:
    """Write every UI scenario (and its images) under ``out_dir``; returns the written paths."""
    pairs = ((v, definition(v)) for v in variants(only))
    return write_set(out_dir, ((d, scenario_json(v, d)) for v, d in pairs))
