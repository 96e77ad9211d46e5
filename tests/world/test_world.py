"""World: isolation, typed rows, snapshots, change-log diffs (checked against full diffs), atomicity."""

from __future__ import annotations

import random

import pytest

from mmtsb.world.clock import Clock
from mmtsb.world.schema import table
from mmtsb.world.world import UnknownTableError, World

TABLES = [
    table("gmail", "emails", {"id": "int", "subject": "str", "recipient_ids": "json", "read": "bool",
                              "created_at": "datetime"}),
    table("todoist", "tasks", {"id": "int", "title": "str", "priority": "str"}),
    table("device", "reminder", {"reminder_id": "str", "content": "str"}, primary_key="reminder_id", key="REMINDER"),
]


def make_world(seed: int = 0) -> World:
    return World(TABLES, Clock.at("2026-04-16T23:51:15+00:00"), seed=seed)


def test_two_worlds_never_see_each_other():
    a, b = make_world(), make_world()
    a.insert("gmail.emails", {"subject": "only in a"})
    b.insert("REMINDER", {"reminder_id": b.new_uuid(), "content": "only in b"})
    assert a.count("gmail.emails") == 1 and b.count("gmail.emails") == 0
    assert a.count("REMINDER") == 0 and b.count("REMINDER") == 1
    assert a.diff(a.snapshot()).empty


def test_values_are_typed_by_column():
    w = make_world()
    pk = w.insert("gmail.emails", {"subject": "s", "recipient_ids": [3, 4], "read": 1})
    row = w.get("gmail.emails", pk)
    assert row["recipient_ids"] == [3, 4] and row["read"] is True and row["created_at"] is None
    with pytest.raises(KeyError, match="no column"):
        w.insert("gmail.emails", {"subjekt": "x"})
    with pytest.raises(UnknownTableError, match="unknown table 'gmail.mails'"):
        w.rows("gmail.mails")
    assert w.table("reminder").key == "REMINDER"  # namespaces are case-insensitive like the reference's


def test_diff_reports_added_updated_deleted_with_old_and_new_values():
    w = make_world()
    keep = w.insert("todoist.tasks", {"title": "keep", "priority": "low"})
    gone = w.insert("todoist.tasks", {"title": "gone", "priority": "low"})
    before = w.snapshot()
    w.update("todoist.tasks", keep, {"priority": "high"})
    w.delete("todoist.tasks", gone)
    new = w.insert("todoist.tasks", {"title": "new", "priority": "medium"})
    tmp = w.insert("todoist.tasks", {"title": "temporary"})
    w.delete("todoist.tasks", tmp)  # created then deleted: no net change
    d = w.diff(before)["todoist.tasks"]
    assert [r["id"] for r in d.added] == [new]
    assert [r["id"] for r in d.deleted] == [gone]
    assert [(u.key, u.changed) for u in d.updated] == [(keep, {"priority": ("low", "high")})]


def test_replace_counts_as_update_and_rekey_as_delete_plus_add():
    w = make_world()
    w.insert("todoist.tasks", {"id": 7, "title": "a"})
    s = w.snapshot()
    w.insert("todoist.tasks", {"id": 7, "title": "b"}, replace=True)
    w.db.execute('UPDATE "todoist"."tasks" SET id = 8 WHERE id = 7')
    d = w.diff(s)["todoist.tasks"]
    assert [r["id"] for r in d.deleted] == [7] and [r["title"] for r in d.added] == ["b"]


@pytest.mark.parametrize("seed", range(5))
def test_change_log_diff_equals_full_diff_on_random_edits(seed):
    rng = random.Random(seed)
    w = make_world(seed)
    for i in range(30):
        w.insert("todoist.tasks", {"title": f"t{i}", "priority": "low"})
    snaps = [w.snapshot()]
    for step in range(200):
        ids = [r["id"] for r in w.rows("todoist.tasks")]
        op = rng.random()
        if op < 0.35 or not ids:
            w.insert("todoist.tasks", {"title": f"n{step}", "priority": rng.choice(["low", "high"])})
        elif op < 0.7:
            w.update("todoist.tasks", rng.choice(ids), {"priority": rng.choice(["low", "medium", "high"])})
        else:
            w.delete("todoist.tasks", rng.choice(ids))
        if step % 40 == 0:
            snaps.append(w.snapshot())
    snaps.append(w.snapshot())
    for a, b in zip(snaps, snaps[1:]):
        assert w.diff(a, b).to_dict() == w.diff_full(a, b).to_dict()
    assert w.diff(snaps[0]).to_dict() == w.diff_full(snaps[0], w.snapshot()).to_dict()


def test_snapshot_restore_and_rows_at():
    w = make_world()
    w.insert("todoist.tasks", {"title": "a"})
    s = w.snapshot()
    w.insert("todoist.tasks", {"title": "b"})
    assert [r["title"] for r in w.rows_at(s, "todoist.tasks")] == ["a"]
    w.restore(s)
    assert [r["title"] for r in w.rows("todoist.tasks")] == ["a"]
    w.insert("todoist.tasks", {"title": "c"})
    assert [r["title"] for r in w.diff(s)["todoist.tasks"].added] == ["c"]


def test_savepoint_rolls_back_rows_images_and_ids():
    w = make_world()
    first = w.new_uuid()
    w2 = make_world()
    with pytest.raises(RuntimeError):
        with w2.savepoint():
            w2.new_uuid()
            w2.insert("todoist.tasks", {"title": "x"})
            w2.images.add_bytes(b"\x89PNG fake", mime_type="image/png")
            raise RuntimeError("tool failed")
    assert w2.count("todoist.tasks") == 0 and len(w2.images) == 0
    assert w2.new_uuid() == first  # the id generator was rolled back too: replays stay deterministic
