"""Gmail writing: sending into threads, replies, forwards, drafts and attachments (with the file system)."""

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.world import device

MARCUS, MARCUS_ID = "ma_smith@gmail.com", 66
ALEX, ALEX_ID = "alexander-ridd@gmail.com", 20


@pytest.fixture
def token(world):
    return device.session_of(world, "file_system")["access_token"]


@pytest.fixture
def report_file(world):
    world.insert("file_system.files", {"path": "/home/brenda/documents/report.txt",
                                       "tilde_path": "~/documents/report.txt", "user_id": MAIN_ID,
                                       "content": "Q3 revenue: 12M", "compressed_data": [],
                                       "created_at": "2026-04-01T00:00:00", "updated_at": "2026-04-01T00:00:00"})
    return "~/documents/report.txt"


def _thread_of(world, user_id, email_id):
    rows = [t for t in world.select("gmail.user_email_threads", "user_id = ?", (user_id,))
            if email_id in t["email_ids"]]
    assert len(rows) == 1
    return rows[0]


def test_send_email_creates_email_and_threads(session, world):
    out = call_ok(session, "gmail_send_email", email_addresses=[MARCUS, f"Alex <{ALEX.upper()}>", MARCUS],
                  subject="Trip plan", body="Let's meet at 9.")
    email = world.get("gmail.emails", out["sent_email_id"])
    assert email["sender_id"] == MAIN_ID and email["recipient_ids"] == [MARCUS_ID, ALEX_ID]
    assert email["subject"] == "Trip plan" and email["created_at"] == "2026-04-16T23:51:15"
    mine = world.get("gmail.user_email_threads", out["sent_email_thread_id"])
    assert (mine["user_id"], mine["incoming"], mine["outgoing"], mine["read"]) == (MAIN_ID, False, True, True)
    assert mine["recipient_names"] == ["Marcus Smith", "Alexander Riddle"]
    assert mine["sender_email_addresses"] == [MAIN_EMAIL]
    theirs = _thread_of(world, MARCUS_ID, email["id"])
    assert (theirs["incoming"], theirs["outgoing"], theirs["read"], theirs["spam"]) == (True, False, False, False)
    assert theirs["global_email_thread_id"] == mine["global_email_thread_id"]
    assert world.get("gmail.global_email_threads", mine["global_email_thread_id"])["email_ids"] == [email["id"]]
    assert call_ok(session, "gmail_show_outbox_threads", query="trip")[0]["email_thread_id"] == mine["id"]


def test_send_email_failures_write_nothing(session, world):
    before = world.snapshot()
    err = call_err(session, "gmail_send_email", email_addresses=[MARCUS, "stranger@nowhere.com"], subject="s",
                   body="b")
    assert "No Gmail account exists for 'stranger@nowhere.com'" in err.message
    assert "invalid email address" in call_err(session, "gmail_send_email", email_addresses=["bob"], subject="s",
                                               body="b").message
    assert "at least one" in call_err(session, "gmail_send_email", email_addresses=[], subject="s", body="b").message
    assert "both are empty" in call_err(session, "gmail_send_email", email_addresses=[MARCUS], subject=" ",
                                        body="").message
    assert "missing required parameter" in call_err(session, "gmail_send_email", email_addresses=[MARCUS]).message
    assert world.diff(before).empty


def test_reply_to_email(session, world):
    photos = call_ok(session, "gmail_show_inbox_threads", query="photos")[0]
    tid, eid = photos["email_thread_id"], photos["email_ids"][0]
    sender_id = world.get("gmail.emails", eid)["sender_id"]
    call_ok(session, "gmail_mark_thread_archived", email_thread_id=tid)
    out = call_ok(session, "gmail_reply_to_email", email_thread_id=tid, email_id=eid, body="Amazing view!")
    reply = world.get("gmail.emails", out["sent_email_id"])
    assert reply["subject"] == "Re: Photos from the hike" and reply["response_to_email_id"] == eid
    assert reply["recipient_ids"] == [sender_id]
    mine = world.get("gmail.user_email_threads", tid)
    assert mine["email_ids"] == [eid, reply["id"]] and mine["outgoing"] and mine["incoming"]
    theirs = _thread_of(world, sender_id, reply["id"])
    assert theirs["read"] is False and theirs["archived"] is False and theirs["outgoing"] is True
    glob = world.get("gmail.global_email_threads", mine["global_email_thread_id"])
    assert glob["email_ids"] == [eid, reply["id"]] and glob["updated_at"] == "2026-04-16T23:51:15"
    # replying to one's own email goes to its recipients; email_addresses overrides
    again = call_ok(session, "gmail_reply_to_email", email_thread_id=tid, email_id=reply["id"], body="PS")
    assert world.get("gmail.emails", again["sent_email_id"])["recipient_ids"] == [sender_id]
    cc = call_ok(session, "gmail_reply_to_email", email_thread_id=tid, email_id=eid, body="fyi",
                 email_addresses=[MARCUS])
    assert world.get("gmail.emails", cc["sent_email_id"])["recipient_ids"] == [MARCUS_ID]
    assert _thread_of(world, MARCUS_ID, cc["sent_email_id"])["email_ids"] == [cc["sent_email_id"]]
    assert "not in email thread" in call_err(session, "gmail_reply_to_email", email_thread_id=tid, email_id=1234567,
                                             body="x").message
    assert "body" in call_err(session, "gmail_reply_to_email", email_thread_id=tid, email_id=eid, body="").message
    assert "non-empty list" in call_err(session, "gmail_reply_to_email", email_thread_id=tid, email_id=eid, body="x",
                                        email_addresses=[]).message


def test_forwards(session, world, token, report_file):
    sent = call_ok(session, "gmail_send_email", email_addresses=[ALEX], subject="Report", body="See attached",
                   attachment_file_paths=[report_file], file_system_access_token=token)
    tid = sent["sent_email_thread_id"]
    fwd = call_ok(session, "gmail_forward_email_from_thread", email_thread_id=tid, email_id=sent["sent_email_id"],
                  email_addresses=[MARCUS])
    assert fwd["draft_id"] is None and fwd["sent_email_thread_id"] != tid
    email = world.get("gmail.emails", fwd["sent_email_id"])
    assert email["subject"] == "Fwd: Report" and "See attached" in email["body"] and "Forwarded" in email["body"]
    assert [a["file_name"] for a in world.select("gmail.attachments", "email_id = ?", (email["id"],))] == \
        ["report.txt"]
    assert _thread_of(world, MARCUS_ID, email["id"])["has_attachments"] is True
    drafted = call_ok(session, "gmail_forward_email_thread", email_thread_id=tid, email_addresses=[MARCUS],
                      draft_not_send=True)
    assert drafted["sent_email_id"] is None and drafted["sent_email_thread_id"] is None
    draft = call_ok(session, "gmail_show_draft", draft_id=drafted["draft_id"])
    assert draft["subject"] == "Fwd: Report" and draft["attachments"][0]["file_name"] == "report.txt"
    whole = call_ok(session, "gmail_forward_email_thread", email_thread_id=tid, email_addresses=[MARCUS])
    assert whole["sent_email_id"] and whole["draft_id"] is None
    assert "No Gmail account" in call_err(session, "gmail_forward_email_thread", email_thread_id=tid,
                                          email_addresses=["x@unknown.org"]).message
    assert "not in email thread" in call_err(session, "gmail_forward_email_from_thread", email_thread_id=tid,
                                             email_id=424242, email_addresses=[MARCUS]).message


def test_draft_lifecycle(session, world):
    created = call_ok(session, "gmail_create_draft", recipient_email_addresses=[MARCUS], body="Draft text",
                      subject="Weekend", scheduled_send_at="2026-04-20|10:00:00")
    did = created["draft_id"]
    row = world.get("gmail.drafts", did)
    assert row["user_id"] == MAIN_ID and row["recipient_ids"] == [MARCUS_ID]
    assert row["recipient_email_addresses"] == [MARCUS] and row["recipient_names"] == ["Marcus Smith"]
    assert row["scheduled_send_at"] == "2026-04-20T10:00:00"
    assert [d["draft_id"] for d in call_ok(session, "gmail_show_drafts", scheduled=True)] == [did]
    assert [d["draft_id"] for d in call_ok(session, "gmail_show_drafts", query="weekend",
                                           recipient_email=MARCUS.upper())] == [did]
    assert call_ok(session, "gmail_show_drafts", attachment=True) == []
    call_ok(session, "gmail_update_draft", draft_id=did, body="New text", scheduled_send_at="None",
            email_addresses=[ALEX])
    row = world.get("gmail.drafts", did)
    assert row["body"] == "New text" and row["scheduled_send_at"] is None and row["recipient_ids"] == [ALEX_ID]
    assert "Nothing to update" in call_err(session, "gmail_update_draft", draft_id=did).message
    assert "future" in call_err(session, "gmail_update_draft", draft_id=did, scheduled_send_at="2026-01-01").message
    assert "does not exist" in call_err(session, "gmail_show_draft", draft_id=999).message
    assert "page_limit" in call_err(session, "gmail_show_drafts", page_limit=0).message
    sent = call_ok(session, "gmail_send_email_from_draft", draft_id=did)
    email = world.get("gmail.emails", sent["sent_email_id"])
    assert (email["subject"], email["body"], email["recipient_ids"]) == ("Weekend", "New text", [ALEX_ID])
    assert world.get("gmail.drafts", did) is None, "a sent draft is removed"
    assert "does not exist" in call_err(session, "gmail_send_email_from_draft", draft_id=did).message
    empty = call_ok(session, "gmail_create_draft", recipient_email_addresses=[], body="to whom?", subject="?")
    assert "no recipients" in call_err(session, "gmail_send_email_from_draft", draft_id=empty["draft_id"]).message
    call_ok(session, "gmail_delete_draft", draft_id=empty["draft_id"])
    assert world.get("gmail.drafts", empty["draft_id"]) is None
    assert "does not exist" in call_err(session, "gmail_delete_draft", draft_id=empty["draft_id"]).message


def test_reply_drafts(session, world):
    dinner = call_ok(session, "gmail_show_inbox_threads", query="dinner")[0]
    tid, first = dinner["email_thread_id"], dinner["email_ids"][0]
    err = call_err(session, "gmail_create_draft", recipient_email_addresses=[ALEX], body="x", subject="Hi",
                   belongs_to_email_thread_id=tid, response_to_email_id=first)
    assert "subject must be omitted" in err.message
    assert "is not in email thread" in call_err(session, "gmail_create_draft", recipient_email_addresses=[ALEX],
                                                body="x", belongs_to_email_thread_id=tid,
                                                response_to_email_id=4242).message
    for half in (dict(belongs_to_email_thread_id=tid), dict(response_to_email_id=first)):  # AppWorld: both or neither
        assert "both" in call_err(session, "gmail_create_draft", recipient_email_addresses=[ALEX], body="x",
                                  **half).message
    did = call_ok(session, "gmail_create_draft", recipient_email_addresses=[ALEX], body="See you at 7",
                  belongs_to_email_thread_id=tid, response_to_email_id=first)["draft_id"]
    draft = call_ok(session, "gmail_show_draft", draft_id=did)
    assert draft["belongs_to_email_thread_id"] == tid and draft["subject"] == "Re: Dinner this Saturday?"
    assert call_ok(session, "gmail_show_thread", email_thread_id=tid)["draft_ids"] == [did]
    assert [d["draft_id"] for d in call_ok(session, "gmail_show_drafts", belongs_to_email_thread_id=tid)] == [did]
    assert "subject cannot be set" in call_err(session, "gmail_update_draft", draft_id=did, subject="New").message
    sent = call_ok(session, "gmail_send_email_from_draft", draft_id=did)
    assert sent["sent_email_thread_id"] == tid
    email = world.get("gmail.emails", sent["sent_email_id"])
    assert email["response_to_email_id"] == first and email["subject"] == "Re: Dinner this Saturday?"
    assert world.get("gmail.user_email_threads", tid)["email_ids"][-1] == email["id"]


def test_attachments_upload_remove_send_download(session, world, token, report_file):
    did = call_ok(session, "gmail_create_draft", recipient_email_addresses=[MARCUS], body="Attached",
                  subject="Numbers")["draft_id"]
    up = call_ok(session, "gmail_upload_attachments_to_draft", draft_id=did, attachment_file_paths=[report_file],
                 file_system_access_token=token)
    att_id = up["attachments"][0]["attachment_id"]
    row = world.get("gmail.attachments", att_id)
    assert (row["draft_id"], row["file_name"], row["file_content"]) == (did, "report.txt", "Q3 revenue: 12M")
    assert "already has attachment" in call_err(session, "gmail_upload_attachments_to_draft", draft_id=did,
                                                attachment_file_paths=["/home/brenda/documents/report.txt"],
                                                file_system_access_token=token).message
    again = call_ok(session, "gmail_upload_attachments_to_draft", draft_id=did, attachment_file_paths=[report_file],
                    file_system_access_token=token, overwrite=True)
    assert world.get("gmail.attachments", att_id) is None
    assert "Invalid file_system_access_token" in call_err(session, "gmail_upload_attachments_to_draft", draft_id=did,
                                                          attachment_file_paths=[report_file],
                                                          file_system_access_token="wrong").message
    assert "No file exists" in call_err(session, "gmail_upload_attachments_to_draft", draft_id=did,
                                        attachment_file_paths=["~/missing.pdf"], file_system_access_token=token).message
    assert "does not exist" in call_err(session, "gmail_upload_attachments_to_draft", draft_id=did,
                                       attachment_file_paths=["report.txt"], file_system_access_token=token).message
    assert call_ok(session, "gmail_show_drafts", attachment=True)[0]["draft_id"] == did
    sent = call_ok(session, "gmail_send_email_from_draft", draft_id=did, file_system_access_token=token)
    assert not world.select("gmail.attachments", "draft_id = ?", (did,))
    email = call_ok(session, "gmail_show_email", email_id=sent["sent_email_id"])
    new_att = email["attachments"][0]["attachment_id"]
    assert new_att != again["attachments"][0]["attachment_id"]
    out = call_ok(session, "gmail_download_attachment", attachment_id=new_att, file_system_access_token=token)
    assert out["file_path"] == "/home/brenda/downloads/report.txt"
    saved = world.select("file_system.files", "path = ?", (out["file_path"],))[0]
    assert saved["content"] == "Q3 revenue: 12M" and saved["tilde_path"] == "~/downloads/report.txt"
    assert world.get("gmail.attachments", new_att)["download_count"] == 1
    assert "already exists" in call_err(session, "gmail_download_attachment", attachment_id=new_att,
                                        file_system_access_token=token).message
    call_ok(session, "gmail_download_attachment", attachment_id=new_att, file_system_access_token=token,
            download_to_file_path="~/downloads/report.txt", overwrite=True)
    other = call_ok(session, "gmail_download_attachment", attachment_id=new_att, file_system_access_token=token,
                    download_to_file_path="~/archive/2026/")
    assert other["file_path"] == "/home/brenda/archive/2026/report.txt"
    assert world.select("file_system.directories", "path = ?", ("/home/brenda/archive/2026/",))
    assert world.get("gmail.attachments", new_att)["download_count"] == 3
    assert "does not exist" in call_err(session, "gmail_download_attachment", attachment_id=999,
                                        file_system_access_token=token).message


def test_remove_attachment_from_draft(session, world, token, report_file):
    did = call_ok(session, "gmail_create_draft", recipient_email_addresses=[MARCUS], body="b", subject="s",
                  attachment_file_paths=[report_file], file_system_access_token=token)["draft_id"]
    att = call_ok(session, "gmail_show_draft", draft_id=did)["attachments"][0]["attachment_id"]
    assert "not attached to draft" in call_err(session, "gmail_remove_attachment_from_draft", draft_id=did,
                                               attachment_id=att + 100).message
    call_ok(session, "gmail_remove_attachment_from_draft", draft_id=did, attachment_id=att)
    assert world.get("gmail.attachments", att) is None
    assert call_ok(session, "gmail_show_draft", draft_id=did)["attachments"] == []
    call_ok(session, "gmail_delete_draft", draft_id=did)
