"""Venmo rules shared by the tool modules: money, cards, friendships, visibility, notifications and views.

Money: amounts are dollars with at most two decimals; every balance change is rounded to the cent and a balance
never goes below zero. A payment moves ``amount`` from the sender's Venmo balance (or charges one of the
sender's cards) to the receiver's balance, so the sum of balances changes only through card payments and bank
transfers.

Visibility: a private transaction is seen by its sender and receiver only; a public one by every user.
Friendships are mutual; the table stores one row per direction and a pair counts as friends when either
row exists.
"""

from __future__ import annotations

import math
from typing import Any

from mmtsb.apps.accounts import EMAIL_RE
from mmtsb.apps.common import api_error, current_user
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

APP = "venmo"
USERS = "venmo.users"
FRIENDSHIPS = "venmo.friendships"
TRANSACTIONS = "venmo.transactions"
LIKES = "venmo.transaction_likes"
COMMENTS = "venmo.transaction_comments"
COMMENT_LIKES = "venmo.transaction_comment_likes"
REQUESTS = "venmo.payment_requests"
TRANSFERS = "venmo.bank_transfers"
CARDS = "venmo.payment_cards"
NOTIFICATIONS = "venmo.notifications"
ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)
TRANSFER_TYPES = ("card_to_venmo", "venmo_to_card")
REQUEST_STATUSES = ("pending", "approved", "denied")


def now(world: World) -> str:
    return world.clock.now_str()


def me(world: World) -> dict[str, Any]:
    """The logged-in Venmo user (PermissionError when logged out)."""
    return current_user(world, APP)


def full_name(user: dict[str, Any]) -> str:
    return f"{user.get('first_name') or ''} {user.get('last_name') or ''}".strip()


def party(world: World, user_id: int | None) -> dict[str, Any] | None:
    """``{name, email}`` of a user (a deleted account keeps its id with no details)."""
    user = world.get(USERS, user_id) if user_id is not None else None
    if user is None:
        return None if user_id is None else {"name": None, "email": None}
    return {"name": full_name(user), "email": user.get("email")}


def user_by_email(world: World, email: str | None, field: str) -> dict[str, Any]:
    """The Venmo user with this email (validated), or an API error naming the field."""
    text = (email or "").strip()
    if not EMAIL_RE.match(text):
        raise api_error(f"Invalid {field} {email!r}: give a valid email address.")
    rows = world.select(USERS, "lower(email) = lower(?)", (text,))
    if not rows:
        raise api_error(f"No Venmo user with email {text!r} ({field}); find people with venmo_search_users.")
    return rows[0]


def other_user(world: World, email: str | None, field: str) -> dict[str, Any]:
    """A user other than the logged-in one."""
    user = user_by_email(world, email, field)
    if user["id"] == me(world)["id"]:
        raise api_error(f"{field} is your own email; give another user's email.")
    return user


# ------------------------------------------------------------------------------------------------- money
def money(amount: float | None, field: str = "amount") -> float:
    """A positive dollar amount with at most two decimals."""
    if amount is None or isinstance(amount, bool) or not math.isfinite(amount) or amount <= 0:
        raise api_error(f"{field} must be a number greater than 0; got {amount!r}.")
    cents = round(amount * 100)
    if abs(amount * 100 - cents) > 1e-6 or cents < 1:
        raise api_error(f"{field} must be in dollars with at most 2 decimal places (e.g. 12.50); got {amount!r}.")
    return cents / 100


def balance_of(world: World, user_id: int) -> float:
    row = world.get(USERS, user_id)
    return round(float((row or {}).get("venmo_balance") or 0), 2)


def change_balance(world: World, user_id: int, delta: float) -> float:
    """Add ``delta`` to a balance (rounded to the cent); refuses to go below zero. Returns the new balance."""
    current = balance_of(world, user_id)
    new = round(current + delta, 2)
    if new < 0:
        raise api_error(f"Insufficient Venmo balance: you have ${current:.2f} and need ${-delta:.2f}. Add money "
                        f"with venmo_add_to_venmo_balance or pay with a card (payment_card_id).")
    world.update(USERS, user_id, {"venmo_balance": new})
    return new


# ------------------------------------------------------------------------------------------------- cards
def card_digits(card: dict[str, Any]) -> str:
    return str(card.get("card_number") or "")[-4:]


def own_card(world: World, card_id: int, field: str = "payment_card_id", *, usable: bool = True) -> dict[str, Any]:
    """One of the logged-in user's cards (and, with ``usable``, not expired)."""
    card = world.get(CARDS, card_id)
    if card is None or card.get("user_id") != me(world)["id"]:
        raise api_error(f"Payment card with {field}={card_id} does not exist; list yours with "
                        f"venmo_show_payment_cards.")
    if usable and card_expired(world, card):
        raise api_error(f"Payment card {card_id} expired in {card.get('expiry_month'):02d}/{card.get('expiry_year')}; "
                        f"use another card.")
    return card


def card_expired(world: World, card: dict[str, Any]) -> bool:
    today = world.clock.now()
    return (int(card.get("expiry_year") or 0), int(card.get("expiry_month") or 0)) < (today.year, today.month)


def card_view(card: dict[str, Any]) -> dict[str, Any]:
    return {"payment_card_id": card["id"], "card_name": card.get("card_name"), "owner_name": card.get("owner_name"),
            "card_number": _as_int(card.get("card_number")), "expiry_year": card.get("expiry_year"),
            "expiry_month": card.get("expiry_month"), "cvv_number": _as_int(card.get("cvv_number"))}


def _as_int(value: Any) -> Any:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return value


# ------------------------------------------------------------------------------------------------- friends
def friendship_rows(world: World, a: int, b: int) -> list[dict[str, Any]]:
    """``a``'s friendship rows for ``b``: friendships are one-sided, as in AppWorld (``a`` listing ``b`` says
    nothing about ``b``'s list)."""
    return world.select(FRIENDSHIPS, "user_id = ? AND friend_id = ?", (a, b))


def friends_since(world: World, a: int, b: int) -> str | None:
    """When ``a`` added ``b`` as a friend; None when ``b`` is not in ``a``'s friend list."""
    dates = [str(r.get("created_at") or "") for r in friendship_rows(world, a, b)]
    return min(dates) if dates else None


def friend_ids(world: World, user_id: int) -> set[int]:
    """The people in ``user_id``'s own friend list."""
    rows = world.select(FRIENDSHIPS, "user_id = ?", (user_id,))
    return {r["friend_id"] for r in rows} - {user_id}


def user_view(world: World, viewer_id: int, user: dict[str, Any]) -> dict[str, Any]:
    """A public profile; ``friends_since`` is when ``viewer_id`` and the user became friends (None if not)."""
    since = friends_since(world, viewer_id, user["id"]) if user["id"] != viewer_id else None
    return {"first_name": user.get("first_name"), "last_name": user.get("last_name"), "email": user.get("email"),
            "registered_at": user.get("created_at"), "friends_since": since}


# ------------------------------------------------------------------------------------------------- notifications
def notify(world: World, user_id: int, kind: str, title: str, message: str, **data: Any) -> None:
    """Put an unread notification in a user's Venmo inbox."""
    world.insert(NOTIFICATIONS, {"user_id": user_id, "type": kind, "title": title, "message": message,
                                 "read": False, "data": data, "created_at": now(world)})


def notification_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"notification_id": row["id"], "type": row.get("type"), "title": row.get("title"),
            "message": row.get("message"), "read": bool(row.get("read")), "created_at": row.get("created_at"),
            "data": row.get("data") or {}}


# ------------------------------------------------------------------------------------------------- transactions
def visible_transaction(world: World, transaction_id: int) -> dict[str, Any]:
    """A transaction the logged-in user may see: theirs, or anyone's public one."""
    txn = world.get(TRANSACTIONS, transaction_id)
    uid = me(world)["id"]
    if txn is None or (txn.get("private") and uid not in (txn.get("sender_id"), txn.get("receiver_id"))):
        raise api_error(f"Transaction with transaction_id={transaction_id} does not exist.")
    return txn


def own_transaction(world: World, transaction_id: int) -> dict[str, Any]:
    """A transaction the logged-in user sent or received."""
    txn = visible_transaction(world, transaction_id)
    if me(world)["id"] not in (txn.get("sender_id"), txn.get("receiver_id")):
        raise api_error(f"Transaction {transaction_id} is between other users; only its sender and receiver can "
                        f"do this.")
    return txn


def transaction_view(world: World, viewer_id: int, txn: dict[str, Any]) -> dict[str, Any]:
    """A transaction as ``viewer_id`` sees it (card digits only for the sender)."""
    direction = ("sent" if txn.get("sender_id") == viewer_id else
                 "received" if txn.get("receiver_id") == viewer_id else None)
    liked = bool(world.select(LIKES, "transaction_id = ? AND user_id = ?", (txn["id"], viewer_id)))
    comments = len(world.select(COMMENTS, "transaction_id = ?", (txn["id"],)))
    return {"transaction_id": txn["id"], "amount": txn.get("amount"), "description": txn.get("description") or "",
            "created_at": txn.get("created_at"), "updated_at": txn.get("updated_at"),
            "private": bool(txn.get("private")), "like_count": int(txn.get("like_count") or 0),
            "comment_count": comments,
            "payment_card_digits": txn.get("payment_card_digits") if direction == "sent" else None,
            "sender": party(world, txn.get("sender_id")), "receiver": party(world, txn.get("receiver_id")),
            "direction": direction, "liked": liked, "payment_request_id": txn.get("payment_request_id")}


def pay(world: World, payer: dict[str, Any], payee: dict[str, Any], amount: float, description: str,
        private: bool, card_id: int | None, request_id: int | None = None) -> int:
    """Move money from ``payer`` (balance or card) to ``payee``; records the transaction and notifies the payee."""
    card = own_card(world, card_id) if card_id is not None else None
    if card is None:
        change_balance(world, payer["id"], -amount)
    change_balance(world, payee["id"], amount)
    stamp = now(world)
    txn_id = world.insert(TRANSACTIONS, {
        "sender_id": payer["id"], "receiver_id": payee["id"], "amount": amount, "description": description or "",
        "private": bool(private), "payment_card_id": card["id"] if card else None,
        "payment_card_digits": card_digits(card) if card else None, "like_count": 0,
        "payment_request_id": request_id, "receipt_download_count": 0, "created_at": stamp, "updated_at": stamp})
    note = f": {description}" if description else ""
    notify(world, payee["id"], "transaction_received", "Payment received",
           f"{full_name(payer)} paid you ${amount:.2f}{note}.", transaction_id=txn_id)
    return int(txn_id)


def receipt_text(world: World, txn: dict[str, Any]) -> str:
    sender, receiver = party(world, txn.get("sender_id")) or {}, party(world, txn.get("receiver_id")) or {}
    method = (f"card ending in {txn.get('payment_card_digits')}" if txn.get("payment_card_digits")
              else "Venmo balance")
    return "\n".join([
        "Venmo payment receipt", f"Transaction ID: {txn['id']}", f"Date: {txn.get('created_at')}",
        f"From: {sender.get('name')} <{sender.get('email')}>", f"To: {receiver.get('name')} <{receiver.get('email')}>",
        f"Amount: ${float(txn.get('amount') or 0):.2f}", f"Description: {txn.get('description') or ''}",
        f"Paid with: {method}", f"Privacy: {'private' if txn.get('private') else 'public'}"])


# ------------------------------------------------------------------------------------------------- requests
def request_status(row: dict[str, Any]) -> str:
    return "approved" if row.get("approved_at") else "denied" if row.get("denied_at") else "pending"


def request_view(world: World, row: dict[str, Any]) -> dict[str, Any]:
    """A payment request: ``sender`` asked ``receiver`` to pay ``amount``."""
    return {"payment_request_id": row["id"], "amount": row.get("amount"), "description": row.get("description") or "",
            "created_at": row.get("created_at"), "updated_at": row.get("updated_at"),
            "approved_at": row.get("approved_at"), "denied_at": row.get("denied_at"),
            "private": bool(row.get("private")), "status": request_status(row),
            "sender": party(world, row.get("sender_id")), "receiver": party(world, row.get("receiver_id")),
            "transaction_id": row.get("transaction_id")}


def check_status(status: str | None) -> str | None:
    if status is not None and status not in REQUEST_STATUSES:
        raise api_error(f"Invalid status {status!r}; use one of: {', '.join(REQUEST_STATUSES)}.")
    return status
