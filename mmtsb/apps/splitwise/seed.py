"""Splitwise base rows: every base person as a user, and a small, deterministic history for the main user.

The main user shares an apartment group and a trip group with four base people (picked per main user
from a seeded generator), plus a few records outside groups, so balances, activity, comments and
notifications look like a real account. Ids start at 1; released scenario files use 200 and more, so
their rows never collide with these.
"""

from __future__ import annotations

from datetime import timedelta
from random import Random
from typing import Any

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.apps.splitwise.core import (EXPENSE_COMMENTS, EXPENSES, GROUPS, MEMBERS, NOTIFICATIONS, PAYMENTS, SHARES,
                                       dollars, equal_split)
from mmtsb.world.world import World


class _History:
    """Writes seed records for the main user, with timestamps counted back from the reference time."""

    def __init__(self, world: World, base: BaseContext, friends: list[Any]) -> None:
        self.world, self.base, self.me = world, base, base.main_user
        self.people = {p.id: p for p in [base.main_user, *friends]}
        self.end = base.reference_time.replace(tzinfo=None, microsecond=0)

    def at(self, days: float) -> str:
        return (self.end - timedelta(days=days)).isoformat()

    def name(self, uid: int) -> str:
        p = self.people[uid]
        return f"{p.first_name} {p.last_name}"

    def notify(self, days: float, kind: str, title: str, message: str, data: dict[str, Any]) -> None:
        self.world.insert(NOTIFICATIONS, {"user_id": self.me.id, "type": kind, "title": title, "message": message,
                                          "read": days > 14, "data": data, "created_at": self.at(days)})

    def group(self, days: float, creator: int, name: str, description: str, members: list[int], code: str) -> int:
        gid = self.world.insert(GROUPS, {"user_id": creator, "name": name, "description": description,
                                         "created_at": self.at(days), "invitation_code": code, "deleted": False})
        for uid in members:
            self.world.insert(MEMBERS, {"group_id": gid, "user_id": uid, "joined_at": self.at(days)})
        if creator != self.me.id:
            self.notify(days, "group_added", "Added to a group", f"{self.name(creator)} added you to the group "
                        f"'{name}'.", {"group_id": gid})
        return gid

    def expense(self, days: float, group: int | None, payer: int, description: str, cents: int,
                split: list[int], parts: list[int] | None = None) -> int:
        parts = parts or equal_split(cents, len(split))
        debts = {uid: c for uid, c in zip(split, parts) if uid != payer}
        eid = self.world.insert(EXPENSES, {
            "user_id": payer, "group_id": group, "payer_id": payer, "debtor_ids": list(debts),
            "participant_ids": [payer, *debts], "description": description, "amount": dollars(cents),
            "deleted": False, "receipt_file_name": None, "receipt_file_content": None,
            "receipt_download_count": 0, "created_at": self.at(days)})
        for uid, c in debts.items():
            self.world.insert(SHARES, {"expense_id": eid, "debtor_id": uid, "share_amount": dollars(c),
                                       "created_at": self.at(days)})
        if payer != self.me.id:
            self.notify(days, "expense_added", "New expense",
                        f"{self.name(payer)} added '{description}' (${dollars(cents):.2f}).", {"expense_id": eid})
        return eid

    def payment(self, days: float, group: int | None, payer: int, receiver: int, cents: int, note: str) -> int:
        pid = self.world.insert(PAYMENTS, {
            "user_id": payer, "group_id": group, "payer_id": payer, "receiver_id": receiver,
            "amount": dollars(cents), "description": note, "deleted": False, "receipt_file_name": None,
            "receipt_file_content": None, "receipt_download_count": 0, "created_at": self.at(days)})
        if payer != self.me.id:
            self.notify(days, "payment_added", "New payment",
                        f"{self.name(payer)} paid you ${dollars(cents):.2f} ({note}).", {"payment_id": pid})
        return pid


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "splitwise", base.people)
    seed_history(world, base)


def seed_history(world: World, base: BaseContext) -> None:
    """Two groups and a few non-group records for the main user (deterministic per main user)."""
    me = base.main_user
    rng = Random(f"splitwise:{me.id}")
    friends = rng.sample([p for p in base.people if p.id != me.id], 4)
    f1, f2, f3, f4 = (p.id for p in friends)
    h = _History(world, base, friends)
    home = h.group(120, me.id, "Apartment 4B", "Rent, utilities and groceries for the apartment",
                   [me.id, f1, f2], f"APT4B{me.id:03d}X")
    h.expense(40, home, me.id, "Internet bill", 8997, [me.id, f1, f2])
    h.payment(20, home, f1, me.id, 2000, "My share of the internet")
    groceries = h.expense(25, home, f1, "Costco groceries", 14250, [me.id, f1, f2])
    world.insert(EXPENSE_COMMENTS, {"expense_id": groceries, "user_id": f1, "comment": "Receipt is on the fridge.",
                                    "created_at": h.at(24.9)})
    h.notify(24.9, "expense_comment", "New comment", f"{h.name(f1)} commented on an expense: Receipt is on the "
             "fridge.", {"expense_id": groceries})
    h.expense(12, home, f2, "Electricity bill", 12000, [me.id, f1, f2])
    trip = h.group(60, f3, "Lake Tahoe Trip", "Cabin weekend with friends", [f3, me.id, f1, f4],
                   f"TAHOE{me.id:03d}Q")
    h.expense(45, trip, f3, "Cabin rental", 60000, [f3, me.id, f1, f4])
    h.expense(44, trip, me.id, "Gas for the drive", 8440, [me.id, f1, f3, f4])
    h.expense(43, trip, f4, "Dinner at Sunnyside", 21236, [me.id, f1, f3, f4], [5812, 4980, 5220, 5224])
    h.expense(8, None, me.id, "Concert tickets", 15000, [me.id, f4])
    h.payment(5, None, me.id, f2, 1500, "Coffee and bagels")
