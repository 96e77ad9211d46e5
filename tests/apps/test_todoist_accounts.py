"""Todoist accounts, user search, notifications, and a released scenario replayed through the tools."""

from collections import Counter

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, REFERENCE, mailed_code

from mmtsb.world import device

OTHER_ID = 20
SCENARIO_0028 = REFERENCE / "scenarios" / "nominal" / "scenario_0028.json"


def ok(session, tool, **args):
    out = session.call(tool, args)
    assert out.ok, f"{tool}({args}) failed: {out.error}"
    return out.value


def err(session, tool, **args):
    out = session.call(tool, args)
    assert not out.ok, f"{tool}({args}) unexpectedly succeeded: {out.value!r}"
    return out.error


def test_account_tools(session, world):
    acct = ok(session, "todoist_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["verified"] is True
    assert ok(session, "todoist_show_profile")["first_name"] == "Brenda"
    assert "No todoist user" in err(session, "todoist_show_profile", email="nobody@x.com").message
    ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    ok(session, "todoist_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in err(session, "todoist_signup", first_name="Ann", last_name="Lee", email="ann@lee.com",
                                   password="secret1").message
    assert "Invalid credentials" in err(session, "todoist_login", username="ann@lee.com", password="bad").message
    ok(session, "todoist_send_verification_code", email="ann@lee.com")
    assert "Invalid verification code" in err(session, "todoist_verify_account", email="ann@lee.com", verification_code="0").message
    ok(session, "todoist_send_password_reset_code", email="ann@lee.com")
    assert "Invalid password reset code" in err(session, "todoist_reset_password", email="ann@lee.com", password_reset_code="1",
                            new_password="abcdef").message
    assert "No todoist account" in err(session, "todoist_send_verification_code", email="who@x.com").message
    assert "No todoist account" in err(session, "todoist_send_password_reset_code", email="who@x.com").message
    ok(session, "todoist_send_verification_code", email="ann@lee.com")
    code = mailed_code(world, "todoist", "ann@lee.com", "verify")
    ok(session, "todoist_verify_account", email="ann@lee.com", verification_code=code)
    assert world.select("todoist.users", "email = ?", ("ann@lee.com",))[0]["verified"] is True
    ok(session, "todoist_send_password_reset_code", email="ann@lee.com")
    code = mailed_code(world, "todoist", "ann@lee.com", "reset")
    ok(session, "todoist_reset_password", email="ann@lee.com", password_reset_code=code, new_password="secret2")
    assert "Invalid credentials" in err(session, "todoist_login", username="ann@lee.com", password="secret1").message
    ok(session, "todoist_login", username="ann@lee.com", password="secret2")
    inbox = ok(session, "todoist_show_project", project_id=0)  # a new account gets its own Inbox
    assert inbox["is_inbox"] and inbox["owner"]["email"] == "ann@lee.com"
    ok(session, "todoist_update_account_name", last_name="Leigh")
    assert ok(session, "todoist_show_account")["last_name"] == "Leigh"
    assert "first_name" in err(session, "todoist_update_account_name", first_name="").message
    ok(session, "todoist_logout")
    for tool in ("todoist_show_projects", "todoist_show_account", "todoist_logout", "todoist_delete_account",
                 "todoist_show_notifications_count", "todoist_delete_notifications"):
        assert "Not authenticated" in err(session, tool).message
    assert "Not authenticated" in err(session, "todoist_mark_notifications", read=True).message
    ok(session, "todoist_login", username="ann@lee.com", password="secret2")
    ok(session, "todoist_delete_account")
    assert "Invalid credentials" in err(session, "todoist_login", username="ann@lee.com", password="secret2").message


def test_search_users(session, world):
    found = ok(session, "todoist_search_users", query="Brenda Webster")
    assert found[0]["email"] == MAIN_EMAIL and set(found[0]) == {"first_name", "last_name", "email", "registered_at"}
    assert len(ok(session, "todoist_search_users", page_limit=3)) == 3
    assert ok(session, "todoist_search_users", query="zzzqqq") == []
    assert "page_limit" in err(session, "todoist_search_users", page_limit=50).message


def test_notifications(session, world):
    """Changes to a shared project notify its other members (as in AppWorld); an invite only comes by email."""
    other = world.get("todoist.users", OTHER_ID)["email"]
    device.login(world, "todoist", other)
    pid = ok(session, "todoist_create_project", name="Team")["project_id"]
    code = ok(session, "todoist_send_project_invite", project_id=pid, email=MAIN_EMAIL)["invite_code"]
    pid2 = ok(session, "todoist_create_project", name="Team 2")["project_id"]
    code2 = ok(session, "todoist_send_project_invite", project_id=pid2, email=MAIN_EMAIL)["invite_code"]
    device.login(world, "todoist", MAIN_EMAIL)
    assert ok(session, "todoist_show_notifications_count") == {"notifications_count": 0}
    ok(session, "todoist_accept_project_invite", invite_code=code)
    ok(session, "todoist_accept_project_invite", invite_code=code2)
    device.login(world, "todoist", other)
    ok(session, "todoist_create_task", project_id=pid, title="Agenda")
    ok(session, "todoist_create_section", project_id=pid2, name="Later")
    device.login(world, "todoist", MAIN_EMAIL)

    assert ok(session, "todoist_show_notifications_count") == {"notifications_count": 2}
    listed = ok(session, "todoist_show_notifications")
    assert [n["data"]["project_id"] for n in listed] == [pid2, pid]  # newest first
    assert listed[0]["read"] is False and [n["type"] for n in listed] == ["project_updated", "task_added"]
    ok(session, "todoist_mark_notification", notification_id=listed[0]["notification_id"], read=True)
    assert ok(session, "todoist_show_notifications_count", read=False) == {"notifications_count": 1}
    assert [n["read"] for n in ok(session, "todoist_show_notifications", read=True)] == [True]
    ok(session, "todoist_mark_notifications", read=True)
    assert ok(session, "todoist_show_notifications_count", read=True) == {"notifications_count": 2}
    ok(session, "todoist_delete_notification", notification_id=listed[1]["notification_id"])
    assert "does not exist" in err(session, "todoist_delete_notification",
                                   notification_id=listed[1]["notification_id"]).message
    assert "does not exist" in err(session, "todoist_mark_notification", notification_id=999, read=True).message
    assert ok(session, "todoist_delete_notifications")["message"] == "Deleted 1 notification."
    assert ok(session, "todoist_show_notifications") == []
    assert "page_limit" in err(session, "todoist_show_notifications", page_limit=0).message
    invites = world.select("gmail.emails") if world.has_table("gmail.emails") else []
    assert not invites or any("Todoist" in (e.get("subject") or "") for e in invites)


@pytest.mark.skipif(not SCENARIO_0028.exists(), reason="reference scenarios are absent")
def test_scenario_0028_replayed_by_an_oracle_matches_its_todoist_specs():
    from mmtsb.scenarios.build import build_world
    from mmtsb.scenarios.loader import load_scenario
    from mmtsb.tools.session import ToolSession
    from mmtsb.tools.toolbox import full_registry

    scenario = load_scenario(SCENARIO_0028)
    built = build_world(scenario, images="placeholder", file=SCENARIO_0028)
    session = ToolSession(built.world, full_registry())
    tasks = [ok(session, "todoist_create_task", project_id=0, title=f"File approval: {t}")["task_id"]
             for t in ("AMA permission letter", "Salem Mass Sampling clearance sheet", "Employee Status Notice")]
    labels = [ok(session, "todoist_create_label", name=n)["label_id"]
              for n in ("Rhonda Bailey", "Jack Bellis", "Nancy Bowland", "Regina A Johnson")]
    for task_id, label_id in zip((tasks[0], tasks[1], tasks[1], tasks[2]), labels):
        ok(session, "todoist_add_label_to_task", task_id=task_id, label_id=label_id)
    for task_id in tasks[1:]:
        ok(session, "todoist_post_task_comment", task_id=task_id, content="Audit required")

    diff = built.world.diff(built.initial)
    assert {k for k in diff.tables} == {"todoist.tasks", "todoist.labels", "todoist.task_label_links",
                                        "todoist.task_comments"}
    for spec in scenario.entity_diff_specs:
        if not (spec.table or "").startswith("todoist."):
            continue
        compared = {c for c, m in spec.column_similarity_measure.items() if m != "column_ignore_similarity"}
        wanted = {c: v for c, v in spec.entity_data.items() if c in compared}
        added = diff.tables[spec.table].added
        assert any(all(row.get(c) == v for c, v in wanted.items()) for row in added), (spec.table, wanted)
    counts = Counter(spec.table for spec in scenario.entity_diff_specs if (spec.table or "").startswith("todoist."))
    assert all(len(diff.tables[t].added) == n for t, n in counts.items())
    assert tasks == [6500, 6501, 6502] and labels == [2400, 2401, 2402, 2403]  # the ids the file's specs use
    assert {r["project_id"] for r in diff.tables["todoist.tasks"].added} == {400}  # the file's Inbox, not the base one
    assert MAIN_ID != built.main_user_id  # this file's main user is 105
