"""Validate a generated scenario the way a shipped one is validated: write it with its images into a folder,
load it into a World (``mmtsb scenarios validate``'s machinery: the real table schemas, the specs, the tools),
and gold-check it (the expected changes applied to the initial world score F1 = 1, the untouched world less)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from mmtsb.authoring.writer import write_scenario
from mmtsb.scenarios.validate import gold_check_file, validate_file
from mmtsb.tools.toolbox import full_registry
from pipelines.assemble import GeneratedDefinition

__all__ = ["scenario_problems", "write_generated"]


def write_generated(out_dir: Path, definition: GeneratedDefinition, data: dict[str, Any]) -> list[Path]:
    """Write one generated scenario file and its images under ``out_dir``."""
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    return write_scenario(out_dir, definition, data)


def scenario_problems(definition: GeneratedDefinition, data: dict[str, Any]) -> list[str]:
    """Every validation error and gold-check failure of a generated scenario (empty: it is sound)."""
    with tempfile.TemporaryDirectory(prefix="mmtsb-gen-check-") as tmp:
        folder = Path(tmp)
        write_generated(folder, definition, data)
        path = folder / f"{definition.name}.json"
        report = validate_file(path, full_registry())
        problems = list(report.errors) + [f"unknown tool {t}" for t in report.missing_tools]
        if problems:
            return problems
        try:
            gold = gold_check_file(path)
        except Exception as exc:  # a spec the world cannot apply
            return [f"gold check failed: {type(exc).__name__}: {exc}"]
        if not gold["passed"]:
            return [f"gold check failed: F1 gold {gold['f1_gold']:.3f}, untouched {gold['f1_untouched']:.3f}"]
        return []
