"""Accounts: signup with mailed codes, login of unverified accounts, verification, password reset, expiry of
codes and tokens, and the 401 of a deleted account, in apps with and without verification."""

from mmtsb.testing.appworld.plan import advance, call, sequence


def _signup_and_verify(app: str) -> list:
    new = {"first_name": "Dan", "last_name": "Hill", "email": "dan@gmail.com", "password": "dan-pw1"}
    return [
        call(f"{app}_signup", as_=None, **new),                          # no Gmail account: created, code not sent
        call(f"{app}_signup", as_=None, **new),                          # the email is taken
        call(f"{app}_login", as_=None, username="dan@gmail.com", password="dan-pw1"),   # not verified
        call(f"{app}_send_verification_code", as_=None, email="dan@gmail.com"),         # nowhere to deliver
        call("gmail_signup", as_=None, **new),
        call(f"{app}_send_verification_code", as_=None, email="dan@gmail.com"),
        call(f"{app}_verify_account", as_=None, email="dan@gmail.com", verification_code="000000"),
        call(f"{app}_verify_account", as_=None, email="dan@gmail.com", verification_code="$code:dan@gmail.com"),
        call(f"{app}_verify_account", as_=None, email="dan@gmail.com", verification_code="$code:dan@gmail.com"),
        call(f"{app}_send_verification_code", as_=None, email="dan@gmail.com"),         # already verified
        call(f"{app}_send_verification_code", as_=None, email="nobody@gmail.com"),
        call(f"{app}_login", as_=None, username="dan@gmail.com", password="dan-pw1"),
        call(f"{app}_signup", as_=None, first_name="", last_name="Hill", email="eve@gmail.com", password="pw-eve"),
        call(f"{app}_signup", as_=None, first_name="Eve", last_name="Hill", email="eve@gmail.com", password="pw"),
        call(f"{app}_signup", as_=None, first_name="Eve", last_name="Hill", email="not-an-email", password="pw-eve"),
    ]


def _reset_and_expire(app: str, identity: str = "email", who: str = "alice@gmail.com") -> list:
    return [
        call(f"{app}_send_password_reset_code", as_=None, **{identity: who}),
        call(f"{app}_reset_password", as_=None, **{identity: who}, password_reset_code="1",
             new_password="new-pass"),
        call(f"{app}_reset_password", as_=None, **{identity: who}, password_reset_code=f"$code:{who}",
             new_password="new"),
        call(f"{app}_reset_password", as_=None, **{identity: who}, password_reset_code=f"$code:{who}",
             new_password="new-pass"),
        call(f"{app}_login", as_="alice", username=who, password="alice-pw"),
        call(f"{app}_login", as_="alice", username=who, password="new-pass"),
        call(f"{app}_show_account"),
        advance(45),                                                     # past every token's lifetime
        call(f"{app}_show_account"),
        call(f"{app}_login", as_="alice", username=who, password="new-pass"),
        call(f"{app}_show_account"),
        call(f"{app}_send_password_reset_code", as_=None, **{identity: who}),
        advance(61),                                                     # past the code's lifetime
        call(f"{app}_reset_password", as_=None, **{identity: who}, password_reset_code=f"$code:{who}",
             new_password="newer-pass"),
        call(f"{app}_send_password_reset_code", as_=None, **{identity: "nobody@gmail.com"}),
    ]


VERIFYING = ("simple_note", "todoist", "splitwise", "spotify", "venmo", "amazon", "file_system")

SEQUENCES = [
    *(sequence(f"{app} signup and verification", *_signup_and_verify(app)) for app in VERIFYING),
    *(sequence(f"{app} password reset and expiry", *_reset_and_expire(app)) for app in (*VERIFYING, "gmail")),
    sequence("gmail signup needs no verification",
             call("gmail_signup", as_=None, first_name="Dan", last_name="Hill", email="dan@gmail.com",
                  password="dan-pw1"),
             call("gmail_login", as_=None, username="dan@gmail.com", password="dan-pw1"),
             call("gmail_login", as_=None, username="dan@gmail.com", password="wrong")),
    sequence("phone password reset",
             call("phone_send_password_reset_code", as_=None, phone_number="5550000001"),
             call("phone_reset_password", as_=None, phone_number="5550000001", password_reset_code="1",
                  new_password="new-pass"),
             call("phone_login", as_="alice", username="5550000001", password="alice-pw"),
             call("phone_signup", as_=None, first_name="Dan", last_name="Hill", phone_number="5550000009",
                  password="dan-pw1"),
             call("phone_login", as_=None, username="5550000009", password="dan-pw1")),
    sequence("deleted account and logout",
             call("simple_note_create_note", title="a", content="b"),
             call("simple_note_logout"),
             call("simple_note_delete_account", as_="bob"),
             call("simple_note_search_notes", as_="bob"),
             call("simple_note_update_account_name", first_name=""),
             call("simple_note_update_account_name", first_name="Al")),
]
