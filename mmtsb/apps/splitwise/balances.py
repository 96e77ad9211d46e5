"""Balances derived from the records: who owes whom, per pair of people and per group (None = no group).

Every live record becomes debts in cents: an expense makes each debtor owe the payer their share; a
payment from A to B makes B owe A the amount (which cancels what A owed B). Deleted expenses, deleted
payments and the records of deleted groups do not count. Because all views sum the same debts, the
per-person, per-group and overall numbers always agree.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from mmtsb.apps.splitwise.core import (EXPENSES, GROUPS, PAYMENTS, SHARES, USERS, dollars, full_name,
                                       to_cents_raw, user_brief)
from mmtsb.world.world import World

Key = tuple[int, int, "int | None"]  # (debtor, creditor, group_id)

SETTLED = "settled up"
OWES_YOU = "owes you"
YOU_OWE = "you owe"


def raw_debts(world: World) -> dict[Key, int]:
    """(debtor, creditor, group_id) -> cents, summed over every live record."""
    dead_groups = {int(g["id"]) for g in world.select(GROUPS, "deleted = 1")}
    shares: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for s in world.select(SHARES):
        shares[int(s["expense_id"])].append(s)
    debts: dict[Key, int] = defaultdict(int)
    for e in world.select(EXPENSES, "deleted IS NULL OR deleted = 0"):
        if e.get("group_id") in dead_groups or e.get("payer_id") is None:
            continue
        for s in shares.get(int(e["id"]), []):
            if s["debtor_id"] != e["payer_id"]:
                debts[(int(s["debtor_id"]), int(e["payer_id"]), e.get("group_id"))] += to_cents_raw(s["share_amount"])
    for p in world.select(PAYMENTS, "deleted IS NULL OR deleted = 0"):
        if p.get("group_id") in dead_groups or p.get("payer_id") is None or p.get("receiver_id") is None:
            continue
        debts[(int(p["receiver_id"]), int(p["payer_id"]), p.get("group_id"))] += to_cents_raw(p["amount"])
    return debts


def balances_of(world: World, user_id: int) -> dict[tuple[int, int | None], int]:
    """(other user, group_id) -> net cents; positive means the other person owes ``user_id``."""
    net: dict[tuple[int, int | None], int] = defaultdict(int)
    for (debtor, creditor, group_id), cents in raw_debts(world).items():
        if creditor == user_id and debtor != user_id:
            net[(debtor, group_id)] += cents
        elif debtor == user_id and creditor != user_id:
            net[(creditor, group_id)] -= cents
    return {k: v for k, v in net.items() if v != 0}


def per_person(world: World, user_id: int) -> dict[int, int]:
    """other user -> net cents across all groups (positive: they owe you)."""
    out: dict[int, int] = defaultdict(int)
    for (other, _), cents in balances_of(world, user_id).items():
        out[other] += cents
    return {k: v for k, v in out.items() if v != 0}


def per_group(world: World, user_id: int) -> dict[int | None, int]:
    """group_id (None = no group) -> your net cents in it (positive: others owe you)."""
    out: dict[int | None, int] = defaultdict(int)
    for (_, group_id), cents in balances_of(world, user_id).items():
        out[group_id] += cents
    return {k: v for k, v in out.items() if v != 0}


def pair_balances(world: World, group_id: int | None) -> dict[tuple[int, int], int]:
    """(creditor, debtor) -> positive net cents the debtor owes inside one group (or among non-group records)."""
    net: dict[tuple[int, int], int] = defaultdict(int)
    for (debtor, creditor, g), cents in raw_debts(world).items():
        if g != group_id or debtor == creditor:
            continue
        a, b = sorted((debtor, creditor))
        net[(a, b)] += cents if debtor == b else -cents  # positive: b owes a
    out: dict[tuple[int, int], int] = {}
    for (a, b), cents in net.items():
        if cents > 0:
            out[(a, b)] = cents
        elif cents < 0:
            out[(b, a)] = -cents
    return out


def direction(cents: int) -> str:
    return OWES_YOU if cents > 0 else YOU_OWE if cents < 0 else SETTLED


def group_name(world: World, group_id: int | None) -> str | None:
    if group_id is None:
        return None
    group = world.get(GROUPS, group_id)
    return group["name"] if group else None


def person_entry(world: World, other_id: int, cents: int) -> dict[str, Any]:
    brief = user_brief(world, other_id) or {"name": None, "email": None}
    return {"name": brief["name"], "email": brief["email"], "direction": direction(cents),
            "amount": dollars(abs(cents))}


def totals(nets: list[int]) -> dict[str, float]:
    return {"you_owe_others": dollars(sum(-c for c in nets if c < 0)),
            "others_owe_you": dollars(sum(c for c in nets if c > 0))}


def sort_key_name(world: World, user_id: int) -> str:
    return full_name(world.get(USERS, user_id)).lower()
