"""Splitwise notifications: what others did with your groups, expenses and payments."""

from __future__ import annotations

from mmtsb.apps.notifications import NotificationBox
from mmtsb.apps.splitwise.core import APP, NOTIFICATIONS
from mmtsb.apps.splitwise.views import notification_view

BOX = NotificationBox(APP, NOTIFICATIONS, notification_view)

# splitwise_show_notifications, splitwise_delete_notifications, splitwise_mark_notifications,
# splitwise_show_notifications_count, splitwise_delete_notification and splitwise_mark_notification:
BOX.add_tools(globals(), "Splitwise", data="; data holds the ids the\nnotification refers to (group_id, expense_id, "
                                           "payment_id, ...).")
