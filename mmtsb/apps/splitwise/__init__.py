"""Splitwise: shared expenses, payments and balances between people, in groups or not."""

from __future__ import annotations

from mmtsb.apps.base import App
from mmtsb.apps.splitwise.schema import TABLES
from mmtsb.apps.splitwise.seed import seed

_FILES = ("file_system.files", "file_system.directories")

APP = App(
    name="splitwise", tables=TABLES, seed=seed,
    tool_modules=tuple(f"mmtsb.apps.splitwise.{m}" for m in (
        "tools_account", "tools_groups", "tools_expenses", "tools_payments", "tools_comments", "tools_balances",
        "tools_notifications")),
    companions={
        # creating a group adds its members; recording an expense writes one share per debtor; every
        # action on someone else's money notifies them; receipts are attached from / downloaded to files
        # deleting or restoring a group deletes or restores its expenses and payments (AppWorld)
        "splitwise.groups": ("splitwise.group_members", "splitwise.notifications", "splitwise.expenses",
                             "splitwise.payments"),
        "splitwise.group_members": ("splitwise.notifications",),
        "splitwise.expenses": ("splitwise.expense_shares", "splitwise.notifications", *_FILES),
        "splitwise.expense_shares": ("splitwise.expenses", "splitwise.notifications"),
        "splitwise.payments": ("splitwise.notifications", *_FILES),
        "splitwise.expense_comments": ("splitwise.notifications",),
        "splitwise.payment_comments": ("splitwise.notifications",),
        # downloading a receipt writes the file and bumps the record's download count
        "file_system.files": ("splitwise.expenses", "splitwise.payments", "file_system.directories"),
    },
    # reference-string offsets implied by the released files' id ranges (groups 400, members 1100, ...)
    id_offsets={"splitwise.groups": 300, "splitwise.group_members": 1000, "splitwise.expenses": 5100,
                "splitwise.expense_shares": 100},
)

__all__ = ["APP"]
