"""Specs naming columns a table lacks, as released files do: a create's extra column is skipped (a warning; the
reference ignores it), an update's or delete's makes the spec unsatisfiable (reported naming the spec and the
columns; the file still plays, as in the reference, which scores the spec 0; gold-check fails the file)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from mmtsb.eval.entity_diff import EvalOptions, evaluate_world
from mmtsb.scenarios.validate import gold_check_file, load_and_build
from testkit import REPO

MMTSB = [sys.executable, "-m", "mmtsb.cli"]
LIKE = {"operation": "create", "source": "appworld", "table": "spotify.playlist_likes",
        "entity_data": {"user_id": 50, "playlist_id": 7, "liked_at": "2026-04-17T10:00:00"},
        "column_similarity_measure": {"user_id": "column_exact_match_similarity",
                                      "playlist_id": "column_exact_match_similarity"}}
NOTE_UPDATE = {"operation": "update", "source": "appworld", "table": "simple_note.notes",
               "entity_id_column": "id", "entity_id_value": 3200,
               "expected_fields": {"content": "pack the tent", "mood": "calm", "colour": "red"}}
SCENARIO = {
    "name": "spec_columns", "base_scenario": "base", "device_state_id": "brenda.webe@gmail.com",
    "reference_time": "2026-04-16T23:51:15+00:00",
    "appworld_entities": {"simple_note.notes": [
        {"id": 3200, "user_id": 50, "title": "Trip", "content": "pack", "tags": [], "pinned": False,
         "created_at": "2026-04-01T10:00:00", "updated_at": "2026-04-01T10:00:00"}]},
    "messages": [{"sender": "SYSTEM", "recipient": "USER", "content": "{{USER_INSTRUCTION}}ROUND 1\nQuery: hi"},
                 {"sender": "USER", "recipient": "AGENT", "content": "Like playlist 7."}],
    "entity_diff_specs": [LIKE], "task_completion_criteria": "The playlist is liked.", "max_messages": 100,
}


def write(folder: Path, name: str, specs: list[dict]) -> Path:
    data = copy.deepcopy(SCENARIO)
    data["name"], data["entity_diff_specs"] = name, specs
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


def cli(*args: str) -> tuple[int, list[dict]]:
    r = subprocess.run([*MMTSB, *args, "--json"], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout.strip().splitlines()[-1])


def test_a_create_column_the_table_lacks_is_a_warning_and_gold_checks_at_one(tmp_path):
    path = write(tmp_path, "like", [LIKE])
    code, (report,) = cli("scenarios", "validate", str(path))
    assert code == 0 and report["errors"] == [], report
    assert any("['liked_at'] not in spotify.playlist_likes: not compared" in w for w in report["warnings"])
    code, (row,) = cli("scenarios", "gold-check", str(path))
    assert code == 0 and row["f1_gold"] == 1.0 and row["f1_untouched"] == 0.0 and row["unsatisfiable"] == []


def test_absent_create_columns_are_not_compared_in_either_scoring_mode(tmp_path):
    scenario, built = load_and_build(write(tmp_path, "like", [LIKE]), None, "require")
    try:
        built.world.insert("spotify.playlist_likes", {"user_id": 50, "playlist_id": 7})
        for strict in (True, False):
            result = evaluate_world(scenario.entity_diff_specs, built.world, built.initial,
                                    EvalOptions(strict_reference=strict))
            assert result.f1 == 1.0, (strict, result.to_dict())
            (entity,) = result.groups[0].entities
            assert {c.column for c in entity.columns} == {"user_id", "playlist_id"}
    finally:
        built.world.close()


def test_an_update_naming_absent_columns_is_unsatisfiable_and_the_batch_goes_on(tmp_path):
    bad = write(tmp_path, "a_bad_update", [LIKE, NOTE_UPDATE])
    good = write(tmp_path, "b_like", [LIKE])
    code, reports = cli("scenarios", "validate", str(bad), str(good))
    assert code == 0   # played as the reference plays it (a run does not skip the file)
    by_name = {Path(r["file"]).name: r for r in reports}
    assert by_name[bad.name]["errors"] == []
    (error,) = by_name[bad.name]["unsatisfiable"]
    assert error in by_name[bad.name]["warnings"]
    assert error.startswith("entity_diff_specs[1] (update simple_note.notes): unsatisfiable: "
                            "simple_note.notes has no column(s) ['mood', 'colour']")
    assert "the reference scores it 0" in error
    assert by_name[good.name]["ok"] and by_name[good.name]["unsatisfiable"] == []
    code, rows = cli("scenarios", "gold-check", str(bad), str(good))
    assert code == 1
    by_name = {Path(r["file"]).name: r for r in rows}
    assert by_name[bad.name]["unsatisfiable"] == [error]
    assert by_name[good.name]["f1_gold"] == 1.0
    # the scorer agrees with the reference: the update spec scores 0 even in the gold world
    result = gold_check_file(bad)
    update = next(g for g in result["gold"]["groups"] if g["operation"] == "update")
    assert update["entities"][0]["score"] == 0.0 and "no column(s) ['mood', 'colour']" in update["entities"][0]["reason"]


def test_a_delete_naming_an_absent_id_column_is_unsatisfiable(tmp_path):
    delete = {"operation": "delete", "source": "appworld", "table": "simple_note.notes",
              "entity_id_column": "note_uuid", "entity_id_value": "x"}
    path = write(tmp_path, "delete", [LIKE, delete])
    code, (row,) = cli("scenarios", "gold-check", str(path))
    assert code == 1 and row["unsatisfiable"] and "['note_uuid']" in row["unsatisfiable"][0]
