"""Todoist notifications (project invites, accepted invites, task assignments, removals)."""

from __future__ import annotations

from mmtsb.apps.notifications import NotificationBox
from mmtsb.apps.todoist.schema import APP, NOTIFICATIONS
from mmtsb.apps.todoist.views import notification_view

BOX = NotificationBox(APP, NOTIFICATIONS, notification_view)

# todoist_show_notifications, todoist_delete_notifications, todoist_mark_notifications,
# todoist_show_notifications_count, todoist_delete_notification and todoist_mark_notification:
BOX.add_tools(globals(), "Todoist", wording={"show_notifications_count": "Counts your Todoist notifications."})
