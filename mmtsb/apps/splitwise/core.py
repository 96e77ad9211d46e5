"""Splitwise building blocks: the acting user, people by email, money in cents, access rules, notifications.

Money is handled in integer cents internally so that shares, balances and settle-up payments always add
up exactly; tables store dollars rounded to cents.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from mmtsb.apps.accounts import check_email, find_user
from mmtsb.apps.common import api_error, current_user, parse_date
from mmtsb.tools.spec import Requirements
from mmtsb.world.world import World

APP = "splitwise"
USERS = "splitwise.users"
GROUPS = "splitwise.groups"
MEMBERS = "splitwise.group_members"
EXPENSES = "splitwise.expenses"
SHARES = "splitwise.expense_shares"
PAYMENTS = "splitwise.payments"
EXPENSE_COMMENTS = "splitwise.expense_comments"
PAYMENT_COMMENTS = "splitwise.payment_comments"
NOTIFICATIONS = "splitwise.notifications"

#: new rows continue the id ranges the released scenario files use (groups 400+, members 1100+, ...)
ID_FLOORS = {GROUPS: 400, MEMBERS: 1100, EXPENSES: 5200, SHARES: 200}

ONLINE = Requirements(network=True)
AUTHED = Requirements(network=True, auth=APP)


def now(world: World) -> str:
    return world.clock.now_str()[:19]


def insert(world: World, key: str, row: dict[str, Any]) -> int:
    """Insert a row with the next id of its table (never below the table's id floor)."""
    new_id = max(world.next_id(key), ID_FLOORS.get(key, 1))
    world.insert(key, {**row, "id": new_id})
    return new_id


def me(world: World) -> dict[str, Any]:
    """The logged-in Splitwise user's row."""
    return current_user(world, APP)


# ---------------------------------------------------------------------------------------------- people
def user_by_email(world: World, email: str, field: str) -> dict[str, Any]:
    """The Splitwise user with this email; the error names the parameter."""
    if not isinstance(email, str) or not email.strip():
        raise api_error(f"{field} must be a non-empty email address.")
    try:
        check_email(email.strip())
    except ValueError:
        raise api_error(f"Invalid email address {email!r} in {field}.") from None
    user = find_user(world, APP, email.strip())
    if user is None:
        raise api_error(f"No Splitwise user with email {email!r} ({field}).")
    return user


def full_name(user: dict[str, Any] | None) -> str:
    if user is None:
        return "Unknown user"
    return f"{user.get('first_name') or ''} {user.get('last_name') or ''}".strip()


def user_brief(world: World, user_id: int | None) -> dict[str, Any] | None:
    """``{name, email}`` of a user (None for an unknown id)."""
    if user_id is None:
        return None
    user = world.get(USERS, user_id)
    if user is None:
        return {"name": "Unknown user", "email": None}
    return {"name": full_name(user), "email": user.get("email")}


# ---------------------------------------------------------------------------------------------- money
def to_cents(value: float | int, field: str, *, allow_zero: bool = False) -> int:
    """Dollars -> cents, rounded to the cent as AppWorld stores amounts, rejecting negatives and non-numbers."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise api_error(f"{field} must be a number.")
    cents = int(round(round(value, 2) * 100))
    if value < 0 or (cents == 0 and not allow_zero):
        raise api_error(f"{field} must be {'>= 0' if allow_zero else 'greater than 0'}; got {value}.")
    return cents


def dollars(cents: int) -> float:
    return round(cents / 100, 2)


def equal_split(total_cents: int, count: int) -> list[int]:
    """Split cents equally; the first ``remainder`` people carry one extra cent, so the parts add up."""
    base, extra = divmod(total_cents, count)
    return [base + (1 if i < extra else 0) for i in range(count)]


# ---------------------------------------------------------------------------------------------- groups
def member_ids(world: World, group_id: int) -> list[int]:
    return [int(r["user_id"]) for r in world.select(MEMBERS, "group_id = ?", (group_id,))]


def is_member(world: World, group_id: int, user_id: int) -> bool:
    return bool(world.select(MEMBERS, "group_id = ? AND user_id = ?", (group_id, user_id)))


def my_group(world: World, group_id: int, *, allow_deleted: bool = True) -> dict[str, Any]:
    """A group the logged-in user belongs to (others' groups look like missing ones)."""
    group = world.get(GROUPS, group_id)
    if group is None or not is_member(world, group_id, int(me(world)["id"])):
        raise api_error(f"Group with group_id={group_id} does not exist or you are not a member of it.")
    if group.get("deleted") and not allow_deleted:
        raise api_error(f"Group with group_id={group_id} is deleted; restore it with splitwise_undelete_group "
                        "first.")
    return group


def check_members(world: World, group_id: int, users: Iterable[dict[str, Any]]) -> None:
    """Everyone involved in a group record must belong to the group."""
    outsiders = [u["email"] for u in users if not is_member(world, group_id, int(u["id"]))]
    if outsiders:
        raise api_error(f"Not members of group {group_id}: {', '.join(dict.fromkeys(outsiders))}. Add them with "
                        "splitwise_add_member_to_group first.")


def new_invitation_code(world: World) -> str:
    """A fresh, unused 10-character join code (deterministic per world)."""
    while True:
        code = world.new_uuid().replace("-", "")[:10].upper()
        if not world.select(GROUPS, "invitation_code = ?", (code,)):
            return code


# ---------------------------------------------------------------------------------------------- records
def involved_ids(world: World, record: dict[str, Any], *, is_expense: bool) -> set[int]:
    """Everyone a record concerns: its creator and the people whose money it moves (an expense's payer and the
    debtors of its current shares, as AppWorld's authorization counts them; the row's ``debtor_ids`` only for an
    expense with no share rows. Like AppWorld, the row's ``debtor_ids``/``participant_ids`` are bookkeeping set
    when it is recorded, which a later change of the split does not rewrite)."""
    ids = {record.get("user_id"), record.get("payer_id")}
    if is_expense:
        debtors = set(shares_of(world, record)) if record.get("id") is not None else set()
        ids |= debtors or set(record.get("participant_ids") or []) | set(record.get("debtor_ids") or [])
    else:
        ids.add(record.get("receiver_id"))
    return {int(i) for i in ids if i is not None}


def can_see(world: World, record: dict[str, Any], user_id: int, *, is_expense: bool) -> bool:
    if user_id in involved_ids(world, record, is_expense=is_expense):
        return True
    group_id = record.get("group_id")
    return group_id is not None and is_member(world, group_id, user_id)


def visible_record(world: World, key: str, record_id: int) -> dict[str, Any]:
    """An expense or payment the logged-in user may see (participants, or members of its group)."""
    is_expense = key == EXPENSES
    what, field = ("Expense", "expense_id") if is_expense else ("Payment", "payment_id")
    row = world.get(key, record_id)
    if row is None or not can_see(world, row, int(me(world)["id"]), is_expense=is_expense):
        raise api_error(f"{what} with {field}={record_id} does not exist.")
    return row


def live_record(world: World, key: str, record_id: int) -> dict[str, Any]:
    """A visible record that is not deleted (needed before editing it)."""
    row = visible_record(world, key, record_id)
    if row.get("deleted"):
        what, field = ("Expense", "expense_id") if key == EXPENSES else ("Payment", "payment_id")
        raise api_error(f"{what} with {field}={record_id} is deleted; restore it first.")
    return row


def restore_record(world: World, key: str, record_id: int) -> dict[str, Any]:
    """Un-delete a visible deleted expense or payment (not while its group is deleted); the record as it was."""
    row = visible_record(world, key, record_id)
    what, field = ("Expense", "expense_id") if key == EXPENSES else ("Payment", "payment_id")
    if not row.get("deleted"):
        raise api_error(f"{what} with {field}={record_id} is not deleted.")
    group = world.get(GROUPS, row["group_id"]) if row.get("group_id") is not None else None
    if group is not None and group.get("deleted"):
        raise api_error(f"The {what.lower()} belongs to the deleted group {group['id']}; restore the group first.")
    world.update(key, record_id, {"deleted": False})
    return row


def shares_of(world: World, expense: dict[str, Any]) -> dict[int, int]:
    """debtor id -> cents owed to the payer (the payer never owes themself)."""
    return {int(r["debtor_id"]): to_cents_raw(r["share_amount"])
            for r in world.select(SHARES, "expense_id = ?", (expense["id"],))}


def to_cents_raw(value: float | None) -> int:
    return int(round((value or 0) * 100))


# ---------------------------------------------------------------------------------------------- notifications
def notify(world: World, user_ids: Iterable[int], kind: str, title: str, message: str,
           data: dict[str, Any], *, actor_too: bool = False) -> None:
    """One unread notification for each user except the one acting (unless ``actor_too``: AppWorld tells the
    actor too when they add or remove a group member)."""
    actor = int(me(world)["id"])
    stamp = now(world)
    for uid in dict.fromkeys(int(u) for u in user_ids):
        if uid == actor and not actor_too:
            continue
        world.insert(NOTIFICATIONS, {"user_id": uid, "type": kind, "title": title, "message": message,
                                     "read": False, "data": data, "created_at": stamp})


def date_bounds(min_created_at: str | None, max_created_at: str | None) -> tuple[str, str]:
    """Inclusive ``YYYY-MM-DDTHH:MM:SS`` bounds from ``YYYY-MM-DD`` (or ``YYYY-MM-DD|HH:MM:SS``) texts."""
    low = parse_date(min_created_at or "1500-01-01", "min_created_at").strftime("%Y-%m-%dT%H:%M:%S")
    high_text = max_created_at or "3000-01-01"
    high = parse_date(high_text, "max_created_at")
    has_time = "|" in high_text or "T" in high_text or " " in high_text.strip()
    upper = high.strftime("%Y-%m-%dT%H:%M:%S") if has_time else high.strftime("%Y-%m-%dT23:59:59")
    if low > upper:
        raise api_error("min_created_at must not be after max_created_at.")
    return low, upper
