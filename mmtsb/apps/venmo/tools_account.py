"""Venmo account tools (signup, login, codes: :mod:`mmtsb.apps.account_tools`; profile) and the friend graph
(search, add, remove)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.account_tools import AccountApp, Wording, add_account_tools
from mmtsb.apps.common import api_error, paged_search
from mmtsb.apps.venmo.core import (
    APP,
    AUTHED,
    CARDS,
    FRIENDSHIPS,
    NOTIFICATIONS,
    USERS,
    friend_ids,
    friendship_rows,
    full_name,
    me,
    now,
    other_user,
    user_by_email,
    user_view,
)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _balance_and_friends(world: World, out: dict[str, Any]) -> None:
    out["venmo_balance"] = round(float(out.get("venmo_balance") or 0), 2)
    out["friend_count"] = len(friend_ids(world, me(world)["id"]))


def _zero_balance(world: World, email: str) -> None:
    user = accounts.find_user(world, APP, email)
    if user is not None:
        world.update(USERS, user["id"], {"venmo_balance": 0.0})


def _drop_friends_and_cards(world: World) -> None:
    uid = me(world)["id"]
    for row in world.select(FRIENDSHIPS, "user_id = ? OR friend_id = ?", (uid, uid)):
        world.delete(FRIENDSHIPS, row["id"])
    for row in world.select(CARDS, "user_id = ?", (uid,)):
        world.delete(CARDS, row["id"])


# venmo_show_account, venmo_signup, venmo_delete_account, venmo_update_account_name, venmo_login, venmo_logout,
# venmo_send_verification_code, venmo_verify_account, venmo_send_password_reset_code and venmo_reset_password
# (venmo_show_profile, with the friendship, is below):
add_account_tools(globals(), AccountApp(
    APP, "Venmo", profile=False, columns=("verified", "venmo_balance"), details=_balance_and_friends,
    detail_fields=("friend_count",), after_signup=_zero_balance, before_delete=_drop_friends_and_cards,
    owned_tables=("venmo.notifications",),
    delete_tables=(FRIENDSHIPS, CARDS), wording={
        "show_account": Wording("Returns the logged-in user's private Venmo account details incl. balance."),
        "signup": Wording("Creates a new Venmo account (with a $0.00 balance)."),
        "delete_account": Wording("Deletes the Venmo account with its friendships and linked cards, and logs out "
                                  "(past payments stay in the\nother users' history)."),
        "update_account_name": Wording("Changes the name on the Venmo account."),
        "login": Wording("Logs into Venmo; stores the token."),
        "send_verification_code": Wording("Emails a Venmo verification code."),
        "reset_password": Wording("Sets a new Venmo password with the reset code.")}))


@tool(domain=APP, requires=AUTHED, tables=(USERS, FRIENDSHIPS))
def venmo_show_profile(world: World, email: str | None = None) -> dict[str, Any]:
    """Shows a user's public profile and friendship status.

    Args:
        email: the user's email; your own profile when omitted.

    Returns:
        {first_name, last_name, email, registered_at, friends_since} (friends_since is null when you are not
        friends)
    """
    user = me(world) if email is None else user_by_email(world, email, "email")
    return user_view(world, me(world)["id"], user)


def _people_text(user: dict[str, Any]) -> tuple[str | None, ...]:
    return user.get("first_name"), user.get("last_name"), user.get("email")


def _by_name(users: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(users, key=lambda u: (full_name(u).lower(), u["id"]))


@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def venmo_search_users(world: World, query: str | None = "", page_index: int | None = 0,
                       page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches Venmo users by name or email (yourself excluded), most relevant first.

    Args:
        query: words to match against first name, last name and email; empty lists everyone by name.
        page_index: the page to return, from 0.
        page_limit: users per page, 1 to 20.

    Returns:
        list[{first_name, last_name, email, registered_at, friends_since}]
    """
    uid = me(world)["id"]
    users = _by_name([u for u in world.rows(USERS) if u["id"] != uid])
    page = paged_search(users, query, _people_text, page_index, page_limit, None, ())
    return [user_view(world, uid, u) for u in page]


@tool(domain=APP, requires=AUTHED, tables=(FRIENDSHIPS,))
def venmo_search_friends(world: World, query: str | None = "", user_email: str | None = None,
                         page_index: int | None = 0, page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Searches the user's (or another user's) friends.

    Args:
        query: words to match against the friends' names and emails; empty lists them all by name.
        user_email: whose friends to search; your own when omitted.
        page_index: the page to return, from 0.
        page_limit: friends per page, 1 to 20.

    Returns:
        list[{first_name, last_name, email, registered_at, friends_since}] (friends_since: when they became
        friends with that user)
    """
    owner = me(world) if user_email is None else user_by_email(world, user_email, "user_email")
    friends = [u for u in (world.get(USERS, i) for i in friend_ids(world, owner["id"])) if u is not None]
    page = paged_search(_by_name(friends), query, _people_text, page_index, page_limit, None, ())
    return [user_view(world, owner["id"], u) for u in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FRIENDSHIPS, NOTIFICATIONS))
def venmo_add_friend(world: World, user_email: str) -> dict[str, str]:
    """Adds a user to your Venmo friend list (friend lists are one-sided: theirs is unchanged).

    Args:
        user_email: the email of the user to befriend.

    Returns:
        {message}
    """
    user = me(world)
    friend = other_user(world, user_email, "user_email")
    if friendship_rows(world, user["id"], friend["id"]):
        raise api_error(f"{full_name(friend)} ({friend['email']}) is already in your friend list.")
    world.insert(FRIENDSHIPS, {"user_id": user["id"], "friend_id": friend["id"], "created_at": now(world)})
    return {"message": f"Added {full_name(friend)} to your friend list."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(FRIENDSHIPS,))
def venmo_remove_friend(world: World, user_email: str) -> dict[str, str]:
    """Removes a user from your Venmo friend list (their list is unchanged).

    Args:
        user_email: the email of the friend to remove.

    Returns:
        {message}
    """
    user = me(world)
    friend = other_user(world, user_email, "user_email")
    rows = friendship_rows(world, user["id"], friend["id"])
    if not rows:
        raise api_error(f"{full_name(friend)} ({friend['email']}) is already not in your friend list.")
    for row in rows:
        world.delete(FRIENDSHIPS, row["id"])
    return {"message": f"Removed {full_name(friend)} from your friend list."}
