"""Venmo base rows: every base person with a balance, the main user's card, and a small social history.

The history makes the app feel lived-in without touching scenario id ranges (ids stay below 100): the main
user has six friends, a dozen past payments (with them and among them, some private), a pending request from
a friend (with its unread notification) and one sent to a friend. Everything is derived from the main user's
id, so every world for that user is identical. Balances are the starting balances (the history is already
settled in them).
"""

from __future__ import annotations

from datetime import timedelta
from random import Random

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.amazon.seed import card_row
from mmtsb.apps.base import BaseContext
from mmtsb.world.people import Person
from mmtsb.world.world import World

FRIEND_COUNT = 6
NOTES = ("Dinner at Luigi's", "Concert tickets", "Groceries", "Rent share", "Birthday gift", "Coffee",
         "Uber ride home", "Movie night", "Electricity bill", "Pizza Friday", "Book club snacks", "Gas money",
         "Ski trip cabin", "Farmers market", "Board game night")


def starting_balance(user_id: int) -> float:
    """A person's base Venmo balance: deterministic per id, independent of seeding order."""
    return round(Random(f"venmo-balance:{user_id}").uniform(20, 2000), 2)


def seed(world: World, base: BaseContext) -> None:
    """Every base person as a user with a balance, the main user's payment card, and the social history."""
    seed_users(world, "venmo", base.people)
    for person in base.people:
        world.update("venmo.users", person.id, {"venmo_balance": starting_balance(person.id)})
    world.insert("venmo.payment_cards", card_row(base.main_user))
    seed_history(world, base)


def seed_history(world: World, base: BaseContext) -> None:
    main = base.main_user
    rng = Random(f"venmo-history:{main.id}")
    friends = rng.sample([p for p in base.people if p.id != main.id], FRIEND_COUNT)

    def ago(days: float) -> str:
        return (base.reference_time - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S")

    row_id = 1
    for friend in friends:
        since = ago(rng.randint(90, 700))
        for a, b in ((main, friend), (friend, main)):
            world.insert("venmo.friendships", {"id": row_id, "user_id": a.id, "friend_id": b.id, "created_at": since})
            row_id += 1
    pairs: list[tuple[Person, Person]] = [(main, f) for f in friends] + [(f, main) for f in friends[:4]]
    pairs += [(friends[i], friends[(i + 1) % FRIEND_COUNT]) for i in range(3)]
    for txn_id, (sender, receiver) in enumerate(pairs, start=1):
        stamp = ago(rng.uniform(2, 80))
        own_card = sender.id == main.id and txn_id % 3 == 0
        world.insert("venmo.transactions", {
            "id": txn_id, "sender_id": sender.id, "receiver_id": receiver.id,
            "amount": round(rng.uniform(5, 120), 2), "description": rng.choice(NOTES), "private": txn_id % 5 == 0,
            "payment_card_id": main.id if own_card else None,
            "payment_card_digits": main.card_number[-4:] if own_card else None, "like_count": 0,
            "payment_request_id": None, "receipt_download_count": 0, "created_at": stamp, "updated_at": stamp})
    asked, asks = friends[4], friends[5]
    for req_id, (sender, receiver) in enumerate(((asks, main), (main, asked)), start=1):
        stamp, amount, note = ago(rng.uniform(0.5, 3)), round(rng.uniform(8, 60), 2), rng.choice(NOTES)
        world.insert("venmo.payment_requests", {
            "id": req_id, "sender_id": sender.id, "receiver_id": receiver.id, "amount": amount, "description": note,
            "private": False, "transaction_id": None, "created_at": stamp, "updated_at": stamp, "approved_at": None,
            "denied_at": None})
        if receiver.id == main.id:
            world.insert("venmo.notifications", {
                "id": 1, "user_id": main.id, "type": "payment_request_received", "title": "Payment request",
                "message": f"{sender.full_name} requests ${amount:.2f} for {note}.", "read": False,
                "data": {"payment_request_id": req_id}, "created_at": stamp})
