"""Account behaviour shared by every AppWorld-style app (signup, login, codes, profile).

The account tools themselves (``<app>_login`` and the rest) are written once in
:mod:`mmtsb.apps.account_tools` and call into these functions, so the behaviour is written once too; the phone
app writes its own tools over the same functions. They follow AppWorld's semantics: an app that verifies
accounts mails a verification code at signup and refuses to log in an unverified account; verification and
password-reset codes are kept on the account row (AppWorld's ``verification_code``/``password_reset_code``
columns and their expiries, 60 minutes), mailed to the address's Gmail inbox (an address without one is an
error, except at signup, which still creates the account) and stay valid until they expire or are replaced;
tokens from a login expire after :data:`TOKEN_LIFETIME` of world time.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta
from typing import Any

from mmtsb.apps.common import api_error, current_user, paged_search, validation_error
from mmtsb.world import device
from mmtsb.world.schema import Table, table
from mmtsb.world.world import World

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
#: how long a mailed verification or password-reset code stays valid (AppWorld: 60 minutes)
CODE_LIFETIME = timedelta(minutes=60)
#: how long a token from ``<app>_login`` stays valid, in world time (AppWorld: 10 to 30 minutes at random)
TOKEN_LIFETIME = timedelta(minutes=30)
#: apps whose accounts need no verification (AppWorld's Gmail and Phone send no code at signup)
NO_VERIFICATION = ("gmail", "phone")

#: columns of every app's ``users`` table; apps add their own extras
USER_COLUMNS: dict[str, str] = {"id": "int", "first_name": "str", "last_name": "str", "email": "str",
                                "password": "str", "created_at": "datetime", "last_logged_in": "datetime",
                                "verified": "bool"}
#: where an account keeps its latest mailed code and its expiry, per kind of code (AppWorld's columns)
CODE_COLUMNS: dict[str, tuple[str, str]] = {"verify": ("verification_code", "verification_code_expiry"),
                                            "reset": ("password_reset_code", "password_reset_code_expiry")}


def users_table(app: str, extra: dict[str, str] | None = None, *, identity: str = "email") -> Table:
    """The ``<app>.users`` table (``identity`` is the login column: email, or phone_number for phone)."""
    cols = dict(USER_COLUMNS)
    if identity != "email":
        cols = {k: v for k, v in cols.items() if k != "email"}
        cols = {"id": "int", "first_name": "str", "last_name": "str", identity: "str",
                **{k: v for k, v in cols.items() if k not in ("id", "first_name", "last_name")}}
    for kind in ("verify", "reset") if requires_verification(app) else ("reset",):
        cols.update(dict.fromkeys(CODE_COLUMNS[kind], "str"))
        cols[CODE_COLUMNS[kind][1]] = "datetime"
    cols.update(extra or {})
    return table(app, "users", cols)


def identity_column(app: str) -> str:
    return "phone_number" if app == "phone" else "email"


def check_email(email: str, field: str = "email") -> str:
    if not EMAIL_RE.match(email or ""):
        raise validation_error(field, "value is not a valid email address")
    return email


def check_password(password: str, field: str = "password") -> str:
    if len(password or "") < 5:
        raise validation_error(field, "ensure this value has at least 5 characters")
    return password


def check_name(value: str | None, field: str) -> str | None:
    if value is not None and not value.strip():
        raise validation_error(field, "ensure this value has at least 1 characters")
    return value


def requires_verification(app: str) -> bool:
    """Whether the app's accounts must be verified with a mailed code before they can log in."""
    return app not in NO_VERIFICATION


def find_user(world: World, app: str, identity: str) -> dict[str, Any] | None:
    rows = world.select(f"{app}.users", f'lower("{identity_column(app)}") = lower(?)', (identity,))
    return rows[0] if rows else None


def signup(world: World, app: str, first_name: str, last_name: str, identity: str, password: str) -> dict[str, str]:
    """Create an account; the identity (email or phone) must be unused.

    Apps that verify accounts mail the new account a verification code (valid for :data:`CODE_LIFETIME`); when
    the address has no Gmail account the account is still created and the message says the code could not
    be delivered, as AppWorld does.
    """
    check_name(first_name, "first_name")
    check_name(last_name, "last_name")
    if app != "phone":
        check_email(identity)
    check_password(password)
    if find_user(world, app, identity) is not None:
        raise api_error(f"An account with {identity_column(app)} {identity!r} already exists.")
    row: dict[str, Any] = {"first_name": first_name, "last_name": last_name, identity_column(app): identity,
                           "password": password, "created_at": world.clock.now_str(), "last_logged_in": None}
    if world.table(f"{app}.users").has("verified"):
        row["verified"] = False
    user_id = world.insert(f"{app}.users", row)
    if not requires_verification(app):
        return {"message": "Account created."}
    if not has_gmail_account(world, identity):
        return {"message": f"Your {_title(app)} account is created. But the Gmail account for {identity} does not "
                           "exist, so the verification code cannot be sent to it. Please create one and then "
                           "verify your account."}
    _mail_code(world, app, world.get(f"{app}.users", user_id), "verify")
    return {"message": "Account created. We've sent a verification code to your email address. Please verify "
                       "the account to start using it."}


def login(world: World, app: str, username: str, password: str) -> dict[str, str]:
    """Check credentials (and, where the app requires it, verification) and open a session that expires after
    :data:`TOKEN_LIFETIME` of world time. The account row is left as it is: AppWorld's login does not store
    ``last_logged_in`` either."""
    user = find_user(world, app, username)
    if user is None or user.get("password") != password:
        raise api_error("Invalid credentials: the username or password is incorrect.")
    if requires_verification(app) and user.get("verified") is False:
        raise api_error(f"Your account's {'phone number' if app == 'phone' else 'email address'} is not verified. "
                        "Please verify it first.")
    return device.login(world, app, user[identity_column(app)], expires_at=world.now() + TOKEN_LIFETIME)


def logout(world: World, app: str) -> dict[str, str]:
    current_user(world, app)
    device.logout(world, app)
    return {"message": "Logged out successfully."}


def show_account(world: World, app: str, *extra: str) -> dict[str, Any]:
    """The logged-in user's private account details."""
    user = current_user(world, app)
    ident = identity_column(app)
    out = {"first_name": user["first_name"], "last_name": user["last_name"], ident: user[ident],
           "registered_at": user.get("created_at"), "last_logged_in": user.get("last_logged_in")}
    for col in extra:
        out[col] = user.get(col)
    return out


def show_profile(world: World, app: str, email: str | None) -> dict[str, Any]:
    """A user's public profile by email (the logged-in user's when email is None)."""
    user = current_user(world, app) if email is None else find_user(world, app, email)
    if user is None:
        raise api_error(f"No {app} user with email {email!r}.")
    return {"first_name": user["first_name"], "last_name": user["last_name"], "email": user.get("email"),
            "registered_at": user.get("created_at")}


def search_users(world: World, app: str, query: str | None, page_index: int | None,
                 page_limit: int | None) -> list[dict[str, Any]]:
    """Every user's public profile, best matches of the query first (name, email, and the email's name part)."""
    page = paged_search(world.select(f"{app}.users"), query,
                        lambda u: (u["first_name"], u["last_name"], u.get("email"),
                                   (u.get("email") or "").split("@")[0].replace(".", " ")),
                        page_index, page_limit, None, ())
    return [{"first_name": u["first_name"], "last_name": u["last_name"], "email": u.get("email"),
             "registered_at": u.get("created_at")} for u in page]


def update_account_name(world: World, app: str, first_name: str | None, last_name: str | None) -> dict[str, str]:
    user = current_user(world, app)
    check_name(first_name, "first_name")
    check_name(last_name, "last_name")
    fields = {k: v for k, v in (("first_name", first_name), ("last_name", last_name)) if v is not None}
    if not fields:
        raise api_error("Give first_name and/or last_name to update.")
    world.update(f"{app}.users", user["id"], fields)
    return {"message": "Account name updated."}


def delete_owned_rows(world: World, app: str, tables: tuple[str, ...]) -> None:
    """Delete the logged-in account's rows (``user_id``) in ``tables``, the data AppWorld deletes with it."""
    if not tables:
        return
    user = current_user(world, app)
    for key in tables:
        for row in world.select(key, "user_id = ?", (user["id"],)):
            world.delete(key, row[world.table(key).primary_key])


def delete_account(world: World, app: str) -> dict[str, str]:
    user = current_user(world, app)
    world.delete(f"{app}.users", user["id"])
    device.logout(world, app)
    return {"message": "Account deleted."}


def _title(app: str) -> str:
    """The app as its emails sign: ``simple_note`` -> ``Simple Note``."""
    return app.replace("_", " ").title()


def _code_for(world: World, app: str, identity: str, kind: str) -> str:
    digest = hashlib.sha256(f"{app}:{identity.lower()}:{kind}:{world.now().isoformat()}".encode()).hexdigest()
    return str(int(digest[:12], 16) % 900000 + 100000)


def has_gmail_account(world: World, email: str) -> bool:
    """Whether Gmail has an account for the address (where mailed codes go; signup tells when it has none)."""
    return world.has_table("gmail.users") and bool(
        world.select("gmail.users", "lower(email) = lower(?)", (email,)))


def _mail_code(world: World, app: str, user: dict[str, Any], kind: str) -> str:
    """Store a new code on the account (replacing the previous one) and mail it, except for phone accounts
    (texted by the phone app itself)."""
    identity = user[identity_column(app)]
    code = _code_for(world, app, identity, kind)
    column, expiry = CODE_COLUMNS[kind]
    world.update(f"{app}.users", user["id"], {column: code, expiry: world.clock.now_naive() + CODE_LIFETIME})
    what = "account verification code" if kind == "verify" else "password reset code"
    if app != "phone":
        _deliver_email(world, app, identity, f"{_title(app)} {what.capitalize()}",
                       f"Your {_title(app)} {what} is {code}. It expires in 60 minutes.")
    return code


def send_code(world: World, app: str, identity: str, kind: str) -> dict[str, str]:
    """Create a verification or password-reset code and deliver it to the account's inbox.

    As in AppWorld: an already verified account gets no verification code, and an address with no Gmail account
    to deliver to is an error."""
    user = find_user(world, app, identity)
    if user is None:
        raise api_error(f"No {app} account with {identity_column(app)} {identity!r}.")
    if kind == "verify" and user.get("verified"):
        raise api_error("Account is already verified.")
    if app != "phone" and not has_gmail_account(world, identity):
        raise api_error(f"The email account for {identity} does not exist, so the code cannot be sent.")
    _mail_code(world, app, user, kind)
    what = "verification code" if kind == "verify" else "password reset code"
    target = "phone number" if app == "phone" else "email address"
    return {"message": f"We've sent a {what} to the given {target}."}


def _deliver_email(world: World, app: str, email: str, subject: str, body: str) -> None:
    """Put a message into the recipient's Gmail inbox when Gmail knows the address."""
    if not world.has_table("gmail.emails"):
        return
    from mmtsb.apps.gmail.delivery import deliver_system_email  # lazy: gmail builds on accounts

    deliver_system_email(world, sender_name=_title(app), recipient_email=email, subject=subject, body=body)


def check_code(world: World, app: str, user: dict[str, Any], kind: str, code: str) -> None:
    """The mailed code must match the account's latest one and be unexpired; it stays valid until it expires or a
    new one replaces it (as in AppWorld)."""
    column, expiry = CODE_COLUMNS[kind]
    what = "verification code" if kind == "verify" else "password reset code"
    if not user.get(column) or user[column] != str(code).strip():
        raise api_error(f"Invalid {what}.")
    expires = user.get(expiry)
    if expires is not None and datetime.fromisoformat(str(expires)) < world.clock.now_naive():
        raise api_error(f"{what.capitalize()} has expired. Please create a new one.")


def verify_account(world: World, app: str, email: str, verification_code: str) -> dict[str, str]:
    user = find_user(world, app, email)
    if user is None:
        raise api_error(f"No {app} account with email {email!r}.")
    if user.get("verified"):
        raise api_error("Account is already verified.")
    check_code(world, app, user, "verify", verification_code)
    world.update(f"{app}.users", user["id"], {"verified": True})
    return {"message": "Account verified. You can now login."}


def reset_password(world: World, app: str, identity: str, password_reset_code: str, new_password: str) -> dict[str, str]:
    """Set a new password with the mailed (or texted) reset code; the account is told by email."""
    user = find_user(world, app, identity)
    if user is None:
        raise api_error(f"No {app} account with {identity_column(app)} {identity!r}.")
    check_password(new_password, "new_password")
    check_code(world, app, user, "reset", password_reset_code)
    world.update(f"{app}.users", user["id"], {"password": new_password})
    if app != "phone":
        _deliver_email(world, app, identity, f"{_title(app)} Password Changed",
                       f"Your {_title(app)} account password has been reset.")
    return {"message": "Password reset successful."}


def seed_users(world: World, app: str, people: Any, extra: dict[str, Any] | None = None) -> None:
    """Insert every base person as a user of ``app`` (same id everywhere)."""
    t = world.table(f"{app}.users")
    for p in people:
        row: dict[str, Any] = {"id": p.id, "first_name": p.first_name, "last_name": p.last_name,
                               "password": p.password, "created_at": "2023-01-01T00:00:00",
                               "last_logged_in": "2026-01-01T00:00:00"}
        if t.has("email"):
            row["email"] = p.email
        if t.has("phone_number"):
            row["phone_number"] = p.phone_number
        if t.has("verified"):
            row["verified"] = True
        for k, v in (extra or {}).items():
            if t.has(k):
                row[k] = v
        world.insert(t.key, row)
