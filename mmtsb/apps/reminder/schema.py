"""The REMINDER namespace (ToolSandbox layout, SPEC.md §2.2) in the shared ``device`` schema."""

from __future__ import annotations

from mmtsb.apps.setting.schema import DEVICE_SCHEMA
from mmtsb.world.schema import table

REMINDER_KEY = "REMINDER"
#: what search_reminder returns per reminder (every column)
REMINDER_FIELDS = ("reminder_id", "content", "creation_datetime", "reminder_datetime", "latitude", "longitude")

REMINDER = table(DEVICE_SCHEMA, "reminder", {
    "reminder_id": "str", "content": "str", "creation_datetime": "str", "reminder_datetime": "str",
    "latitude": "float", "longitude": "float",
}, primary_key="reminder_id", key=REMINDER_KEY)

TABLES = (REMINDER,)
