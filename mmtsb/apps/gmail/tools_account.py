"""Gmail account tools: sign-up, login, profile, availability status and user search."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.common import api_error, paged_search
from mmtsb.apps.gmail.core import APP, future_time, me, now
from mmtsb.apps.gmail.schema import USERS
from mmtsb.tools.spec import Requirements, tool
from mmtsb.world.world import World

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
STATUSES = ("active", "do_not_disturb", "away")


def effective_status(world: World, user: dict[str, Any]) -> str:
    """The user's status, back to 'active' once its expiry has passed."""
    status = user.get("status") or "active"
    expiry = user.get("status_expiry")
    if status != "active" and expiry and str(expiry).replace(" ", "T")[:19] <= now(world):
        return "active"
    return status


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def gmail_show_account(world: World) -> dict[str, Any]:
    """Returns the logged-in user's private Gmail account details.

    Returns:
        {first_name, last_name, email, registered_at, last_logged_in, status}
    """
    out = accounts.show_account(world, APP)
    out["status"] = effective_status(world, me(world))
    return out


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def gmail_signup(world: World, first_name: str, last_name: str, email: str, password: str) -> dict[str, str]:
    """Creates a new Gmail account.

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        email: a valid email address not used by another Gmail account.
        password: at least 5 characters.

    Returns:
        {message}
    """
    out = accounts.signup(world, APP, first_name, last_name, email, password)
    user = accounts.find_user(world, APP, email)
    world.update(USERS, user["id"], {"status": "active"})
    return out


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS, "gmail.user_email_threads", "gmail.drafts"))
def gmail_delete_account(world: World) -> dict[str, str]:
    """Deletes the logged-in user's Gmail account, with their mailbox (thread views) and drafts.

    Emails already delivered stay in the other participants' mailboxes.

    Returns:
        {message}
    """
    user = me(world)
    for draft in world.select("gmail.drafts", "user_id = ?", (user["id"],)):
        for att in world.select("gmail.attachments", "draft_id = ?", (draft["id"],)):
            world.delete("gmail.attachments", att["id"])
        world.delete("gmail.drafts", draft["id"])
    for thread in world.select("gmail.user_email_threads", "user_id = ?", (user["id"],)):
        world.delete("gmail.user_email_threads", thread["id"])
    return accounts.delete_account(world, APP)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def gmail_update_account_name(world: World, first_name: str | None = None,
                              last_name: str | None = None) -> dict[str, str]:
    """Changes the first and/or last name on the Gmail account.

    Args:
        first_name: the new first name (at least 1 character); unchanged when omitted.
        last_name: the new last name (at least 1 character); unchanged when omitted.

    Returns:
        {message}
    """
    return accounts.update_account_name(world, APP, first_name, last_name)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def gmail_login(world: World, username: str, password: str) -> dict[str, str]:
    """Logs into Gmail; on success the token is stored and the app counts as authenticated.

    Args:
        username: the account email.
        password: the account password (see supervisor_show_account_passwords).

    Returns:
        {access_token, token_type}
    """
    return accounts.login(world, APP, username, password)


@tool(domain=APP, mutates=True, requires=AUTHED)
def gmail_logout(world: World) -> dict[str, str]:
    """Logs out of Gmail.

    Returns:
        {message}
    """
    return accounts.logout(world, APP)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def gmail_send_password_reset_code(world: World, email: str) -> dict[str, str]:
    """Emails a Gmail password reset code (it arrives in that account's Gmail inbox).

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "reset")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def gmail_reset_password(world: World, email: str, password_reset_code: str, new_password: str) -> dict[str, str]:
    """Sets a new Gmail password using the emailed reset code.

    Args:
        email: the account email.
        password_reset_code: the code from the reset email.
        new_password: at least 5 characters.

    Returns:
        {message}
    """
    return accounts.reset_password(world, APP, email, password_reset_code, new_password)


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def gmail_show_profile(world: World, email: str | None = None) -> dict[str, Any]:
    """Shows a Gmail user's public profile by email.

    Args:
        email: the user's email; the logged-in user's profile when omitted.

    Returns:
        {first_name, last_name, email, registered_at}
    """
    return accounts.show_profile(world, APP, email)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def gmail_set_status(world: World, status: str, status_expiry: str | None = None) -> dict[str, str]:
    """Sets the user's availability status with optional expiry.

    Args:
        status: one of 'active', 'do_not_disturb', 'away'.
        status_expiry: when a 'do_not_disturb' or 'away' status ends and reverts to 'active', as a future
            YYYY-MM-DD|HH:MM:SS; no expiry when omitted. Not allowed with 'active'.

    Returns:
        {message}
    """
    if status not in STATUSES:
        raise api_error(f"Invalid status {status!r}: use one of {', '.join(map(repr, STATUSES))}.")
    if status == "active" and status_expiry is not None:
        raise api_error("status_expiry applies only to 'do_not_disturb' or 'away', not to 'active'.")
    expiry = future_time(world, status_expiry, "status_expiry") if status_expiry is not None else None
    world.update(USERS, me(world)["id"], {"status": status, "status_expiry": expiry})
    suffix = f" until {expiry.replace('T', '|')}" if expiry else ""
    return {"message": f"Status set to {status!r}{suffix}."}


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def gmail_search_users(world: World, query: str | None = "", page_index: int | None = 0,
                       page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches Gmail users by name or address.

    Args:
        query: words matched against first name, last name and email (most relevant first); empty lists all.
        page_index: the page to return, from 0.
        page_limit: users per page, 1 to 20.

    Returns:
        list[{first_name, last_name, email, registered_at, status}]
    """
    rows = paged_search(world.rows(USERS), query, lambda u: (u.get("first_name"), u.get("last_name"), u.get("email")),
                        page_index, page_limit, None, ())
    return [{"first_name": u["first_name"], "last_name": u["last_name"], "email": u["email"],
             "registered_at": u.get("created_at"), "status": effective_status(world, u)} for u in rows]
