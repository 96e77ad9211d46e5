"""Venmo payment requests: ask someone for money; they approve (pay), deny, or you withdraw or remind.

In a request row ``sender_id`` is the user who asks for money and ``receiver_id`` the user asked to pay.
Only pending requests can be changed: the asker may update, delete (withdraw) or remind; the payer may approve
(which creates the payment, from balance or card) or deny. There is no 'cancelled' status: a withdrawn
request is deleted.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paged_search
from mmtsb.apps.venmo.core import (
    APP,
    AUTHED,
    NOTIFICATIONS,
    REQUESTS,
    TRANSACTIONS,
    USERS,
    check_status,
    full_name,
    me,
    money,
    notify,
    now,
    other_user,
    party,
    pay,
    request_status,
    request_view,
)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _listing(world: World, column: str, query: str | None, status: str | None, page_index: int | None,
             page_limit: int | None) -> list[dict[str, Any]]:
    check_status(status)
    uid = me(world)["id"]
    other = "receiver_id" if column == "sender_id" else "sender_id"
    rows = [r for r in world.select(REQUESTS, f"{column} = ?", (uid,))
            if status is None or request_status(r) == status]

    def text_of(r: dict[str, Any]) -> tuple[str | None, ...]:
        who = party(world, r.get(other)) or {}
        return r.get("description"), who.get("name"), who.get("email")

    page = paged_search(rows, query, text_of, page_index, page_limit, None, ("created_at",),
                        default_sort="-created_at")
    return [request_view(world, r) for r in page]


def _request(world: World, payment_request_id: int, role: str) -> dict[str, Any]:
    """A pending request where the logged-in user is the asker (``sender``) or the payer (``receiver``)."""
    uid = me(world)["id"]
    row = world.get(REQUESTS, payment_request_id)
    if row is None or uid not in (row.get("sender_id"), row.get("receiver_id")):
        raise api_error(f"Payment request with payment_request_id={payment_request_id} does not exist.")
    if row.get(f"{role}_id") != uid:
        if role == "sender":
            raise api_error(f"Payment request {payment_request_id} was sent to you; only the user who sent it can do "
                            f"this (you can approve or deny it).")
        raise api_error(f"Payment request {payment_request_id} was sent by you; only the user it was sent to can "
                        f"approve or deny it (you can update, remind or delete it).")
    status = request_status(row)
    if status != "pending":
        raise api_error(f"Payment request {payment_request_id} is already {status}; only pending requests can change.")
    return row


@tool(domain=APP, requires=AUTHED, tables=(REQUESTS,))
def venmo_show_received_payment_requests(world: World, query: str | None = "", status: str | None = None,
                                         page_index: int | None = 0,
                                         page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists/searches payment requests others sent to the user (asking you to pay), newest first.

    Args:
        query: words to match in the description and the requester's name or email (ranked by relevance).
        status: 'pending', 'approved' or 'denied'; all when omitted.
        page_index: the page to return, from 0.
        page_limit: requests per page, 1 to 20.

    Returns:
        list[{payment_request_id, amount, description, created_at, updated_at, approved_at, denied_at, private,
        status, sender: {name, email} (who asks), receiver: {name, email} (you), transaction_id}]
    """
    return _listing(world, "receiver_id", query, status, page_index, page_limit)


@tool(domain=APP, requires=AUTHED, tables=(REQUESTS,))
def venmo_show_sent_payment_requests(world: World, query: str | None = "", status: str | None = None,
                                     page_index: int | None = 0, page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists/searches payment requests the user sent (asking others to pay you), newest first.

    Args:
        query: words to match in the description and the payer's name or email (ranked by relevance).
        status: 'pending', 'approved' or 'denied'; all when omitted.
        page_index: the page to return, from 0.
        page_limit: requests per page, 1 to 20.

    Returns:
        list[{payment_request_id, amount, description, created_at, updated_at, approved_at, denied_at, private,
        status, sender: {name, email} (you), receiver: {name, email} (who is asked to pay), transaction_id}]
    """
    return _listing(world, "sender_id", query, status, page_index, page_limit)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REQUESTS, NOTIFICATIONS))
def venmo_create_payment_request(world: World, user_email: str, amount: float, description: str = "",
                                 private: bool = False) -> dict[str, Any]:
    """Requests money from another user (they are notified and can approve or deny).

    Args:
        user_email: the email of the user who should pay you (not yourself).
        amount: dollars requested (more than 0, at most 2 decimals).
        description: what the money is for.
        private: privacy of the transaction created when the request is approved.

    Returns:
        {message, payment_request_id}
    """
    user = me(world)
    payer = other_user(world, user_email, "user_email")
    value = money(amount)
    stamp = now(world)
    request_id = int(world.insert(REQUESTS, {
        "sender_id": user["id"], "receiver_id": payer["id"], "amount": value, "description": description or "",
        "private": bool(private), "transaction_id": None, "created_at": stamp, "updated_at": stamp,
        "approved_at": None, "denied_at": None}))
    note = f" for {description}" if description else ""
    notify(world, payer["id"], "payment_request_received", "Payment request",
           f"{full_name(user)} requests ${value:.2f}{note}.", payment_request_id=request_id)
    return {"message": f"Requested ${value:.2f} from {full_name(payer)}.", "payment_request_id": request_id}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REQUESTS,))
def venmo_update_payment_request(world: World, payment_request_id: int, amount: float | None = None,
                                 description: str | None = None, private: bool | None = None) -> dict[str, str]:
    """Edits a sent payment request that is still pending.

    Args:
        payment_request_id: a pending request you sent.
        amount: the new amount in dollars (more than 0, at most 2 decimals).
        description: the new description.
        private: the new privacy of the resulting transaction.

    Returns:
        {message}
    """
    row = _request(world, payment_request_id, "sender")
    fields: dict[str, Any] = {}
    if amount is not None:
        fields["amount"] = money(amount)
    if description is not None:
        fields["description"] = description
    if private is not None:
        fields["private"] = private
    if not fields:
        raise api_error("Nothing to update: give amount, description and/or private.")
    world.update(REQUESTS, row["id"], {**fields, "updated_at": now(world)})
    return {"message": "Payment request updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REQUESTS,))
def venmo_delete_payment_request(world: World, payment_request_id: int) -> dict[str, str]:
    """Withdraws a payment request (a pending one you sent; it is deleted).

    Args:
        payment_request_id: a pending request you sent.

    Returns:
        {message}
    """
    row = _request(world, payment_request_id, "sender")
    world.delete(REQUESTS, row["id"])
    return {"message": "Payment request withdrawn."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REQUESTS, TRANSACTIONS, USERS))
def venmo_approve_payment_request(world: World, payment_request_id: int,
                                  payment_card_id: int | None = None) -> dict[str, str]:
    """Pays a received request from balance or card.

    Args:
        payment_request_id: a pending request someone sent you.
        payment_card_id: charge this card of yours; when omitted the money comes from your Venmo balance (which
            must cover it).

    Returns:
        {message}
    """
    row = _request(world, payment_request_id, "receiver")
    payer = me(world)
    asker = world.get(USERS, row["sender_id"])
    if asker is None:
        raise api_error(f"The user who sent payment request {payment_request_id} no longer has a Venmo account.")
    amount = round(float(row.get("amount") or 0), 2)
    txn_id = pay(world, payer, asker, amount, row.get("description") or "", bool(row.get("private")),
                 payment_card_id, request_id=row["id"])
    stamp = now(world)
    world.update(REQUESTS, row["id"], {"approved_at": stamp, "updated_at": stamp, "transaction_id": txn_id})
    notify(world, asker["id"], "payment_request_approved", "Request approved",
           f"{full_name(payer)} paid your request of ${amount:.2f}.", payment_request_id=row["id"],
           transaction_id=txn_id)
    return {"message": f"Paid ${amount:.2f} to {full_name(asker)} (transaction {txn_id})."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(REQUESTS,))
def venmo_deny_payment_request(world: World, payment_request_id: int) -> dict[str, str]:
    """Declines a received payment request.

    Args:
        payment_request_id: a pending request someone sent you.

    Returns:
        {message}
    """
    row = _request(world, payment_request_id, "receiver")
    stamp = now(world)
    world.update(REQUESTS, row["id"], {"denied_at": stamp, "updated_at": stamp})
    notify(world, row["sender_id"], "payment_request_denied", "Request declined",
           f"{full_name(me(world))} declined your request of ${float(row.get('amount') or 0):.2f}.",
           payment_request_id=row["id"])
    return {"message": "Payment request denied."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_remind_payment_request(world: World, payment_request_id: int) -> dict[str, str]:
    """Sends a reminder notification about a pending request you sent.

    Args:
        payment_request_id: a pending request you sent.

    Returns:
        {message}
    """
    row = _request(world, payment_request_id, "sender")
    payer = world.get(USERS, row["receiver_id"]) or {}
    notify(world, row["receiver_id"], "payment_request_reminder", "Payment reminder",
           f"{full_name(me(world))} reminds you of a request of ${float(row.get('amount') or 0):.2f}.",
           payment_request_id=row["id"])
    return {"message": f"Reminder sent to {full_name(payer) or 'the payer'}."}
