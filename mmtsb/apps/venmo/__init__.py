"""Venmo: person-to-person payments, payment requests, a balance, friends and a social feed."""

from __future__ import annotations

from mmtsb.apps.base import App
from mmtsb.apps.gmail.delivery import MAIL_TABLES
from mmtsb.apps.venmo.schema import TABLES
from mmtsb.apps.venmo.seed import seed, starting_balance

_RECEIPTS = ("file_system.files", "file_system.directories")

APP = App(
    name="venmo", tables=TABLES, seed=seed,
    tool_modules=(
        "mmtsb.apps.venmo.tools_account",
        "mmtsb.apps.venmo.tools_money",
        "mmtsb.apps.venmo.tools_requests",
        "mmtsb.apps.venmo.tools_social",
        "mmtsb.apps.venmo.tools_cards",
        "mmtsb.apps.venmo.tools_notifications",
    ),
    companions={
        # paying moves balances and notifies; approving a request creates its transaction; receipts are files
        "venmo.transactions": ("venmo.users", "venmo.notifications", "venmo.payment_requests", *_RECEIPTS),
        "venmo.payment_requests": ("venmo.transactions", "venmo.users", "venmo.notifications"),
        "venmo.bank_transfers": ("venmo.users", *_RECEIPTS, *MAIL_TABLES),   # a transfer mails its receipt
        "venmo.friendships": ("venmo.notifications",),
        "venmo.transaction_likes": ("venmo.transactions",),
        "venmo.transaction_comments": ("venmo.transaction_comment_likes",),
        "venmo.transaction_comment_likes": ("venmo.transaction_comments",),
        # deleting an account removes its friendships and linked cards
        "venmo.users": ("venmo.friendships", "venmo.payment_cards"),
        # a downloaded receipt counts the download on its transaction or bank transfer
        "file_system.files": ("venmo.transactions", "venmo.bank_transfers"),
    },
)

__all__ = ["APP", "starting_balance"]
