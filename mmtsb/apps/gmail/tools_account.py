"""Gmail account tools: sign-up, login, profile (:mod:`mmtsb.apps.account_tools`), availability status and user
search."""

from __future__ import annotations

from typing import Any

from mmtsb.apps import accounts
from mmtsb.apps.account_tools import NAMES_KEPT_WHEN_OMITTED, AccountApp, Wording, add_account_tools
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


def _status(world: World, out: dict[str, Any]) -> None:
    out["status"] = effective_status(world, me(world))


def _start_active(world: World, email: str) -> None:
    user = accounts.find_user(world, APP, email)
    world.update(USERS, user["id"], {"status": "active"})


def _drop_mailbox(world: World) -> None:
    """The account's drafts (with their attachments) and thread views go with it."""
    user = me(world)
    for draft in world.select("gmail.drafts", "user_id = ?", (user["id"],)):
        for att in world.select("gmail.attachments", "draft_id = ?", (draft["id"],)):
            world.delete("gmail.attachments", att["id"])
        world.delete("gmail.drafts", draft["id"])
    for thread in world.select("gmail.user_email_threads", "user_id = ?", (user["id"],)):
        world.delete("gmail.user_email_threads", thread["id"])


# gmail_show_account, gmail_signup, gmail_delete_account, gmail_update_account_name, gmail_login, gmail_logout,
# gmail_send_password_reset_code, gmail_reset_password and gmail_show_profile (no verification tools):
add_account_tools(globals(), AccountApp(
    APP, "Gmail", verification=False, columns=(), details=_status, detail_fields=("status",),
    after_signup=_start_active, before_delete=_drop_mailbox, delete_tables=("gmail.user_email_threads", "gmail.drafts"),
    wording={
        "delete_account": Wording("Deletes the logged-in user's Gmail account, with their mailbox (thread views) and "
                                  "drafts.", more="Emails already delivered stay in the other participants' mailboxes."),
        "update_account_name": Wording(args=NAMES_KEPT_WHEN_OMITTED),
        "send_password_reset_code": Wording("Emails a Gmail password reset code (it arrives in that account's Gmail "
                                            "inbox).")}))


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
