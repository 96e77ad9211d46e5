"""Todoist projects, sections, sharing (invites, collaborators) and the Inbox rules."""

from testkit import MAIN_EMAIL, MAIN_ID

from mmtsb.world import device

OTHER_ID = 20  # Alexander Riddle, a base user


def ok(session, tool, **args):
    """conftest.call_ok, but tools here have a parameter called ``name``."""
    out = session.call(tool, args)
    assert out.ok, f"{tool}({args}) failed: {out.error}"
    return out.value


def err(session, tool, **args):
    out = session.call(tool, args)
    assert not out.ok, f"{tool}({args}) unexpectedly succeeded: {out.value!r}"
    return out.error


def act_as(world, email):
    device.login(world, "todoist", email)


def other_email(world):
    return world.get("todoist.users", OTHER_ID)["email"]


def test_seeded_inbox_and_project_zero(session, world):
    projects = ok(session, "todoist_show_projects")
    assert [(p["name"], p["is_inbox"], p["project_id"]) for p in projects] == [("Inbox", True, MAIN_ID)]
    assert ok(session, "todoist_show_project", project_id=0)["project_id"] == MAIN_ID
    assert world.get("todoist.project_collaborator_links", MAIN_ID)["user_id"] == MAIN_ID
    assert "cannot be deleted" in err(session, "todoist_delete_project", project_id=0).message
    assert "cannot be renamed" in err(session, "todoist_update_project", project_id=0, name="X").message
    assert "cannot be shared" in err(session, "todoist_send_project_invite", project_id=0,
                                          email=other_email(world)).message


def test_newest_inbox_wins_over_the_seeded_one(session, world):
    # a scenario file seeding its own Inbox (id 400) for the main user, as scenario_0028 does
    world.insert("todoist.projects", {"id": 400, "user_id": MAIN_ID, "name": "Inbox", "color": "charcoal",
                                      "is_inbox": True, "description": "Default inbox project",
                                      "created_at": "2025-01-01T10:00:00"})
    world.insert("todoist.project_collaborator_links", {"id": 50400, "project_id": 400, "user_id": MAIN_ID,
                                                        "is_favorite": False, "is_archived": False,
                                                        "created_at": "2025-01-01T10:00:00"})
    assert [p["project_id"] for p in ok(session, "todoist_show_projects")] == [400]
    assert ok(session, "todoist_create_task", project_id=0, title="x")["task_id"] >= 6500
    assert world.select("todoist.tasks")[0]["project_id"] == 400
    assert "does not exist" in err(session, "todoist_show_project", project_id=MAIN_ID).message


def test_create_show_update_delete_project(session, world):
    created = ok(session, "todoist_create_project", name="Trip", color="blue", description="Summer",
                      is_favorite=True)
    pid = created["project_id"]
    assert pid == 400  # continues the files' id range
    link = world.get("todoist.project_collaborator_links", pid + 50000)
    assert link["user_id"] == MAIN_ID and link["is_favorite"] is True
    row = world.get("todoist.projects", pid)
    assert (row["user_id"], row["name"], row["color"], row["is_inbox"]) == (MAIN_ID, "Trip", "blue", False)
    shown = ok(session, "todoist_show_project", project_id=pid)
    assert shown["is_favorite"] is True and shown["owner"]["email"] == MAIN_EMAIL and not shown["is_shared"]
    ok(session, "todoist_create_project", name="Groceries")
    assert [p["name"] for p in ok(session, "todoist_show_projects", query="trip")] == ["Trip"]
    assert [p["name"] for p in ok(session, "todoist_show_projects", is_favorite=True)] == ["Trip"]
    assert [p["name"] for p in ok(session, "todoist_show_projects", color="blue")] == ["Trip"]
    assert len(ok(session, "todoist_show_projects", page_limit=1, page_index=1)) == 1
    assert [p["name"] for p in ok(session, "todoist_show_projects", sort_by="+name")] == [
        "Groceries", "Inbox", "Trip"]
    ok(session, "todoist_update_project", project_id=pid, name="Trip 2026", is_archived=True)
    assert world.get("todoist.projects", pid)["name"] == "Trip 2026"
    assert [p["name"] for p in ok(session, "todoist_show_projects", is_archived=True)] == ["Trip 2026"]
    ok(session, "todoist_delete_project", project_id=pid)
    assert world.get("todoist.projects", pid) is None
    assert world.get("todoist.project_collaborator_links", pid + 50000) is None


def test_project_validation_errors(session):
    assert "name" in err(session, "todoist_create_project", name=" ").message
    failure = err(session, "todoist_create_project", name="A", color="purple")
    assert "color" in failure.message and "'charcoal'" in failure.message
    assert "does not exist" in err(session, "todoist_show_project", project_id=999).message
    pid = ok(session, "todoist_create_project", name="A")["project_id"]
    assert "Nothing to update" in err(session, "todoist_update_project", project_id=pid).message
    assert "page_limit" in err(session, "todoist_show_projects", page_limit=0).message
    assert "sort_by" in err(session, "todoist_show_projects", sort_by="-color").message


def test_deleting_a_project_cascades(session, world):
    pid = ok(session, "todoist_create_project", name="Archive Hunt")["project_id"]
    sid = ok(session, "todoist_create_section", project_id=pid, name="Docs")["section_id"]
    tid = ok(session, "todoist_create_task", project_id=pid, title="Find memo", section_id=sid)["task_id"]
    ok(session, "todoist_create_sub_task", task_id=tid, title="scan")
    ok(session, "todoist_post_task_comment", task_id=tid, content="found it")
    lid = ok(session, "todoist_create_label", name="urgent")["label_id"]
    ok(session, "todoist_add_label_to_task", task_id=tid, label_id=lid)
    before = world.snapshot()
    ok(session, "todoist_delete_project", project_id=pid)
    diff = world.diff(before)
    deleted = {k: len(d.deleted) for k, d in diff.tables.items()}
    assert deleted == {"todoist.projects": 1, "todoist.project_collaborator_links": 1, "todoist.sections": 1,
                       "todoist.tasks": 1, "todoist.sub_tasks": 1, "todoist.task_label_links": 1}
    # comments outlive their project (scenario_0006 of the released benchmark expects them to)
    assert [c["content"] for c in world.select("todoist.task_comments", "task_id = ?", (tid,))] == ["found it"]
    assert world.get("todoist.labels", lid) is not None  # labels belong to the user, not the project


def test_sections_order_and_delete(session, world):
    pid = ok(session, "todoist_create_project", name="Home")["project_id"]
    a = ok(session, "todoist_create_section", project_id=pid, name="A")["section_id"]
    b = ok(session, "todoist_create_section", project_id=pid, name="B")["section_id"]
    c = ok(session, "todoist_create_section", project_id=pid, name="C", order_index=0)["section_id"]
    assert a >= 200
    names = [s["name"] for s in ok(session, "todoist_show_sections", project_id=pid)]
    assert names == ["C", "A", "B"]
    ok(session, "todoist_update_section", section_id=b, order_index=0, name="Bee")
    shown = ok(session, "todoist_show_sections", project_id=pid)
    assert [(s["name"], s["order_index"]) for s in shown] == [("Bee", 0), ("C", 1), ("A", 2)]
    ok(session, "todoist_create_task", project_id=pid, title="t", section_id=c)
    assert ok(session, "todoist_show_sections", project_id=pid)[1]["num_tasks"] == 1
    assert "1 task" in ok(session, "todoist_delete_section", section_id=c)["message"]
    assert world.select("todoist.tasks", "project_id = ?", (pid,)) == []
    assert "Nothing to update" in err(session, "todoist_update_section", section_id=a).message
    assert "does not exist" in err(session, "todoist_delete_section", section_id=c).message
    assert "name" in err(session, "todoist_create_section", project_id=pid, name="").message
    assert "does not exist" in err(session, "todoist_show_sections", project_id=12345).message


def test_invite_accept_collaborate_and_leave(session, world):
    pid = ok(session, "todoist_create_project", name="Shared")["project_id"]
    other = other_email(world)
    sent = ok(session, "todoist_send_project_invite", project_id=pid, email=other)
    code = sent["invite_code"]
    mails = len(world.select("gmail.emails"))
    again = ok(session, "todoist_send_project_invite", project_id=pid, email=other)
    assert again["invite_code"] == code and len(world.select("gmail.emails")) == mails + 1  # the code, mailed again
    assert len(world.select("todoist.project_invites")) == 1
    assert "another email" in err(session, "todoist_accept_project_invite", invite_code=code).message

    act_as(world, other)
    assert ok(session, "todoist_show_notifications") == []     # an invite comes by email only, as in AppWorld
    assert "does not exist" in err(session, "todoist_show_project", project_id=pid).message
    joined = ok(session, "todoist_accept_project_invite", invite_code=code)
    assert joined["project_id"] == pid
    shown = ok(session, "todoist_show_project", project_id=pid)
    assert shown["is_shared"] and {c["email"] for c in shown["collaborators"]} == {MAIN_EMAIL, other}
    assert "Only the owner" in err(session, "todoist_delete_project", project_id=pid).message
    assert "Only the owner" in err(session, "todoist_update_project", project_id=pid, name="Mine").message
    assert "cannot be removed" in err(session, "todoist_remove_collaborator_from_project", project_id=pid,
                                           email=MAIN_EMAIL).message
    tid = ok(session, "todoist_create_task", project_id=pid, title="Joint task")["task_id"]

    act_as(world, MAIN_EMAIL)
    assert [n["type"] for n in ok(session, "todoist_show_notifications")] == ["task_added", "collaborator_joined"]
    ok(session, "todoist_assign_or_unassign_task", task_id=tid, assignee_email=other)
    ok(session, "todoist_remove_collaborator_from_project", project_id=pid, email=other)
    act_as(world, other)   # the removed collaborator is not notified
    assert [n["type"] for n in ok(session, "todoist_show_notifications")] == ["task_assigned"]
    act_as(world, MAIN_EMAIL)
    assert world.get("todoist.tasks", tid)["assignee_id"] is None  # unassigned on removal
    assert "not a collaborator" in err(session, "todoist_remove_collaborator_from_project", project_id=pid,
                                            email=other).message
    act_as(world, other)
    assert "does not exist" in err(session, "todoist_show_project", project_id=pid).message


def test_invite_errors_and_cancel(session, world):
    pid = ok(session, "todoist_create_project", name="Shared")["project_id"]
    assert "already collaborates" in err(session, "todoist_send_project_invite", project_id=pid,
                                              email=MAIN_EMAIL).message
    assert "valid email" in err(session, "todoist_send_project_invite", project_id=pid, email="nope").message
    assert "No Todoist user" in err(session, "todoist_send_project_invite", project_id=pid,
                                    email="stranger@example.com").message   # AppWorld invites Todoist users only
    code = ok(session, "todoist_send_project_invite", project_id=pid, email=other_email(world))["invite_code"]
    assert "another email" in err(session, "todoist_accept_project_invite", invite_code=code).message
    assert ok(session, "todoist_delete_project_invite", invite_code=code)["message"] == "Invite cancelled."
    assert "No project invite" in err(session, "todoist_delete_project_invite", invite_code=code).message
    assert "No project invite" in err(session, "todoist_accept_project_invite", invite_code="zzz").message
    other = other_email(world)
    code = ok(session, "todoist_send_project_invite", project_id=pid, email=other)["invite_code"]
    act_as(world, other)  # an invitee cannot delete (decline) the invite: only its inviter can, as in AppWorld
    assert "not the inviter" in err(session, "todoist_delete_project_invite", invite_code=code).message
    assert len(world.select("todoist.project_invites")) == 1


def test_sections_are_unique_per_project_and_inbox_is_made_on_first_use(session, world):
    pid = ok(session, "todoist_create_project", name="Move")["project_id"]
    sid = ok(session, "todoist_create_section", project_id=pid, name="Packing")["section_id"]
    assert "section named" in err(session, "todoist_create_section", project_id=pid, name="Packing").message
    other = ok(session, "todoist_create_section", project_id=pid, name="Boxes")["section_id"]
    assert "section named" in err(session, "todoist_update_section", section_id=other, name="Packing").message
    ok(session, "todoist_update_section", section_id=sid, name="Packing", order_index=1)
    # an account signed up without a Gmail inbox gets no Inbox at signup; project 0 makes it (AppWorld)
    ok(session, "todoist_signup", first_name="Dan", last_name="Hill", email="dan@nowhere.org", password="dan-pw1")
    dan = world.select("todoist.users", "email = ?", ("dan@nowhere.org",))[0]
    assert not world.select("todoist.projects", "user_id = ?", (dan["id"],))
    world.update("todoist.users", dan["id"], {"verified": True})
    act_as(world, "dan@nowhere.org")
    assert ok(session, "todoist_show_project", project_id=0)["is_inbox"] is True
    assert len(world.select("todoist.projects", "user_id = ?", (dan["id"],))) == 1


def test_project_names_are_unique_per_owner(session, world):
    pid = ok(session, "todoist_create_project", name="Garden")["project_id"]
    assert "already have a project named" in err(session, "todoist_create_project", name="Garden").message
    other = ok(session, "todoist_create_project", name="Kitchen")["project_id"]
    assert "already have a project named" in err(session, "todoist_update_project", project_id=other,
                                                 name="Garden").message
    ok(session, "todoist_update_project", project_id=pid, name="Garden", color="red")
    act_as(world, other_email(world))  # another owner may use the same name
    ok(session, "todoist_create_project", name="Garden")
