"""Venmo notifications: payments received, requests (new, approved, denied, reminders), friends, likes, comments."""

from __future__ import annotations

from typing import Any

from mmtsb.apps.notifications import NotificationBox
from mmtsb.apps.venmo.core import APP, AUTHED, NOTIFICATIONS, notification_view
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

BOX = NotificationBox(APP, NOTIFICATIONS, notification_view)


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
    return BOX.show(world, read, page_index, page_limit)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_delete_notifications(world: World) -> dict[str, str]:
    """Deletes all Venmo notifications.

    Returns:
        {message}
    """
    return BOX.delete_all(world)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_mark_notifications(world: World, read: bool) -> dict[str, str]:
    """Marks all Venmo notifications read/unread.

    Args:
        read: true marks them read, false unread.

    Returns:
        {message}
    """
    return BOX.mark_all(world, read)


@tool(domain=APP, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_show_notifications_count(world: World, read: bool | None = None) -> dict[str, int]:
    """Counts Venmo notifications.

    Args:
        read: count only read (true) or unread (false) notifications; all when omitted.

    Returns:
        {notifications_count}
    """
    return BOX.count(world, read)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_delete_notification(world: World, notification_id: int) -> dict[str, str]:
    """Deletes one Venmo notification.

    Args:
        notification_id: one of your notifications.

    Returns:
        {message}
    """
    return BOX.delete_one(world, notification_id)


@tool(domain=APP, mutates=True, requires=AUTHED, tables=(NOTIFICATIONS,))
def venmo_mark_notification(world: World, notification_id: int, read: bool) -> dict[str, str]:
    """Marks one Venmo notification read/unread.

    Args:
        notification_id: one of your notifications.
        read: true marks it read, false unread.

    Returns:
        {message}
    """
    return BOX.mark_one(world, notification_id, read)
