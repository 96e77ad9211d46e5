"""Splitwise expenses: record with an equal or custom split, show, edit, soft-delete/restore, list, receipts.

An expense has a payer and debtors. Each debtor other than the payer owes the payer their share (one
``expense_shares`` row each); the payer's own part is what remains of the amount, so everyone's parts
always add up to the amount.
"""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error
from mmtsb.apps.splitwise import files
from mmtsb.apps.splitwise.core import (APP, AUTHED, EXPENSES, NOTIFICATIONS, SHARES, USERS, check_members,
                                       dollars, equal_split, full_name, insert, involved_ids, live_record, me, my_group,
                                       notify,
                                       now, restore_record, shares_of, to_cents, to_cents_raw, user_by_email,
                                       visible_record)
from mmtsb.apps.splitwise.listing import NO_MAX, list_records
from mmtsb.apps.splitwise.views import expense_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

FS_FILES = "file_system.files"
#: how far the debt amounts may be from the paid amount (AppWorld's tolerance: 10 cents, for thirds and the like)
SHARE_TOLERANCE_CENTS = 10


def _split(world: World, amount: int, payer: dict[str, Any], debtors: list[dict[str, Any]],
           debt_amounts: list[float] | None) -> dict[int, int]:
    """debtor id (payer excluded) -> cents owed, from an equal split or explicit amounts."""
    payer_id = int(payer["id"])
    ids = [int(d["id"]) for d in debtors]
    if debt_amounts is None:
        parts = equal_split(amount, len(ids))
    else:
        if len(debt_amounts) != len(ids):
            raise api_error(f"debt_amounts has {len(debt_amounts)} values but debtor_emails has {len(ids)}; give "
                            "one amount per debtor.")
        parts = [to_cents(a, f"debt_amounts[{i}]", allow_zero=True) for i, a in enumerate(debt_amounts)]
        total = sum(parts)
        if abs(total - amount) > SHARE_TOLERANCE_CENTS:
            raise api_error(f"The sum of debt amounts ({dollars(total):.2f}) must be equal to the total amount of the "
                            f"expense ({dollars(amount):.2f}); list the payer among the debtors for their own part.")
    debts = {uid: cents for uid, cents in zip(ids, parts) if uid != payer_id}
    if not debts:
        raise api_error("debtor_emails must include at least one person other than the payer.")
    return debts


def _debtors(world: World, emails: list[str] | None, field: str = "debtor_emails") -> list[dict[str, Any]]:
    if not emails:
        raise api_error(f"{field} must list at least one email.")
    users, seen = [], set()
    for i, email in enumerate(emails):
        user = user_by_email(world, email, f"{field}[{i}]")
        if int(user["id"]) in seen:
            raise api_error(f"{field} lists {user['email']} more than once.")
        seen.add(int(user["id"]))
        users.append(user)
    return users


def _write_shares(world: World, expense_id: int, debts: dict[int, int]) -> None:
    """Make the expense's share rows match ``debts`` (rows of unchanged debtors are kept)."""
    existing = {int(r["debtor_id"]): r for r in world.select(SHARES, "expense_id = ?", (expense_id,))}
    for debtor, row in existing.items():
        if debtor not in debts:
            world.delete(SHARES, row["id"])
        elif to_cents_raw(row["share_amount"]) != debts[debtor]:
            world.update(SHARES, row["id"], {"share_amount": dollars(debts[debtor])})
    for debtor, cents in debts.items():
        if debtor not in existing:
            insert(world, SHARES, {"expense_id": expense_id, "debtor_id": debtor, "share_amount": dollars(cents),
                                  "created_at": now(world)})


def _check_scope(world: World, group_id: int | None, payer: dict[str, Any], debtors: list[dict[str, Any]]) -> None:
    """Group records need members only; other records need you to take part."""
    if group_id is not None:
        my_group(world, group_id, allow_deleted=False)
        check_members(world, group_id, [payer, *debtors])
        return
    user_id = int(me(world)["id"])
    if user_id not in {int(payer["id"]), *(int(d["id"]) for d in debtors)}:
        raise api_error("You can only record expenses you take part in: be the payer or one of the debtors "
                        "(or record it in a group you belong to).")


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES, SHARES, NOTIFICATIONS))
def splitwise_record_expense(world: World, description: str, paid_amount: float, payer_email: str,
                             debtor_emails: list[str], debt_amounts: list[float] | None = None,
                             group_id: int | None = None, receipt_file_path: str | None = None,
                             file_system_access_token: str | None = None) -> dict[str, Any]:
    """Records a shared expense: who paid, who shares the cost and how much each owes.

    Without debt_amounts the paid amount is split equally among debtor_emails (cents are spread so the
    parts add up). Include the payer's own email in debtor_emails when the payer shares the cost too
    (e.g. to split $100 equally between you and Bob, you pay: debtor_emails=[you, bob] -> Bob owes $50);
    if the payer is not listed, the debtors carry the whole amount.

    Args:
        description: what the expense was for (at least 1 character).
        paid_amount: the total paid, in dollars (> 0; rounded to the cent).
        payer_email: the email of the person who paid.
        debtor_emails: emails of everyone sharing the cost (may include the payer).
        debt_amounts: each debtor's part, same order and length as debtor_emails; they must add up to
            paid_amount (within 10 cents), so list the payer with their own part when they share the cost.
        group_id: the group to record it in (payer and debtors must be members); no group when omitted.
        receipt_file_path: a receipt file in your file system (/... or ~/...) to attach.
        file_system_access_token: the access token from file_system_login; needed with receipt_file_path.

    Returns:
        {message, expense_id}
    """
    if not isinstance(description, str) or not description.strip():
        raise api_error("description must be at least 1 character long.")
    amount = to_cents(paid_amount, "paid_amount")
    payer = user_by_email(world, payer_email, "payer_email")
    debtors = _debtors(world, debtor_emails)
    debts = _split(world, amount, payer, debtors, debt_amounts)
    _check_scope(world, group_id, payer, debtors)
    receipt: tuple[str, str] | tuple[None, None] = (None, None)
    if receipt_file_path:
        receipt = files.read_receipt(world, file_system_access_token, receipt_file_path)
    user = me(world)
    debtor_ids = list(debts)
    expense_id = insert(world, EXPENSES, {
        "user_id": user["id"], "group_id": group_id, "payer_id": payer["id"], "debtor_ids": debtor_ids,
        "participant_ids": [int(payer["id"]), *debtor_ids], "description": description.strip(),
        "amount": dollars(amount), "deleted": False, "receipt_file_name": receipt[0],
        "receipt_file_content": receipt[1], "receipt_download_count": 0, "created_at": now(world)})
    _write_shares(world, expense_id, debts)
    notify(world, [payer["id"], *debtor_ids], "expense_added", "New expense",
           f"{full_name(user)} added '{description.strip()}' (${dollars(amount):.2f}).", {"expense_id": expense_id})
    return {"message": "Expense recorded.", "expense_id": expense_id}


@tool(domain=APP, requires=AUTHED, tables=(EXPENSES, SHARES))
def splitwise_show_expense(world: World, expense_id: int) -> dict[str, Any]:
    """Returns one expense you take part in (or of one of your groups) with everyone's share.

    Args:
        expense_id: the expense's id.

    Returns:
        {expense_id, group_id, group_name, description, amount, deleted, receipt_file_name,
        receipt_download_count, created_at, shares: list[{name, email, share_amount, owes_payer}], creator,
        payer, num_comments}; the shares add up to the amount.
    """
    return expense_view(world, visible_record(world, EXPENSES, expense_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES, SHARES, NOTIFICATIONS))
def splitwise_update_expense(world: World, expense_id: int, description: str | None = None,
                             paid_amount: float | None = None, payer_email: str | None = None,
                             debtor_emails: list[str] | None = None,
                             debt_amounts: list[float] | None = None) -> dict[str, str]:
    """Edits an expense's description, amount, payer or split.

    Giving debtor_emails replaces the split (equal unless debt_amounts is given, with the same rules as
    splitwise_record_expense). Changing only paid_amount or payer_email splits the new amount equally
    among the people who shared the expense before.

    Args:
        expense_id: the expense's id.
        description: the new description (at least 1 character).
        paid_amount: the new total in dollars (> 0; rounded to the cent).
        payer_email: the email of the new payer.
        debtor_emails: the new list of everyone sharing the cost (may include the payer).
        debt_amounts: each debtor's part for debtor_emails (requires debtor_emails; same length).

    Returns:
        {message}
    """
    expense = live_record(world, EXPENSES, expense_id)
    if all(v is None for v in (description, paid_amount, payer_email, debtor_emails, debt_amounts)):
        raise api_error("Nothing to update: give description, paid_amount, payer_email, debtor_emails or "
                        "debt_amounts.")
    if debt_amounts is not None and debtor_emails is None:
        raise api_error("debt_amounts requires debtor_emails (the amounts are matched to it by position).")
    if description is not None and not description.strip():
        raise api_error("description must be at least 1 character long.")
    fields: dict[str, Any] = {}
    before = [int(expense["payer_id"]), *shares_of(world, expense)]
    if description is not None:
        fields["description"] = description.strip()
    if paid_amount is not None or payer_email is not None or debtor_emails is not None:
        amount = to_cents(paid_amount, "paid_amount") if paid_amount is not None else to_cents_raw(expense["amount"])
        payer = (user_by_email(world, payer_email, "payer_email") if payer_email is not None
                 else world.get(USERS, expense["payer_id"]))
        if payer is None:
            raise api_error("The expense's payer no longer exists; give payer_email.")
        debtors = _debtors(world, debtor_emails) if debtor_emails is not None else _previous_split(world, expense)
        debts = _split(world, amount, payer, debtors, debt_amounts)
        if expense.get("group_id") is not None:
            check_members(world, expense["group_id"], [payer, *debtors])
        fields.update({"amount": dollars(amount), "payer_id": payer["id"]})
        if int(payer["id"]) != int(expense["payer_id"]):   # AppWorld re-derives participant_ids on a new payer only
            fields["participant_ids"] = [int(payer["id"]), *(expense.get("debtor_ids") or [])]
        _write_shares(world, expense_id, debts)
    world.update(EXPENSES, expense_id, fields)
    notify(world, [*before, int(fields.get("payer_id", expense["payer_id"])), *shares_of(world, expense)],
           "expense_updated", "Expense updated",
           f"{full_name(me(world))} updated '{fields.get('description', expense['description'])}'.",
           {"expense_id": expense_id})
    return {"message": "Expense updated."}


def _people(world: World, expense: dict[str, Any]) -> list[int]:
    """The payer and the debtors of an expense's current shares."""
    return [int(expense["payer_id"]), *shares_of(world, expense)]


def _previous_split(world: World, expense: dict[str, Any]) -> list[dict[str, Any]]:
    """The people who shared the expense: its debtors, plus the payer when they carried a part."""
    owed = shares_of(world, expense)
    ids = list(owed)
    if to_cents_raw(expense["amount"]) > sum(owed.values()):
        ids.insert(0, int(expense["payer_id"]))
    users = [world.get(USERS, uid) for uid in ids]
    return [u for u in users if u is not None]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES, NOTIFICATIONS))
def splitwise_delete_expense(world: World, expense_id: int) -> dict[str, str]:
    """Soft-deletes an expense: it stops counting in balances; participants or group members can restore it
    with splitwise_undelete_expense.

    Args:
        expense_id: the expense's id.

    Returns:
        {message}
    """
    expense = live_record(world, EXPENSES, expense_id)
    world.update(EXPENSES, expense_id, {"deleted": True})
    notify(world, _people(world, expense), "expense_deleted", "Expense deleted",
           f"{full_name(me(world))} deleted '{expense['description']}'.", {"expense_id": expense_id})
    return {"message": "Expense deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES, NOTIFICATIONS))
def splitwise_undelete_expense(world: World, expense_id: int) -> dict[str, str]:
    """Restores a deleted expense.

    Args:
        expense_id: the expense's id (list deleted ones with deleted=true).

    Returns:
        {message}
    """
    expense = restore_record(world, EXPENSES, expense_id)
    notify(world, _people(world, expense), "expense_restored", "Expense restored",
           f"{full_name(me(world))} restored '{expense['description']}'.", {"expense_id": expense_id})
    return {"message": "Expense restored."}


@tool(domain=APP, requires=AUTHED, tables=(EXPENSES,))
def splitwise_show_group_expenses(world: World, group_id: int, query: str | None = "",
                                  participant_email: str | None = None, min_amount: float | None = 0.0,
                                  max_amount: float | None = NO_MAX, min_created_at: str | None = "1500-01-01",
                                  max_created_at: str | None = "3000-01-01", deleted: bool | None = False,
                                  page_index: int | None = 0, page_limit: int | None = 5,
                                  sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches the expenses of a group you belong to.

    Args:
        group_id: the group's id.
        query: words to look for in descriptions and people's names; results are ranked by relevance.
        participant_email: keeps expenses this person paid or shares.
        min_amount: smallest amount to keep (>= 0).
        max_amount: largest amount to keep (>= 0).
        min_created_at: earliest creation date, YYYY-MM-DD (inclusive).
        max_created_at: latest creation date, YYYY-MM-DD (inclusive).
        deleted: false lists live expenses, true deleted ones.
        page_index: the page to return, from 0.
        page_limit: expenses per page, 1 to 20.
        sort_by: +/- created_at or amount; default -created_at (with a query: relevance, then within the page).

    Returns:
        list[expense] (as splitwise_show_expense)
    """
    my_group(world, group_id)
    rows = world.select(EXPENSES, "group_id = ?", (group_id,))
    return list_records(world, EXPENSES, rows, query=query, participant_email=participant_email,
                        min_amount=min_amount, max_amount=max_amount, min_created_at=min_created_at,
                        max_created_at=max_created_at, deleted=deleted, page_index=page_index,
                        page_limit=page_limit, sort_by=sort_by, allowed_sort=("created_at", "amount"))


@tool(domain=APP, requires=AUTHED, tables=(EXPENSES,))
def splitwise_show_no_group_expenses(world: World, query: str | None = "", participant_email: str | None = None,
                                     min_amount: float | None = 0.0, max_amount: float | None = NO_MAX,
                                     min_created_at: str | None = "1500-01-01",
                                     max_created_at: str | None = "3000-01-01", deleted: bool | None = False,
                                     page_index: int | None = 0, page_limit: int | None = 5,
                                     sort_by: str | None = None) -> list[dict[str, Any]]:
    """Lists or searches your expenses that belong to no group.

    Args:
        query: words to look for in descriptions and people's names; results are ranked by relevance.
        participant_email: keeps expenses this person paid or shares.
        min_amount: smallest amount to keep (>= 0).
        max_amount: largest amount to keep (>= 0).
        min_created_at: earliest creation date, YYYY-MM-DD (inclusive).
        max_created_at: latest creation date, YYYY-MM-DD (inclusive).
        deleted: false lists live expenses, true deleted ones.
        page_index: the page to return, from 0.
        page_limit: expenses per page, 1 to 20.
        sort_by: +/-created_at; default -created_at (with a query: relevance, then within the page).

    Returns:
        list[expense] (as splitwise_show_expense)
    """
    user_id = int(me(world)["id"])
    rows = [r for r in world.select(EXPENSES, "group_id IS NULL") if user_id in involved_ids(world, r, is_expense=True)]
    return list_records(world, EXPENSES, rows, query=query, participant_email=participant_email,
                        min_amount=min_amount, max_amount=max_amount, min_created_at=min_created_at,
                        max_created_at=max_created_at, deleted=deleted, page_index=page_index,
                        page_limit=page_limit, sort_by=sort_by, allowed_sort=("created_at",))


# ---------------------------------------------------------------------------------------------- receipts
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES,))
def splitwise_attach_expense_receipt_file(world: World, expense_id: int, receipt_file_path: str,
                                          file_system_access_token: str,
                                          overwrite: bool | None = False) -> dict[str, str]:
    """Attaches a receipt file from your file system to an expense.

    Args:
        expense_id: the expense's id.
        receipt_file_path: the file's path (/... or ~/...).
        file_system_access_token: the access token from file_system_login.
        overwrite: replace an existing receipt (otherwise that is an error).

    Returns:
        {message}
    """
    files.attach(world, EXPENSES, live_record(world, EXPENSES, expense_id), receipt_file_path,
                 file_system_access_token, overwrite)
    return {"message": "Receipt attached to the expense."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES,))
def splitwise_delete_expense_receipt_file(world: World, expense_id: int) -> dict[str, str]:
    """Removes an expense's receipt file.

    Args:
        expense_id: the expense's id.

    Returns:
        {message}
    """
    files.detach(world, EXPENSES, live_record(world, EXPENSES, expense_id))
    return {"message": "Receipt removed from the expense."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSES, FS_FILES))
def splitwise_download_expense_receipt_file(world: World, expense_id: int, file_system_access_token: str,
                                            download_to_file_path: str | None = None,
                                            overwrite: bool | None = False) -> dict[str, str]:
    """Saves an expense's receipt into your file system.

    Args:
        expense_id: the expense's id.
        file_system_access_token: the access token from file_system_login.
        download_to_file_path: a file path, or a directory ending with '/' to keep the receipt's name
            (/... or ~/...); default ~/downloads/.
        overwrite: replace an existing file at that path (otherwise that is an error).

    Returns:
        {message, file_path}
    """
    expense = visible_record(world, EXPENSES, expense_id)
    path = files.download(world, EXPENSES, expense, file_system_access_token, download_to_file_path, overwrite)
    return {"message": "Receipt downloaded.", "file_path": path}
