"""Messages: text and voice messages between phone users (global rows + one copy per participant)."""

import pytest
from testkit import MAIN_ID, call_err, call_ok

from mmtsb.apps.phone.tools_messages import TEXT, VOICE, Kind

RIDDLE, SOLOMON = 20, 8


def _number(world, uid):
    return world.get("phone.users", uid)["phone_number"]


def _put(world, kind: Kind, sender, receiver, message, at):
    """A message sent at a given time (the episode clock is frozen, so tests date rows themselves); returns the
    id of the main user's copy (the id the main user's tools use)."""
    gid = world.insert(kind.global_table, {"sender_id": sender, "receiver_id": receiver, "message": message,
                                           "created_at": at})
    copies = {uid: world.insert(kind.user_table, {"user_id": uid, kind.link: gid, "created_at": at})
              for uid in (sender, receiver)}
    return copies[MAIN_ID]


@pytest.fixture
def history(world):
    """Five texts with Riddle over five days and two with Solomon."""
    ids = [_put(world, TEXT, MAIN_ID if i % 2 == 0 else RIDDLE, RIDDLE if i % 2 == 0 else MAIN_ID,
                f"riddle message {i}", f"2026-04-0{i + 1}T10:00:00") for i in range(5)]
    ids += [_put(world, TEXT, SOLOMON, MAIN_ID, "lunch on friday?", "2026-04-03T12:00:00"),
            _put(world, TEXT, MAIN_ID, SOLOMON, "sure, friday lunch works", "2026-04-03T12:05:00")]
    return ids


def test_send_show_and_receiver_copy(session, world):
    number = _number(world, RIDDLE)
    out = call_ok(session, "messages_send_text_message", phone_number=number, message="See you at 5")
    tid = out["text_message_id"]
    assert out["message"] == "Text message sent."
    shown = call_ok(session, "messages_show_text_message", text_message_id=tid)
    assert shown["message"] == "See you at 5" and shown["sent_at"] == "2026-04-16T23:51:15"
    assert shown["receiver"]["name"] == "Alexander Riddle" and shown["receiver"]["contact_id"] is not None
    assert shown["sender"]["phone_number"] == _number(world, MAIN_ID)
    assert world.get("phone.user_text_messages", tid)["user_id"] == MAIN_ID   # the id of the sender's copy
    # the receiver sees it too, under their own login and through their own copy's id (as in AppWorld)
    call_ok(session, "phone_login", username=number, password=world.get("phone.users", RIDDLE)["password"])
    theirs = call_ok(session, "messages_search_text_messages")[0]
    assert theirs["message"] == "See you at 5" and theirs["text_message_id"] != tid
    assert call_ok(session, "messages_show_text_message", text_message_id=theirs["text_message_id"])["message"] == \
        "See you at 5"
    err = call_err(session, "messages_show_text_message", text_message_id=tid)
    assert "does not belong to you" in err.message
    assert "does not belong to you" in call_err(session, "messages_delete_text_message", text_message_id=tid).message


def test_texting_your_own_number_keeps_one_copy(session, world):
    """AppWorld lets a user text themselves: one global message, one copy."""
    out = call_ok(session, "messages_send_text_message", phone_number=_number(world, MAIN_ID), message="Buy milk")
    copies = world.select("phone.user_text_messages", "user_id = ?", (MAIN_ID,))
    assert [c["id"] for c in copies] == [out["text_message_id"]]
    shown = call_ok(session, "messages_show_text_message", text_message_id=out["text_message_id"])
    assert shown["sender"]["phone_number"] == shown["receiver"]["phone_number"] == _number(world, MAIN_ID)


def test_window_pagination(session, world, history):
    number = _number(world, RIDDLE)
    newest = call_ok(session, "messages_show_text_message_window", phone_number=number, page_limit=2)
    assert [m["message"] for m in newest] == ["riddle message 3", "riddle message 4"]  # page oldest -> newest
    older = call_ok(session, "messages_show_text_message_window", phone_number=number, page_limit=2, page_index=1)
    assert [m["message"] for m in older] == ["riddle message 1", "riddle message 2"]
    oldest = call_ok(session, "messages_show_text_message_window", phone_number=number, page_limit=2,
                     pagination_order="ascending")
    assert [m["message"] for m in oldest] == ["riddle message 0", "riddle message 1"]
    window = call_ok(session, "messages_show_text_message_window", phone_number=number,
                     min_datetime="2026-04-02|00:00:00", max_datetime="2026-04-03|23:59:59", page_limit=20)
    assert [m["message"] for m in window] == ["riddle message 1", "riddle message 2"]
    assert window[0]["sender"]["name"] == "Alexander Riddle"


def test_search_ranking_filters_and_sorting(session, world, history):
    everything = call_ok(session, "messages_search_text_messages", page_limit=20)
    assert len(everything) == 7 and everything[0]["message"] == "riddle message 4"  # newest first by default
    oldest_first = call_ok(session, "messages_search_text_messages", sort_by="+created_at", page_limit=3)
    assert oldest_first[0]["message"] == "riddle message 0"
    lunch = call_ok(session, "messages_search_text_messages", query="friday lunch")
    assert [m["message"] for m in lunch] == ["lunch on friday?", "sure, friday lunch works"]
    within_page = call_ok(session, "messages_search_text_messages", query="friday lunch", sort_by="-created_at")
    assert within_page[0]["message"] == "sure, friday lunch works"
    by_name = call_ok(session, "messages_search_text_messages", query="solomon", page_limit=20)
    assert len(by_name) == 2
    latest = call_ok(session, "messages_search_text_messages", only_latest_per_contact=True)
    assert [m["message"] for m in latest] == ["riddle message 4", "sure, friday lunch works"]
    only_riddle = call_ok(session, "messages_search_text_messages", phone_number=_number(world, RIDDLE),
                          page_limit=20)
    assert len(only_riddle) == 5
    assert "sort_by" in call_err(session, "messages_search_text_messages", sort_by="-message").message
    assert "page_limit" in call_err(session, "messages_search_text_messages", page_limit=100).message


def test_delete_removes_only_my_copy(session, world, history):
    tid = history[0]
    gid = world.get("phone.user_text_messages", tid)["global_text_message_id"]
    call_ok(session, "messages_delete_text_message", text_message_id=tid)
    assert world.get("phone.global_text_messages", gid) is not None
    copies = world.select("phone.user_text_messages", "global_text_message_id = ?", (gid,))
    assert [c["user_id"] for c in copies] == [RIDDLE]
    assert "does not exist" in call_err(session, "messages_show_text_message", text_message_id=tid).message
    assert "does not exist" in call_err(session, "messages_delete_text_message", text_message_id=tid).message


def test_send_errors(session, world):
    before = world.snapshot()
    err = call_err(session, "messages_send_text_message", phone_number="999-000-1111", message="hi")
    assert "999-000-1111" in err.message and "No phone user" in err.message
    assert "at least 1 character" in call_err(session, "messages_send_text_message",
                                              phone_number=_number(world, RIDDLE), message="  ").message
    assert "message" in call_err(session, "messages_send_text_message", phone_number="1").message
    assert world.diff(before).empty
    number = _number(world, RIDDLE)
    assert "pagination_order" in call_err(session, "messages_show_text_message_window", phone_number=number,
                                          pagination_order="newest").message
    assert "after max_datetime" in call_err(session, "messages_show_text_message_window", phone_number=number,
                                            min_datetime="2026-05-01", max_datetime="2026-04-01").message
    assert "min_datetime" in call_err(session, "messages_show_text_message_window", phone_number=number,
                                      min_datetime="yesterday").message
    assert "No phone user" in call_err(session, "messages_search_text_messages", phone_number="123").message


def test_voice_messages(session, world):
    number = _number(world, SOLOMON)
    vid = call_ok(session, "messages_send_voice_message", phone_number=number,
                  message="Call me back about the report")["voice_message_id"]
    _put(world, VOICE, SOLOMON, MAIN_ID, "Running late, sorry", "2026-04-10T09:00:00")
    shown = call_ok(session, "messages_show_voice_message", voice_message_id=vid)
    assert shown["voice_message_id"] == vid and shown["receiver"]["name"] == "Thomas Solomon"
    assert [m["message"] for m in call_ok(session, "messages_search_voice_messages", query="report")] == [
        "Call me back about the report"]
    window = call_ok(session, "messages_show_voice_message_window", phone_number=number)
    assert [m["message"] for m in window] == ["Running late, sorry", "Call me back about the report"]
    assert len(call_ok(session, "messages_search_voice_messages", only_latest_per_contact=True)) == 1
    call_ok(session, "messages_delete_voice_message", voice_message_id=vid)
    assert "does not exist" in call_err(session, "messages_show_voice_message", voice_message_id=vid).message
    assert "No phone user" in call_err(session, "messages_send_voice_message", phone_number="42",
                                       message="x").message
    assert "does not exist" in call_err(session, "messages_delete_voice_message", voice_message_id=999).message
    assert world.count("phone.global_text_messages") == 0  # voice and text are separate
