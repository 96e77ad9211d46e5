"""Comments on expenses and payments: anyone who can see the record may comment; only authors edit or delete."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.splitwise.core import (APP, AUTHED, EXPENSE_COMMENTS, EXPENSES, NOTIFICATIONS, PAYMENT_COMMENTS,
                                       PAYMENTS, full_name, involved_ids, me, notify, now, visible_record)
from mmtsb.apps.splitwise.views import comment_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

MAX_COMMENT = 1000
_KINDS = {"expense": (EXPENSES, EXPENSE_COMMENTS), "payment": (PAYMENTS, PAYMENT_COMMENTS)}


def _check_text(comment: str) -> str:
    if not isinstance(comment, str) or not comment.strip():
        raise api_error("comment must be at least 1 character long.")
    if len(comment) > MAX_COMMENT:
        raise api_error(f"comment must be at most {MAX_COMMENT} characters long; got {len(comment)}.")
    return comment


def _post(world: World, kind: str, record_id: int, comment: str) -> int:
    records, comments = _KINDS[kind]
    record = visible_record(world, records, record_id)
    _check_text(comment)
    user = me(world)
    comment_id = world.insert(comments, {f"{kind}_id": record_id, "user_id": user["id"], "comment": comment,
                                         "created_at": now(world)})
    notify(world, involved_ids(world, record, is_expense=kind == "expense"), f"{kind}_comment", "New comment",
           f"{full_name(user)} commented on {'an' if kind == 'expense' else 'a'} {kind}: {comment[:80]}",
           {f"{kind}_id": record_id, f"{kind}_comment_id": comment_id})
    return comment_id


def _visible_comment(world: World, kind: str, comment_id: int) -> dict[str, Any]:
    records, comments = _KINDS[kind]
    row = world.get(comments, comment_id)
    missing = api_error(f"{kind.title()} comment with comment_id={comment_id} does not exist.")
    if row is None:
        raise missing
    try:
        visible_record(world, records, row[f"{kind}_id"])
    except ValueError:
        raise missing from None
    return row


def _own_comment(world: World, kind: str, comment_id: int) -> dict[str, Any]:
    row = _visible_comment(world, kind, comment_id)
    if int(row["user_id"]) != int(me(world)["id"]):
        raise api_error(f"You can only change your own comments; comment {comment_id} was written by someone else.")
    return row


def _listing(world: World, kind: str, record_id: int) -> list[dict[str, Any]]:
    records, comments = _KINDS[kind]
    visible_record(world, records, record_id)
    rows = world.select(comments, f"{kind}_id = ?", (record_id,), order_by="created_at, id")
    return [comment_view(world, r, kind) for r in rows]


# ---------------------------------------------------------------------------------------------- expenses
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSE_COMMENTS, NOTIFICATIONS))
def splitwise_post_expense_comment(world: World, expense_id: int, comment: str) -> dict[str, Any]:
    """Adds a comment to an expense you can see.

    Args:
        expense_id: the expense's id.
        comment: the text, 1 to 1000 characters.

    Returns:
        {message, expense_comment_id}
    """
    return {"message": "Comment posted.", "expense_comment_id": _post(world, "expense", expense_id, comment)}


@tool(domain=APP, requires=AUTHED, tables=(EXPENSE_COMMENTS,))
def splitwise_show_expense_comments(world: World, expense_id: int, page_index: int | None = 0,
                                    page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists the comments on an expense, oldest first.

    Args:
        expense_id: the expense's id.
        page_index: the page to return, from 0.
        page_limit: comments per page, 1 to 20.

    Returns:
        list[{expense_comment_id, expense_id, comment, created_at, user}]
    """
    return paginate(_listing(world, "expense", expense_id), page_index, page_limit)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSE_COMMENTS,))
def splitwise_update_expense_comment(world: World, comment_id: int, comment: str) -> dict[str, str]:
    """Edits one of your expense comments.

    Args:
        comment_id: the comment's id (expense_comment_id).
        comment: the new text, 1 to 1000 characters.

    Returns:
        {message}
    """
    _own_comment(world, "expense", comment_id)
    world.update(EXPENSE_COMMENTS, comment_id, {"comment": _check_text(comment)})
    return {"message": "Comment updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(EXPENSE_COMMENTS,))
def splitwise_delete_expense_comment(world: World, comment_id: int) -> dict[str, str]:
    """Deletes one of your expense comments.

    Args:
        comment_id: the comment's id (expense_comment_id).

    Returns:
        {message}
    """
    _own_comment(world, "expense", comment_id)
    world.delete(EXPENSE_COMMENTS, comment_id)
    return {"message": "Comment deleted."}


@tool(domain=APP, requires=AUTHED, tables=(EXPENSE_COMMENTS,))
def splitwise_show_expense_comment(world: World, comment_id: int) -> dict[str, Any]:
    """Returns one expense comment.

    Args:
        comment_id: the comment's id (expense_comment_id).

    Returns:
        {expense_comment_id, expense_id, comment, created_at, user}
    """
    return comment_view(world, _visible_comment(world, "expense", comment_id), "expense")


# ---------------------------------------------------------------------------------------------- payments
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENT_COMMENTS, NOTIFICATIONS))
def splitwise_post_payment_comment(world: World, payment_id: int, comment: str) -> dict[str, Any]:
    """Adds a comment to a payment you can see.

    Args:
        payment_id: the payment's id.
        comment: the text, 1 to 1000 characters.

    Returns:
        {message, payment_comment_id}
    """
    return {"message": "Comment posted.", "payment_comment_id": _post(world, "payment", payment_id, comment)}


@tool(domain=APP, requires=AUTHED, tables=(PAYMENT_COMMENTS,))
def splitwise_show_payment_comments(world: World, payment_id: int) -> list[dict[str, Any]]:
    """Lists all comments on a payment, oldest first.

    Args:
        payment_id: the payment's id.

    Returns:
        list[{payment_comment_id, payment_id, comment, created_at, user}]
    """
    return _listing(world, "payment", payment_id)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENT_COMMENTS,))
def splitwise_update_payment_comment(world: World, comment_id: int, comment: str) -> dict[str, str]:
    """Edits one of your payment comments.

    Args:
        comment_id: the comment's id (payment_comment_id).
        comment: the new text, 1 to 1000 characters.

    Returns:
        {message}
    """
    _own_comment(world, "payment", comment_id)
    world.update(PAYMENT_COMMENTS, comment_id, {"comment": _check_text(comment)})
    return {"message": "Comment updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(PAYMENT_COMMENTS,))
def splitwise_delete_payment_comment(world: World, comment_id: int) -> dict[str, str]:
    """Deletes one of your payment comments.

    Args:
        comment_id: the comment's id (payment_comment_id).

    Returns:
        {message}
    """
    _own_comment(world, "payment", comment_id)
    world.delete(PAYMENT_COMMENTS, comment_id)
    return {"message": "Comment deleted."}


@tool(domain=APP, requires=AUTHED, tables=(PAYMENT_COMMENTS,))
def splitwise_show_payment_comment(world: World, comment_id: int) -> dict[str, Any]:
    """Returns one payment comment.

    Args:
        comment_id: the comment's id (payment_comment_id).

    Returns:
        {payment_comment_id, payment_id, comment, created_at, user}
    """
    return comment_view(world, _visible_comment(world, "payment", comment_id), "payment")
