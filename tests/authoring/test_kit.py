"""The authoring kit on its own: spec builders name only evaluable similarity functions, definitions are checked
and named by series, the writer is deterministic, and the command line builds a subset."""

from __future__ import annotations

import pytest

from mmtsb.authoring import (
    Definition, Round, check_definition, create_alarm, create_event, create_note, create_reminder, create_task,
    create_text, delete, known_user, scenario_json, step, update_task, write_set,
)
from mmtsb.authoring.cli import main
from mmtsb.authoring.nominal import SCENARIOS
from mmtsb.authoring.nominal.common import BRENDA
from mmtsb.eval.similarity import JSON_SIMILARITY_NAMES


def _tiny(**overrides) -> Definition:
    fields = dict(number=7, user=BRENDA, description="d", flow="compare", arrival="upfront", challenge="none",
                  disambiguation=False, dataset_type="synthetic_document",
                  images=[("a", lambda: b"A"), ("b", lambda: b"B")],
                  rounds=[Round([1, 2], "q1", "i1", [step("simple_note_create_note", "n", title="t")], "r1"),
                          Round([], "q2", "i2", [], "r2")],
                  specs=[create_event("x", "2026-04-17T09:00:00", "2026-04-17T10:00:00"),
                         create_reminder("y", "2026-04-17T09:00:00")],
                  criteria="c")
    fields.update(overrides)
    return Definition(**fields)


def test_spec_builders_name_only_similarity_functions_a_scenario_file_may_use():
    specs = [create_note(1, "t", "c"), create_task(1, 1, "t", description="d", due="2026-04-17"),
             create_alarm(1, "07:00", "l"), *create_text(1, 2, "m"), update_task(5, is_completed=True),
             delete("todoist.tasks", 5), create_event("e", "2026-04-17T09:00:00", "2026-04-17T10:00:00")]
    names = {name for spec in specs for name in spec["column_similarity_measure"].values()}
    assert names <= set(JSON_SIMILARITY_NAMES)


def test_known_user_reads_the_base_people():
    assert known_user(50) == BRENDA and BRENDA.email == "brenda.webe@gmail.com"


def test_series_names_the_file_and_its_images():
    d = _tiny(series="ui")
    assert d.name == "mmtsb_ui_007" and d.image_path(1) == "images/u007_2_b.png"


def test_check_definition_rejects_an_undelivered_image():
    d = _tiny(rounds=[Round([1], "q", "i", [], "r"), Round([], "q", "i", [], "r")])
    with pytest.raises(ValueError, match="delivered exactly once"):
        check_definition(d)


def test_the_writer_numbers_placeholders_and_is_deterministic(tmp_path):
    data = scenario_json(_tiny())
    assert data["entity_diff_specs"][0]["entity_data"]["calendar_event_id"] == "calendar_events_calendar_event_200"
    assert data["entity_diff_specs"][1]["entity_data"]["reminder_id"] == "reminder_200"
    assert data["metadata"]["expected_tools"] == ["simple_note_create_note"]
    first = write_set(tmp_path / "one", [(_tiny(), scenario_json(_tiny()))])
    second = write_set(tmp_path / "two", [(_tiny(), scenario_json(_tiny()))])
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    assert [p.relative_to(tmp_path / "one").as_posix() for p in first] == [
        "images/n007_1_a.png", "images/n007_2_b.png", "mmtsb_nominal_007.json"]


def test_the_command_line_builds_only_the_scenarios_asked_for(tmp_path, capsys):
    assert main(["nominal", "--out", str(tmp_path), "--only", "6"]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["mmtsb_nominal_006.json"]
    assert "wrote 3 files" in capsys.readouterr().out
    assert [make().number for make in SCENARIOS] == list(range(1, 15))
