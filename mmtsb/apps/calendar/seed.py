"""The base calendars and demo events every scenario starts from (SPEC.md §2.3; the content is ours).

Event times are relative specs (see :mod:`mmtsb.apps.calendar.relative`) resolved against the scenario's
reference time in the device's time zone, so "tomorrow at 8 pm" is always tomorrow. Ids are fixed, so
the same event has the same id in every world.
"""

from __future__ import annotations

import uuid
from typing import Any

from mmtsb.apps.base import BaseContext
from mmtsb.apps.calendar.relative import resolve_relative
from mmtsb.apps.calendar.schema import CALENDARS_KEY, EVENTS_KEY
from mmtsb.apps.setting.schema import DEVICE_UTC_OFFSET_SECONDS
from mmtsb.world.world import World

PERSONAL_CALENDAR_ID = "5b0f7a62-3c1e-4d8a-9f2b-6e4c1a7d9e01"
WORK_CALENDAR_ID = "c2e9d4b8-71a5-4f36-8b0d-2f9e6a3c5b17"
BASE_CALENDARS = ({"calendar_id": PERSONAL_CALENDAR_ID, "title": "Personal"},
                  {"calendar_id": WORK_CALENDAR_ID, "title": "Work"})

_EVENT_NAMESPACE = uuid.UUID("9d1c3f0e-6a2b-4c8d-b7e5-1f0a2d3c4b5e")
_WORK_TEAM = (["Jordan Lee", "Priya Natarajan", "Marco Rossi"],
              ["jordan.lee@example.com", "priya.n@example.com", "marco.rossi@example.com"])

#: (slug, calendar, title, start spec, end spec, extra columns); "next Monday" = days=+1 then MO(+1)
DEMO_EVENTS: tuple[tuple[str, str, str, dict[str, Any], dict[str, Any], dict[str, Any]], ...] = (
    ("gym", PERSONAL_CALENDAR_ID, "Morning gym session",
     {"days": -7, "weekday": "MO(+1)", "hour": 7}, {"days": -7, "weekday": "MO(+1)", "hour": 8},
     {"description": "Strength training at the community gym", "recurrence_frequency": "WEEKLY",
      "recurrence_interval": 1}),
    ("cleaning", PERSONAL_CALENDAR_ID, "House cleaning",
     {"days": 2, "hour": 10}, {"days": 2, "hour": 12},
     {"description": "Cleaning service comes by; leave the key under the mat"}),
    ("dinner", PERSONAL_CALENDAR_ID, "Dinner reservation at Saratoga Bistro",
     {"days": 1, "hour": 20}, {"days": 1, "hour": 22},
     {"description": "Table for two", "formatted_address": "14500 Big Basin Way, Saratoga, CA 95070, USA",
      "latitude": 37.2563, "longitude": -122.0335}),
    ("dmv", PERSONAL_CALENDAR_ID, "DMV appointment",
     {"days": 1, "weekday": "WE(+1)", "hour": 9, "minute": 30}, {"days": 1, "weekday": "WE(+1)", "hour": 10, "minute": 30},
     {"description": "Renew driver's license; bring passport and proof of address",
      "formatted_address": "111 W Alma Ave, San Jose, CA 95110, USA", "latitude": 37.3133, "longitude": -121.8863}),
    ("one_on_one_manager", WORK_CALENDAR_ID, "1:1 with manager",
     {"days": 1, "hour": 10}, {"days": 1, "hour": 10, "minute": 30},
     {"description": "Weekly check-in: priorities and blockers", "recurrence_frequency": "WEEKLY",
      "recurrence_interval": 1}),
    ("one_on_one_jordan", WORK_CALENDAR_ID, "1:1 with Jordan",
     {"days": -1, "hour": 15}, {"days": -1, "hour": 15, "minute": 30},
     {"recurrence_frequency": "WEEKLY", "recurrence_interval": 2, "attendee_names": ["Jordan Lee"],
      "attendee_emails": ["jordan.lee@example.com"]}),
    ("planning", WORK_CALENDAR_ID, "Project planning",
     {"hour": 9}, {"hour": 10, "minute": 30},
     {"description": "Scope the Q3 roadmap and assign owners", "attendee_names": _WORK_TEAM[0],
      "attendee_emails": _WORK_TEAM[1]}),
    ("happy_hour", WORK_CALENDAR_ID, "Team happy hour",
     {"hour": 17, "minute": 30}, {"hour": 19},
     {"description": "Drinks and snacks with the team", "formatted_address": "Village Square, Saratoga, CA 95070, USA"}),
    ("ooo", WORK_CALENDAR_ID, "Out of office",
     {"days": 1, "weekday": "MO(+1)", "hour": 0}, {"days": 1, "weekday": "WE(+1)", "hour": 0},
     {"description": "Family trip, not reachable", "is_all_day": True}),
    ("kickoff", WORK_CALENDAR_ID, "Project kickoff",
     {"days": 1, "weekday": "TU(+1)", "hour": 10}, {"days": 1, "weekday": "TU(+1)", "hour": 11},
     {"description": "Kickoff for the mobile app redesign", "attendee_names": _WORK_TEAM[0],
      "attendee_emails": _WORK_TEAM[1]}),
    ("brainstorm", WORK_CALENDAR_ID, "Brainstorming session",
     {"days": 1, "weekday": "TU(+1)", "hour": 14}, {"days": 1, "weekday": "TU(+1)", "hour": 15, "minute": 30},
     {"description": "Ideas for the onboarding flow", "attendee_names": _WORK_TEAM[0][:2],
      "attendee_emails": _WORK_TEAM[1][:2]}),
    ("dentist", PERSONAL_CALENDAR_ID, "Dentist appointment",
     {"days": 8, "hour": 8}, {"days": 8, "hour": 9},
     {"formatted_address": "18750 Cox Ave, Saratoga, CA 95070, USA", "latitude": 37.2766, "longitude": -122.0022}),
    ("book_club", PERSONAL_CALENDAR_ID, "Book club",
     {"days": -10, "hour": 19}, {"days": -10, "hour": 21},
     {"description": "This month: a novel picked by Sam", "recurrence_frequency": "MONTHLY", "recurrence_interval": 1}),
    ("review", WORK_CALENDAR_ID, "Quarterly business review",
     {"days": 14, "hour": 13}, {"days": 14, "hour": 15},
     {"description": "Present Q2 results to leadership"}),
    ("birthday", PERSONAL_CALENDAR_ID, "Mom's birthday",
     {"days": 5, "hour": 0}, {"days": 6, "hour": 0},
     {"is_all_day": True, "recurrence_frequency": "YEARLY", "recurrence_interval": 1}),
)

_EMPTY_EVENT: dict[str, Any] = {
    "description": None, "is_all_day": False, "recurrence_frequency": None, "recurrence_interval": None,
    "recurrence_until_datetime": None, "recurrence_parent_id": None, "recurrence_exclude_datetime": [],
    "latitude": None, "longitude": None, "place_id": None, "formatted_address": None, "attendee_names": [],
    "attendee_emails": [],
}


def demo_event_id(slug: str) -> str:
    """The fixed id of a demo event."""
    return str(uuid.uuid5(_EVENT_NAMESPACE, f"mmtsb-demo-event:{slug}"))


def demo_event_rows(base: BaseContext, utc_offset_seconds: int = DEVICE_UTC_OFFSET_SECONDS) -> list[dict[str, Any]]:
    """The demo events with their times resolved against the reference time."""
    rows = []
    for slug, calendar_id, title, start, end, extra in DEMO_EVENTS:
        row = {**_EMPTY_EVENT, "calendar_event_id": demo_event_id(slug), "calendar_id": calendar_id, "title": title,
               "start_datetime": resolve_relative(start, base.reference_time, utc_offset_seconds=utc_offset_seconds),
               "end_datetime": resolve_relative(end, base.reference_time, utc_offset_seconds=utc_offset_seconds),
               **extra}
        rows.append(row)
    return rows


def seed(world: World, base: BaseContext) -> None:
    """Two calendars (Personal, Work) and 15 demo events; no recurrence instances are staged yet."""
    for row in BASE_CALENDARS:
        world.insert(CALENDARS_KEY, dict(row))
    for row in demo_event_rows(base):
        world.insert(EVENTS_KEY, row)
