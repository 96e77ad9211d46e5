"""The expense and payment listings: filters (participant, amount range, dates, deleted), relevance search,
pagination and ``sort_by`` (TOOLS.md §4)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate, parse_sort_by, search_rank
from mmtsb.apps.splitwise.core import EXPENSES, date_bounds, involved_ids, me, shares_of, user_by_email
from mmtsb.apps.splitwise.views import expense_view, payment_view, record_search_text
from mmtsb.world.world import World

NO_MAX = 9.223372036854776e+18


def _amount_bounds(min_amount: float | None, max_amount: float | None) -> tuple[float, float]:
    low = 0.0 if min_amount is None else float(min_amount)
    high = NO_MAX if max_amount is None else float(max_amount)
    if low < 0:
        raise api_error(f"min_amount must be >= 0; got {min_amount}.")
    if high < 0:
        raise api_error(f"max_amount must be >= 0; got {max_amount}.")
    if low > high:
        raise api_error(f"min_amount ({min_amount}) must not be greater than max_amount ({max_amount}).")
    return low, high


def list_records(world: World, key: str, rows: list[dict[str, Any]], *, query: str | None,
                 participant_email: str | None, min_amount: float | None, max_amount: float | None,
                 min_created_at: str | None, max_created_at: str | None, deleted: bool | None,
                 page_index: int | None, page_limit: int | None, sort_by: str | None,
                 allowed_sort: tuple[str, ...]) -> list[dict[str, Any]]:
    """Filter, search, sort and page expense or payment rows, returned as their views.

    ``deleted`` keeps deleted (true) or live (false) records; None keeps both.
    """
    is_expense = key == EXPENSES
    low, high = _amount_bounds(min_amount, max_amount)
    start, end = date_bounds(min_created_at, max_created_at)
    if deleted is not None:
        rows = [r for r in rows if bool(r.get("deleted")) == deleted]
    if participant_email is not None:
        person = int(user_by_email(world, participant_email, "participant_email")["id"])
        rows = [r for r in rows
                if person in involved_ids(world, r, is_expense=is_expense) - _creator_only(world, r, is_expense)]
    rows = [r for r in rows if low - 1e-9 <= float(r.get("amount") or 0) <= high + 1e-9
            and start <= str(r.get("created_at") or "")[:19] <= end]
    me(world)  # listings require a live account

    def text(r: dict[str, Any]) -> list[str | None]:
        return record_search_text(world, r, sorted(involved_ids(world, r, is_expense=is_expense)))

    spec = parse_sort_by(sort_by, allowed_sort)
    if query and query.strip():
        page = paginate(search_rank(rows, query, text), page_index, page_limit)
        page = ordered(page, spec) if spec else page
    else:
        page = paginate(ordered(rows, spec or ("created_at", True)), page_index, page_limit)
    view = expense_view if is_expense else payment_view
    return [view(world, r) for r in page]


def ordered(rows: list[dict[str, Any]], spec: tuple[str, bool]) -> list[dict[str, Any]]:
    """Sort by one attribute; ties (records made at the same moment) follow the id in the same direction."""
    attr, descending = spec
    return sorted(rows, key=lambda r: (r.get(attr) is not None, r.get(attr) or 0, r["id"]), reverse=descending)


def _creator_only(world: World, record: dict[str, Any], is_expense: bool) -> set[int]:
    """The creator when they recorded it without taking part (not a participant)."""
    moved = {record.get("payer_id")}
    moved |= set(shares_of(world, record)) if is_expense else {record.get("receiver_id")}
    creator = record.get("user_id")
    return {int(creator)} if creator is not None and creator not in moved else set()
