"""Venmo accounts, profiles, friends, payment cards and notifications: happy and failure paths."""

from __future__ import annotations

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok, mailed_code

USERS = "venmo.users"


def _user(world, user_id):
    return world.get(USERS, user_id)


def _stranger(world):
    """A base user who is not the main user's friend."""
    friends = {r["friend_id"] for r in world.select("venmo.friendships", "user_id = ?", (MAIN_ID,))}
    return next(u for u in world.rows(USERS) if u["id"] not in friends | {MAIN_ID})


def _login_as(session, world, user_id):
    user = _user(world, user_id)
    call_ok(session, "venmo_login", username=user["email"], password=user["password"])
    return user


# ------------------------------------------------------------------------------------------ accounts
def test_account_tools(session, world):
    acct = call_ok(session, "venmo_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["verified"] is True
    assert acct["venmo_balance"] == _user(world, MAIN_ID)["venmo_balance"] and acct["friend_count"] == 6
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    call_ok(session, "venmo_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in call_err(session, "venmo_signup", first_name="Ann", last_name="Lee",
                                        email="ann@lee.com", password="secret1").message
    assert "password" in call_err(session, "venmo_signup", first_name="Bo", last_name="Li", email="bo@li.com",
                                  password="123").message
    assert "Invalid credentials" in call_err(session, "venmo_login", username="ann@lee.com", password="nope").message
    call_ok(session, "venmo_send_verification_code", email="ann@lee.com")
    assert "Invalid verification code" in call_err(session, "venmo_verify_account", email="ann@lee.com", verification_code="0").message
    code = mailed_code(world, "venmo", "ann@lee.com", "verify")
    call_ok(session, "venmo_verify_account", email="ann@lee.com", verification_code=code)
    assert world.select("venmo.users", "email = ?", ("ann@lee.com",))[0]["verified"] is True
    call_ok(session, "venmo_send_password_reset_code", email="ann@lee.com")
    assert "Invalid password reset code" in call_err(session, "venmo_reset_password", email="ann@lee.com", password_reset_code="1",
                                 new_password="abcdef").message
    code = mailed_code(world, "venmo", "ann@lee.com", "reset")
    call_ok(session, "venmo_reset_password", email="ann@lee.com", password_reset_code=code, new_password="secret1")
    assert "No venmo account" in call_err(session, "venmo_send_verification_code", email="ghost@x.com").message
    assert "No venmo account" in call_err(session, "venmo_send_password_reset_code", email="ghost@x.com").message
    call_ok(session, "venmo_login", username="ann@lee.com", password="secret1")
    fresh = call_ok(session, "venmo_show_account")
    assert fresh["venmo_balance"] == 0.0 and fresh["friend_count"] == 0 and fresh["verified"] is True
    call_ok(session, "venmo_update_account_name", last_name="Leigh")
    assert call_ok(session, "venmo_show_profile")["last_name"] == "Leigh"
    assert "Give first_name" in call_err(session, "venmo_update_account_name").message
    call_ok(session, "venmo_logout")
    assert "Not authenticated" in call_err(session, "venmo_show_profile", email=MAIN_EMAIL).message
    assert "Not authenticated" in call_err(session, "venmo_logout").message
    assert "Not authenticated" in call_err(session, "venmo_delete_account").message
    assert "Not authenticated" in call_err(session, "venmo_show_venmo_balance").message
    assert "Not authenticated" in call_err(session, "venmo_show_payment_cards").message
    call_ok(session, "venmo_login", username="ann@lee.com", password="secret1")
    call_ok(session, "venmo_add_friend", user_email=MAIN_EMAIL)
    call_ok(session, "venmo_add_payment_card", card_name="Visa", owner_name="Ann Leigh", card_number=4000000000000002,
            expiry_year=2030, expiry_month=1, cvv_number=123)
    ann = world.select(USERS, "email = ?", ("ann@lee.com",))[0]["id"]
    call_ok(session, "venmo_delete_account")
    assert not world.select("venmo.friendships", "user_id = ? OR friend_id = ?", (ann, ann))
    assert not world.select("venmo.payment_cards", "user_id = ?", (ann,))
    assert "Invalid credentials" in call_err(session, "venmo_login", username="ann@lee.com",
                                             password="secret1").message
    assert "Not authenticated" in call_err(session, "venmo_show_account").message


def test_profiles_and_user_search(session, world):
    stranger = _stranger(world)
    profile = call_ok(session, "venmo_show_profile", email=stranger["email"])
    assert profile["first_name"] == stranger["first_name"] and profile["friends_since"] is None
    assert call_ok(session, "venmo_show_profile")["email"] == MAIN_EMAIL
    assert "No Venmo user" in call_err(session, "venmo_show_profile", email="nobody@nowhere.com").message
    assert "valid email" in call_err(session, "venmo_show_profile", email="not-an-email").message
    found = call_ok(session, "venmo_search_users", query=f"{stranger['first_name']} {stranger['last_name']}")
    assert found[0]["email"] == stranger["email"]
    assert MAIN_EMAIL not in [u["email"] for u in call_ok(session, "venmo_search_users", query="Brenda Webster")]
    listed = call_ok(session, "venmo_search_users", page_limit=20)
    assert len(listed) == 20 and [u["first_name"] for u in listed] == sorted(u["first_name"] for u in listed)
    assert "page_limit" in call_err(session, "venmo_search_users", page_limit=0).message


def test_friends(session, world):
    mine = call_ok(session, "venmo_search_friends", page_limit=20)
    assert len(mine) == 6 and all(f["friends_since"] for f in mine)
    stranger = _stranger(world)
    call_ok(session, "venmo_add_friend", user_email=stranger["email"])
    rows = world.select("venmo.friendships", "(user_id = ? AND friend_id = ?) OR (user_id = ? AND friend_id = ?)",
                        (MAIN_ID, stranger["id"], stranger["id"], MAIN_ID))
    # one-sided, as in AppWorld: only Brenda's list gains a row, and the stranger is not told
    assert [(r["user_id"], r["friend_id"]) for r in rows] == [(MAIN_ID, stranger["id"])]
    assert rows[0]["created_at"] == world.clock.now_str()
    assert not world.select("venmo.notifications", "user_id = ? AND type = 'friend_added'", (stranger["id"],))
    assert call_ok(session, "venmo_show_profile", email=stranger["email"])["friends_since"] == world.clock.now_str()
    assert call_ok(session, "venmo_search_friends", query=stranger["last_name"])[0]["email"] == stranger["email"]
    assert call_ok(session, "venmo_search_friends", user_email=stranger["email"]) == []
    assert "already in your friend list" in call_err(session, "venmo_add_friend", user_email=stranger["email"]).message
    assert "your own email" in call_err(session, "venmo_add_friend", user_email=MAIN_EMAIL).message
    assert "No Venmo user" in call_err(session, "venmo_search_friends", user_email="x@y.com").message
    call_ok(session, "venmo_remove_friend", user_email=stranger["email"])
    assert call_ok(session, "venmo_show_profile", email=stranger["email"])["friends_since"] is None
    assert "not in your friend list" in call_err(session, "venmo_remove_friend", user_email=stranger["email"]).message
    assert "valid email" in call_err(session, "venmo_remove_friend", user_email="bad").message


# ------------------------------------------------------------------------------------------ cards
def test_payment_cards(session, world):
    (card,) = call_ok(session, "venmo_show_payment_cards")
    assert card["payment_card_id"] == MAIN_ID and len(str(card["card_number"])) == 16
    assert call_ok(session, "venmo_show_payment_card", payment_card_id=MAIN_ID) == card
    added = call_ok(session, "venmo_add_payment_card", card_name="Travel Amex", owner_name="Brenda Webster",
                    card_number=4111111111111111, expiry_year=2030, expiry_month=7, cvv_number=321)
    cid = added["payment_card_id"]
    row = world.get("venmo.payment_cards", cid)
    assert row["user_id"] == MAIN_ID and row["card_number"] == "4111111111111111" and row["cvv_number"] == "321"
    assert call_ok(session, "venmo_show_payment_card", payment_card_id=cid)["card_number"] == 4111111111111111
    assert "already linked" in call_err(session, "venmo_add_payment_card", card_name="Dup", owner_name="B W",
                                        card_number=4111111111111111, expiry_year=2030, expiry_month=7,
                                        cvv_number=321).message
    for bad, field in (({"card_number": 1234}, "card_number"), ({"expiry_month": 13}, "expiry_month"),
                       ({"cvv_number": 99}, "cvv_number"), ({"expiry_year": 2025}, "expired"),
                       ({"card_name": " "}, "card_name")):
        args = {"card_name": "X", "owner_name": "B W", "card_number": 4000000000000002, "expiry_year": 2031,
                "expiry_month": 1, "cvv_number": 123, **bad}
        assert field in call_err(session, "venmo_add_payment_card", **args).message
    call_ok(session, "venmo_update_payment_card", payment_card_id=cid, card_name="Amex Gold")
    assert world.get("venmo.payment_cards", cid)["card_name"] == "Amex Gold"
    assert "card_name" in call_err(session, "venmo_update_payment_card", payment_card_id=cid, card_name="").message
    call_ok(session, "venmo_delete_payment_card", payment_card_id=cid)
    assert world.get("venmo.payment_cards", cid) is None
    for name in ("venmo_show_payment_card", "venmo_delete_payment_card"):
        assert "does not exist" in call_err(session, name, payment_card_id=cid).message
    other = world.insert("venmo.payment_cards", {"user_id": 7, "card_name": "Theirs", "owner_name": "X",
                                                 "card_number": "4000000000000010", "expiry_year": 2030,
                                                 "expiry_month": 1, "cvv_number": "111"})
    assert "does not exist" in call_err(session, "venmo_update_payment_card", payment_card_id=other,
                                        card_name="Mine now").message


# ------------------------------------------------------------------------------------------ notifications
def test_notifications(session, world):
    (seeded,) = call_ok(session, "venmo_show_notifications")
    assert seeded["type"] == "payment_request_received" and seeded["read"] is False
    stranger = _stranger(world)
    _login_as(session, world, stranger["id"])
    call_ok(session, "venmo_create_transaction", receiver_email=MAIN_EMAIL, amount=5, description="Tea")
    call_ok(session, "venmo_add_friend", user_email=MAIN_EMAIL)
    call_ok(session, "venmo_login", username=MAIN_EMAIL, password=_user(world, MAIN_ID)["password"])
    notes = call_ok(session, "venmo_show_notifications", page_limit=10)
    assert [n["type"] for n in notes] == ["transaction_received", "payment_request_received"]
    assert call_ok(session, "venmo_show_notifications_count") == {"notifications_count": 2}
    call_ok(session, "venmo_mark_notification", notification_id=notes[0]["notification_id"], read=True)
    assert call_ok(session, "venmo_show_notifications_count", read=False) == {"notifications_count": 1}
    assert [n["notification_id"] for n in call_ok(session, "venmo_show_notifications", read=True)] == [
        notes[0]["notification_id"]]
    assert "2 notifications" not in call_ok(session, "venmo_mark_notifications", read=True)["message"]
    assert call_ok(session, "venmo_show_notifications_count", read=True) == {"notifications_count": 2}
    call_ok(session, "venmo_delete_notification", notification_id=notes[1]["notification_id"])
    assert call_ok(session, "venmo_show_notifications_count") == {"notifications_count": 1}
    foreign = world.insert("venmo.notifications", {"user_id": stranger["id"], "type": "friend_added", "title": "t",
                                                   "message": "m", "read": False, "data": {}})
    for name, extra in (("venmo_delete_notification", {}), ("venmo_mark_notification", {"read": False})):
        assert "does not exist" in call_err(session, name, notification_id=foreign, **extra).message
    assert call_ok(session, "venmo_delete_notifications") == {"message": "Deleted 1 notification."}
    assert call_ok(session, "venmo_show_notifications") == []
    assert "page_index" in call_err(session, "venmo_show_notifications", page_index=-1).message
    call_ok(session, "venmo_logout")
    for name, args in (("venmo_show_notifications_count", {}), ("venmo_mark_notifications", {"read": True}),
                       ("venmo_delete_notifications", {})):
        assert "Not authenticated" in call_err(session, name, **args).message
