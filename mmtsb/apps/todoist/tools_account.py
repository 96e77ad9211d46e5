"""Todoist account tools: signup, login, codes, profile (:mod:`mmtsb.apps.account_tools`) and user search."""

from __future__ import annotations


from mmtsb.apps.account_tools import AccountApp, Wording, add_account_tools
from mmtsb.apps.accounts import has_gmail_account
from mmtsb.apps.todoist.core import create_project, user_by_email
from mmtsb.apps.todoist.schema import APP, LINKS, PROJECTS
from mmtsb.world.world import World


def _create_inbox(world: World, email: str) -> None:
    """A new Todoist account starts with its own Inbox project, when its verification email could be sent (as in
    AppWorld; otherwise the Inbox is made the first time project 0 is used)."""
    user = user_by_email(world, email)
    if user is not None and has_gmail_account(world, email):
        create_project(world, user["id"], "Inbox", "charcoal", "", is_inbox=True, is_favorite=False)


# todoist_show_account, todoist_signup, todoist_delete_account, todoist_update_account_name, todoist_login,
# todoist_logout, todoist_send_verification_code, todoist_verify_account, todoist_send_password_reset_code,
# todoist_reset_password, todoist_show_profile and todoist_search_users:
add_account_tools(globals(), AccountApp(
    APP, "Todoist", user_search=True, after_signup=_create_inbox, signup_tables=(PROJECTS, LINKS),
    owned_tables=("todoist.labels", "todoist.task_comments"), wording={
        "signup": Wording("Creates a new Todoist account (with its own Inbox project, project 0)."),
        "delete_account": Wording("Deletes the logged-in user's Todoist account and logs out."),
        "search_users": Wording("Searches Todoist users by name or email (e.g. to find someone to invite to a "
                                "project).")}))

