"""Todoist tasks and sub-tasks: creation, ordering, filters, updates ('None' and 0 clear), assignment."""

import pytest
from testkit import MAIN_EMAIL, MAIN_ID

OTHER_ID = 20


def ok(session, tool, **args):
    out = session.call(tool, args)
    assert out.ok, f"{tool}({args}) failed: {out.error}"
    return out.value


def err(session, tool, **args):
    out = session.call(tool, args)
    assert not out.ok, f"{tool}({args}) unexpectedly succeeded: {out.value!r}"
    return out.error


@pytest.fixture
def project(session):
    return ok(session, "todoist_create_project", name="Work")["project_id"]


def titles(listing):
    return [t["title"] for t in listing["no_section_tasks"]]


def test_create_task_row_and_defaults(session, world, project):
    tid = ok(session, "todoist_create_task", project_id=project, title="Estimated")["task_id"]
    assert tid == 6500
    row = world.get("todoist.tasks", tid)
    assert {k: row[k] for k in ("project_id", "section_id", "user_id", "title", "priority", "is_completed",
                                "duration", "duration_unit", "order_index", "assignee_id", "created_at")} == {
        "project_id": project, "section_id": None, "user_id": MAIN_ID, "title": "Estimated", "priority": "medium",
        "is_completed": False, "duration": None, "duration_unit": None, "order_index": 0, "assignee_id": None,
        "created_at": "2026-04-16T23:51:15"}
    shown = ok(session, "todoist_show_task", task_id=tid)
    assert shown["task_id"] == tid and shown["creator"]["email"] == MAIN_EMAIL and shown["labels"] == []


def test_order_index_append_insert_and_move(session, world, project):
    for title in ("a", "b", "c"):
        ok(session, "todoist_create_task", project_id=project, title=title)
    assert [r["order_index"] for r in world.select("todoist.tasks")] == [0, 1, 2]
    ok(session, "todoist_create_task", project_id=project, title="top", order_index=0)
    ok(session, "todoist_create_task", project_id=project, title="second-last", order_index=-2)
    listing = ok(session, "todoist_show_tasks", project_id=project)
    assert titles(listing) == ["top", "a", "b", "second-last", "c"]
    c_id = next(t["task_id"] for t in listing["no_section_tasks"] if t["title"] == "c")
    ok(session, "todoist_update_task", task_id=c_id, order_index=0)
    listing = ok(session, "todoist_show_tasks", project_id=project)
    assert titles(listing) == ["c", "top", "a", "b", "second-last"]
    assert [t["order_index"] for t in listing["no_section_tasks"]] == [0, 1, 2, 3, 4]


def test_task_validation_errors(session, project):
    assert "title" in err(session, "todoist_create_task", project_id=project, title="").message
    assert "priority" in err(session, "todoist_create_task", project_id=project, title="x", priority="urgent").message
    assert "YYYY-MM-DD" in err(session, "todoist_create_task", project_id=project, title="x",
                               due_date="next friday").message
    assert "duration_unit is required" in err(session, "todoist_create_task", project_id=project, title="x",
                                              duration=30).message
    assert "duration_unit" in err(session, "todoist_create_task", project_id=project, title="x", duration=3,
                                  duration_unit="weeks").message
    assert ">= 0" in err(session, "todoist_create_task", project_id=project, title="x", duration=-1,
                         duration_unit="hours").message
    assert "does not exist" in err(session, "todoist_create_task", project_id=777, title="x").message
    assert "does not exist" in err(session, "todoist_create_task", project_id=project, title="x",
                                   section_id=9999).message
    other = ok(session, "todoist_create_project", name="Other")["project_id"]
    sid = ok(session, "todoist_create_section", project_id=other, name="S")["section_id"]
    assert "another project" in err(session, "todoist_create_task", project_id=project, title="x",
                                    section_id=sid).message
    assert "does not exist" in err(session, "todoist_show_task", task_id=1).message
    assert "does not exist" in err(session, "todoist_delete_task", task_id=1).message


def test_update_task_clears_and_completes(session, world, project):
    tid = ok(session, "todoist_create_task", project_id=project, title="Call", due_date="2026-04-20", duration=2,
             duration_unit="hours", priority="low", description="old")["task_id"]
    ok(session, "todoist_update_task", task_id=tid, description="25", is_completed=True, priority="high")
    row = world.get("todoist.tasks", tid)
    assert (row["description"], row["is_completed"], row["priority"]) == ("25", True, "high")
    ok(session, "todoist_update_task", task_id=tid, duration=45)  # keeps the unit
    assert (world.get("todoist.tasks", tid)["duration"], world.get("todoist.tasks", tid)["duration_unit"]) == (
        45.0, "hours")
    ok(session, "todoist_update_task", task_id=tid, due_date="None", duration=0)
    row = world.get("todoist.tasks", tid)
    assert (row["due_date"], row["duration"], row["duration_unit"]) == (None, None, None)
    ok(session, "todoist_update_task", task_id=tid, is_completed=False)
    assert world.get("todoist.tasks", tid)["is_completed"] is False
    assert "Nothing to update" in err(session, "todoist_update_task", task_id=tid).message
    assert "'None'" in err(session, "todoist_update_task", task_id=tid, due_date="someday").message
    before = world.snapshot()
    err(session, "todoist_update_task", task_id=tid, title="ok", priority="nope")
    assert world.diff(before).empty  # a failed call leaves nothing behind


def test_show_tasks_filters_sections_and_sorting(session, world, project):
    sid = ok(session, "todoist_create_section", project_id=project, name="Later")["section_id"]
    t1 = ok(session, "todoist_create_task", project_id=project, title="due today", due_date="2026-04-16",
            priority="low")["task_id"]
    ok(session, "todoist_create_task", project_id=project, title="overdue", due_date="2026-04-01", priority="high")
    ok(session, "todoist_create_task", project_id=project, title="no date")
    ok(session, "todoist_create_task", project_id=project, title="in section", section_id=sid, due_date="2026-05-01")
    full = ok(session, "todoist_show_tasks", project_id=project)
    assert titles(full) == ["due today", "overdue", "no date"]
    assert [(s["name"], [t["title"] for t in s["tasks"]]) for s in full["sections"]] == [("Later", ["in section"])]
    assert titles(ok(session, "todoist_show_tasks", project_id=project, due_today=True)) == ["due today"]
    assert titles(ok(session, "todoist_show_tasks", project_id=project, overdue=True)) == ["overdue"]
    for conflicting, needle in ((dict(due_today=True, overdue=True), "both due_today and overdue"),
                                (dict(due_today=True, min_due_date="2026-04-01"), "both due_today and min/max"),
                                (dict(overdue=True, max_due_date="2026-05-01"), "both overdue and min/max")):
        assert needle in err(session, "todoist_show_tasks", project_id=project, **conflicting).message
    assert titles(ok(session, "todoist_show_tasks", project_id=project, priority="high")) == ["overdue"]
    assert titles(ok(session, "todoist_show_tasks", project_id=project, sort_by="-priority")) == [
        "overdue", "no date", "due today"]
    assert titles(ok(session, "todoist_show_tasks", project_id=project, sort_by="+due_date")) == [
        "overdue", "due today", "no date"]
    narrowed = ok(session, "todoist_show_tasks", project_id=project, min_due_date="2026-04-10")
    assert titles(narrowed) == ["due today"] and narrowed["sections"][0]["tasks"][0]["title"] == "in section"
    only_section = ok(session, "todoist_show_tasks", project_id=project, section_id=sid)
    assert only_section["no_section_tasks"] == [] and len(only_section["sections"]) == 1
    no_section = ok(session, "todoist_show_tasks", project_id=project, section_id=0)
    assert no_section["sections"] == [] and len(no_section["no_section_tasks"]) == 3
    ok(session, "todoist_update_task", task_id=t1, is_completed=True)
    assert titles(ok(session, "todoist_show_tasks", project_id=project, is_completed=True)) == ["due today"]
    lid = ok(session, "todoist_create_label", name="focus")["label_id"]
    ok(session, "todoist_add_label_to_task", task_id=t1, label_id=lid)
    tagged = ok(session, "todoist_show_tasks", project_id=project, label_id=lid)
    assert titles(tagged) == ["due today"] and tagged["no_section_tasks"][0]["labels"][0]["name"] == "focus"
    assert "sort_by" in err(session, "todoist_show_tasks", project_id=project, sort_by="+title").message
    assert "min_due_date" in err(session, "todoist_show_tasks", project_id=project, min_due_date="04/10").message
    assert "No Todoist user" in err(session, "todoist_show_tasks", project_id=project,
                                    assignee_email="ghost@nowhere.com").message


def test_assign_and_unassign(session, world, project):
    tid = ok(session, "todoist_create_task", project_id=project, title="Report")["task_id"]
    ok(session, "todoist_assign_or_unassign_task", task_id=tid, assignee_email=MAIN_EMAIL)
    row = world.get("todoist.tasks", tid)
    assert (row["assignee_id"], row["assigner_id"]) == (MAIN_ID, MAIN_ID)
    assigned = ok(session, "todoist_show_tasks", project_id=project, assignee_email=MAIN_EMAIL)
    assert titles(assigned) == ["Report"]
    other = world.get("todoist.users", OTHER_ID)["email"]
    assert "not a collaborator" in err(session, "todoist_assign_or_unassign_task", task_id=tid,
                                       assignee_email=other).message
    ok(session, "todoist_assign_or_unassign_task", task_id=tid)
    assert world.get("todoist.tasks", tid)["assignee_id"] is None
    assert "not assigned" in ok(session, "todoist_assign_or_unassign_task", task_id=tid)["message"]


def test_delete_task_cascades(session, world, project):
    tid = ok(session, "todoist_create_task", project_id=project, title="Go")["task_id"]
    ok(session, "todoist_create_sub_task", task_id=tid, title="step")
    ok(session, "todoist_post_task_comment", task_id=tid, content="note")
    ok(session, "todoist_delete_task", task_id=tid)
    assert world.select("todoist.sub_tasks") == [] and world.select("todoist.task_comments") == []


def test_sub_tasks(session, world, project):
    tid = ok(session, "todoist_create_task", project_id=project, title="Trip")["task_id"]
    s1 = ok(session, "todoist_create_sub_task", task_id=tid, title="Book hotel", priority="high")["sub_task_id"]
    s2 = ok(session, "todoist_create_sub_task", task_id=tid, title="Pack", order_index=0, due_date="2026-04-20",
            duration=30, duration_unit="minutes")["sub_task_id"]
    row = world.get("todoist.sub_tasks", s1)
    assert (row["title"], row["priority"], row["is_completed"], row["task_id"]) == ("Book hotel", "high", False, tid)
    listed = ok(session, "todoist_show_sub_tasks", task_id=tid)
    assert [s["sub_task_id"] for s in listed] == [s2, s1] and listed[0]["duration_unit"] == "minutes"
    ok(session, "todoist_update_sub_task", sub_task_id=s2, is_completed=True, due_date="None", duration=0,
       order_index=-1)
    listed = ok(session, "todoist_show_sub_tasks", task_id=tid)
    assert [s["sub_task_id"] for s in listed] == [s1, s2]
    assert (listed[1]["is_completed"], listed[1]["due_date"], listed[1]["duration"]) == (True, None, None)
    assert ok(session, "todoist_show_task", task_id=tid)["num_sub_tasks"] == 2
    ok(session, "todoist_delete_sub_task", sub_task_id=s1)
    assert world.get("todoist.sub_tasks", s1) is None
    assert "does not exist" in err(session, "todoist_delete_sub_task", sub_task_id=s1).message
    assert "Nothing to update" in err(session, "todoist_update_sub_task", sub_task_id=s2).message
    assert "priority" in err(session, "todoist_create_sub_task", task_id=tid, title="x", priority="p1").message
    assert "does not exist" in err(session, "todoist_show_sub_tasks", task_id=99).message
