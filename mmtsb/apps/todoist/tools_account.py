"""Todoist account tools: signup, login, codes, profile and user search (behaviour in apps/accounts)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.common import paged_search
from mmtsb.apps.todoist.core import AUTHED, ONLINE, create_project, user_by_email
from mmtsb.apps.todoist.schema import APP, LINKS, PROJECTS, USERS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def todoist_show_account(world: World) -> dict[str, Any]:
    """Returns the logged-in user's private Todoist account details.

    Returns:
        {first_name, last_name, email, registered_at, last_logged_in, verified}
    """
    return accounts.show_account(world, APP, "verified")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS, PROJECTS, LINKS))
def todoist_signup(world: World, first_name: str, last_name: str, email: str, password: str) -> dict[str, str]:
    """Creates a new Todoist account (with its own Inbox project).

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        email: a valid email address not used by another Todoist account.
        password: at least 5 characters.

    Returns:
        {message}
    """
    out = accounts.signup(world, APP, first_name, last_name, email, password)
    user = user_by_email(world, email)
    if user is not None:
        create_project(world, user["id"], "Inbox", "charcoal", "", is_inbox=True, is_favorite=False)
    return out


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def todoist_delete_account(world: World) -> dict[str, str]:
    """Deletes the logged-in user's Todoist account and logs out.

    Returns:
        {message}
    """
    return accounts.delete_account(world, APP)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def todoist_update_account_name(world: World, first_name: str | None = None,
                                last_name: str | None = None) -> dict[str, str]:
    """Changes the first and/or last name on the Todoist account.

    Args:
        first_name: the new first name (at least 1 character).
        last_name: the new last name (at least 1 character).

    Returns:
        {message}
    """
    return accounts.update_account_name(world, APP, first_name, last_name)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def todoist_login(world: World, username: str, password: str) -> dict[str, str]:
    """Logs into Todoist; on success the token is stored and the app counts as authenticated.

    Args:
        username: the account email.
        password: the account password (see supervisor_show_account_passwords).

    Returns:
        {access_token, token_type}
    """
    return accounts.login(world, APP, username, password)


@tool(domain=APP, mutates=True, requires=AUTHED)
def todoist_logout(world: World) -> dict[str, str]:
    """Logs out of Todoist.

    Returns:
        {message}
    """
    return accounts.logout(world, APP)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def todoist_send_verification_code(world: World, email: str) -> dict[str, str]:
    """Emails a Todoist account verification code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "verify")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def todoist_verify_account(world: World, email: str, verification_code: str) -> dict[str, str]:
    """Verifies the Todoist account with the emailed code.

    Args:
        email: the account email.
        verification_code: the code from the verification email.

    Returns:
        {message}
    """
    return accounts.verify_account(world, APP, email, verification_code)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def todoist_send_password_reset_code(world: World, email: str) -> dict[str, str]:
    """Emails a Todoist password reset code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "reset")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def todoist_reset_password(world: World, email: str, password_reset_code: str, new_password: str) -> dict[str, str]:
    """Sets a new Todoist password using the emailed reset code.

    Args:
        email: the account email.
        password_reset_code: the code from the reset email.
        new_password: at least 5 characters.

    Returns:
        {message}
    """
    return accounts.reset_password(world, APP, email, password_reset_code, new_password)


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def todoist_show_profile(world: World, email: str | None = None) -> dict[str, Any]:
    """Shows a Todoist user's public profile by email.

    Args:
        email: the user's email; the logged-in user's profile when omitted.

    Returns:
        {first_name, last_name, email, registered_at}
    """
    return accounts.show_profile(world, APP, email)


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def todoist_search_users(world: World, query: str | None = "", page_index: int | None = 0,
                         page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches Todoist users by name or email (e.g. to find someone to invite to a project).

    Args:
        query: words matched against first name, last name and email, best matches first; empty lists
            every user.
        page_index: the page to return, from 0.
        page_limit: users per page, 1 to 20.

    Returns:
        list[{first_name, last_name, email, registered_at}]
    """
    users = world.select(USERS)
    page = paged_search(users, query, lambda u: (u["first_name"], u["last_name"], u.get("email"),
                                                 (u.get("email") or "").split("@")[0].replace(".", " ")),
                        page_index, page_limit, None, ())
    return [{"first_name": u["first_name"], "last_name": u["last_name"], "email": u.get("email"),
             "registered_at": u.get("created_at")} for u in page]
