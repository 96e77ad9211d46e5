"""Venmo notifications: payments received, requests (new, approved, denied, reminders), friends, likes, comments."""

from __future__ import annotations

from mmtsb.apps.notifications import NotificationBox
from mmtsb.apps.venmo.core import APP, NOTIFICATIONS, notification_view

BOX = NotificationBox(APP, NOTIFICATIONS, notification_view)

# venmo_show_notifications, venmo_delete_notifications, venmo_mark_notifications, venmo_show_notifications_count,
# venmo_delete_notification and venmo_mark_notification:
BOX.add_tools(globals(), "Venmo", data=" (data holds the ids it refers to,\ne.g. transaction_id or payment_request_id)",
              notification_id="one of your notifications.", wording={
                  "show_notifications": "Lists Venmo notifications, newest first.",
                  "delete_notifications": "Deletes all Venmo notifications.",
                  "mark_notifications": "Marks all Venmo notifications read/unread.",
                  "show_notifications_count": "Counts Venmo notifications.",
                  "delete_notification": "Deletes one Venmo notification.",
                  "mark_notification": "Marks one Venmo notification read/unread."})
