"""Todoist account tools: signup, login, codes, profile (:mod:`mmtsb.apps.account_tools`) and user search."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.account_tools import AccountApp, Wording, add_account_tools
from mmtsb.apps.common import paged_search
from mmtsb.apps.todoist.core import ONLINE, create_project, user_by_email
from mmtsb.apps.todoist.schema import APP, LINKS, PROJECTS, USERS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _create_inbox(world: World, email: str) -> None:
    """A new Todoist account starts with its own Inbox project."""
    user = user_by_email(world, email)
    if user is not None:
        create_project(world, user["id"], "Inbox", "charcoal", "", is_inbox=True, is_favorite=False)


# todoist_show_account, todoist_signup, todoist_delete_account, todoist_update_account_name, todoist_login,
# todoist_logout, todoist_send_verification_code, todoist_verify_account, todoist_send_password_reset_code,
# todoist_reset_password and todoist_show_profile:
add_account_tools(globals(), AccountApp(
    APP, "Todoist", after_signup=_create_inbox, signup_tables=(PROJECTS, LINKS), wording={
        "signup": Wording("Creates a new Todoist account (with its own Inbox project)."),
        "delete_account": Wording("Deletes the logged-in user's Todoist account and logs out.")}))


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
