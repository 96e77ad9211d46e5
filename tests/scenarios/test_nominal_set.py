"""The starter scenario set ``scenarios/nominal/``: format, validity, gold checks, coverage, regeneration,
and the key proof that each scenario is solvable: its reference solution, run round by round through a
ToolSession, reaches entity-diff F1 = 1.0 with no unexpected writes."""

from __future__ import annotations

import ast
import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from testkit import REFERENCE, REPO

from mmtsb.authoring import nominal as nominal_set
from mmtsb.eval.entity_diff import EvalOptions, evaluate_world
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import load_scenario
from mmtsb.scenarios.script import parse_user_script
from mmtsb.scenarios.solution import ReferenceSolution, SolutionRunner, tool_functions
from mmtsb.scenarios.validate import gold_check_file, validate_file
from mmtsb.tools.session import ToolSession
from mmtsb.tools.toolbox import full_registry

NOMINAL = REPO / "scenarios" / "nominal"
FILES = sorted(NOMINAL.glob("*.json"))
IDS = [p.stem for p in FILES]
RELEASED_KEYS = ["name", "base_scenario", "description", "difficulty", "appworld_base_task", "device_state_id",
                 "reference_time", "agentsandbox_entities", "appworld_entities", "image_paths", "messages",
                 "milestones", "entity_diff_specs", "task_completion_criteria", "categories", "max_messages",
                 "metadata"]
MEASURES = {"column_exact_match_similarity", "column_rouge_l_similarity", "column_ignore_similarity",
            "column_datetime_naive_equal_similarity", "column_contains_similarity"}
MAX_IMAGE_BYTES = 150 * 1024


@cache
def registry():
    return full_registry()


def _data(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_set_has_at_least_twelve_scenarios():
    assert len(FILES) >= 12
    assert IDS == [f"mmtsb_nominal_{i:03d}" for i in range(1, len(FILES) + 1)]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_released_layout(path: Path):
    data = _data(path)
    assert list(data) == RELEASED_KEYS
    if REFERENCE.exists():
        released = _data(next((REFERENCE / "scenarios" / "nominal").glob("*.json")))
        assert set(data) == set(released) and set(data["metadata"]) - {"reference_solution"} == set(
            released["metadata"])
    meta, taxonomy = data["metadata"], data["metadata"]["scenario_metadata"]
    assert data["name"] == path.stem == meta["original_scenario_id"]
    assert data["categories"] == ["APPWORLD", "MULTIPLE_USER_TURN"] and data["max_messages"] == 100
    assert (data["base_scenario"], data["appworld_base_task"], data["milestones"]) == ("base", "_base_", [])
    assert "gmail.users" in data["appworld_entities"]
    assert taxonomy["num_images"] == len(data["image_paths"])
    script = parse_user_script(data["messages"][0]["content"])
    assert len(data["messages"]) == 2 and len(script.rounds) == taxonomy["num_user_rounds"]
    zero_based = {int(r): [int(n.split("_")[1]) - 1 for n in names] for r, names in meta["image_arrival"].items()}
    assert script.image_arrival == zero_based
    first = data["messages"][1]
    assert (first["sender"], first["recipient"], first["content"]) == ("USER", "AGENT", script.rounds[0].query)
    assert first.get("image_ids", []) == script.rounds[0].provide_image_ids
    later = [r for r in script.rounds[1:] if r.provide_image_ids]
    assert meta["image_delivery_map"] == [{"query": r.query, "image_ids": r.provide_image_ids} for r in later]
    assert ("## IMAGE DELIVERY" in data["messages"][0]["content"]) == bool(later)
    solution = ReferenceSolution.from_data(meta["reference_solution"])
    assert solution.round_numbers == [r.number for r in script.rounds]
    assert meta["expected_tools"] == solution.tools()


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_images_are_committed_pngs_under_the_size_limit(path: Path):
    for rel in _data(path)["image_paths"]:
        image = path.parent / rel
        assert rel.startswith("images/") and image.is_file(), rel
        raw = image.read_bytes()
        assert raw[:8] == b"\x89PNG\r\n\x1a\n" and len(raw) < MAX_IMAGE_BYTES, (rel, len(raw))


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_specs_use_released_shapes(path: Path):
    for spec in _data(path)["entity_diff_specs"]:
        assert set(spec["column_similarity_measure"].values()) <= MEASURES
        if spec["operation"] == "create":
            assert "id" not in spec["entity_data"]
            assert set(spec["column_similarity_measure"]) == set(spec["entity_data"])
        else:
            assert spec["column_similarity_measure"][spec["entity_id_column"]] == "column_exact_match_similarity"
        assert ("namespace" in spec) == (spec["source"] == "agentsandbox")


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_validates_without_warnings(path: Path):
    report = validate_file(path, registry(), images="require")
    assert report.ok, report.to_dict()
    assert report.errors == [] and report.warnings == [] and report.missing_tools == []


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_gold_check(path: Path):
    result = gold_check_file(path)
    assert result["f1_gold"] == 1.0 and result["f1_untouched"] < 1.0
    assert result["passed"], result["untouched"]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_reference_solution_reaches_f1_one(path: Path):
    scenario = load_scenario(path)
    solution = ReferenceSolution.from_scenario(scenario)
    assert solution is not None and solution.problems(registry()) == []
    built = build_world(scenario, file=path)
    try:
        session = ToolSession(built.world, registry())
        runner = SolutionRunner(solution)
        for number in solution.round_numbers:
            outcomes = runner.run_round(session, number)
            assert all(o.ok for o in outcomes)
            ast.parse(runner.to_python(number))  # the code-execution rendering is valid Python
        result = evaluate_world(scenario.entity_diff_specs, built.world, built.initial, EvalOptions())
        unscored = [(g.table_key, g.operation, e.reason) for g in result.groups for e in g.entities if e.score < 1]
        assert result.f1 == 1.0, unscored
        assert result.unexpected_writes == [] and result.guardrail_pass
        strict = evaluate_world(scenario.entity_diff_specs, built.world, built.initial,
                                EvalOptions(strict_reference=True))
        assert strict.f1 == 1.0  # the reference's own scoring agrees
    finally:
        built.world.close()


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_python_rendering_reaches_the_same_world(path: Path):
    scenario = load_scenario(path)
    runner = SolutionRunner(ReferenceSolution.from_scenario(scenario))
    by_runner, by_code = build_world(scenario, file=path), build_world(scenario, file=path)
    try:
        s_runner = ToolSession(by_runner.world, registry(), mode="code_exec")
        s_code = ToolSession(by_code.world, registry(), mode="code_exec")
        namespace = tool_functions(s_code)
        for number in runner.solution.round_numbers:
            runner.run_round(s_runner, number)
            exec(runner.to_python(number), namespace)  # noqa: S102 - the scenario's own rendered solution
        assert [(o.tool, o.arguments) for o in s_code.history] == [(o.tool, o.arguments) for o in s_runner.history]
        for key in by_runner.world.tables:
            assert by_code.world.rows(key) == by_runner.world.rows(key), key
    finally:
        by_runner.world.close()
        by_code.world.close()


def test_coverage_of_the_design_axes():
    taxonomy = [_data(p)["metadata"]["scenario_metadata"] for p in FILES]
    flows = Counter(t["selected_flow_type"] for t in taxonomy)
    assert len(flows) >= 5 and set(flows) <= {"aggregate", "filter", "cross_reference", "compare", "validate",
                                              "lookup_chain", "compute"}
    assert {t["image_arrival"] for t in taxonomy} == {"upfront", "progressive", "mixed", "late"}
    assert {t["challenge_type"] for t in taxonomy} == {"none", "error_correction", "goal_change", "state_mutation"}
    assert all(2 <= t["num_user_rounds"] <= 5 and 2 <= t["num_images"] <= 6 for t in taxonomy)
    assert {t["num_user_rounds"] for t in taxonomy} == {2, 3, 4, 5}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_arrival_pattern_matches_the_deliveries(path: Path):
    data = _data(path)
    arrival = {int(r) for r in data["metadata"]["image_arrival"]}
    pattern = data["metadata"]["scenario_metadata"]["image_arrival"]
    if pattern == "upfront":
        assert arrival == {1}
    elif pattern == "late":
        assert 1 not in arrival and arrival
    else:
        assert 1 in arrival and len(arrival) > 1


def test_the_generator_regenerates_byte_identical_files(tmp_path: Path):
    written = nominal_set.build(tmp_path)
    fresh = sorted(p.relative_to(tmp_path).as_posix() for p in written)
    committed = sorted(p.relative_to(NOMINAL).as_posix() for p in NOMINAL.rglob("*") if p.is_file())
    assert fresh == committed
    different = [rel for rel in fresh if (tmp_path / rel).read_bytes() != (NOMINAL / rel).read_bytes()]
    assert different == [], "run `python -m mmtsb.authoring nominal` and commit the result"
