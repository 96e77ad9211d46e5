"""Calendar event rows: validation of tool arguments, time spans and lookups shared by the calendar tools."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Any

from mmtsb.apps.calendar.schema import CALENDARS_KEY, EVENTS_KEY, STAGING_KEY
from mmtsb.apps.setting.core import is_date_only, parse_iso, to_datetime
from mmtsb.world.world import World


def require_text(value: str, param: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{param} must be a non-empty string.")
    return value


def require_calendar(world: World, calendar_id: str) -> dict[str, Any]:
    row = world.get(CALENDARS_KEY, calendar_id)
    if row is None:
        raise ValueError(f"No calendar with calendar_id {calendar_id!r}. Use search_calendars to find calendar "
                         "ids, or create_calendar to make one.")
    return row


def find_event(world: World, calendar_event_id: str) -> tuple[str, dict[str, Any]]:
    """``(table key, row)`` of an event, a series or an expanded instance; ValueError when unknown."""
    for key in (EVENTS_KEY, STAGING_KEY):
        row = world.get(key, calendar_event_id)
        if row is not None:
            return key, row
    raise ValueError(f"No calendar event with calendar_event_id {calendar_event_id!r}. Use "
                     "search_calendar_events to find event ids (instances of recurring events appear when "
                     "searching with a datetime range).")


def is_series(row: dict[str, Any]) -> bool:
    """A recurring parent event (not an instance, not a detached occurrence)."""
    return bool(row.get("recurrence_frequency")) and not row.get("recurrence_parent_id")


def parse_until(text: str, param: str, tz: tzinfo) -> datetime:
    """A recurrence end; a bare date means the end of that day (its occurrences are included)."""
    value = parse_iso(text, param, tz)
    if is_date_only(text):
        value = value + timedelta(days=1) - timedelta(seconds=1)
    return value


def check_times(start: datetime, end: datetime, is_all_day: bool) -> None:
    """End after start (end exclusive); all-day events may end on their start date."""
    if is_all_day:
        if end.date() < start.date():
            raise ValueError(f"end_datetime ({end.isoformat()}) must not be before start_datetime "
                             f"({start.isoformat()}).")
    elif end <= start:
        raise ValueError(f"end_datetime ({end.isoformat()}) must be after start_datetime ({start.isoformat()}); "
                         "the end is exclusive.")


def check_recurrence(frequency: str | None, interval: int | None, until: datetime | None,
                     start: datetime) -> None:
    if frequency is None and (interval is not None or until is not None):
        raise ValueError("recurrence_interval and recurrence_until_datetime need recurrence_frequency "
                         "(YEARLY, MONTHLY, WEEKLY or DAILY).")
    if interval is not None and interval < 1:
        raise ValueError(f"recurrence_interval must be a positive integer (1 = every period), got {interval}.")
    if until is not None and until < start:
        raise ValueError(f"recurrence_until_datetime ({until.isoformat()}) must not be before start_datetime "
                         f"({start.isoformat()}).")


def pair_attendees(names: Sequence[str] | None, emails: Sequence[str] | None) -> tuple[list[Any], list[Any]]:
    """Names and emails as two 1:1 lists; a missing side or an empty string becomes null entries."""
    names_l = [(n.strip() or None) if isinstance(n, str) else n for n in (names or [])]
    emails_l = [(e.strip() or None) if isinstance(e, str) else e for e in (emails or [])]
    if names is not None and emails is not None and len(names_l) != len(emails_l):
        raise ValueError(f"attendee_names ({len(names_l)}) and attendee_emails ({len(emails_l)}) must have the "
                         "same length: they are paired 1:1 (use an empty string for a missing email).")
    if names is None and emails is not None:
        names_l = [None] * len(emails_l)
    if emails is None and names is not None:
        emails_l = [None] * len(names_l)
    return names_l, emails_l


def span(row: dict[str, Any], tz: tzinfo) -> tuple[datetime, datetime] | None:
    """The time an event occupies, ``[start, end)``; all-day events cover whole days. None if unreadable."""
    start = to_datetime(row.get("start_datetime"), tz)
    end = to_datetime(row.get("end_datetime"), tz)
    if start is None or end is None:
        return None
    if row.get("is_all_day"):
        day_start = start.replace(hour=0, minute=0, second=0, microsecond=0)
        end_day = end.replace(hour=0, minute=0, second=0, microsecond=0)
        day_end = end_day if end == end_day and end_day > day_start else end_day + timedelta(days=1)
        return day_start, day_end
    return start, end


def overlaps(occupied: tuple[datetime, datetime], lower: datetime, upper: datetime) -> bool:
    """Overlap with ``[lower, upper)``; a zero-length event matches when its instant is inside."""
    start, end = occupied
    if start == end:
        return lower <= start < upper
    return start < upper and end > lower
