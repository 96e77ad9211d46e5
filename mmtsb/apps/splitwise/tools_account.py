"""Splitwise account tools (sign-up, login, codes, profile: :mod:`mmtsb.apps.account_tools`) and the user search
with balances."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.account_tools import AccountApp, Wording, add_account_tools
from mmtsb.apps.common import paginate, search_rank
from mmtsb.apps.splitwise.balances import per_person, person_entry
from mmtsb.apps.splitwise.core import APP, AUTHED, EXPENSES, MEMBERS, PAYMENTS, USERS, full_name, involved_ids, me
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _verified_flag(world: World, out: dict[str, Any]) -> None:
    out["verified"] = bool(out.get("verified"))


# splitwise_show_account, splitwise_signup, splitwise_delete_account, splitwise_update_account_name,
# splitwise_login, splitwise_logout, splitwise_send_verification_code, splitwise_verify_account,
# splitwise_send_password_reset_code, splitwise_reset_password and splitwise_show_profile:
add_account_tools(globals(), AccountApp(APP, "Splitwise", details=_verified_flag, owned_tables=(
    "splitwise.expense_comments", "splitwise.payment_comments", "splitwise.notifications"), wording={
    "login": Wording("Logs into Splitwise; on success the app counts as authenticated.")}))


def friend_ids(world: World, user_id: int) -> set[int]:
    """People the user shares a group or a record with (Splitwise 'friends')."""
    groups = [r["group_id"] for r in world.select(MEMBERS, "user_id = ?", (user_id,))]
    out: set[int] = set()
    for gid in groups:
        out |= {int(r["user_id"]) for r in world.select(MEMBERS, "group_id = ?", (gid,))}
    for key in (EXPENSES, PAYMENTS):
        for row in world.select(key):
            ids = involved_ids(world, row, is_expense=key == EXPENSES)
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
