"""Splitwise account tools (sign-up, login, codes, profile) and the user search with balances."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.common import paginate, search_rank
from mmtsb.apps.splitwise.balances import per_person, person_entry
from mmtsb.apps.splitwise.core import (APP, AUTHED, EXPENSES, MEMBERS, ONLINE, PAYMENTS, USERS, full_name,
                                       involved_ids, me)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def splitwise_show_account(world: World) -> dict[str, Any]:
    """Returns the logged-in user's private Splitwise account details.

    Returns:
        {first_name, last_name, email, registered_at, last_logged_in, verified}
    """
    out = accounts.show_account(world, APP, "verified")
    out["verified"] = bool(out.get("verified"))
    return out


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def splitwise_signup(world: World, first_name: str, last_name: str, email: str, password: str) -> dict[str, str]:
    """Creates a new Splitwise account.

    Args:
        first_name: first name (at least 1 character).
        last_name: last name (at least 1 character).
        email: a valid email address not used by another Splitwise account.
        password: at least 5 characters.

    Returns:
        {message}
    """
    return accounts.signup(world, APP, first_name, last_name, email, password)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def splitwise_delete_account(world: World) -> dict[str, str]:
    """Deletes the logged-in user's Splitwise account (and logs out).

    Returns:
        {message}
    """
    return accounts.delete_account(world, APP)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(USERS,))
def splitwise_update_account_name(world: World, first_name: str | None = None,
                                  last_name: str | None = None) -> dict[str, str]:
    """Changes the first and/or last name on the Splitwise account.

    Args:
        first_name: the new first name (at least 1 character).
        last_name: the new last name (at least 1 character).

    Returns:
        {message}
    """
    return accounts.update_account_name(world, APP, first_name, last_name)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def splitwise_login(world: World, username: str, password: str) -> dict[str, str]:
    """Logs into Splitwise; on success the app counts as authenticated.

    Args:
        username: the account email.
        password: the account password (see supervisor_show_account_passwords).

    Returns:
        {access_token, token_type}
    """
    return accounts.login(world, APP, username, password)


@tool(domain=APP, mutates=True, requires=AUTHED)
def splitwise_logout(world: World) -> dict[str, str]:
    """Logs out of Splitwise.

    Returns:
        {message}
    """
    return accounts.logout(world, APP)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def splitwise_send_verification_code(world: World, email: str) -> dict[str, str]:
    """Emails a Splitwise account verification code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "verify")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def splitwise_verify_account(world: World, email: str, verification_code: str) -> dict[str, str]:
    """Verifies the Splitwise account with the emailed code.

    Args:
        email: the account email.
        verification_code: the code from the verification email.

    Returns:
        {message}
    """
    return accounts.verify_account(world, APP, email, verification_code)


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def splitwise_send_password_reset_code(world: World, email: str) -> dict[str, str]:
    """Emails a Splitwise password reset code.

    Args:
        email: the account email.

    Returns:
        {message}
    """
    return accounts.send_code(world, APP, email, "reset")


@tool(domain=APP, mutates=True, requires=ONLINE, tables=(USERS,))
def splitwise_reset_password(world: World, email: str, password_reset_code: str,
                             new_password: str) -> dict[str, str]:
    """Sets a new Splitwise password using the emailed reset code.

    Args:
        email: the account email.
        password_reset_code: the code from the reset email.
        new_password: at least 5 characters.

    Returns:
        {message}
    """
    return accounts.reset_password(world, APP, email, password_reset_code, new_password)


@tool(domain=APP, requires=ONLINE, tables=(USERS,))
def splitwise_show_profile(world: World, email: str | None = None) -> dict[str, Any]:
    """Shows a Splitwise user's public profile by email.

    Args:
        email: the user's email; the logged-in user's profile when omitted.

    Returns:
        {first_name, last_name, email, registered_at}
    """
    return accounts.show_profile(world, APP, email)


def friend_ids(world: World, user_id: int) -> set[int]:
    """People the user shares a group or a record with (Splitwise 'friends')."""
    groups = [r["group_id"] for r in world.select(MEMBERS, "user_id = ?", (user_id,))]
    out: set[int] = set()
    for gid in groups:
        out |= {int(r["user_id"]) for r in world.select(MEMBERS, "group_id = ?", (gid,))}
    for key in (EXPENSES, PAYMENTS):
        for row in world.select(key):
            ids = involved_ids(row, is_expense=key == EXPENSES)
            if user_id in ids:
                out |= ids
    out.discard(user_id)
    return out


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def splitwise_search_users(world: World, query: str | None = "", include_self: bool | None = False,
                           page_index: int | None = 0, page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches Splitwise users by name or email, showing your net balance with each.

    Results are ranked by how well they match the query (people you share groups or expenses with first
    among equal matches); an empty query lists everyone, your Splitwise friends first.

    Args:
        query: words to look for in first name, last name and email; empty lists all users.
        include_self: also return your own account.
        page_index: the page to return, from 0.
        page_limit: users per page, 1 to 20.

    Returns:
        list[{name, email, direction, amount}]; direction is 'owes you', 'you owe' or 'settled up' and
        amount the absolute net balance in dollars.
    """
    user_id = int(me(world)["id"])
    friends = friend_ids(world, user_id)
    users = [u for u in world.select(USERS) if include_self or int(u["id"]) != user_id]
    users.sort(key=lambda u: (int(u["id"]) not in friends, full_name(u).lower(), int(u["id"])))
    ranked = search_rank(users, query, lambda u: (u.get("first_name"), u.get("last_name"), u.get("email")))
    page = paginate(ranked, page_index, page_limit)
    balances = per_person(world, user_id)
    return [person_entry(world, int(u["id"]), balances.get(int(u["id"]), 0)) for u in page]
