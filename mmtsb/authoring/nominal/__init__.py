"""The starter scenario set ``scenarios/nominal/``: 14 hand-written scenarios (one module each) over
procedurally drawn images whose content is the exact ground truth of their specs and reference solutions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mmtsb.authoring.model import Definition
from mmtsb.authoring.nominal import (
    s001, s002, s003, s004, s005, s006, s007, s008, s009, s010, s011, s012, s013, s014,
)
from mmtsb.authoring.writer import scenario_json, write_set

__all__ = ["SCENARIOS", "build", "definitions"]

#: the set's scenarios in file order, each a function returning its definition
SCENARIOS: list[Callable[[], Definition]] = [
    m.definition for m in (s001, s002, s003, s004, s005, s006, s007, s008, s009, s010, s011, s012, s013, s014)]


def definitions(only: set[int] | None = None) -> list[Definition]:
    """The set's definitions (those numbered in ``only`` when given)."""
    return [d for d in (make() for make in SCENARIOS) if not only or d.number in only]


def build(out_dir: Path, only: set[int] | None = None) -> list[Path]:
    """Write every scenario (and its images) under ``out_dir``; returns the written paths."""
    return write_set(out_dir, ((d, scenario_json(d)) for d in definitions(only)))
