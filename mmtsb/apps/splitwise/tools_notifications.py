"""Splitwise notifications: what others did with your groups, expenses and payments."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.splitwise.core import APP, AUTHED, NOTIFICATIONS, me
from mmtsb.apps.splitwise.views import notification_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World


def _mine(world: World, read: bool | None = None) -> list[dict[str, Any]]:
    """The logged-in user's notifications, newest first."""
    rows = world.select(NOTIFICATIONS, "user_id = ?", (me(world)["id"],), order_by="created_at DESC, id DESC")
    return rows if read is None else [r for r in rows if bool(r.get("read")) == read]


def _own(world: World, notification_id: int) -> dict[str, Any]:
    row = world.get(NOTIFICATIONS, notification_id)
    if row is None or row["user_id"] != me(world)["id"]:
        raise api_error(f"Notification with notification_id={notification_id} does not exist.")
    return row


@tool(domain=APP, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_show_notifications(world: World, read: bool | None = None, page_index: int | None = 0,
                                 page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists your Splitwise notifications, newest first.

    Args:
        read: only read (true) or unread (false) notifications; all when omitted.
        page_index: the page to return, from 0.
        page_limit: notifications per page, 1 to 20.

    Returns:
        list[{notification_id, type, title, message, read, created_at, data}]; data holds the ids the
        notification refers to (group_id, expense_id, payment_id, ...).
    """
    return [notification_view(r) for r in paginate(_mine(world, read), page_index, page_limit)]


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_delete_notifications(world: World) -> dict[str, str]:
    """Deletes all your Splitwise notifications.

    Returns:
        {message}
    """
    rows = _mine(world)
    for r in rows:
        world.delete(NOTIFICATIONS, r["id"])
    return {"message": f"Deleted {len(rows)} notification{'s' if len(rows) != 1 else ''}."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_mark_notifications(world: World, read: bool) -> dict[str, str]:
    """Marks every one of your Splitwise notifications as read or unread.

    Args:
        read: true marks them read, false unread.

    Returns:
        {message}
    """
    changed = 0
    for r in _mine(world):
        if bool(r.get("read")) != read:
            world.update(NOTIFICATIONS, r["id"], {"read": read})
            changed += 1
    return {"message": f"Marked {changed} notification{'s' if changed != 1 else ''} as "
                       f"{'read' if read else 'unread'}."}


@tool(domain=APP, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_show_notifications_count(world: World, read: bool | None = None) -> dict[str, int]:
    """Counts your Splitwise notifications, optionally only read or unread ones.

    Args:
        read: count only read (true) or unread (false) notifications; all when omitted.

    Returns:
        {notifications_count}
    """
    return {"notifications_count": len(_mine(world, read))}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_delete_notification(world: World, notification_id: int) -> dict[str, str]:
    """Deletes one of your Splitwise notifications.

    Args:
        notification_id: the notification's id.

    Returns:
        {message}
    """
    _own(world, notification_id)
    world.delete(NOTIFICATIONS, notification_id)
    return {"message": "Notification deleted."}


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_mark_notification(world: World, notification_id: int, read: bool) -> dict[str, str]:
    """Marks one of your Splitwise notifications as read or unread.

    Args:
        notification_id: the notification's id.
        read: true marks it read, false unread.

    Returns:
        {message}
    """
    _own(world, notification_id)
    world.update(NOTIFICATIONS, notification_id, {"read": read})
    return {"message": f"Notification marked as {'read' if read else 'unread'}."}
