"""Venmo money tools: the balance, bank transfers (card <-> balance), payments and their receipts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mmtsb.apps.common import api_error, paged_search, paginate, parse_date
from mmtsb.apps.file_system.api import save_file
from mmtsb.apps.gmail.delivery import mail_receipt
from mmtsb.apps.venmo.core import (
    APP,
    AUTHED,
    TRANSACTIONS,
    TRANSFER_TYPES,
    TRANSFERS,
    USERS,
    balance_of,
    card_digits,
    change_balance,
    full_name,
    me,
    money,
    now,
    own_card,
    own_transaction,
    other_user,
    party,
    pay,
    receipt_text,
    transaction_view,
    user_by_email,
    visible_transaction,
)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

FILES = "file_system.files"
TRANSACTION_SORTS = ("created_at", "like_count", "amount")
MAX_INT = 9223372036854775807
MAX_AMOUNT = 9.223372036854776e18


# ------------------------------------------------------------------------------------------ balance
@tool(domain=APP, requires=AUTHED, tables=(USERS,))
def venmo_show_venmo_balance(world: World) -> dict[str, float]:
    """Shows the Venmo balance.

    Returns:
        {venmo_balance} (dollars)
    """
    return {"venmo_balance": balance_of(world, me(world)["id"])}


def _transfer(world: World, kind: str, amount: float, payment_card_id: int) -> dict[str, Any]:
    user = me(world)
    value = money(amount)
    card = own_card(world, payment_card_id)
    new = change_balance(world, user["id"], value if kind == "card_to_venmo" else -value)
    transfer_id = world.insert(TRANSFERS, {"user_id": user["id"], "transfer_type": kind, "amount": value,
                                           "payment_card_id": card["id"], "payment_card_digits": card_digits(card),
                                           "receipt_download_count": 0, "created_at": now(world)})
    verb = "Added" if kind == "card_to_venmo" else "Withdrew"
    where = "from" if kind == "card_to_venmo" else "to"
    subject = ("Money Transferred from Payment Card to Venmo" if kind == "card_to_venmo"
               else "Money Transferred from Venmo to Payment Card")
    mail_receipt(world, app="Venmo", recipient_email=user["email"], subject=subject,
                 body=f"Hello {user['first_name']},\n\n{verb} ${value:.2f} {where} your card ending in "
                      f"{card_digits(card)} (transfer #{transfer_id}).",
                 file_name=f"transfer_{transfer_id}.txt", receipt=_transfer_receipt(world.get(TRANSFERS, transfer_id), user))
    return {"message": f"{verb} ${value:.2f} {where} card ending in {card_digits(card)}; your balance is now "
                       f"${new:.2f}.", "bank_transfer_id": int(transfer_id)}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TRANSFERS, USERS))
def venmo_add_to_venmo_balance(world: World, amount: float, payment_card_id: int) -> dict[str, Any]:
    """Tops up the Venmo balance from a saved card.

    Args:
        amount: dollars to add (more than 0, at most 2 decimals).
        payment_card_id: one of your unexpired cards (see venmo_show_payment_cards).

    Returns:
        {message, bank_transfer_id}
    """
    return _transfer(world, "card_to_venmo", amount, payment_card_id)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TRANSFERS, USERS))
def venmo_withdraw_from_venmo_balance(world: World, amount: float, payment_card_id: int) -> dict[str, Any]:
    """Moves money from the Venmo balance to a card.

    Args:
        amount: dollars to withdraw (more than 0, at most 2 decimals, at most your balance).
        payment_card_id: one of your unexpired cards (see venmo_show_payment_cards).

    Returns:
        {message, bank_transfer_id}
    """
    return _transfer(world, "venmo_to_card", amount, payment_card_id)


def _transfer_receipt(row: dict[str, Any], user: dict[str, Any]) -> str:
    return "\n".join(["Venmo bank transfer receipt", f"Bank transfer ID: {row['id']}", f"Date: {row.get('created_at')}",
                      f"Account: {full_name(user)} <{user.get('email')}>",
                      f"Type: {row.get('transfer_type')}", f"Amount: ${float(row.get('amount') or 0):.2f}",
                      f"Card: ending in {row.get('payment_card_digits')}"])


def _transfer_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"bank_transfer_id": row["id"], "transfer_type": row.get("transfer_type"), "amount": row.get("amount"),
            "payment_card_digits": row.get("payment_card_digits"), "created_at": row.get("created_at")}


@tool(domain=APP, requires=AUTHED, tables=(TRANSFERS,))
def venmo_show_bank_transfer_history(world: World, transfer_type: str | None = None, page_index: int | None = 0,
                                     page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists balance top-ups and withdrawals, newest first.

    Args:
        transfer_type: 'card_to_venmo' (top-ups) or 'venmo_to_card' (withdrawals); both when omitted.
        page_index: the page to return, from 0.
        page_limit: transfers per page, 1 to 20.

    Returns:
        list[{bank_transfer_id, transfer_type, amount, payment_card_digits, created_at}]
    """
    if transfer_type is not None and transfer_type not in TRANSFER_TYPES:
        raise api_error(f"Invalid transfer_type {transfer_type!r}; use one of: {', '.join(TRANSFER_TYPES)}.")
    rows = world.select(TRANSFERS, "user_id = ?", (me(world)["id"],), order_by="created_at DESC, id DESC")
    rows = [r for r in rows if transfer_type is None or r.get("transfer_type") == transfer_type]
    return [_transfer_view(r) for r in paginate(rows, page_index, page_limit)]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TRANSFERS, FILES))
def venmo_download_bank_transfer_receipt(world: World, bank_transfer_id: int, file_system_access_token: str,
                                         download_to_file_path: str | None = None,
                                         overwrite: bool | None = False) -> dict[str, str]:
    """Saves a bank-transfer receipt to the file-system app.

    Args:
        bank_transfer_id: one of your bank transfers.
        file_system_access_token: the access_token returned by file_system_login.
        download_to_file_path: a file path, or a directory ending with '/' (absolute or ~/...); default
            ~/downloads/ (file name venmo_bank_transfer_<id>_receipt.txt).
        overwrite: replace an existing file at that path.

    Returns:
        {message, file_path} (the absolute path written)
    """
    user = me(world)
    row = world.get(TRANSFERS, bank_transfer_id)
    if row is None or row.get("user_id") != user["id"]:
        raise api_error(f"Bank transfer with bank_transfer_id={bank_transfer_id} does not exist.")
    path = save_file(world, file_system_access_token, download_to_file_path,
                     f"venmo_bank_transfer_{row['id']}_receipt.txt", _transfer_receipt(row, user), overwrite)
    world.update(TRANSFERS, row["id"], {"receipt_download_count": int(row.get("receipt_download_count") or 0) + 1})
    return {"message": "Receipt downloaded.", "file_path": path}


# ------------------------------------------------------------------------------------------ transactions
@tool(domain=APP, requires=AUTHED, tables=(TRANSACTIONS,))
def venmo_show_transaction(world: World, transaction_id: int) -> dict[str, Any]:
    """Returns one payment transaction (yours, or another user's public one).

    Args:
        transaction_id: the transaction's id.

    Returns:
        {transaction_id, amount, description, created_at, updated_at, private, like_count, comment_count,
        payment_card_digits, sender: {name, email}, receiver: {name, email}, direction ('sent'/'received'/null),
        liked, payment_request_id}
    """
    return transaction_view(world, me(world)["id"], visible_transaction(world, transaction_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TRANSACTIONS,))
def venmo_update_transaction(world: World, transaction_id: int, description: str | None = None,
                             private: bool | None = None) -> dict[str, str]:
    """Edits a transaction's note or privacy (only the sender can).

    Args:
        transaction_id: a transaction you sent.
        description: the new note.
        private: true hides it from everyone but you and the receiver; false makes it public.

    Returns:
        {message}
    """
    txn = own_transaction(world, transaction_id)
    if txn.get("sender_id") != me(world)["id"]:
        raise api_error(f"Only the sender can update transaction {transaction_id}.")
    fields: dict[str, Any] = {k: v for k, v in (("description", description), ("private", private)) if v is not None}
    if not fields:
        raise api_error("Nothing to update: give description and/or private.")
    world.update(TRANSACTIONS, txn["id"], {**fields, "updated_at": now(world)})
    return {"message": "Transaction updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TRANSACTIONS, USERS))
def venmo_create_transaction(world: World, receiver_email: str, amount: float, description: str = "",
                             payment_card_id: int | None = None, private: bool = False) -> dict[str, Any]:
    """Sends money to another user from balance or card.

    Args:
        receiver_email: the email of the user to pay (not yourself).
        amount: dollars to send (more than 0, at most 2 decimals).
        description: the payment note shown with the transaction.
        payment_card_id: charge this card of yours; when omitted the money comes from your Venmo balance (which
            must cover it).
        private: true shows the transaction only to you and the receiver.

    Returns:
        {message, transaction_id}
    """
    payer = me(world)
    payee = other_user(world, receiver_email, "receiver_email")
    value = money(amount)
    txn_id = pay(world, payer, payee, value, description, private, payment_card_id)
    return {"message": f"Paid ${value:.2f} to {full_name(payee)}.", "transaction_id": txn_id}


def _day_bound(text: str | None, field: str, end: bool) -> str | None:
    """A created_at bound: a bare date covers the whole day."""
    if text is None:
        return None
    when: datetime = parse_date(text, field)
    if end and "|" not in text and "T" not in text and " " not in text.strip():
        return when.strftime("%Y-%m-%dT23:59:59")
    return when.strftime("%Y-%m-%dT%H:%M:%S")


@tool(domain=APP, requires=AUTHED, tables=(TRANSACTIONS,))
def venmo_show_transactions(world: World, query: str | None = "", user_email: str | None = None,
                            min_created_at: str | None = "1500-01-01", max_created_at: str | None = "3000-01-01",
                            min_like_count: int | None = 0, max_like_count: int | None = MAX_INT,
                            min_amount: float | None = 0.01, max_amount: float | None = MAX_AMOUNT,
                            private: bool | None = None, direction: str | None = None, page_index: int | None = 0,
                            page_limit: int | None = 5, sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists/searches the user's transactions with counterpart, date, amount, privacy and direction filters.

    Args:
        query: words to match in the description and the other person's name or email; results are ranked by
            relevance (then sort_by orders each page).
        user_email: keep transactions with this user only.
        min_created_at: earliest date, YYYY-MM-DD (inclusive) or YYYY-MM-DD|HH:MM:SS.
        max_created_at: latest date, YYYY-MM-DD (the whole day is included) or YYYY-MM-DD|HH:MM:SS.
        min_like_count: fewest likes.
        max_like_count: most likes.
        min_amount: smallest amount in dollars (more than 0).
        max_amount: largest amount in dollars (more than 0).
        private: only private (true) or public (false) transactions.
        direction: 'sent' (you paid) or 'received' (you were paid); both when omitted.
        page_index: the page to return, from 0.
        page_limit: transactions per page, 1 to 20.
        sort_by: +/- created_at, like_count or amount; default -created_at (newest first) without a query.

    Returns:
        list[transaction] as venmo_show_transaction returns them
    """
    uid = me(world)["id"]
    if direction is not None and direction not in ("sent", "received"):
        raise api_error(f"Invalid direction {direction!r}; use 'sent' or 'received'.")
    for name, value in (("min_amount", min_amount), ("max_amount", max_amount)):
        if value is not None and value <= 0:
            raise api_error(f"{name} must be greater than 0; got {value!r}.")
    lo, hi = _day_bound(min_created_at, "min_created_at", False), _day_bound(max_created_at, "max_created_at", True)
    other = user_by_email(world, user_email, "user_email")["id"] if user_email is not None else None
    rows = world.select(TRANSACTIONS, "sender_id = ? OR receiver_id = ?", (uid, uid))

    def keep(t: dict[str, Any]) -> bool:
        likes, amount = int(t.get("like_count") or 0), float(t.get("amount") or 0)
        created = str(t.get("created_at") or "")
        counterpart = t.get("receiver_id") if t.get("sender_id") == uid else t.get("sender_id")
        return ((other is None or counterpart == other)
                and (lo is None or created >= lo) and (hi is None or created <= hi)
                and (min_like_count is None or likes >= min_like_count)
                and (max_like_count is None or likes <= max_like_count)
                and (min_amount is None or amount >= min_amount - 1e-9)
                and (max_amount is None or amount <= max_amount + 1e-9)
                and (private is None or bool(t.get("private")) == private)
                and (direction is None or (direction == "sent") == (t.get("sender_id") == uid)))

    def text_of(t: dict[str, Any]) -> tuple[str | None, ...]:
        counterpart = t.get("receiver_id") if t.get("sender_id") == uid else t.get("sender_id")
        who = party(world, counterpart) or {}
        return t.get("description"), who.get("name"), who.get("email")

    rows = [{**t, "like_count": int(t.get("like_count") or 0)} for t in rows if keep(t)]
    page = paged_search(rows, query, text_of, page_index, page_limit, sort_by, TRANSACTION_SORTS,
                        default_sort="-created_at")
    return [transaction_view(world, uid, t) for t in page]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(TRANSACTIONS, FILES))
def venmo_download_transaction_receipt(world: World, transaction_id: int, file_system_access_token: str,
                                       download_to_file_path: str | None = None,
                                       overwrite: bool | None = False) -> dict[str, str]:
    """Saves a transaction receipt to the file-system app.

    Args:
        transaction_id: a transaction you sent or received.
        file_system_access_token: the access_token returned by file_system_login.
        download_to_file_path: a file path, or a directory ending with '/' (absolute or ~/...); default
            ~/downloads/ (file name venmo_transaction_<id>_receipt.txt).
        overwrite: replace an existing file at that path.

    Returns:
        {message, file_path} (the absolute path written)
    """
    txn = own_transaction(world, transaction_id)
    path = save_file(world, file_system_access_token, download_to_file_path,
                     f"venmo_transaction_{txn['id']}_receipt.txt", receipt_text(world, txn), overwrite)
    world.update(TRANSACTIONS, txn["id"], {"receipt_download_count": int(txn.get("receipt_download_count") or 0) + 1})
    return {"message": "Receipt downloaded.", "file_path": path}
