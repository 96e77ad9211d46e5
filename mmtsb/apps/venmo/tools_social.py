"""Venmo social tools: likes and comments on transactions, comment likes, and the friends' feed."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate, require_non_empty
from mmtsb.apps.venmo.core import (
    APP,
    AUTHED,
    COMMENT_LIKES,
    COMMENTS,
    LIKES,
    TRANSACTIONS,
    friend_ids,
    me,
    now,
    party,
    transaction_view,
    visible_transaction,
)
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


# ------------------------------------------------------------------------------------------ transaction likes
@tool(domain=APP, mutates=True, requires=AUTHED, tables=(LIKES, TRANSACTIONS))
def venmo_like_transaction(world: World, transaction_id: int) -> dict[str, str]:
    """Likes a transaction (yours, or another user's public one); nobody is notified, as in AppWorld.

    Args:
        transaction_id: the transaction's id.

    Returns:
        {message}
    """
    user = me(world)
    txn = visible_transaction(world, transaction_id)
    if world.select(LIKES, "transaction_id = ? AND user_id = ?", (txn["id"], user["id"])):
        raise api_error(f"You have already liked transaction {transaction_id}.")
    world.insert(LIKES, {"transaction_id": txn["id"], "user_id": user["id"], "created_at": now(world)})
    world.update(TRANSACTIONS, txn["id"], {"like_count": int(txn.get("like_count") or 0) + 1})
    return {"message": "Transaction liked."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(LIKES, TRANSACTIONS))
def venmo_unlike_transaction(world: World, transaction_id: int) -> dict[str, str]:
    """Removes a like from a transaction.

    Args:
        transaction_id: a transaction you liked.

    Returns:
        {message}
    """
    txn = visible_transaction(world, transaction_id)
    rows = world.select(LIKES, "transaction_id = ? AND user_id = ?", (txn["id"], me(world)["id"]))
    if not rows:
        raise api_error(f"You have not liked transaction {transaction_id}.")
    for row in rows:
        world.delete(LIKES, row["id"])
    world.update(TRANSACTIONS, txn["id"], {"like_count": max(0, int(txn.get("like_count") or 0) - len(rows))})
    return {"message": "Transaction unliked."}


# ------------------------------------------------------------------------------------------ comments
def _comment_view(world: World, viewer_id: int, row: dict[str, Any]) -> dict[str, Any]:
    liked = bool(world.select(COMMENT_LIKES, "comment_id = ? AND user_id = ?", (row["id"], viewer_id)))
    return {"transaction_id": row.get("transaction_id"), "comment": row.get("comment"),
            "created_at": row.get("created_at"), "like_count": int(row.get("like_count") or 0),
            "comment_id": row["id"], "user": party(world, row.get("user_id")), "liked": liked}


def _visible_comment(world: World, comment_id: int) -> dict[str, Any]:
    row = world.get(COMMENTS, comment_id)
    if row is None:
        raise api_error(f"Transaction comment with comment_id={comment_id} does not exist.")
    try:
        visible_transaction(world, row["transaction_id"])
    except ValueError:
        raise api_error(f"Transaction comment with comment_id={comment_id} does not exist.") from None
    return row


def _own_comment(world: World, comment_id: int) -> dict[str, Any]:
    row = _visible_comment(world, comment_id)
    if row.get("user_id") != me(world)["id"]:
        raise api_error(f"Comment {comment_id} was written by someone else; you can only change your own comments.")
    return row


@tool(domain=APP, requires=AUTHED, tables=(COMMENTS,))
def venmo_show_transaction_comments(world: World, transaction_id: int, page_index: int | None = 0,
                                    page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists comments on a transaction, oldest first.

    Args:
        transaction_id: a transaction you can see.
        page_index: the page to return, from 0.
        page_limit: comments per page, 1 to 20.

    Returns:
        list[{transaction_id, comment, created_at, like_count, comment_id, user: {name, email}, liked}]
    """
    txn = visible_transaction(world, transaction_id)
    rows = world.select(COMMENTS, "transaction_id = ?", (txn["id"],), order_by="created_at, id")
    uid = me(world)["id"]
    return [_comment_view(world, uid, r) for r in paginate(rows, page_index, page_limit)]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENTS,))
def venmo_create_transaction_comment(world: World, transaction_id: int, comment: str) -> dict[str, Any]:
    """Comments on a transaction (yours, or another user's public one); nobody is notified, as in AppWorld.

    Args:
        transaction_id: the transaction's id.
        comment: the comment text (not empty).

    Returns:
        {message, comment_id}
    """
    user = me(world)
    txn = visible_transaction(world, transaction_id)
    require_non_empty(comment, "comment")
    stamp = now(world)
    comment_id = world.insert(COMMENTS, {"transaction_id": txn["id"], "user_id": user["id"], "comment": comment,
                                         "like_count": 0, "created_at": stamp, "updated_at": stamp})
    return {"message": "Comment posted.", "comment_id": int(comment_id)}


@tool(domain=APP, requires=AUTHED, tables=(COMMENTS,))
def venmo_show_transaction_comment(world: World, comment_id: int) -> dict[str, Any]:
    """Returns one transaction comment.

    Args:
        comment_id: the comment's id.

    Returns:
        {transaction_id, comment, created_at, like_count, comment_id, user: {name, email}, liked}
    """
    return _comment_view(world, me(world)["id"], _visible_comment(world, comment_id))


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENTS,))
def venmo_update_transaction_comment(world: World, comment_id: int, comment: str) -> dict[str, str]:
    """Edits a transaction comment (your own).

    Args:
        comment_id: one of your comments.
        comment: the new text (not empty).

    Returns:
        {message}
    """
    row = _own_comment(world, comment_id)
    require_non_empty(comment, "comment")
    world.update(COMMENTS, row["id"], {"comment": comment, "updated_at": now(world)})
    return {"message": "Comment updated."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENTS, COMMENT_LIKES))
def venmo_delete_transaction_comment(world: World, comment_id: int) -> dict[str, str]:
    """Deletes a transaction comment (your own) with its likes.

    Args:
        comment_id: one of your comments.

    Returns:
        {message}
    """
    row = _own_comment(world, comment_id)
    for like in world.select(COMMENT_LIKES, "comment_id = ?", (row["id"],)):
        world.delete(COMMENT_LIKES, like["id"])
    world.delete(COMMENTS, row["id"])
    return {"message": "Comment deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENT_LIKES, COMMENTS))
def venmo_like_transaction_comment(world: World, comment_id: int) -> dict[str, str]:
    """Likes a transaction comment.

    Args:
        comment_id: a comment on a transaction you can see.

    Returns:
        {message}
    """
    user = me(world)
    row = _visible_comment(world, comment_id)
    if world.select(COMMENT_LIKES, "comment_id = ? AND user_id = ?", (row["id"], user["id"])):
        raise api_error(f"You have already liked comment {comment_id}.")
    world.insert(COMMENT_LIKES, {"comment_id": row["id"], "user_id": user["id"], "created_at": now(world)})
    world.update(COMMENTS, row["id"], {"like_count": int(row.get("like_count") or 0) + 1})
    return {"message": "Comment liked."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(COMMENT_LIKES, COMMENTS))
def venmo_unlike_transaction_comment(world: World, comment_id: int) -> dict[str, str]:
    """Removes a like from a transaction comment.

    Args:
        comment_id: a comment you liked.

    Returns:
        {message}
    """
    row = _visible_comment(world, comment_id)
    likes = world.select(COMMENT_LIKES, "comment_id = ? AND user_id = ?", (row["id"], me(world)["id"]))
    if not likes:
        raise api_error(f"You have not liked comment {comment_id}.")
    for like in likes:
        world.delete(COMMENT_LIKES, like["id"])
    world.update(COMMENTS, row["id"], {"like_count": max(0, int(row.get("like_count") or 0) - len(likes))})
    return {"message": "Comment unliked."}


# ------------------------------------------------------------------------------------------ feed
@tool(domain=APP, requires=AUTHED, tables=(TRANSACTIONS,))
def venmo_show_social_feed(world: World, page_index: int | None = 0,
                           page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Shows friends' transactions feed: your friends' public payments and your own, newest first.

    Args:
        page_index: the page to return, from 0.
        page_limit: transactions per page, 1 to 20.

    Returns:
        list[{transaction_id, amount, description, created_at, updated_at, private, like_count, comment_count,
        payment_card_digits, sender, receiver, direction, liked, payment_request_id}]
    """
    uid = me(world)["id"]
    circle = friend_ids(world, uid) | {uid}
    rows = world.select(TRANSACTIONS, "", (), order_by="created_at DESC, id DESC")
    feed = [t for t in rows
            if (t.get("sender_id") in circle or t.get("receiver_id") in circle)
            and (not t.get("private") or uid in (t.get("sender_id"), t.get("receiver_id")))]
    return [transaction_view(world, uid, t) for t in paginate(feed, page_index, page_limit)]
