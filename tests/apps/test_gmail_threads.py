"""Gmail mailbox: listings with filters/search/pagination, reading, and thread flags."""

import pytest
from testkit import MAIN_ID, call_err, call_ok

FLAG_TOOLS = ["gmail_mark_thread_read", "gmail_mark_thread_unread", "gmail_mark_thread_archived",
              "gmail_mark_thread_unarchived", "gmail_mark_thread_spam", "gmail_mark_thread_not_spam",
              "gmail_mark_thread_starred", "gmail_mark_thread_unstarred", "gmail_unlabel_thread",
              "gmail_unsnooze_thread", "gmail_delete_thread", "gmail_show_thread"]


def _thread(session, query):
    return call_ok(session, "gmail_show_inbox_threads", query=query)[0]


def _row(world, thread_id):
    return world.get("gmail.user_email_threads", thread_id)


def test_seeded_inbox_listing_sort_search_and_pagination(session):
    inbox = call_ok(session, "gmail_show_inbox_threads")
    assert [t["subject"] for t in inbox] == ["Photos from the hike", "Quarterly report draft",
                                             "Dinner this Saturday?"]  # default -updated_at
    assert {"email_thread_id", "email_ids", "draft_ids", "incoming", "outgoing", "read", "label", "snoozed_until",
            "starred", "archived", "spam", "senders", "recipients"} <= set(inbox[0])
    assert next(t["subject"] for t in call_ok(session, "gmail_show_inbox_threads", sort_by="+created_at")) == \
        "Dinner this Saturday?"
    assert _thread(session, "quarterly review")["subject"] == "Quarterly report draft"
    assert call_ok(session, "gmail_show_inbox_threads", query="xylophone") == []
    page1 = call_ok(session, "gmail_show_inbox_threads", page_limit=2, page_index=1)
    assert [t["subject"] for t in page1] == ["Dinner this Saturday?"]
    assert "page_limit" in call_err(session, "gmail_show_inbox_threads", page_limit=21).message
    assert "sort_by" in call_err(session, "gmail_show_inbox_threads", sort_by="-subject").message
    assert "from_email" in call_err(session, "gmail_show_inbox_threads", from_email="not-an-address").message
    assert "min_created_at" in call_err(session, "gmail_show_inbox_threads", min_created_at="yesterday").message


def test_listing_filters(session, world):
    report = _thread(session, "quarterly")
    sender = report["senders"][0]["email"]
    assert [t["subject"] for t in call_ok(session, "gmail_show_inbox_threads", from_email=sender.upper())] == \
        ["Quarterly report draft"]
    assert [t["subject"] for t in call_ok(session, "gmail_show_inbox_threads", label="work")] == \
        ["Quarterly report draft"]
    assert all(not t["read"] for t in call_ok(session, "gmail_show_inbox_threads", read=False))
    created = report["created_at"][:10]
    only = call_ok(session, "gmail_show_inbox_threads", min_created_at=created, max_created_at=created)
    assert [t["subject"] for t in only] == ["Quarterly report draft"]
    outbox = call_ok(session, "gmail_show_outbox_threads")
    assert {t["subject"] for t in outbox} == {"Book recommendation", "Dinner this Saturday?"}
    book = next(t for t in outbox if t["subject"] == "Book recommendation")
    assert call_ok(session, "gmail_show_outbox_threads", to_email=book["recipients"][0]["email"])[0][
        "email_thread_id"] == book["email_thread_id"]
    assert call_ok(session, "gmail_show_outbox_threads", attachment=True) == []
    assert "to_email" in call_err(session, "gmail_show_outbox_threads", to_email="@@").message


def test_show_thread_and_email(session, world):
    dinner = _thread(session, "dinner")
    full = call_ok(session, "gmail_show_thread", email_thread_id=dinner["email_thread_id"])
    assert [e["email_id"] for e in full["emails"]] == dinner["email_ids"]
    assert full["emails"][1]["response_to_email_id"] == full["emails"][0]["email_id"]
    assert full["drafts"] == [] and "Thai" in full["emails"][0]["body"]
    email = call_ok(session, "gmail_show_email", email_id=dinner["email_ids"][0])
    assert email["email_thread_id"] == dinner["email_thread_id"] and email["attachments"] == []
    assert email["recipients"][0]["email"] == world.get("gmail.users", MAIN_ID)["email"]
    foreign = world.select("gmail.user_email_threads", "user_id != ?", (MAIN_ID,))[0]["id"]
    assert "does not exist" in call_err(session, "gmail_show_thread", email_thread_id=foreign).message
    assert "does not exist" in call_err(session, "gmail_show_email", email_id=987654).message


def test_flags_and_category_listings(session, world):
    tid = _thread(session, "photos")["email_thread_id"]
    call_ok(session, "gmail_mark_thread_read", email_thread_id=tid)
    assert _row(world, tid)["read"] is True
    assert "already read" in call_ok(session, "gmail_mark_thread_read", email_thread_id=tid)["message"]
    call_ok(session, "gmail_mark_thread_unread", email_thread_id=tid)
    assert _row(world, tid)["read"] is False
    call_ok(session, "gmail_mark_thread_starred", email_thread_id=tid)
    assert tid in [t["email_thread_id"] for t in call_ok(session, "gmail_show_starred_threads", page_limit=10)]
    call_ok(session, "gmail_mark_thread_unstarred", email_thread_id=tid)
    assert _row(world, tid)["starred"] is False
    call_ok(session, "gmail_mark_thread_spam", email_thread_id=tid)
    assert [t["email_thread_id"] for t in call_ok(session, "gmail_show_spam_threads")] == [tid]
    assert tid not in [t["email_thread_id"] for t in call_ok(session, "gmail_show_inbox_threads")]
    call_ok(session, "gmail_mark_thread_archived", email_thread_id=tid)
    row = _row(world, tid)
    assert row["archived"] is True and row["spam"] is False, "archiving clears spam"
    assert [t["email_thread_id"] for t in call_ok(session, "gmail_show_archived_threads")] == [tid]
    call_ok(session, "gmail_mark_thread_unarchived", email_thread_id=tid)
    call_ok(session, "gmail_mark_thread_spam", email_thread_id=tid)
    call_ok(session, "gmail_mark_thread_not_spam", email_thread_id=tid)
    row = _row(world, tid)
    assert not row["archived"] and not row["spam"]
    assert "page_index" in call_err(session, "gmail_show_archived_threads", page_index=-1).message
    assert "page_limit" in call_err(session, "gmail_show_spam_threads", page_limit=99).message
    assert "sort_by" in call_err(session, "gmail_show_starred_threads", sort_by="subject").message
    assert "max_created_at" in call_err(session, "gmail_show_snoozed_threads", max_created_at="soon").message


@pytest.mark.parametrize("name", FLAG_TOOLS)
def test_thread_tools_reject_unknown_threads(session, world, name):
    before = world.snapshot()
    assert "email_thread_id=424242 does not exist" in call_err(session, name, email_thread_id=424242).message
    assert world.diff(before).empty


def test_labels(session, world):
    tid = _thread(session, "photos")["email_thread_id"]
    call_ok(session, "gmail_label_thread", email_thread_id=tid, label=" Hiking ")
    assert _row(world, tid)["label"] == "Hiking"
    assert call_ok(session, "gmail_search_labels") == ["Hiking", "Work"]
    assert call_ok(session, "gmail_search_labels", query="hik") == ["Hiking"]
    assert call_ok(session, "gmail_search_labels", page_limit=1, page_index=1) == ["Work"]
    assert "page_limit" in call_err(session, "gmail_search_labels", page_limit=0).message
    assert "label must not be empty" in call_err(session, "gmail_label_thread", email_thread_id=tid, label="").message
    call_ok(session, "gmail_unlabel_thread", email_thread_id=tid)
    assert _row(world, tid)["label"] is None
    assert "no label" in call_ok(session, "gmail_unlabel_thread", email_thread_id=tid)["message"]


def test_snooze(session, world):
    tid = _thread(session, "quarterly")["email_thread_id"]
    call_ok(session, "gmail_snooze_thread", email_thread_id=tid, snooze_until="2026-04-20|08:00:00")
    row = _row(world, tid)
    assert row["snoozed_until"] == "2026-04-20T08:00:00" and row["read"] is False
    snoozed = call_ok(session, "gmail_show_snoozed_threads")
    assert [t["email_thread_id"] for t in snoozed] == [tid] and snoozed[0]["snoozed_until"]
    assert tid not in [t["email_thread_id"] for t in call_ok(session, "gmail_show_inbox_threads")]
    assert tid in [t["email_thread_id"] for t in call_ok(session, "gmail_show_inbox_threads", snoozed=None)]
    assert "future" in call_err(session, "gmail_snooze_thread", email_thread_id=tid,
                                snooze_until="2026-04-16|00:00:00").message
    assert "YYYY-MM-DD" in call_err(session, "gmail_snooze_thread", email_thread_id=tid,
                                    snooze_until="next week").message
    call_ok(session, "gmail_unsnooze_thread", email_thread_id=tid)
    assert _row(world, tid)["snoozed_until"] is None
    assert "not snoozed" in call_ok(session, "gmail_unsnooze_thread", email_thread_id=tid)["message"]


def test_category_sizes(session):
    sizes = call_ok(session, "gmail_show_category_sizes")
    assert sizes == {"inbox": 3, "outbox": 2, "snoozed": 0, "starred": 1, "archived": 0, "spam": 0,
                     "unscheduled_drafts": 0, "scheduled_drafts": 0}
    assert call_ok(session, "gmail_show_category_sizes", read=False)["inbox"] == 1
    call_ok(session, "gmail_create_draft", recipient_email_addresses=[], body="later", subject="s",
            scheduled_send_at="2026-05-01")
    assert call_ok(session, "gmail_show_category_sizes")["scheduled_drafts"] == 1
    assert "read" in call_err(session, "gmail_show_category_sizes", read="maybe").message


def test_delete_email_in_thread_and_delete_thread(session, world):
    dinner = _thread(session, "dinner")
    tid, first, second = dinner["email_thread_id"], *dinner["email_ids"]
    assert "not in email thread" in call_err(session, "gmail_delete_email_in_thread", email_thread_id=tid,
                                             email_id=999999).message
    call_ok(session, "gmail_delete_email_in_thread", email_thread_id=tid, email_id=second)
    row = _row(world, tid)
    assert row["email_ids"] == [first] and row["outgoing"] is False, "derived columns follow the remaining emails"
    assert world.get("gmail.emails", second) is not None, "the other participant keeps the email"
    assert "does not exist" in call_err(session, "gmail_show_email", email_id=second).message
    msg = call_ok(session, "gmail_delete_email_in_thread", email_thread_id=tid, email_id=first)["message"]
    assert "thread was deleted" in msg and _row(world, tid) is None
    photos_thread = _thread(session, "photos")
    photos = photos_thread["email_thread_id"]
    call_ok(session, "gmail_create_draft", recipient_email_addresses=[], body="reply later",
            belongs_to_email_thread_id=photos, response_to_email_id=photos_thread["email_ids"][-1])
    call_ok(session, "gmail_delete_thread", email_thread_id=photos)
    assert _row(world, photos) is None
    assert not world.select("gmail.drafts", "belongs_to_email_thread_id = ?", (photos,))
    assert "does not exist" in call_err(session, "gmail_delete_thread", email_thread_id=photos).message
