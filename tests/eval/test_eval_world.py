"""evaluate_world on a real World: rows written after a snapshot are scored against scenario-style specs."""

import pytest

from mmtsb.eval import EvalOptions, evaluate_world

NOTES = "simple_note.notes"
STRICT = EvalOptions(strict_reference=True)


def note(id_, title, content, updated_at="2026-04-15T10:00:00"):
    return {"id": id_, "user_id": 50, "title": title, "content": content, "tags": [], "pinned": False,
            "data": None, "created_at": "2026-04-14T09:00:00", "updated_at": updated_at}


NOTE_SPECS = [
    {"operation": "create", "source": "appworld", "table": NOTES,
     "entity_data": {"user_id": 50, "title": "Election Watchlist", "content": "AKP\nCHP\nBJP", "tags": [],
                     "created_at": "2026-04-16T23:51:15", "updated_at": "2026-04-16T23:51:15", "pinned": False,
                     "data": None},
     "column_similarity_measure": {"user_id": "column_exact_match_similarity",
                                   "title": "column_rouge_l_similarity", "content": "column_rouge_l_similarity",
                                   "tags": "column_ignore_similarity", "created_at": "column_ignore_similarity",
                                   "updated_at": "column_ignore_similarity",
                                   "pinned": "column_exact_match_similarity", "data": "column_ignore_similarity"}},
    {"operation": "update", "source": "appworld", "table": NOTES, "entity_id_column": "id",
     "entity_id_value": 3200,
     "expected_fields": {"updated_at": "2026-04-15T10:00:00", "content": "Remaining Budget: $452", "tags": []},
     "column_similarity_measure": {"updated_at": "column_ignore_similarity",
                                   "content": "column_rouge_l_similarity", "id": "column_exact_match_similarity"}},
    {"operation": "delete", "source": "appworld", "table": NOTES, "entity_id_column": "id",
     "entity_id_value": 3201, "column_similarity_measure": {"id": "column_exact_match_similarity"}},
]


def test_simple_note_create_update_delete_and_a_side_effect(world):
    world.insert(NOTES, note(3200, "Budget", "Budget: $500"))
    world.insert(NOTES, note(3201, "Old list", "eggs"))
    start = world.snapshot()
    now = world.clock.now_str()
    world.insert(NOTES, {**note(None, "Election watchlist", "AKP\nCHP\nBJP", now), "created_at": now})
    world.update(NOTES, 3200, {"content": "Remaining Budget: $452", "updated_at": now})
    world.delete(NOTES, 3201)

    for opts in (STRICT, EvalOptions()):
        res = evaluate_world(NOTE_SPECS, world, start, opts)
        assert [(g.operation, g.precision, g.recall) for g in res.groups] == [
            ("create", 1.0, 1.0), ("update", 1.0, 1.0), ("delete", 1.0, 1.0)]
        assert res.f1 == 1.0 and res.guardrail_pass and res.unexpected_writes == []
        created = res.groups[0].entities[0]
        assert created.matched_key == 3202 and created.matched_row["title"] == "Election watchlist"
        assert res.to_dict()["groups"][2]["entities"][0]["matched_key"] == 3201

    # a write the specs do not expect: another app's table
    user = world.rows("simple_note.users")[0]
    world.update("simple_note.users", user["id"], {"first_name": "Changed"})
    strict = evaluate_world(NOTE_SPECS, world, start, STRICT)
    assert strict.f1 == 1.0 and [w.table for w in strict.unexpected_writes] == ["simple_note.users"]
    ours = evaluate_world(NOTE_SPECS, world, start)
    # 3 entities scored 1; one extra actual entity: P = 3/4, R = 1 -> F1 = 6/7
    assert ours.precision == 0.75 and ours.f1 == pytest.approx(6 / 7) and not ours.guardrail_pass
    (w,) = ours.unexpected_writes
    assert (w.table, w.operation, w.key, w.changed_columns) == ("simple_note.users", "update", user["id"],
                                                                ["first_name"])


def test_reminder_create_and_a_device_setting_change(world):
    start = world.snapshot()
    world.insert("REMINDER", {"reminder_id": world.new_uuid(), "content": "Review annotation.py",
                              "creation_datetime": world.clock.now().isoformat(),
                              "reminder_datetime": "2026-04-18T10:00:00-07:00"})
    spec = {"operation": "create", "source": "agentsandbox", "namespace": "REMINDER",
            "entity_data": {"reminder_id": "reminder_100", "content": "Review annotation.py", "latitude": None,
                            "longitude": None, "creation_datetime": "2026-04-17T00:01:20Z",
                            "reminder_datetime": "2026-04-18T10:00:00Z"},
            "column_similarity_measure": {"reminder_id": "column_ignore_similarity",
                                          "content": "column_rouge_l_similarity",
                                          "latitude": "column_ignore_similarity",
                                          "longitude": "column_ignore_similarity",
                                          "creation_datetime": "column_ignore_similarity",
                                          "reminder_datetime": "column_datetime_naive_equal_similarity"}}
    for opts in (STRICT, EvalOptions()):
        assert evaluate_world([spec], world, start, opts).f1 == 1.0
    setting = world.rows("SETTING")[0]
    world.update("SETTING", setting[world.table("SETTING").primary_key], {"wifi": not setting["wifi"]})
    strict = evaluate_world([spec], world, start, STRICT)
    assert strict.f1 == 0.0 and strict.macro_f1 == 1.0 and strict.guardrail_failures[0].startswith("SETTING")
    ours = evaluate_world([spec], world, start)
    # one extra actual entity: P = 1/2, R = 1 -> F1 = 2/3
    assert ours.f1 == pytest.approx(2 / 3) and [w.table for w in ours.unexpected_writes] == ["SETTING"]
