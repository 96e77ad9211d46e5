"""The account life cycle AppWorld's apps have (issue 14's "Accounts" gap), pinned without AppWorld installed:
signup mails the code or says there is no Gmail account to deliver it to, unverified accounts cannot log in,
mailed codes expire after 60 minutes of world time, login tokens after 30 (AppWorld's per-app 401 text), and
argument validation uses AppWorld's "Validation error. Reason: ..." form."""

from __future__ import annotations

from datetime import timedelta

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, call_err, call_ok, mailed_code

DAN = {"first_name": "Dan", "last_name": "Hill", "email": "dan@gmail.com", "password": "dan-pw1"}
UNAUTHORIZED = ("You are either not authorized to access this {app} API endpoint or your access token is missing, "
                "invalid or expired.")


def advance(world, minutes: int) -> None:
    world.clock.reference_time += timedelta(minutes=minutes)


@pytest.mark.parametrize("app", ["simple_note", "todoist", "spotify", "venmo", "file_system"])
def test_signup_without_a_gmail_account_creates_the_account_but_delivers_nothing(session, world, app):
    message = call_ok(session, f"{app}_signup", **DAN)["message"]
    assert "Gmail account for dan@gmail.com does not exist" in message
    (row,) = world.select(f"{app}.users", "email = ?", ("dan@gmail.com",))
    assert row["verified"] is False and not row["verification_code"]
    assert "not verified" in call_err(session, f"{app}_login", username="dan@gmail.com", password="dan-pw1").message
    # asking again still has nowhere to deliver to: an error, and no code is stored
    assert "email account for dan@gmail.com does not exist" in call_err(
        session, f"{app}_send_verification_code", email="dan@gmail.com").message
    assert not world.get(f"{app}.users", row["id"])["verification_code"]
    # once Dan has a Gmail account the mailed code verifies him, once
    call_ok(session, "gmail_signup", **DAN)
    call_ok(session, f"{app}_send_verification_code", email="dan@gmail.com")
    code = mailed_code(world, app, "dan@gmail.com", "verify")
    assert "Invalid verification code" in call_err(session, f"{app}_verify_account", email="dan@gmail.com",
                                                   verification_code="000000").message
    call_ok(session, f"{app}_verify_account", email="dan@gmail.com", verification_code=code)
    assert "already verified" in call_err(session, f"{app}_verify_account", email="dan@gmail.com",
                                          verification_code=code).message
    assert "already verified" in call_err(session, f"{app}_send_verification_code", email="dan@gmail.com").message
    call_ok(session, f"{app}_login", username="dan@gmail.com", password="dan-pw1")


def test_a_signup_with_a_gmail_account_mails_the_code_and_gmail_needs_no_verification(session, world):
    call_ok(session, "gmail_signup", **DAN)
    call_ok(session, "gmail_login", username="dan@gmail.com", password="dan-pw1")   # Gmail: no verification
    message = call_ok(session, "simple_note_signup", **DAN)["message"]
    assert "sent a verification code" in message
    code = mailed_code(world, "simple_note", "dan@gmail.com", "verify")
    inbox = call_ok(session, "gmail_show_inbox_threads")     # Dan is logged in to Gmail now
    (thread,) = [t for t in inbox if t["subject"] == "Simple Note Account verification code"]
    assert code in world.get("gmail.emails", thread["email_ids"][0])["body"]
    call_ok(session, "simple_note_verify_account", email="dan@gmail.com", verification_code=code)


def test_mailed_codes_expire_after_sixty_minutes_of_world_time(session, world):
    call_ok(session, "spotify_send_password_reset_code", email=MAIN_EMAIL)
    code = mailed_code(world, "spotify", MAIN_EMAIL, "reset")
    advance(world, 59)
    assert "has expired" not in call_err(session, "spotify_reset_password", email=MAIN_EMAIL, password_reset_code=code,
                                         new_password="abc").message   # still valid: only the password is refused
    advance(world, 2)
    err = call_err(session, "spotify_reset_password", email=MAIN_EMAIL, password_reset_code=code,
                   new_password="new-pass")
    assert "Password reset code has expired" in err.message
    # a new code replaces the expired one and works
    call_ok(session, "spotify_send_password_reset_code", email=MAIN_EMAIL)
    fresh = mailed_code(world, "spotify", MAIN_EMAIL, "reset")
    call_ok(session, "spotify_reset_password", email=MAIN_EMAIL, password_reset_code=fresh, new_password="new-pass")
    assert world.get("spotify.users", MAIN_ID)["password"] == "new-pass"


@pytest.mark.parametrize("app", ["simple_note", "amazon", "gmail"])
def test_a_login_token_expires_after_thirty_minutes_with_appworlds_401_text(session, world, app):
    password = world.get(f"{app}.users", MAIN_ID)["password"]
    call_ok(session, f"{app}_login", username=MAIN_EMAIL, password=password)
    advance(world, 29)
    assert call_ok(session, f"{app}_show_account")["email"] == MAIN_EMAIL
    advance(world, 2)
    assert call_err(session, f"{app}_show_account").message == f"API error: {UNAUTHORIZED.format(app=app)}"
    call_ok(session, f"{app}_login", username=MAIN_EMAIL, password=password)     # a new login works again
    assert call_ok(session, f"{app}_show_account")["email"] == MAIN_EMAIL


def test_a_session_whose_account_is_gone_gets_the_401_text(session, world):
    assert call_ok(session, "simple_note_show_account")["email"] == MAIN_EMAIL   # the base world's login
    world.delete("simple_note.users", MAIN_ID)
    assert call_err(session, "simple_note_show_account").message == (
        f"API error: {UNAUTHORIZED.format(app='simple_note')}")


@pytest.mark.parametrize("args, field, reason", [
    ({**DAN, "first_name": " "}, "first_name", "at least 1 characters"),
    ({**DAN, "password": "pw"}, "password", "at least 5 characters"),
    ({**DAN, "email": "not-an-email"}, "email", "not a valid email address"),
])
def test_argument_validation_uses_appworlds_validation_error_form(session, world, args, field, reason):
    message = call_err(session, "todoist_signup", **args).message
    assert message.startswith(f"API error: Validation error. Reason: {field}: ") and reason in message
    assert not world.select("todoist.users", "email = ?", (args["email"],))
