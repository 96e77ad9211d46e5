"""Calendar namespaces (ToolSandbox layout, SPEC.md §2.2) in the shared ``device`` schema.

``CALENDAR_EVENTS`` holds single events, recurring series ("parents": a recurrence_frequency and no
recurrence_parent_id) and detached occurrences of a series (edited instances, recurrence_parent_id set).
``CALENDAR_EVENTS_RECURRENCE_STAGING`` caches the expanded instances of series that searches produced,
so that instance ids stay stable between searches until the series itself is edited.
"""

from __future__ import annotations

from mmtsb.apps.setting.schema import DEVICE_SCHEMA
from mmtsb.world.schema import table

CALENDARS_KEY = "CALENDARS"
EVENTS_KEY = "CALENDAR_EVENTS"
STAGING_KEY = "CALENDAR_EVENTS_RECURRENCE_STAGING"

EVENT_COLUMNS = {
    "calendar_event_id": "str", "calendar_id": "str", "title": "str", "description": "str",
    "start_datetime": "str", "end_datetime": "str", "is_all_day": "bool", "recurrence_frequency": "str",
    "recurrence_interval": "int", "recurrence_until_datetime": "str", "recurrence_parent_id": "str",
    "recurrence_exclude_datetime": "json", "latitude": "float", "longitude": "float", "place_id": "str",
    "formatted_address": "str", "attendee_names": "json", "attendee_emails": "json",
}

CALENDARS = table(DEVICE_SCHEMA, "calendars", {"calendar_id": "str", "title": "str"}, primary_key="calendar_id",
                  key=CALENDARS_KEY)
CALENDAR_EVENTS = table(DEVICE_SCHEMA, "calendar_events", EVENT_COLUMNS, primary_key="calendar_event_id",
                        key=EVENTS_KEY)
# a cache of expanded occurrences written by searches: internal, so it never shows in diffs or guardrails
# (the reference's guardrails exclude it too)
RECURRENCE_STAGING = table(DEVICE_SCHEMA, "calendar_events_recurrence_staging", EVENT_COLUMNS,
                           primary_key="calendar_event_id", key=STAGING_KEY, internal=True)

TABLES = (CALENDARS, CALENDAR_EVENTS, RECURRENCE_STAGING)
