"""Spotify accounts, user search, payment cards and Premium (happy and failure paths of each tool)."""

from __future__ import annotations

from datetime import timedelta

from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok, mailed_code


def test_account_tools(session, world):
    acct = call_ok(session, "spotify_show_account")
    assert acct["email"] == MAIN_EMAIL and acct["verified"] is True and acct["is_premium"] is False
    assert call_ok(session, "spotify_show_profile")["email"] == MAIN_EMAIL
    assert call_ok(session, "spotify_show_profile", email=MAIN_EMAIL)["first_name"] == "Brenda"
    assert "No spotify user" in call_err(session, "spotify_show_profile", email="nobody@x.com").message
    call_ok(session, "gmail_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    call_ok(session, "spotify_signup", first_name="Ann", last_name="Lee", email="ann@lee.com", password="secret1")
    assert "already exists" in call_err(session, "spotify_signup", first_name="Ann", last_name="Lee",
                                        email="ann@lee.com", password="secret1").message
    assert "password" in call_err(session, "spotify_signup", first_name="Bo", last_name="Li", email="bo@li.com",
                                  password="123").message
    assert "Invalid credentials" in call_err(session, "spotify_login", username="ann@lee.com",
                                             password="wrong").message
    call_ok(session, "spotify_send_verification_code", email="ann@lee.com")
    assert "No spotify account" in call_err(session, "spotify_send_verification_code", email="zz@zz.com").message
    assert "Invalid verification code" in call_err(session, "spotify_verify_account", email="ann@lee.com",
                                 verification_code="000").message
    call_ok(session, "spotify_send_password_reset_code", email="ann@lee.com")
    assert "No spotify account" in call_err(session, "spotify_send_password_reset_code", email="zz@zz.com").message
    assert "Invalid password reset code" in call_err(session, "spotify_reset_password", email="ann@lee.com", password_reset_code="1",
                                 new_password="abcdef").message
    assert "not verified" in call_err(session, "spotify_login", username="ann@lee.com", password="secret1").message
    call_ok(session, "spotify_verify_account", email="ann@lee.com",
            verification_code=mailed_code(world, "spotify", "ann@lee.com", "verify"))
    call_ok(session, "spotify_login", username="ann@lee.com", password="secret1")
    assert call_ok(session, "spotify_show_account")["email"] == "ann@lee.com"
    call_ok(session, "spotify_update_account_name", first_name="Anne")
    assert call_ok(session, "spotify_show_account")["first_name"] == "Anne"
    assert "first_name" in call_err(session, "spotify_update_account_name", first_name="").message
    call_ok(session, "spotify_logout")
    assert "Not authenticated" in call_err(session, "spotify_show_account").message
    assert "Not authenticated" in call_err(session, "spotify_logout").message
    assert "Not authenticated" in call_err(session, "spotify_delete_account").message
    call_ok(session, "spotify_login", username="ann@lee.com", password="secret1")
    call_ok(session, "spotify_delete_account")
    assert "Invalid credentials" in call_err(session, "spotify_login", username="ann@lee.com",
                                             password="secret1").message


def test_verification_and_reset_codes_arrive_by_email(session, world):
    call_ok(session, "spotify_send_password_reset_code", email=MAIN_EMAIL)
    code = mailed_code(world, "spotify", MAIN_EMAIL, "reset")
    call_ok(session, "spotify_reset_password", email=MAIN_EMAIL, password_reset_code=code, new_password="newpass1")
    assert world.get("spotify.users", MAIN_ID)["password"] == "newpass1"
    assert "already verified" in call_err(session, "spotify_send_verification_code", email=MAIN_EMAIL).message
    world.update("spotify.users", MAIN_ID, {"verified": False})
    call_ok(session, "spotify_send_verification_code", email=MAIN_EMAIL)
    code = mailed_code(world, "spotify", MAIN_EMAIL, "verify")
    assert "Spotify" in call_ok(session, "gmail_show_inbox_threads")[0]["subject"]
    assert call_ok(session, "spotify_verify_account", email=MAIN_EMAIL, verification_code=code)["message"]


def test_search_users(session):
    found = call_ok(session, "spotify_search_users", query="Brenda Webster")
    assert found[0]["email"] == MAIN_EMAIL and set(found[0]) == {"first_name", "last_name", "email", "registered_at"}
    assert len(call_ok(session, "spotify_search_users", page_limit=3)) == 3
    assert "page_limit" in call_err(session, "spotify_search_users", page_limit=0).message


def test_payment_cards(session, world):
    (seeded,) = call_ok(session, "spotify_show_payment_cards")
    assert seeded["owner_name"] == "Brenda Webster" and len(str(seeded["card_number"])) == 16
    card_id = call_ok(session, "spotify_add_payment_card", card_name="Work", owner_name="Brenda Webster",
                      card_number=4111111111111111, expiry_year=2030, expiry_month=5, cvv_number=123)["payment_card_id"]
    card = call_ok(session, "spotify_show_payment_card", payment_card_id=card_id)
    assert card["card_number"] == 4111111111111111 and card["cvv_number"] == 123 and card["expiry_month"] == 5
    call_ok(session, "spotify_update_payment_card", payment_card_id=card_id, card_name="Office")
    assert world.get("spotify.payment_cards", card_id)["card_name"] == "Office"
    assert len(call_ok(session, "spotify_show_payment_cards")) == 2
    base = dict(card_name="X", owner_name="B W", expiry_year=2030, expiry_month=5, cvv_number=123)
    assert "16 digits" in call_err(session, "spotify_add_payment_card", card_number=1234, **base).message
    assert "already saved" in call_err(session, "spotify_add_payment_card", card_number=4111111111111111,
                                       **base).message
    assert "expired" in call_err(session, "spotify_add_payment_card", card_number=4111111111112222,
                                 **{**base, "expiry_year": 2025}).message
    assert "expiry_month" in call_err(session, "spotify_add_payment_card", card_number=4111111111112222,
                                      **{**base, "expiry_month": 13}).message
    assert "cvv_number" in call_err(session, "spotify_add_payment_card", card_number=4111111111112222,
                                    **{**base, "cvv_number": 12}).message
    assert "does not exist" in call_err(session, "spotify_show_payment_card", payment_card_id=424242).message
    assert "card_name" in call_err(session, "spotify_update_payment_card", payment_card_id=card_id,
                                   card_name=" ").message
    call_ok(session, "spotify_delete_payment_card", payment_card_id=card_id)
    assert "does not exist" in call_err(session, "spotify_delete_payment_card", payment_card_id=card_id).message
    other = world.insert("spotify.payment_cards", {"user_id": 7, "card_name": "Theirs",
                                                   "card_number": "4000000000000007", "expiry_year": 2030,
                                                   "expiry_month": 1, "cvv_number": "111"})
    assert "does not exist" in call_err(session, "spotify_show_payment_card", payment_card_id=other).message
    assert other not in {c["payment_card_id"] for c in call_ok(session, "spotify_show_payment_cards")}
    call_ok(session, "spotify_logout")
    assert "Not authenticated" in call_err(session, "spotify_show_payment_cards").message


def test_premium_subscription_and_receipt(session, world):
    assert call_ok(session, "spotify_show_premium_plans") == {"monthly": 10, "yearly": 100}
    (card,) = call_ok(session, "spotify_show_payment_cards")
    assert call_ok(session, "spotify_show_premium_subscriptions") == []
    assert "duration" in call_err(session, "spotify_subscribe_premium", payment_card_id=card["payment_card_id"],
                                  duration="weekly").message
    assert "does not exist" in call_err(session, "spotify_subscribe_premium", payment_card_id=999,
                                        duration="monthly").message
    first = call_ok(session, "spotify_subscribe_premium", payment_card_id=card["payment_card_id"],
                    duration="monthly")["premium_subscription_id"]
    assert "already a premium member" in call_err(session, "spotify_subscribe_premium",  # AppWorld refuses
                                                  payment_card_id=card["payment_card_id"], duration="yearly").message
    world.clock.reference_time += timedelta(days=31)  # the month is over: Premium can be bought again
    second = call_ok(session, "spotify_subscribe_premium", payment_card_id=card["payment_card_id"],
                     duration="yearly")["premium_subscription_id"]
    world.clock.reference_time -= timedelta(days=31)
    subs = call_ok(session, "spotify_show_premium_subscriptions")
    assert [s["premium_subscription_id"] for s in subs] == [second, first]
    assert subs[1]["start_date"] == "2026-04-16T23:51:15" and subs[1]["end_date"] == "2026-05-16T23:51:15"
    assert subs[0]["start_date"] == "2026-05-17T23:51:15" and subs[0]["end_date"] == "2027-05-17T23:51:15"
    assert subs[0]["paid_amount"] == 100.0 and subs[0]["payment_card_digits"] == str(card["card_number"])[-4:]
    assert call_ok(session, "spotify_show_account")["is_premium"] is True
    # Premium follows the subscriptions (the account row is not written, as AppWorld's has no such flag), and each
    # purchase mails its receipt, as in AppWorld
    assert world.get("spotify.users", MAIN_ID)["is_premium"] is False
    mails = [e for e in world.select("gmail.emails") if e["subject"] == "Spotify Premium Subscription Confirmation"]
    assert len(mails) == 2
    assert world.select("gmail.attachments", "email_id = ?", (mails[0]["id"],))[0]["file_name"] == \
        f"premium_subscription_{first}.txt"
    assert "page_index" in call_err(session, "spotify_show_premium_subscriptions", page_index=-1).message

    token = world.get("main.auth_sessions", "file_system")["access_token"]
    assert "file_system_access_token" in call_err(session, "spotify_download_premium_subscription_receipt",
                                                  premium_subscription_id=first,
                                                  file_system_access_token="bad").message
    out = call_ok(session, "spotify_download_premium_subscription_receipt", premium_subscription_id=first,
                  file_system_access_token=token)
    assert out["file_path"] == f"/home/brenda/downloads/spotify_premium_receipt_{first}.txt"
    (saved,) = world.select("file_system.files", "path = ?", (out["file_path"],))
    assert "Premium monthly" in saved["content"] and "$10.00" in saved["content"]
    assert "already exists" in call_err(session, "spotify_download_premium_subscription_receipt",
                                        premium_subscription_id=first, file_system_access_token=token).message
    call_ok(session, "spotify_download_premium_subscription_receipt", premium_subscription_id=first,
            file_system_access_token=token, overwrite=True)
    custom = call_ok(session, "spotify_download_premium_subscription_receipt", premium_subscription_id=second,
                     file_system_access_token=token, download_to_file_path="~/documents/premium.txt")
    assert custom["file_path"] == "/home/brenda/documents/premium.txt"
    assert world.get("spotify.premium_subscriptions", first)["receipt_download_count"] == 2
    assert "does not exist" in call_err(session, "spotify_download_premium_subscription_receipt",
                                        premium_subscription_id=31337, file_system_access_token=token).message
    call_ok(session, "set_wifi_status", on=False)
    call_ok(session, "set_cellular_service_status", on=False)
    assert call_err(session, "spotify_show_premium_plans").type == "ConnectionError"
