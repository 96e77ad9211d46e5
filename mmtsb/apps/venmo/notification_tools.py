"""Venmo notifications: payments received, requests (new, approved, denied, reminders), friends, likes, comments."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.venmo.core import APP, AUTHED, NOTIFICATIONS, me, notification_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _mine(world: World, read: bool | None = None) -> list[dict[str, Any]]:
    """The logged-in user's notifications, newest first."""
    rows = world.select(NOTIFICATIONS, "user_id = ?", (me(world)["id"],), order_by="created_at DESC, id DESC")
    return rows if read is None else [r for r in rows if bool(r.get("read")) == read]


def _own(world: World, notification_id: int) -> dict[str, Any]:
    row = world.get(NOTIFICATIONS, notification_id)
    if row is None or row.get("user_id") != me(world)["id"]:
        raise api_error(f"Notification with notification_id={notification_id} does not exist.")
    return row


def _plural(n: int) -> str:
    return f"{n} notification{'s' if n != 1 else ''}"


@tool(domain=APP, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_show_notifications(world: World, read: bool | None = None, page_index: int | None = 0,
                             page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists Venmo notifications, newest first.

    Args:
        read: only read (true) or unread (false) notifications; all when omitted.
        page_index: the page to return, from 0.
        page_limit: notifications per page, 1 to 20.

    Returns:
        list[{notification_id, type, title, message, read, created_at, data}] (data holds the ids it refers to,
        e.g. transaction_id or payment_request_id)
    """
    return [notification_view(r) for r in paginate(_mine(world, read), page_index, page_limit)]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_delete_notifications(world: World) -> dict[str, str]:
    """Deletes all Venmo notifications.

    Returns:
        {message}
    """
    rows = _mine(world)
    for r in rows:
        world.delete(NOTIFICATIONS, r["id"])
    return {"message": f"Deleted {_plural(len(rows))}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_mark_notifications(world: World, read: bool) -> dict[str, str]:
    """Marks all Venmo notifications read/unread.

    Args:
        read: true marks them read, false unread.

    Returns:
        {message}
    """
    rows = [r for r in _mine(world) if bool(r.get("read")) != read]
    for r in rows:
        world.update(NOTIFICATIONS, r["id"], {"read": read})
    return {"message": f"Marked {_plural(len(rows))} as {'read' if read else 'unread'}."}


@tool(domain=APP, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_show_notifications_count(world: World, read: bool | None = None) -> dict[str, int]:
    """Counts Venmo notifications.

    Args:
        read: count only read (true) or unread (false) notifications; all when omitted.

    Returns:
        {notifications_count}
    """
    return {"notifications_count": len(_mine(world, read))}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_delete_notification(world: World, notification_id: int) -> dict[str, str]:
    """Deletes one Venmo notification.

    Args:
        notification_id: one of your notifications.

    Returns:
        {message}
    """
    _own(world, notification_id)
    world.delete(NOTIFICATIONS, notification_id)
    return {"message": "Notification deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_mark_notification(world: World, notification_id: int, read: bool) -> dict[str, str]:
    """Marks one Venmo notification read/unread.

    Args:
        notification_id: one of your notifications.
        read: true marks it read, false unread.

    Returns:
        {message}
    """
    _own(world, notification_id)
    world.update(NOTIFICATIONS, notification_id, {"read": read})
    return {"message": f"Notification marked as {'read' if read else 'unread'}."}
