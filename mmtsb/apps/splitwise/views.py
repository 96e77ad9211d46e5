"""How Splitwise rows are shown to the agent (the catalog's return shapes, plus a few helpful extras)."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.splitwise.balances import group_name
from mmtsb.apps.splitwise.core import (EXPENSE_COMMENTS, PAYMENT_COMMENTS, USERS, dollars, full_name, member_ids,
                                       shares_of, to_cents_raw, user_brief)
from mmtsb.world.world import World


def group_view(world: World, group: dict[str, Any]) -> dict[str, Any]:
    members = [user_brief(world, uid) for uid in member_ids(world, group["id"])]
    return {"group_id": group["id"], "name": group["name"], "description": group.get("description"),
            "created_at": group.get("created_at"), "deleted": bool(group.get("deleted")),
            "creator": user_brief(world, group.get("user_id")), "members": members,
            "invitation_code": group.get("invitation_code")}


def expense_shares(world: World, expense: dict[str, Any]) -> list[dict[str, Any]]:
    """Everyone's part of the cost (they add up to the amount); all but the payer owe theirs to the payer."""
    owed = shares_of(world, expense)
    payer = expense.get("payer_id")
    payer_part = to_cents_raw(expense.get("amount")) - sum(c for d, c in owed.items() if d != payer)
    out = []
    if payer is not None and payer_part > 0:
        out.append({**(user_brief(world, payer) or {}), "share_amount": dollars(payer_part), "owes_payer": False})
    for debtor, cents in owed.items():
        if debtor != payer:
            out.append({**(user_brief(world, debtor) or {}), "share_amount": dollars(cents), "owes_payer": True})
    return out


def _record_view(world: World, kind: str, row: dict[str, Any], comments: str) -> dict[str, Any]:
    """An expense or a payment (``kind``) as the catalog shows it: the fields both have, with an expense's shares
    after created_at and a payment's receiver after its payer; ``comments`` is the kind's comment table."""
    out = {f"{kind}_id": row["id"], "group_id": row.get("group_id"), "group_name": group_name(world, row.get("group_id")),
           "description": row.get("description"), "amount": row.get("amount"), "deleted": bool(row.get("deleted")),
           "receipt_file_name": row.get("receipt_file_name"),
           "receipt_download_count": row.get("receipt_download_count") or 0, "created_at": row.get("created_at")}
    if kind == "expense":
        out["shares"] = expense_shares(world, row)
    out["creator"] = user_brief(world, row.get("user_id"))
    out["payer"] = user_brief(world, row.get("payer_id"))
    if kind == "payment":
        out["receiver"] = user_brief(world, row.get("receiver_id"))
    out["num_comments"] = len(world.select(comments, f"{kind}_id = ?", (row["id"],)))
    return out


def expense_view(world: World, expense: dict[str, Any]) -> dict[str, Any]:
    return _record_view(world, "expense", expense, EXPENSE_COMMENTS)


def payment_view(world: World, payment: dict[str, Any]) -> dict[str, Any]:
    return _record_view(world, "payment", payment, PAYMENT_COMMENTS)


def comment_view(world: World, comment: dict[str, Any], kind: str) -> dict[str, Any]:
    """``kind`` is ``expense`` or ``payment``."""
    return {f"{kind}_comment_id": comment["id"], f"{kind}_id": comment[f"{kind}_id"],
            "comment": comment.get("comment"), "created_at": comment.get("created_at"),
            "user": user_brief(world, comment.get("user_id"))}


def notification_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"notification_id": row["id"], "type": row.get("type"), "title": row.get("title"),
            "message": row.get("message"), "read": bool(row.get("read")), "created_at": row.get("created_at"),
            "data": row.get("data") or {}}


def record_search_text(world: World, record: dict[str, Any], people: list[int]) -> list[str | None]:
    """What a query matches in an expense or payment: its description and the people's names."""
    names = [full_name(world.get(USERS, uid)) for uid in people]
    return [record.get("description"), " ".join(names)]
