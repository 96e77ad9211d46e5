"""Splitwise payments (settle-ups): record, show, edit, soft-delete/restore, list, receipts, settle up.

A payment is bookkeeping only: it records that the payer gave the receiver money, which reduces what the
payer owed the receiver (or makes the receiver owe the payer). No money moves anywhere.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.splitwise import files
from mmtsb.apps.splitwise.balances import balances_of, group_name
from mmtsb.apps.splitwise.core import (APP, AUTHED, NOTIFICATIONS, PAYMENTS, check_members, dollars,
                                       full_name, is_member, live_record, me, my_group, notify, now, to_cents,
                                       restore_record, user_by_email, visible_record)
from mmtsb.apps.splitwise.listing import NO_MAX, list_records
from mmtsb.apps.splitwise.views import payment_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

FS_FILES = "file_system.files"


def _insert_payment(world: World, payer: dict[str, Any], receiver: dict[str, Any], cents: int,
                    group_id: int | None, description: str | None,
                    receipt: tuple[str | None, str | None] = (None, None)) -> int:
    user = me(world)
    payment_id = world.insert(PAYMENTS, {
        "user_id": user["id"], "group_id": group_id, "payer_id": payer["id"], "receiver_id": receiver["id"],
        "amount": dollars(cents), "description": description, "deleted": False, "receipt_file_name": receipt[0],
        "receipt_file_content": receipt[1], "receipt_download_count": 0, "created_at": now(world)})
    notify(world, [payer["id"], receiver["id"]], "payment_added", "New payment",
           f"{full_name(user)} recorded that {full_name(payer)} paid {full_name(receiver)} ${dollars(cents):.2f}.",
           {"payment_id": payment_id})
    return payment_id


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS, NOTIFICATIONS))
def splitwise_record_payment(world: World, payer_email: str, receiver_email: str, amount: float,
                             group_id: int | None = None, description: str | None = None,
                             receipt_file_path: str | None = None,
                             file_system_access_token: str | None = None) -> dict[str, Any]:
    """Records a settle-up payment from one user to another (bookkeeping only, no money moves).

    The payment lowers what the payer owed the receiver. You must be the payer or the receiver, unless
    it is recorded in a group you belong to (then both must be members).

    Args:
        payer_email: the email of the person who paid.
        receiver_email: the email of the person who received the money (not the payer).
        amount: the amount paid, in dollars (> 0; rounded to the cent).
        group_id: the group whose balance it settles; no group when omitted.
        description: a note about the payment.
        receipt_file_path: evidence file in your file system (/... or ~/...) to attach.
        file_system_access_token: the access token from file_system_login; needed with receipt_file_path.

    Returns:
        {message, payment_id}
    """
    cents = to_cents(amount, "amount")
    payer = user_by_email(world, payer_email, "payer_email")
    receiver = user_by_email(world, receiver_email, "receiver_email")
    if payer["id"] == receiver["id"]:
        raise api_error("payer_email and receiver_email must be two different people.")
    if group_id is not None:
        my_group(world, group_id, allow_deleted=False)
        check_members(world, group_id, [payer, receiver])
    elif int(me(world)["id"]) not in (int(payer["id"]), int(receiver["id"])):
        raise api_error("You can only record payments you made or received (or within a group you belong to).")
    receipt: tuple[str | None, str | None] = (None, None)
    if receipt_file_path:
        receipt = files.read_receipt(world, file_system_access_token, receipt_file_path)
    payment_id = _insert_payment(world, payer, receiver, cents, group_id, description, receipt)
    return {"message": "Payment recorded.", "payment_id": payment_id}


@tool(domain=APP, requires=AUTHED, tables=(PAYMENTS,))
def splitwise_show_payment(world: World, payment_id: int) -> dict[str, Any]:
    """Returns one payment you made or received (or of one of your groups).

    Args:
        payment_id: the payment's id.

    Returns:
        {payment_id, group_id, group_name, description, amount, deleted, receipt_file_name,
        receipt_download_count, created_at, creator, payer, receiver, num_comments}
    """
    return payment_view(world, visible_record(world, PAYMENTS, payment_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS, NOTIFICATIONS))
def splitwise_update_payment(world: World, payment_id: int, amount: float | None = None,
                             description: str | None = None) -> dict[str, str]:
    """Edits a payment's amount or note.

    Args:
        payment_id: the payment's id.
        amount: the new amount in dollars (> 0; rounded to the cent).
        description: the new note.

    Returns:
        {message}
    """
    payment = live_record(world, PAYMENTS, payment_id)
    if amount is None and description is None:
        raise api_error("Nothing to update: give amount and/or description.")
    fields: dict[str, Any] = {}
    if amount is not None:
        fields["amount"] = dollars(to_cents(amount, "amount"))
    if description is not None:
        fields["description"] = description
    world.update(PAYMENTS, payment_id, fields)
    notify(world, [payment["payer_id"], payment["receiver_id"]], "payment_updated", "Payment updated",
           f"{full_name(me(world))} updated a payment.", {"payment_id": payment_id})
    return {"message": "Payment updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS, NOTIFICATIONS))
def splitwise_delete_payment(world: World, payment_id: int) -> dict[str, str]:
    """Soft-deletes a payment: it stops counting in balances; its payer, receiver or group members can restore
    it with splitwise_undelete_payment.

    Args:
        payment_id: the payment's id.

    Returns:
        {message}
    """
    payment = live_record(world, PAYMENTS, payment_id)
    world.update(PAYMENTS, payment_id, {"deleted": True})
    notify(world, [payment["payer_id"], payment["receiver_id"]], "payment_deleted", "Payment deleted",
           f"{full_name(me(world))} deleted a payment of ${payment['amount']:.2f}.", {"payment_id": payment_id})
    return {"message": "Payment deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS, NOTIFICATIONS))
def splitwise_undelete_payment(world: World, payment_id: int) -> dict[str, str]:
    """Restores a deleted payment.

    Args:
        payment_id: the payment's id (list deleted ones with deleted=true).

    Returns:
        {message}
    """
    payment = restore_record(world, PAYMENTS, payment_id)
    notify(world, [payment["payer_id"], payment["receiver_id"]], "payment_restored", "Payment restored",
           f"{full_name(me(world))} restored a payment of ${payment['amount']:.2f}.", {"payment_id": payment_id})
    return {"message": "Payment restored."}


@tool(domain=APP, requires=AUTHED, tables=(PAYMENTS,))
def splitwise_show_group_payments(world: World, group_id: int, query: str | None = "",
                                  participant_email: str | None = None, min_amount: float | None = 0.0,
                                  max_amount: float | None = NO_MAX, min_created_at: str | None = "1500-01-01",
                                  max_created_at: str | None = "3000-01-01", deleted: bool | None = False,
                                  page_index: int | None = 0, page_limit: int | None = 5,
                                  sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the payments of a group you belong to.

    Args:
        group_id: the group's id.
        query: words to look for in notes and people's names; results are ranked by relevance.
        participant_email: keeps payments this person made or received.
        min_amount: smallest amount to keep (>= 0).
        max_amount: largest amount to keep (>= 0).
        min_created_at: earliest creation date, YYYY-MM-DD (inclusive).
        max_created_at: latest creation date, YYYY-MM-DD (inclusive).
        deleted: false lists live payments, true deleted ones.
        page_index: the page to return, from 0.
        page_limit: payments per page, 1 to 20.
        sort_by: +/- created_at or amount; default -created_at (with a query: relevance, then within the page).

    Returns:
        list[payment] (as splitwise_show_payment)
    """
    my_group(world, group_id)
    rows = world.select(PAYMENTS, "group_id = ?", (group_id,))
    return list_records(world, PAYMENTS, rows, query=query, participant_email=participant_email,
                        min_amount=min_amount, max_amount=max_amount, min_created_at=min_created_at,
                        max_created_at=max_created_at, deleted=deleted, page_index=page_index,
                        page_limit=page_limit, sort_by=sort_by, allowed_sort=("created_at", "amount"))


@tool(domain=APP, requires=AUTHED, tables=(PAYMENTS,))
def splitwise_show_no_group_payments(world: World, query: str | None = "", participant_email: str | None = None,
                                     min_amount: float | None = 0.0, max_amount: float | None = NO_MAX,
                                     min_created_at: str | None = "1500-01-01",
                                     max_created_at: str | None = "3000-01-01", deleted: bool | None = False,
                                     page_index: int | None = 0, page_limit: int | None = 5,
                                     sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches your payments that belong to no group.

    Args:
        query: words to look for in notes and people's names; results are ranked by relevance.
        participant_email: keeps payments this person made or received.
        min_amount: smallest amount to keep (>= 0).
        max_amount: largest amount to keep (>= 0).
        min_created_at: earliest creation date, YYYY-MM-DD (inclusive).
        max_created_at: latest creation date, YYYY-MM-DD (inclusive).
        deleted: false lists live payments, true deleted ones.
        page_index: the page to return, from 0.
        page_limit: payments per page, 1 to 20.
        sort_by: +/- created_at or amount; default -created_at (with a query: relevance, then within the page).

    Returns:
        list[payment] (as splitwise_show_payment)
    """
    user_id = int(me(world)["id"])
    rows = [r for r in world.select(PAYMENTS, "group_id IS NULL")
            if user_id in {r.get("user_id"), r.get("payer_id"), r.get("receiver_id")}]
    return list_records(world, PAYMENTS, rows, query=query, participant_email=participant_email,
                        min_amount=min_amount, max_amount=max_amount, min_created_at=min_created_at,
                        max_created_at=max_created_at, deleted=deleted, page_index=page_index,
                        page_limit=page_limit, sort_by=sort_by, allowed_sort=("created_at", "amount"))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS, NOTIFICATIONS))
def splitwise_settle_up(world: World, email: str, group_id: int | None = None,
                        description: str | None = "Settle up balance.") -> dict[str, Any]:
    """Records the payment(s) that bring your balance with a user to zero (bookkeeping only).

    With group_id, only the balance inside that group is settled. Without it, every balance with the
    person is settled: one payment per group with an open balance, plus one for non-group records.

    Args:
        email: the other person's email.
        group_id: the group whose balance to settle; all balances with the person when omitted.
        description: the note on the payment(s).

    Returns:
        {message, payment_ids}
    """
    user = me(world)
    other = user_by_email(world, email, "email")
    if int(other["id"]) == int(user["id"]):
        raise api_error("email must be someone else's: you can't settle up with yourself.")
    if group_id is not None:
        my_group(world, group_id, allow_deleted=False)
        if not is_member(world, group_id, int(other["id"])):
            raise api_error(f"{other['email']} is not a member of group {group_id}.")
    open_balances = {g: c for (o, g), c in balances_of(world, int(user["id"])).items()
                     if o == int(other["id"]) and (group_id is None or g == group_id)}
    if not open_balances:
        where = f" in group {group_id}" if group_id is not None else ""
        raise api_error(f"You and {full_name(other)} are already settled up{where}.")
    ids, lines = [], []
    for g, cents in sorted(open_balances.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        payer, receiver = (other, user) if cents > 0 else (user, other)
        ids.append(_insert_payment(world, payer, receiver, abs(cents), g, description))
        lines.append(f"{full_name(payer)} paid {full_name(receiver)} ${dollars(abs(cents)):.2f}"
                     f" ({group_name(world, g) or 'no group'})")
    return {"message": "Settled up: " + "; ".join(lines) + ".", "payment_ids": ids}


# ---------------------------------------------------------------------------------------------- receipts
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS,))
def splitwise_attach_payment_receipt_file(world: World, payment_id: int, receipt_file_path: str,
                                          file_system_access_token: str,
                                          overwrite: bool | None = False) -> dict[str, str]:
    """Attaches a receipt file from your file system to a payment.

    Args:
        payment_id: the payment's id.
        receipt_file_path: the file's path (/... or ~/...).
        file_system_access_token: the access token from file_system_login.
        overwrite: replace an existing receipt (otherwise that is an error).

    Returns:
        {message}
    """
    files.attach(world, PAYMENTS, live_record(world, PAYMENTS, payment_id), receipt_file_path,
                 file_system_access_token, overwrite)
    return {"message": "Receipt attached to the payment."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS,))
def splitwise_delete_payment_receipt_file(world: World, payment_id: int) -> dict[str, str]:
    """Removes a payment's receipt file.

    Args:
        payment_id: the payment's id.

    Returns:
        {message}
    """
    files.detach(world, PAYMENTS, live_record(world, PAYMENTS, payment_id))
    return {"message": "Receipt removed from the payment."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENTS, FS_FILES))
def splitwise_download_payment_receipt_file(world: World, payment_id: int, file_system_access_token: str,
                                            download_to_file_path: str | None = None,
                                            overwrite: bool | None = False) -> dict[str, str]:
    """Saves a payment's receipt into your file system.

    Args:
        payment_id: the payment's id.
        file_system_access_token: the access token from file_system_login.
        download_to_file_path: a file path, or a directory ending with '/' to keep the receipt's name
            (/... or ~/...); default ~/downloads/.
        overwrite: replace an existing file at that path (otherwise that is an error).

    Returns:
        {message, file_path}
    """
    payment = visible_record(world, PAYMENTS, payment_id)
    path = files.download(world, PAYMENTS, payment, file_system_access_token, download_to_file_path, overwrite)
    return {"message": "Receipt downloaded.", "file_path": path}
