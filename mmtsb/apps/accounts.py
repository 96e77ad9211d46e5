"""Account behaviour shared by every AppWorld-style app (signup, login, codes, profile).

The account tools themselves (``<app>_login`` and the rest) are written once in
:mod:`mmtsb.apps.account_tools` and call into these functions, so the behaviour is written once too; the phone
app writes its own tools over the same functions. Verification and password-reset codes are stored in
the internal ``main.account_codes`` table and, when the address belongs to a Gmail user, delivered as
an email to that inbox (so an agent can read them like a person would).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from mmtsb.apps.common import api_error, current_user, paged_search
from mmtsb.world import device
from mmtsb.world.schema import Table, table
from mmtsb.world.world import World

CODES_TABLE = "main.account_codes"
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

#: columns of every app's ``users`` table; apps add their own extras
USER_COLUMNS: dict[str, str] = {"id": "int", "first_name": "str", "last_name": "str", "email": "str",
                                "password": "str", "created_at": "datetime", "last_logged_in": "datetime",
                                "verified": "bool"}


def users_table(app: str, extra: dict[str, str] | None = None, *, identity: str = "email") -> Table:
    """The ``<app>.users`` table (``identity`` is the login column: email, or phone_number for phone)."""
    cols = dict(USER_COLUMNS)
    if identity != "email":
        cols = {k: v for k, v in cols.items() if k != "email"}
        cols = {"id": "int", "first_name": "str", "last_name": "str", identity: "str",
                **{k: v for k, v in cols.items() if k not in ("id", "first_name", "last_name")}}
    cols.update(extra or {})
    return table(app, "users", cols)


def code_tables() -> list[Table]:
    return [table("main", "account_codes", {"key": "str", "code": "str"}, primary_key="key", internal=True)]


def identity_column(app: str) -> str:
    return "phone_number" if app == "phone" else "email"


def check_email(email: str) -> str:
    if not EMAIL_RE.match(email or ""):
        raise api_error(f"Invalid email address {email!r}.")
    return email


def check_password(password: str) -> str:
    if len(password or "") < 5:
        raise api_error("The password must be at least 5 characters long.")
    return password


def check_name(value: str | None, field: str) -> str | None:
    if value is not None and not value.strip():
        raise api_error(f"{field} must be at least 1 character long.")
    return value


def find_user(world: World, app: str, identity: str) -> dict[str, Any] | None:
    rows = world.select(f"{app}.users", f'lower("{identity_column(app)}") = lower(?)', (identity,))
    return rows[0] if rows else None


def signup(world: World, app: str, first_name: str, last_name: str, identity: str, password: str) -> dict[str, str]:
    """Create an account; the identity (email or phone) must be unused."""
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
    world.insert(f"{app}.users", row)
    return {"message": "Account created successfully."}


def login(world: World, app: str, username: str, password: str) -> dict[str, str]:
    """Check credentials, stamp last_logged_in and open the session."""
    user = find_user(world, app, username)
    if user is None or user.get("password") != password:
        raise api_error("Invalid credentials: the username or password is incorrect.")
    world.update(f"{app}.users", user["id"], {"last_logged_in": world.clock.now_str()})
    return device.login(world, app, user[identity_column(app)])


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


def delete_account(world: World, app: str) -> dict[str, str]:
    user = current_user(world, app)
    world.delete(f"{app}.users", user["id"])
    device.logout(world, app)
    return {"message": "Account deleted."}


def _code_for(world: World, app: str, identity: str, kind: str) -> str:
    digest = hashlib.sha256(f"{app}:{identity.lower()}:{kind}:{world.now().isoformat()}".encode()).hexdigest()
    return str(int(digest[:12], 16) % 900000 + 100000)


def send_code(world: World, app: str, identity: str, kind: str) -> dict[str, str]:
    """Create a verification or password-reset code and deliver it to the account's inbox."""
    user = find_user(world, app, identity)
    if user is None:
        raise api_error(f"No {app} account with {identity_column(app)} {identity!r}.")
    code = _code_for(world, app, identity, kind)
    world.insert(CODES_TABLE, {"key": f"{app}:{kind}:{identity.lower()}", "code": code}, replace=True)
    what = "verification code" if kind == "verify" else "password reset code"
    if app != "phone":
        _deliver_email(world, app, identity, f"Your {app} {what}", f"Your {app} {what} is {code}.")
    target = "phone number" if app == "phone" else "email"
    return {"message": f"The {what} has been sent to your {target}."}


def _deliver_email(world: World, app: str, email: str, subject: str, body: str) -> None:
    """Put a message into the recipient's Gmail inbox when Gmail knows the address."""
    if not world.has_table("gmail.emails"):
        return
    from mmtsb.apps.gmail.delivery import deliver_system_email  # lazy: gmail builds on accounts

    deliver_system_email(world, sender_name=app.replace("_", " ").title(), recipient_email=email,
                         subject=subject, body=body)


def consume_code(world: World, app: str, identity: str, kind: str, code: str) -> None:
    key = f"{app}:{kind}:{identity.lower()}"
    row = world.get(CODES_TABLE, key)
    if row is None or row["code"] != str(code).strip():
        raise api_error("The code is invalid or has expired.")
    world.delete(CODES_TABLE, key)


def verify_account(world: World, app: str, email: str, verification_code: str) -> dict[str, str]:
    user = find_user(world, app, email)
    if user is None:
        raise api_error(f"No {app} account with email {email!r}.")
    consume_code(world, app, email, "verify", verification_code)
    world.update(f"{app}.users", user["id"], {"verified": True})
    return {"message": "Account verified."}


def reset_password(world: World, app: str, identity: str, password_reset_code: str, new_password: str) -> dict[str, str]:
    user = find_user(world, app, identity)
    if user is None:
        raise api_error(f"No {app} account with {identity_column(app)} {identity!r}.")
    check_password(new_password)
    consume_code(world, app, identity, "reset", password_reset_code)
    world.update(f"{app}.users", user["id"], {"password": new_password})
    return {"message": "Password reset successfully."}


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
