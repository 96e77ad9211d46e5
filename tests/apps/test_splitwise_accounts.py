"""Splitwise accounts, user search and notifications: happy paths and failure paths."""

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok, mailed_code

from mmtsb.world import device

NOTIFICATIONS = "splitwise.notifications"


def friends(world):
    """The four base people the seed history shares groups with (emails, in seed order)."""
    ids = []
    for r in world.select("splitwise.group_members", order_by="id"):
        if r["user_id"] != MAIN_ID and r["user_id"] not in ids:
            ids.append(r["user_id"])
    return [world.get("splitwise.users", i)["email"] for i in ids]


def test_account_tools(session, world):
    acct = call_ok(session, "splitwise_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["verified"] is True and acct["registered_at"]
    assert call_ok(session, "splitwise_show_profile")["first_name"] == "Brenda"
    assert call_ok(session, "splitwise_show_profile", email=MAIN_EMAIL)["last_name"] == "Webster"
    assert "No splitwise user" in call_err(session, "splitwise_show_profile", email="nobody@x.com").message
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    call_ok(session, "splitwise_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in call_err(session, "splitwise_signup", first_name="Ann", last_name="Lee",
                                        email="ann@lee.com", password="secret1").message
    assert "password" in call_err(session, "splitwise_signup", first_name="Bo", last_name="Lee", email="bo@lee.com",
                                  password="123").message
    assert "Invalid credentials" in call_err(session, "splitwise_login", username="ann@lee.com",
                                             password="bad").message
    call_ok(session, "splitwise_send_verification_code", email="ann@lee.com")
    assert "Invalid verification code" in call_err(session, "splitwise_verify_account", email="ann@lee.com",
                                 verification_code="0").message
    code = mailed_code(world, "splitwise", "ann@lee.com", "verify")
    call_ok(session, "splitwise_verify_account", email="ann@lee.com", verification_code=code)
    call_ok(session, "splitwise_send_password_reset_code", email="ann@lee.com")
    assert "Invalid password reset code" in call_err(session, "splitwise_reset_password", email="ann@lee.com", password_reset_code="1",
                                 new_password="abcdef").message
    code = mailed_code(world, "splitwise", "ann@lee.com", "reset")
    call_ok(session, "splitwise_reset_password", email="ann@lee.com", password_reset_code=code,
            new_password="newpass1")
    assert "No splitwise account" in call_err(session, "splitwise_send_password_reset_code",
                                              email="who@x.com").message
    call_ok(session, "splitwise_login", username="ann@lee.com", password="newpass1")
    assert call_ok(session, "splitwise_show_account")["verified"] is True
    call_ok(session, "splitwise_update_account_name", last_name="Leigh")
    assert world.select("splitwise.users", "email = ?", ("ann@lee.com",))[0]["last_name"] == "Leigh"
    assert "first_name" in call_err(session, "splitwise_update_account_name", first_name=" ").message
    assert call_ok(session, "splitwise_show_groups") == []  # a new account sees nobody else's groups
    call_ok(session, "splitwise_logout")
    assert "Not authenticated" in call_err(session, "splitwise_logout").message
    assert "Not authenticated" in call_err(session, "splitwise_show_groups").message
    for name in ("splitwise_show_account", "splitwise_show_people_balance", "splitwise_show_groups_balance",
                 "splitwise_delete_notifications", "splitwise_show_notifications_count"):
        assert "Not authenticated" in call_err(session, name).message, name
    assert "Not authenticated" in call_err(session, "splitwise_mark_notifications", read=True).message
    assert "No splitwise account" in call_err(session, "splitwise_send_verification_code", email="who@x.com").message
    call_ok(session, "splitwise_login", username="ann@lee.com", password="newpass1")
    call_ok(session, "splitwise_delete_account")
    assert "Not authenticated" in call_err(session, "splitwise_delete_account").message
    assert not world.select("splitwise.users", "email = ?", ("ann@lee.com",))


def test_search_users_ranks_and_shows_balances(session, world):
    mine = friends(world)
    everyone = call_ok(session, "splitwise_search_users", page_limit=20)
    assert [u["email"] for u in everyone[:4]] == sorted(mine, key=lambda e: next(
        u["name"] for u in everyone if u["email"] == e).lower())  # friends first, by name
    assert MAIN_EMAIL not in [u["email"] for u in everyone]
    friend = world.select("splitwise.users", "email = ?", (mine[0],))[0]
    hits = call_ok(session, "splitwise_search_users", query=f"{friend['first_name']} {friend['last_name']}")
    assert hits[0]["email"] == friend["email"]
    person = call_ok(session, "splitwise_show_person_balance", email=friend["email"])
    assert (hits[0]["direction"], hits[0]["amount"]) == (person["direction"], person["total"])
    me = call_ok(session, "splitwise_search_users", query="Brenda Webster", include_self=True)
    assert me[0]["email"] == MAIN_EMAIL and me[0]["direction"] == "settled up" and me[0]["amount"] == 0
    assert call_ok(session, "splitwise_search_users", query="zzzqqq") == []
    assert len(call_ok(session, "splitwise_search_users", page_limit=2, page_index=1)) == 2
    assert "page_limit" in call_err(session, "splitwise_search_users", page_limit=21).message
    assert "page_index" in call_err(session, "splitwise_search_users", page_index=-1).message


def test_notifications(session, world):
    total = call_ok(session, "splitwise_show_notifications_count")["notifications_count"]
    unread = call_ok(session, "splitwise_show_notifications_count", read=False)["notifications_count"]
    assert total == len(world.select(NOTIFICATIONS, "user_id = ?", (MAIN_ID,))) and 0 < unread < total
    page = call_ok(session, "splitwise_show_notifications", page_limit=20)
    assert [n["created_at"] for n in page] == sorted((n["created_at"] for n in page), reverse=True)
    assert set(page[0]) == {"notification_id", "type", "title", "message", "read", "created_at", "data"}
    first = page[0]["notification_id"]
    call_ok(session, "splitwise_mark_notification", notification_id=first, read=True)
    assert world.get(NOTIFICATIONS, first)["read"] is True
    assert all(n["read"] is False for n in call_ok(session, "splitwise_show_notifications", read=False))
    call_ok(session, "splitwise_mark_notifications", read=True)
    assert call_ok(session, "splitwise_show_notifications_count", read=False)["notifications_count"] == 0
    call_ok(session, "splitwise_mark_notifications", read=False)
    assert call_ok(session, "splitwise_show_notifications_count", read=True)["notifications_count"] == 0
    call_ok(session, "splitwise_delete_notification", notification_id=first)
    assert world.get(NOTIFICATIONS, first) is None
    assert "does not exist" in call_err(session, "splitwise_delete_notification", notification_id=first).message
    assert "does not exist" in call_err(session, "splitwise_mark_notification", notification_id=999,
                                        read=True).message
    assert "page_limit" in call_err(session, "splitwise_show_notifications", page_limit=0).message
    # someone else's notifications are invisible and untouched
    other = world.insert(NOTIFICATIONS, {"user_id": 3, "type": "x", "title": "t", "message": "m", "read": False,
                                         "data": {}, "created_at": "2026-01-01T00:00:00"})
    assert "does not exist" in call_err(session, "splitwise_mark_notification", notification_id=other,
                                        read=True).message
    assert "Deleted" in call_ok(session, "splitwise_delete_notifications")["message"]
    assert call_ok(session, "splitwise_show_notifications_count")["notifications_count"] == 0
    assert world.get(NOTIFICATIONS, other) is not None


def test_actions_notify_the_other_people(session, world):
    alice = friends(world)[0]
    alice_id = world.select("splitwise.users", "email = ?", (alice,))[0]["id"]
    call_ok(session, "splitwise_record_expense", description="Pizza", paid_amount=30, payer_email=MAIN_EMAIL,
            debtor_emails=[MAIN_EMAIL, alice])
    note = world.select(NOTIFICATIONS, "user_id = ?", (alice_id,), order_by="id DESC")[0]
    assert note["type"] == "expense_added" and "Pizza" in note["message"] and note["read"] is False
    device.login(world, "splitwise", alice)
    got = call_ok(session, "splitwise_show_notifications", read=False)
    assert got[0]["data"]["expense_id"] == note["data"]["expense_id"]
