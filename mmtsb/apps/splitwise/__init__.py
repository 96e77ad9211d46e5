"""Splitwise: shared expenses, payments and balances between people, in groups or not."""

from __future__ import annotations

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.splitwise.schema import TABLES
from mmtsb.world.world import World


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "splitwise", base.people)


APP = App(
    name="splitwise", tables=TABLES, tool_modules=(), seed=seed,
    companions={
        # creating a group adds its members; recording an expense writes one share per debtor; every
        # action on someone else's money notifies them; receipts are attached from / downloaded to files
        "splitwise.groups": ("splitwise.group_members", "splitwise.notifications"),
        "splitwise.group_members": ("splitwise.notifications",),
        "splitwise.expenses": ("splitwise.expense_shares", "splitwise.notifications", "file_system.files"),
        "splitwise.expense_shares": ("splitwise.expenses", "splitwise.notifications"),
        "splitwise.payments": ("splitwise.notifications", "file_system.files"),
        "splitwise.expense_comments": ("splitwise.notifications",),
        "splitwise.payment_comments": ("splitwise.notifications",),
    },
)

__all__ = ["APP"]
