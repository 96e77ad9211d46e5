"""Balances (per person, per group, overall, who-owes-whom inside a group) and the activity feed.

All views are computed from the same debts (see :mod:`mmtsb.apps.splitwise.balances`), so they agree:
``others_owe_you - you_owe_others`` is your overall net balance in both summary views, and each view's
totals are the sums of its breakdown.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate, sort_rows
from mmtsb.apps.splitwise.balances import (balances_of, direction, group_name, pair_balances, per_group, per_person,
                                           person_entry, sort_key_name, totals)
from mmtsb.apps.splitwise.core import (APP, AUTHED, EXPENSES, GROUPS, PAYMENTS, can_see, dollars, me, member_ids,
                                       my_group, shares_of, to_cents_raw, user_brief, user_by_email)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

RECORD_TABLES = (EXPENSES, PAYMENTS)


@tool(domain=APP, requires=AUTHED, tables=RECORD_TABLES)
def splitwise_show_person_balance(world: World, email: str) -> dict[str, Any]:
    """Shows your net balance with one person, broken down by group.

    Args:
        email: the other person's email.

    Returns:
        {direction, total, breakdown: list[{group_id, group_name, direction, amount}]}; direction is
        'owes you', 'you owe' or 'settled up'; group_id None stands for expenses and payments outside groups.
    """
    user_id = int(me(world)["id"])
    other = user_by_email(world, email, "email")
    if int(other["id"]) == user_id:
        raise api_error("email must be someone else's: there is no balance with yourself.")
    per = {g: c for (o, g), c in balances_of(world, user_id).items() if o == int(other["id"])}
    breakdown = [{"group_id": g, "group_name": group_name(world, g), "direction": direction(c),
                  "amount": dollars(abs(c))}
                 for g, c in sorted(per.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))]
    net = sum(per.values())
    return {"direction": direction(net), "total": dollars(abs(net)), "breakdown": breakdown}


@tool(domain=APP, requires=AUTHED, tables=RECORD_TABLES)
def splitwise_show_people_balance(world: World) -> dict[str, Any]:
    """Shows your balances with every person you have an open balance with (netted across groups).

    Returns:
        {you_owe_others, others_owe_you, breakdown: list[{name, email, direction, amount}]}, largest
        amounts first; the totals are the sums of the breakdown.
    """
    user_id = int(me(world)["id"])
    nets = per_person(world, user_id)
    ordered = sorted(nets.items(), key=lambda kv: (-abs(kv[1]), sort_key_name(world, kv[0])))
    return {**totals(list(nets.values())), "breakdown": [person_entry(world, uid, c) for uid, c in ordered]}


@tool(domain=APP, requires=AUTHED, tables=RECORD_TABLES)
def splitwise_show_groups_balance(world: World) -> dict[str, Any]:
    """Shows your net balance in each group with an open balance (non-group records as group None).

    Returns:
        {you_owe_others, others_owe_you, breakdown: list[{group_id, group_name, direction, amount}]}; the
        totals are the sums of the breakdown.
    """
    nets = per_group(world, int(me(world)["id"]))
    ordered = sorted(nets.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
    return {**totals(list(nets.values())),
            "breakdown": [{"group_id": g, "group_name": group_name(world, g), "direction": direction(c),
                           "amount": dollars(abs(c))} for g, c in ordered]}


def _entry(world: World, source: int, pairs: dict[tuple[int, int], int]) -> dict[str, Any]:
    owes = [{**(user_brief(world, cred) or {}), "amount": dollars(c)}
            for (cred, debt), c in sorted(pairs.items()) if debt == source]
    owed = [{**(user_brief(world, debt) or {}), "amount": dollars(c)}
            for (cred, debt), c in sorted(pairs.items()) if cred == source]
    return {"source": user_brief(world, source), "source_owes_to_targets": owes, "targets_owe_to_source": owed}


@tool(domain=APP, requires=AUTHED, tables=RECORD_TABLES)
def splitwise_show_group_balance(world: World, group_id: int | None = None,
                                 email: str | None = None) -> list[dict[str, Any]]:
    """Shows who owes whom inside a group, or among your non-group records.

    Args:
        group_id: the group (you must be a member); omit for expenses and payments outside groups, where
            only your own balances are shown.
        email: show only this person's entry (a group member; with no group_id only your own email).

    Returns:
        list[{source, source_owes_to_targets, targets_owe_to_source}]; source is {name, email} and both
        lists hold {name, email, amount} entries (each debt appears once from each side).
    """
    user_id = int(me(world)["id"])
    person = int(user_by_email(world, email, "email")["id"]) if email is not None else None
    pairs = pair_balances(world, group_id)
    if group_id is None:
        if person is not None and person != user_id:
            raise api_error("Without group_id only your own non-group balances can be shown; omit email or pass "
                            "your own.")
        mine = {k: c for k, c in pairs.items() if user_id in k}
        return [_entry(world, user_id, mine)]
    my_group(world, group_id)
    people = list(dict.fromkeys([*member_ids(world, group_id), *(u for k in pairs for u in k)]))
    if person is not None:
        if person not in people:
            raise api_error(f"{email} is not a member of group {group_id}.")
        people = [person]
    return [_entry(world, uid, pairs) for uid in people]


# ---------------------------------------------------------------------------------------------- activity
def _dead_groups(world: World) -> set[int]:
    return {int(g["id"]) for g in world.select(GROUPS, "deleted = 1")}


def _expense_item(world: World, e: dict[str, Any], user_id: int) -> dict[str, Any]:
    owed = {d: c for d, c in shares_of(world, e).items() if d != e.get("payer_id")}
    change = sum(owed.values()) if e.get("payer_id") == user_id else -owed.get(user_id, 0)
    return {"record_type": "expense", "record_id": e["id"], "amount": e.get("amount"),
            "paid_by": user_brief(world, e.get("payer_id")), "paid_to": None,
            "owed_by": [{**(user_brief(world, d) or {}), "amount": dollars(c)} for d, c in owed.items()],
            "description": e.get("description"), "group_id": e.get("group_id"),
            "group_name": group_name(world, e.get("group_id")), "created_at": e.get("created_at"),
            "your_balance_change": dollars(change)}


def _payment_item(world: World, p: dict[str, Any], user_id: int) -> dict[str, Any]:
    cents = to_cents_raw(p.get("amount"))
    change = cents if p.get("payer_id") == user_id else -cents if p.get("receiver_id") == user_id else 0
    return {"record_type": "payment", "record_id": p["id"], "amount": p.get("amount"),
            "paid_by": user_brief(world, p.get("payer_id")), "paid_to": user_brief(world, p.get("receiver_id")),
            "owed_by": [], "description": p.get("description"), "group_id": p.get("group_id"),
            "group_name": group_name(world, p.get("group_id")), "created_at": p.get("created_at"),
            "your_balance_change": dollars(change)}


@tool(domain=APP, requires=AUTHED, tables=RECORD_TABLES)
def splitwise_show_activity(world: World, show_expenses: bool | None = True, show_payments: bool | None = True,
                            page_index: int | None = 0, page_limit: int | None = 5,
                            sort_by: str | None = "-created_at") -> list[dict[str, Any]]:
    """Shows a combined history of the live expenses and payments you take part in or that belong to your
    groups.

    Args:
        show_expenses: include expenses.
        show_payments: include payments.
        page_index: the page to return, from 0.
        page_limit: records per page, 1 to 20.
        sort_by: +/-created_at; default -created_at (newest first).

    Returns:
        list[{record_type ('expense'|'payment'), record_id, amount, paid_by, paid_to, owed_by:
        list[{name, email, amount}], description, group_id, group_name, created_at, your_balance_change}];
        your_balance_change > 0 means others owe you more because of the record.
    """
    if show_expenses is False and show_payments is False:
        raise api_error("show_expenses and show_payments are both false: enable at least one.")
    user_id = int(me(world)["id"])
    dead = _dead_groups(world)
    items: list[dict[str, Any]] = []
    for key, make in ((EXPENSES, _expense_item), (PAYMENTS, _payment_item)):
        if (key == EXPENSES and show_expenses is False) or (key == PAYMENTS and show_payments is False):
            continue
        for row in world.select(key, "deleted IS NULL OR deleted = 0"):
            if row.get("group_id") in dead or not can_see(world, row, user_id, is_expense=key == EXPENSES):
                continue
            items.append(make(world, row, user_id))
    items.sort(key=lambda i: (i.get("created_at") or "", i["record_type"] == "payment", i["record_id"]), reverse=True)
    return paginate(sort_rows(items, sort_by or "-created_at", ("created_at",)), page_index, page_limit)
