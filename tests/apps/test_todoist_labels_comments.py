"""Todoist labels (and task labels), task comments and comment attachments (via the file-system app)."""

import pytest
from testkit import MAIN_EMAIL, MAIN_ID

from mmtsb.world import device

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
def task(session):
    pid = ok(session, "todoist_create_project", name="Docs")["project_id"]
    return ok(session, "todoist_create_task", project_id=pid, title="File approval")["task_id"]


@pytest.fixture
def fs_token(world):
    world.insert("file_system.files", {"id": 26000, "path": "/home/brenda/documents/report.txt",
                                       "tilde_path": "~/documents/report.txt", "user_id": MAIN_ID,
                                       "content": "quarterly numbers", "compressed_data": [],
                                       "created_at": "2026-04-01T00:00:00", "updated_at": "2026-04-01T00:00:00"})
    return device.session_of(world, "file_system")["access_token"]


def test_labels_lifecycle(session, world, task):
    lid = ok(session, "todoist_create_label", name="Rhonda Bailey")["label_id"]
    assert lid == 2400
    row = world.get("todoist.labels", lid)
    assert (row["user_id"], row["name"], row["color"]) == (MAIN_ID, "Rhonda Bailey", "charcoal")
    red = ok(session, "todoist_create_label", name="Jack Bellis", color="red")["label_id"]
    assert "already have a label" in err(session, "todoist_create_label", name="rhonda bailey").message
    assert "color" in err(session, "todoist_create_label", name="x", color="pink").message
    shown = ok(session, "todoist_show_label", label_id=lid)
    assert shown == {"name": "Rhonda Bailey", "color": "charcoal", "label_id": lid,
                     "creator": {"name": "Brenda Webster", "email": MAIN_EMAIL}}
    assert "does not exist" in err(session, "todoist_show_label", label_id=1).message
    assert [lb["label_id"] for lb in ok(session, "todoist_search_labels", query="bailey")] == [lid]
    assert [lb["label_id"] for lb in ok(session, "todoist_search_labels", color="red")] == [red]

    ok(session, "todoist_add_label_to_task", task_id=task, label_id=lid)
    link = world.select("todoist.task_label_links")[0]
    assert (link["task_id"], link["label_id"]) == (task, lid)
    assert "already has" in err(session, "todoist_add_label_to_task", task_id=task, label_id=lid).message
    assert [lb["label_id"] for lb in ok(session, "todoist_search_labels", task_id=task)] == [lid]
    assert [lb["label_id"] for lb in ok(session, "todoist_search_labels", task_id=task, task_attached=False)] == [red]
    ok(session, "todoist_remove_label_from_task", task_id=task, label_id=lid)
    assert "does not have" in err(session, "todoist_remove_label_from_task", task_id=task, label_id=lid).message

    ok(session, "todoist_update_label", label_id=lid, name="R. Bailey", color="green")
    assert world.get("todoist.labels", lid)["color"] == "green"
    assert "Nothing to update" in err(session, "todoist_update_label", label_id=lid).message
    assert "already have" in err(session, "todoist_update_label", label_id=lid, name="Jack Bellis").message
    ok(session, "todoist_add_label_to_task", task_id=task, label_id=red)
    ok(session, "todoist_delete_label", label_id=red)
    assert world.select("todoist.task_label_links") == [] and world.get("todoist.labels", red) is None
    assert "does not exist" in err(session, "todoist_delete_label", label_id=red).message
    assert "page_limit" in err(session, "todoist_search_labels", page_limit=0).message


def test_labels_are_private(session, world, task):
    device.login(world, "todoist", world.get("todoist.users", OTHER_ID)["email"])
    theirs = ok(session, "todoist_create_label", name="theirs")["label_id"]
    device.login(world, "todoist", MAIN_EMAIL)
    assert "does not exist" in err(session, "todoist_add_label_to_task", task_id=task, label_id=theirs).message
    assert ok(session, "todoist_search_labels") == []


def test_comments(session, world, task):
    cid = ok(session, "todoist_post_task_comment", task_id=task, content="Audit required")["task_comment_id"]
    assert cid == 5000
    row = world.get("todoist.task_comments", cid)
    assert (row["task_id"], row["user_id"], row["content"]) == (task, MAIN_ID, "Audit required")
    second = ok(session, "todoist_post_task_comment", task_id=task, content="done")["task_comment_id"]
    listed = ok(session, "todoist_show_task_comments", task_id=task)
    assert [c["task_comment_id"] for c in listed] == [cid, second]
    assert listed[0]["user"]["email"] == MAIN_EMAIL and listed[0]["attachment_file_names"] == []
    assert len(ok(session, "todoist_show_task_comments", task_id=task, page_limit=1, page_index=1)) == 1
    ok(session, "todoist_update_task_comment", task_comment_id=cid, content="Audit passed")
    assert ok(session, "todoist_show_task_comment", task_comment_id=cid)["content"] == "Audit passed"
    ok(session, "todoist_delete_task_comment", task_comment_id=second)
    assert world.get("todoist.task_comments", second) is None
    assert "does not exist" in err(session, "todoist_show_task_comment", task_comment_id=second).message
    assert "Nothing to update" in err(session, "todoist_update_task_comment", task_comment_id=cid).message
    assert "content" in err(session, "todoist_post_task_comment", task_id=task, content="  ").message
    assert "does not exist" in err(session, "todoist_post_task_comment", task_id=42, content="x").message
    assert "page_limit" in err(session, "todoist_show_task_comments", task_id=task, page_limit=21).message


def test_only_the_author_edits_a_comment(session, world):
    pid = ok(session, "todoist_create_project", name="Shared")["project_id"]
    tid = ok(session, "todoist_create_task", project_id=pid, title="t")["task_id"]
    cid = ok(session, "todoist_post_task_comment", task_id=tid, content="mine")["task_comment_id"]
    other = world.get("todoist.users", OTHER_ID)["email"]
    code = ok(session, "todoist_send_project_invite", project_id=pid, email=other)["invite_code"]
    device.login(world, "todoist", other)
    ok(session, "todoist_accept_project_invite", invite_code=code)
    assert ok(session, "todoist_show_task_comment", task_comment_id=cid)["content"] == "mine"
    assert "Only the author" in err(session, "todoist_update_task_comment", task_comment_id=cid, content="x").message
    assert "Only the author" in err(session, "todoist_delete_task_comment", task_comment_id=cid).message


def test_attachments_round_trip(session, world, task, fs_token):
    cid = ok(session, "todoist_post_task_comment", task_id=task, content="see file",
             attachment_file_paths=["~/documents/report.txt"], file_system_access_token=fs_token)["task_comment_id"]
    assert ok(session, "todoist_show_task_comment", task_comment_id=cid)["attachment_file_names"] == ["report.txt"]
    assert "already has an attachment" in err(session, "todoist_upload_attachment", task_comment_id=cid,
                                               upload_from_file_path="/home/brenda/documents/report.txt",
                                               file_system_access_token=fs_token).message
    up = ok(session, "todoist_upload_attachment", task_comment_id=cid,
            upload_from_file_path="/home/brenda/documents/report.txt", file_system_access_token=fs_token,
            overwrite=True)
    assert up["attachment_file_name"] == "report.txt"
    down = ok(session, "todoist_download_attachment", task_comment_id=cid, attachment_file_name="report.txt",
              file_system_access_token=fs_token)
    assert down["file_path"] == "/home/brenda/downloads/report.txt"
    saved = world.select("file_system.files", "path = ?", (down["file_path"],))[0]
    assert (saved["content"], saved["tilde_path"], saved["user_id"]) == ("quarterly numbers",
                                                                          "~/downloads/report.txt", MAIN_ID)
    assert "already exists" in err(session, "todoist_download_attachment", task_comment_id=cid,
                                   attachment_file_name="report.txt", file_system_access_token=fs_token).message
    ok(session, "todoist_download_attachment", task_comment_id=cid, attachment_file_name="report.txt",
       file_system_access_token=fs_token, download_to_file_path="~/archive/copy.txt")
    assert world.select("file_system.directories", "path = ?", ("/home/brenda/archive/",))
    ok(session, "todoist_delete_attachment", task_comment_id=cid, attachment_file_name="report.txt")
    assert world.select("todoist.task_comment_attachments") == []
    assert "no attachment" in err(session, "todoist_delete_attachment", task_comment_id=cid,
                                  attachment_file_name="report.txt").message


def test_attachment_errors(session, task, fs_token):
    assert "file_system_access_token" in err(session, "todoist_post_task_comment", task_id=task, content="x",
                                             attachment_file_paths=["~/documents/report.txt"]).message
    assert "does not exist" in err(session, "todoist_post_task_comment", task_id=task, content="x",
                                   attachment_file_paths=["~/missing.txt"],
                                   file_system_access_token=fs_token).message
    assert "does not exist" in err(session, "todoist_post_task_comment", task_id=task, content="x",
                                  attachment_file_paths=["documents/report.txt"],
                                  file_system_access_token=fs_token).message
    cid = ok(session, "todoist_post_task_comment", task_id=task, content="x")["task_comment_id"]
    assert "file_system_access_token" in err(session, "todoist_upload_attachment", task_comment_id=cid,
                                             upload_from_file_path="~/documents/report.txt",
                                             file_system_access_token="bogus").message
    assert "no attachment" in err(session, "todoist_download_attachment", task_comment_id=cid,
                                  attachment_file_name="nope.txt", file_system_access_token=fs_token).message
