"""Splitwise notifications: what others did with your groups, expenses and payments."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.notifications import NotificationBox
from mmtsb.apps.splitwise.core import APP, AUTHED, NOTIFICATIONS
from mmtsb.apps.splitwise.views import notification_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

BOX = NotificationBox(APP, NOTIFICATIONS, notification_view)


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
    return BOX.show(world, read, page_index, page_limit)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_delete_notifications(world: World) -> dict[str, str]:
    """Deletes all your Splitwise notifications.

    Returns:
        {message}
    """
    return BOX.delete_all(world)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_mark_notifications(world: World, read: bool) -> dict[str, str]:
    """Marks every one of your Splitwise notifications as read or unread.

    Args:
        read: true marks them read, false unread.

    Returns:
        {message}
    """
    return BOX.mark_all(world, read)


@tool(domain=APP, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_show_notifications_count(world: World, read: bool | None = None) -> dict[str, int]:
    """Counts your Splitwise notifications, optionally only read or unread ones.

    Args:
        read: count only read (true) or unread (false) notifications; all when omitted.

    Returns:
        {notifications_count}
    """
    return BOX.count(world, read)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_delete_notification(world: World, notification_id: int) -> dict[str, str]:
    """Deletes one of your Splitwise notifications.

    Args:
        notification_id: the notification's id.

    Returns:
        {message}
    """
    return BOX.delete_one(world, notification_id)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def splitwise_mark_notification(world: World, notification_id: int, read: bool) -> dict[str, str]:
    """Marks one of your Splitwise notifications as read or unread.

    Args:
        notification_id: the notification's id.
        read: true marks it read, false unread.

    Returns:
        {message}
    """
    return BOX.mark_one(world, notification_id, read)
