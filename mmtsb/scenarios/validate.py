"""``mmtsb scenarios validate`` and ``gold-check``: per-file checks that never stop at the first bad file."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from mmtsb.scenarios.build import ScenarioWorld, build_world
from mmtsb.scenarios.images import ImagesMode
from mmtsb.scenarios.loader import ScenarioError, load_scenario
from mmtsb.scenarios.model import Scenario
from mmtsb.tools.registry import ToolRegistry
from mmtsb.world.templates import WorldCache
from mmtsb.world.world import World

#: bookkeeping timestamps a real update would refresh (gold application stamps them)
UPDATE_STAMPS = ("updated_at", "modified_at", "last_updated_at", "last_modified_at")


@cache
def reference_tool_names() -> frozenset[str]:
    """Names of the released toolbox's 511 FULL tools (shipped as data with the package)."""
    data = json.loads(resources.files("mmtsb.tools").joinpath("reference_tools.json").read_text())
    return frozenset(data["tools"])


@dataclass
class ValidationReport:
    file: str
    ok: bool = True
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    missing_tools: list[str] = field(default_factory=list)
    unsatisfiable: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SpecFindings:
    """What a file's entity-diff specs name that its tables lack.

    ``errors``: an unknown table. ``unsatisfiable``: specs no episode can satisfy (an update or delete naming a
    column the table does not have, which the reference scores 0; a create none of whose columns exist); the
    file still plays, as in the reference, so they are warnings too, and gold-check fails on them.
    ``warnings``: also the columns the scorer skips, as the reference does (a create's ``entity_data`` column
    the table lacks, e.g. ``liked_at`` of ``spotify.playlist_likes``; a similarity function for a column the
    spec does not check).
    """

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unsatisfiable: list[str] = field(default_factory=list)


def spec_findings(scenario: Scenario, world: World) -> SpecFindings:
    """Check every table and column an entity-diff spec names against the world's tables."""
    out = SpecFindings()
    for i, spec in enumerate(scenario.entity_diff_specs):
        where = f"entity_diff_specs[{i}] ({spec.operation} {spec.table_key})"
        if not world.has_table(spec.table_key):
            out.errors.append(f"{where}: unknown table {spec.table_key!r}")
            continue
        t = world.table(spec.table_key)
        checked = list(spec.expected_row())
        absent = [c for c in checked if not t.has(c)]
        unused = sorted(c for c in spec.column_similarity_measure if not t.has(c) and c not in checked)
        if absent and (spec.operation != "create" or len(absent) == len(checked)):
            why = ("none of its columns exist, so no created row can match" if spec.operation == "create"
                   else "the reference scores it 0")
            msg = f"{where}: unsatisfiable: {t.key} has no column(s) {absent} ({why}); {t.key} has {t.column_names}"
            out.warnings.append(msg)
            out.unsatisfiable.append(msg)
        elif absent:
            out.warnings.append(f"{where}: column(s) {absent} not in {t.key}: not compared (the reference "
                                "ignores them too)")
        if unused:
            out.warnings.append(f"{where}: column_similarity_measure names column(s) {unused} that {t.key} "
                                "does not have: unused")
    return out


def message_problems(scenario: Scenario) -> list[str]:
    n = len(scenario.image_paths)
    problems = []
    for i, m in enumerate(scenario.messages):
        bad = [x for x in (m.image_ids or []) if not 0 <= x < n]
        if bad:
            problems.append(f"messages[{i}].image_ids: {bad} out of range (the file has {n} image(s), ids 0..{n - 1})")
    if scenario.messages and (scenario.messages[-1].sender, scenario.messages[-1].recipient) == ("SYSTEM", "AGENT"):
        problems.append("messages: the last scripted message must not be SYSTEM->AGENT")
    for i, d in enumerate(scenario.metadata.image_delivery_map):
        bad = [x for x in d.image_ids if not 0 <= x < n]
        if bad:
            problems.append(f"metadata.image_delivery_map[{i}].image_ids: {bad} out of range")
    return problems


def tool_findings(scenario: Scenario, registry: ToolRegistry) -> tuple[list[str], list[str]]:
    """(missing_tools, warnings) for ``metadata.expected_tools``."""
    missing, warnings = [], []
    for name in scenario.expected_tools:
        if name in registry:
            continue
        if name in reference_tool_names():
            missing.append(name)
        else:
            warnings.append(f"metadata.expected_tools: {name!r} is not a tool of the released toolbox "
                            "(expected_tools is informational)")
    return missing, warnings


def load_and_build(path: Path, image_root: str | Path | None, images: ImagesMode,
                   worlds: WorldCache | None = None) -> tuple[Scenario, ScenarioWorld]:
    scenario = load_scenario(path)
    return scenario, build_world(scenario, image_root=image_root, images=images, file=path, cache=worlds)


def validate_file(path: str | Path, registry: ToolRegistry, *, image_root: str | Path | None = None,
                  images: ImagesMode = "require", worlds: WorldCache | None = None) -> ValidationReport:
    """Check one file (see the module's docstring); ``worlds`` (a caller's WorldCache) makes checking many files
    cheaper by reusing the base world."""
    report = ValidationReport(file=str(path))
    try:
        scenario, built = load_and_build(Path(path), image_root, images, worlds)
    except ScenarioError as e:
        report.errors.extend(e.problems)
        report.ok = False
        return report
    except Exception as e:  # a file the world cannot take: an error of this file, never of the whole command
        report.errors.append(f"(file): the world cannot be built from it: {type(e).__name__}: {e}")
        report.ok = False
        return report
    try:
        report.warnings.extend(built.warnings)
        report.errors.extend(message_problems(scenario))
        specs = spec_findings(scenario, built.world)
        report.errors.extend(specs.errors)
        report.warnings.extend(specs.warnings)
        report.unsatisfiable = specs.unsatisfiable
        report.missing_tools, tool_warnings = tool_findings(scenario, registry)
        report.warnings.extend(tool_warnings)
    except Exception as e:
        report.errors.append(f"(file): cannot be checked: {type(e).__name__}: {e}")
    finally:
        built.world.close()
    report.ok = not report.errors and not report.missing_tools
    return report


def apply_expected_changes(built: ScenarioWorld) -> None:
    """Make exactly the changes a scenario's specs expect (the 'gold' final world)."""
    world, now = built.world, built.world.clock.now_str()
    for spec in built.scenario.entity_diff_specs:
        key = spec.table_key
        if spec.operation != "create" and not world.table(key).has(str(spec.entity_id_column)):
            continue   # unsatisfiable (reported by spec_findings): no row can be named
        if spec.operation == "create":   # columns the table lacks are skipped (the scorer skips them too)
            world.insert(key, {k: v for k, v in (spec.entity_data or {}).items() if world.table(key).has(k)})
        elif spec.operation == "delete":
            world.db.execute(f'DELETE FROM {world.table(key).qualified} WHERE "{spec.entity_id_column}" = ?',
                             (spec.entity_id_value,))
        else:
            t = world.table(key)
            fields = {k: v for k, v in (spec.expected_fields or {}).items() if t.has(k)}
            fields.update({c: now for c in UPDATE_STAMPS if t.has(c) and c not in fields})
            enc = t.encode_row(fields)
            sets = ", ".join(f'"{c}" = ?' for c in enc)
            world.db.execute(f'UPDATE {t.qualified} SET {sets} WHERE "{spec.entity_id_column}" = ?',
                             [*enc.values(), spec.entity_id_value])


def gold_check_file(path: str | Path, *, image_root: str | Path | None = None, images: ImagesMode = "require",
                    strict_reference: bool = False, worlds: WorldCache | None = None) -> dict[str, Any]:
    """Score the untouched initial world and the gold world against the scenario's own specs."""
    from mmtsb.eval.entity_diff import EvalOptions, evaluate_world

    options = EvalOptions(strict_reference=strict_reference)
    scenario, built = load_and_build(Path(path), image_root, images, worlds)
    try:
        unsatisfiable = spec_findings(scenario, built.world).unsatisfiable
        untouched = evaluate_world(scenario.entity_diff_specs, built.world, built.initial, options)
        apply_expected_changes(built)
        gold = evaluate_world(scenario.entity_diff_specs, built.world, built.initial, options)
    finally:
        built.world.close()
    only_creates = all(s.operation == "create" for s in scenario.entity_diff_specs)
    passed = (not unsatisfiable and gold.f1 == 1.0 and untouched.f1 < 1.0
              and (not only_creates or untouched.f1 == 0.0))
    return {"file": str(path), "f1_gold": gold.f1, "f1_untouched": untouched.f1, "passed": passed,
            "unsatisfiable": unsatisfiable,
            "gold": gold.to_dict(), "untouched": untouched.to_dict()}
