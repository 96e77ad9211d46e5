"""Gmail account tools, user search, status, and system emails delivered into inboxes."""

import re

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok

from mmtsb.apps.gmail.delivery import deliver_system_email


def _latest_inbox_body(session, query):
    thread = call_ok(session, "gmail_show_inbox_threads", query=query)[0]
    return call_ok(session, "gmail_show_thread", email_thread_id=thread["email_thread_id"])["emails"][-1]["body"]


def test_show_account_profile_and_name(session):
    acct = call_ok(session, "gmail_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["status"] == "active" and "verified" not in acct
    assert call_ok(session, "gmail_show_profile", email="MA_SMITH@gmail.com")["last_name"] == "Smith"
    assert call_ok(session, "gmail_show_profile")["email"] == MAIN_EMAIL
    assert "No gmail user" in call_err(session, "gmail_show_profile", email="ghost@nowhere.com").message
    call_ok(session, "gmail_update_account_name", last_name="Webb")
    assert call_ok(session, "gmail_show_account")["last_name"] == "Webb"
    assert "first_name" in call_err(session, "gmail_update_account_name", first_name=" ").message


def test_signup_login_logout_delete(session, world):
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    row = world.select("gmail.users", "email = ?", ("ann@lee.com",))[0]
    assert row["status"] == "active" and row["password"] == "secret1"
    assert "already exists" in call_err(session, "gmail_signup", first_name="A", last_name="L", email="ann@lee.com",
                                        password="secret1").message
    assert "password" in call_err(session, "gmail_signup", first_name="A", last_name="L", email="b@lee.com",
                                  password="abc").message
    assert "Invalid credentials" in call_err(session, "gmail_login", username="ann@lee.com", password="nope1").message
    assert call_ok(session, "gmail_login", username="ann@lee.com", password="secret1")["access_token"]
    assert call_ok(session, "gmail_show_account")["email"] == "ann@lee.com"
    call_ok(session, "gmail_create_draft", recipient_email_addresses=[MAIN_EMAIL], body="hi", subject="x")
    call_ok(session, "gmail_send_email", email_addresses=[MAIN_EMAIL], subject="Hello", body="From Ann")
    call_ok(session, "gmail_delete_account")
    assert not world.select("gmail.users", "email = ?", ("ann@lee.com",))
    assert not world.select("gmail.drafts", "user_id = ?", (row["id"],))
    assert not world.select("gmail.user_email_threads", "user_id = ?", (row["id"],))
    assert world.select("gmail.emails", "sender_id = ?", (row["id"],)), "delivered emails stay with recipients"
    assert "Not authenticated to gmail" in call_err(session, "gmail_delete_account").message
    call_ok(session, "gmail_login", username=MAIN_EMAIL, password=world.get("gmail.users", MAIN_ID)["password"])
    call_ok(session, "gmail_logout")
    assert "Not authenticated" in call_err(session, "gmail_logout").message
    assert "Not authenticated" in call_err(session, "gmail_show_inbox_threads").message


def test_password_reset_code_arrives_in_the_inbox(session, world):
    call_ok(session, "gmail_send_password_reset_code", email=MAIN_EMAIL)
    body = _latest_inbox_body(session, "password reset code")
    code = re.search(r"\b(\d{6})\b", body).group(1)
    sender = world.select("gmail.users", "email = ?", ("no-reply@gmail.com",))
    assert sender and sender[0]["first_name"] == "Gmail"
    assert "Invalid password reset code" in call_err(session, "gmail_reset_password", email=MAIN_EMAIL, password_reset_code="000000",
                                 new_password="newpass1").message
    call_ok(session, "gmail_reset_password", email=MAIN_EMAIL, password_reset_code=code, new_password="newpass1")
    assert world.get("gmail.users", MAIN_ID)["password"] == "newpass1"
    assert "No gmail account" in call_err(session, "gmail_send_password_reset_code", email="ghost@x.com").message


def test_set_status_and_expiry(session, world):
    msg = call_ok(session, "gmail_set_status", status="away", status_expiry="2026-04-18|09:00:00")["message"]
    assert "away" in msg
    assert call_ok(session, "gmail_show_account")["status"] == "away"
    assert world.get("gmail.users", MAIN_ID)["status_expiry"] == "2026-04-18T09:00:00"
    assert "'active', 'do_not_disturb', 'away'" in call_err(session, "gmail_set_status", status="busy").message
    assert "future" in call_err(session, "gmail_set_status", status="away", status_expiry="2020-01-01").message
    assert "not to 'active'" in call_err(session, "gmail_set_status", status="active",
                                         status_expiry="2026-05-01").message
    world.update("gmail.users", MAIN_ID, {"status_expiry": "2026-04-01T00:00:00"})
    assert call_ok(session, "gmail_show_account")["status"] == "active", "an expired status reads as active"
    call_ok(session, "gmail_set_status", status="do_not_disturb")
    assert world.get("gmail.users", MAIN_ID)["status_expiry"] is None


def test_search_users(session):
    found = call_ok(session, "gmail_search_users", query="marcus smith")
    assert found[0]["email"] == "ma_smith@gmail.com" and set(found[0]) == {
        "first_name", "last_name", "email", "registered_at", "status"}
    assert len(call_ok(session, "gmail_search_users", page_limit=20)) == 20
    assert call_ok(session, "gmail_search_users", query="zzzqqq") == []
    assert "page_limit" in call_err(session, "gmail_search_users", page_limit=0).message


def test_deliver_system_email(session, world):
    before = world.count("gmail.emails")
    deliver_system_email(world, sender_name="Simple Note", recipient_email="nobody@nowhere.com", subject="s", body="b")
    assert world.count("gmail.emails") == before, "no Gmail account: nothing is delivered"
    deliver_system_email(world, sender_name="Simple Note", recipient_email=MAIN_EMAIL.upper(),
                         subject="Your code", body="Code 123456")
    deliver_system_email(world, sender_name="Simple Note", recipient_email=MAIN_EMAIL, subject="Again", body="x")
    senders = world.select("gmail.users", "email = ?", ("no-reply@simplenote.com",))
    assert len(senders) == 1, "the system sender is created once"
    thread = call_ok(session, "gmail_show_inbox_threads", from_email="no-reply@simplenote.com", page_limit=10)
    assert {t["subject"] for t in thread} == {"Your code", "Again"}
    assert all(not t["read"] and t["incoming"] for t in thread)
