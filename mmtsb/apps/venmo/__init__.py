"""Venmo: person-to-person payments, payment requests, a balance, friends and a social feed."""

from __future__ import annotations

from random import Random

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.amazon.seed import card_row
from mmtsb.apps.base import App, BaseContext
from mmtsb.apps.venmo.schema import TABLES
from mmtsb.world.world import World


def starting_balance(user_id: int) -> float:
    """A person's base Venmo balance: deterministic per id, independent of seeding order."""
    return round(Random(f"venmo-balance:{user_id}").uniform(20, 2000), 2)


def seed(world: World, base: BaseContext) -> None:
    """Every base person as a user with a balance, and the main user's payment card."""
    seed_users(world, "venmo", base.people)
    for person in base.people:
        world.update("venmo.users", person.id, {"venmo_balance": starting_balance(person.id)})
    world.insert("venmo.payment_cards", card_row(base.main_user))


APP = App(
    name="venmo", tables=TABLES, tool_modules=(), seed=seed,
    companions={
        # paying moves balances and notifies; approving a request creates its transaction
        "venmo.transactions": ("venmo.users", "venmo.notifications", "venmo.payment_requests", "file_system.files"),
        "venmo.payment_requests": ("venmo.transactions", "venmo.users", "venmo.notifications"),
        "venmo.bank_transfers": ("venmo.users", "file_system.files"),
        "venmo.friendships": ("venmo.notifications",),
        "venmo.transaction_likes": ("venmo.transactions", "venmo.notifications"),
        "venmo.transaction_comments": ("venmo.notifications",),
        "venmo.transaction_comment_likes": ("venmo.transaction_comments", "venmo.notifications"),
    },
)

__all__ = ["APP", "starting_balance"]
