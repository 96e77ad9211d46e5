"""Change triggers are installed on first write; no write path (World API, raw SQL, cursors, executemany,
failed savepoints, restores, bulk loads) can leave a change out of the log."""

from __future__ import annotations

import sqlite3

import pytest

from mmtsb.world.clock import Clock
from mmtsb.world.world import World
from test_world import TABLES, make_world


def triggers(w: World) -> set[str]:
    names: set[str] = set()
    for s in w.schemas:
        names |= {r[0] for r in w.db.execute(f'SELECT name FROM "{s}".sqlite_master WHERE type = \'trigger\'')}
    return names


def test_a_new_world_has_no_triggers_until_a_table_is_written():
    w = make_world()
    assert triggers(w) == set()
    s = w.snapshot()
    w.insert("todoist.tasks", {"title": "t"})
    assert triggers(w) == {"trg_tasks_ins", "trg_tasks_del", "trg_tasks_upd", "trg_tasks_rekey"}
    assert [r["title"] for r in w.diff(s)["todoist.tasks"].added] == ["t"]


def test_raw_sql_cursors_and_executemany_are_logged():
    w = make_world()
    s = w.snapshot()
    w.db.execute('INSERT INTO "todoist"."tasks" (id, title) VALUES (1, \'raw\')')
    w.db.cursor().execute('INSERT INTO "todoist"."tasks" (id, title) VALUES (2, \'cursor\')')
    w.db.executemany('INSERT INTO "gmail"."emails" (id, subject) VALUES (?, ?)', ((i, f"s{i}") for i in (5, 6)))
    w.db.execute('DELETE FROM "device"."reminder"')   # nothing to delete, but the table becomes tracked
    d = w.diff(s)
    assert sorted(r["title"] for r in d["todoist.tasks"].added) == ["cursor", "raw"]
    assert [r["id"] for r in d["gmail.emails"].added] == [5, 6]
    assert d.tables.keys() == {"todoist.tasks", "gmail.emails"}
    assert d == w.diff_full(s, w.snapshot())


def test_a_failed_savepoint_rolls_back_its_triggers_and_later_writes_are_still_logged():
    w = make_world()
    s = w.snapshot()
    with pytest.raises(RuntimeError), w.savepoint():
        w.insert("todoist.tasks", {"title": "rolled back"})
        raise RuntimeError("tool failed")
    assert triggers(w) == set()
    w.insert("todoist.tasks", {"title": "kept"})
    assert [r["title"] for r in w.diff(s)["todoist.tasks"].added] == ["kept"]


def test_restore_brings_back_the_tracking_state_of_the_snapshot():
    w = make_world()
    empty = w.snapshot()
    w.insert("todoist.tasks", {"title": "a"})
    w.restore(empty)
    assert triggers(w) == set()
    s = w.snapshot()
    w.insert("todoist.tasks", {"title": "b"})
    assert [r["title"] for r in w.diff(s)["todoist.tasks"].added] == ["b"]


def test_bulk_loads_are_not_logged_and_a_diff_across_one_compares_full_tables():
    w = make_world()
    before = w.snapshot()
    with w.untracked_writes():
        w.insert("todoist.tasks", {"title": "seeded"})
    assert triggers(w) == set()
    after = w.snapshot()
    assert w.diff(after).empty
    assert [r["title"] for r in w.diff(before)["todoist.tasks"].added] == ["seeded"]   # full comparison


def test_a_template_copy_writes_through_its_own_triggers_only():
    w = make_world()
    w.insert("todoist.tasks", {"title": "in the template"})
    w.forget_tracking()
    template = w.snapshot()
    copy = World(TABLES, Clock.at("2026-04-16T23:51:15+00:00"), template=template)
    assert triggers(copy) == set() and copy.count("todoist.tasks") == 1
    s = copy.snapshot()
    copy.update("todoist.tasks", 1, {"title": "changed"})
    assert [u.changed for u in copy.diff(s)["todoist.tasks"].updated] == [{"title": ("in the template", "changed")}]
    assert triggers(w) == set()


def test_real_errors_still_raise():
    w = make_world()
    w.insert("todoist.tasks", {"id": 1, "title": "a"})
    with pytest.raises(sqlite3.IntegrityError):
        w.insert("todoist.tasks", {"id": 1, "title": "duplicate"})
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        w.db.execute('INSERT INTO "todoist"."nope" (id) VALUES (1)')
    with pytest.raises(NotImplementedError):
        w.db.executescript("DELETE FROM todoist.tasks;")
