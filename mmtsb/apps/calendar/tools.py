"""Calendar tools (ToolSandbox ``calendar`` domain): calendars, events, recurring series and their instances.

Datetimes are ISO 8601 strings with a UTC offset (``2026-04-17T15:00:00-07:00``); a value without offset
is taken in the device's time zone. Event times are stored as given (with the offset given), ranges are
start-inclusive and end-exclusive. Text criteria use a lexical similarity with the reference's 0.7
threshold (see :mod:`mmtsb.apps.calendar.matching`: the reference uses an embedding model instead).
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from mmtsb.apps.calendar import recurrence
from mmtsb.apps.calendar.events import (
    check_recurrence,
    check_times,
    find_event,
    is_series,
    overlaps,
    pair_attendees,
    parse_until,
    require_calendar,
    require_text,
    span,
)
from mmtsb.apps.calendar.matching import SEMANTIC_THRESHOLD, near, text_similarity
from mmtsb.apps.calendar.schema import CALENDARS_KEY, EVENTS_KEY, STAGING_KEY
from mmtsb.apps.setting.core import check_coordinates, device_tz, iso, parse_iso, to_datetime
from mmtsb.tools.spec import tool
from mmtsb.tools.types import NOT_GIVEN, CalendarRecurrenceFrequencyType, NotGiven, given
from mmtsb.world.world import World

DOMAIN = "calendar"


# ------------------------------------------------------------------------------------------ calendars
@tool(domain=DOMAIN, mutates=True, tables=(CALENDARS_KEY,))
def create_calendar(world: World, title: str) -> str:
    """Makes a new named calendar and returns its id.

    Args:
        title: the calendar's name, e.g. "Family" (non-empty).

    Returns:
        The new calendar_id (a UUID string).
    """
    calendar_id = world.new_uuid()
    world.insert(CALENDARS_KEY, {"calendar_id": calendar_id, "title": require_text(title, "title")})
    return calendar_id


@tool(domain=DOMAIN, tables=(CALENDARS_KEY,))
def search_calendars(world: World, calendar_id: str | NotGiven = NOT_GIVEN,
                     title: str | NotGiven = NOT_GIVEN) -> list[dict[str, Any]]:
    """Finds calendars by id or by title; give at least one criterion.

    Every given criterion must match. Titles match when similar enough to the query (all query words
    present, word order and small typos tolerated; best matches first).

    Args:
        calendar_id: exact calendar id.
        title: words of the calendar title, e.g. "work".

    Returns:
        A list of {calendar_id, title} (empty when nothing matches).
    """
    if not given(calendar_id) and not given(title):
        raise ValueError("search_calendars needs at least one criterion: calendar_id or title.")
    scored = []
    for row in world.select(CALENDARS_KEY, order_by="rowid"):
        if given(calendar_id) and row["calendar_id"] != calendar_id:
            continue
        score = text_similarity(title, row["title"]) if given(title) else 1.0
        if score >= SEMANTIC_THRESHOLD:
            scored.append((score, row))
    scored.sort(key=lambda x: -x[0])
    return [{"calendar_id": r["calendar_id"], "title": r["title"]} for _, r in scored]


@tool(domain=DOMAIN, mutates=True, tables=(CALENDARS_KEY,))
def modify_calendar(world: World, calendar_id: str, title: str) -> None:
    """Renames a calendar (the title is its only editable field).

    Args:
        calendar_id: the calendar to rename.
        title: the new name (non-empty).

    Returns:
        None
    """
    require_calendar(world, calendar_id)
    world.update(CALENDARS_KEY, calendar_id, {"title": require_text(title, "title")})


@tool(domain=DOMAIN, mutates=True, tables=(CALENDARS_KEY, EVENTS_KEY, STAGING_KEY))
def remove_calendar(world: World, calendar_id: str) -> None:
    """Deletes a calendar together with all of its events.

    Args:
        calendar_id: the calendar to delete.

    Returns:
        None
    """
    require_calendar(world, calendar_id)
    for key in (STAGING_KEY, EVENTS_KEY):
        for row in world.select(key, "calendar_id = ?", (calendar_id,)):
            world.delete(key, row["calendar_event_id"])
    world.delete(CALENDARS_KEY, calendar_id)


# ------------------------------------------------------------------------------------------ events
@tool(domain=DOMAIN, mutates=True, tables=(EVENTS_KEY,))
def create_calendar_event(world: World, calendar_id: str, title: str, start_datetime: str, end_datetime: str,
                          description: str | None = None, is_all_day: bool = False,
                          recurrence_frequency: CalendarRecurrenceFrequencyType | None = None,
                          recurrence_interval: int | None = None, recurrence_until_datetime: str | None = None,
                          latitude: float | None = None, longitude: float | None = None,
                          place_id: str | None = None, formatted_address: str | None = None,
                          attendee_names: list[str] | None = None,
                          attendee_emails: list[str] | None = None) -> str:
    """Adds an event to a calendar, optionally recurring, with a place and attendees.

    Args:
        calendar_id: the calendar to add the event to (see search_calendars).
        title: the event title (non-empty).
        start_datetime: start, ISO 8601 with UTC offset, inclusive, e.g. "2026-04-20T15:00:00-07:00" (no
            offset = the device's time zone).
        end_datetime: end, ISO 8601 with UTC offset, exclusive; must be after the start.
        description: free-text details.
        is_all_day: True for an all-day event: the time part is ignored and the event covers whole days
            from the start date through the end date (an end at midnight is exclusive).
        recurrence_frequency: repeat unit: YEARLY, MONTHLY, WEEKLY or DAILY (omit for a one-off event).
        recurrence_interval: repeat every N units (2 with WEEKLY = every other week); default 1.
        recurrence_until_datetime: last possible occurrence start, ISO 8601 (a bare date includes that
            whole day); omit to repeat forever.
        latitude: place latitude (-90..90), given together with longitude.
        longitude: place longitude (-180..180), given together with latitude.
        place_id: a map place identifier.
        formatted_address: the place's postal address.
        attendee_names: attendee names, paired 1:1 with attendee_emails.
        attendee_emails: attendee emails in the same order as attendee_names (empty string for a missing
            email).

    Returns:
        The new calendar_event_id (a UUID string).
    """
    require_calendar(world, calendar_id)
    tz = device_tz(world)
    start = parse_iso(start_datetime, "start_datetime", tz)
    end = parse_iso(end_datetime, "end_datetime", tz)
    check_times(start, end, is_all_day)
    frequency = recurrence_frequency.value if recurrence_frequency is not None else None
    until = parse_until(recurrence_until_datetime, "recurrence_until_datetime", tz) \
        if recurrence_until_datetime is not None else None
    check_recurrence(frequency, recurrence_interval, until, start)
    check_coordinates(latitude, longitude)
    names, emails = pair_attendees(attendee_names, attendee_emails)
    event_id = world.new_uuid()
    world.insert(EVENTS_KEY, {
        "calendar_event_id": event_id, "calendar_id": calendar_id, "title": require_text(title, "title"),
        "description": description, "start_datetime": iso(start), "end_datetime": iso(end),
        "is_all_day": is_all_day, "recurrence_frequency": frequency,
        "recurrence_interval": (recurrence_interval or 1) if frequency else None,
        "recurrence_until_datetime": iso(until) if until is not None else None, "recurrence_parent_id": None,
        "recurrence_exclude_datetime": [], "latitude": latitude, "longitude": longitude, "place_id": place_id,
        "formatted_address": formatted_address, "attendee_names": names, "attendee_emails": emails,
    })
    return event_id


@tool(domain=DOMAIN, tables=(EVENTS_KEY, STAGING_KEY))
def search_calendar_events(world: World, calendar_id: str | NotGiven = NOT_GIVEN,
                           calendar_event_id: str | NotGiven = NOT_GIVEN, title: str | NotGiven = NOT_GIVEN,
                           description: str | NotGiven = NOT_GIVEN,
                           datetime_range_lowerbound: str | NotGiven = NOT_GIVEN,
                           datetime_range_upperbound: str | NotGiven = NOT_GIVEN,
                           is_all_day: bool | NotGiven = NOT_GIVEN,
                           recurrence_frequency: CalendarRecurrenceFrequencyType | NotGiven = NOT_GIVEN,
                           recurrence_interval: int | NotGiven = NOT_GIVEN,
                           recurrence_until_datetime: int | NotGiven = NOT_GIVEN,
                           latitude: float | NotGiven = NOT_GIVEN, longitude: float | NotGiven = NOT_GIVEN,
                           place_id: str | NotGiven = NOT_GIVEN, formatted_address: str | NotGiven = NOT_GIVEN,
                           attendee_names: list[str] | NotGiven = NOT_GIVEN,
                           attendee_emails: list[str] | NotGiven = NOT_GIVEN) -> list[dict[str, Any]]:
    """Finds calendar events matching every given criterion; give at least one.

    With a datetime range, events overlapping the range are returned and recurring events are expanded
    into their occurrences in the range: each occurrence is returned as an instance with its own
    calendar_event_id and recurrence_parent_id = the series id, followed by the series itself. Instance
    ids stay valid for remove_calendar_event / modify_calendar_event until the series is edited. Without
    a range, series are returned once (not expanded). Title, description, address and attendee names match
    when similar enough to the query (all query words present; best matches first); otherwise results are
    sorted by start time.

    Args:
        calendar_id: exact calendar id.
        calendar_event_id: exact event id (an event, a series or an instance found earlier).
        title: words of the event title, e.g. "dentist".
        description: words of the event description.
        datetime_range_lowerbound: range start, ISO 8601 with offset, inclusive; needs
            datetime_range_upperbound.
        datetime_range_upperbound: range end, ISO 8601 with offset, exclusive; needs
            datetime_range_lowerbound.
        is_all_day: True for all-day events only, False for timed events only.
        recurrence_frequency: only events repeating YEARLY, MONTHLY, WEEKLY or DAILY.
        recurrence_interval: only recurring events with this interval.
        recurrence_until_datetime: only recurring events ending at this instant, as Unix epoch seconds
            (or a YYYYMMDD integer to match the end date).
        latitude: place latitude, matched within 0.01 degrees.
        longitude: place longitude, matched within 0.01 degrees.
        place_id: exact place identifier.
        formatted_address: words of the address.
        attendee_names: names that must each match one attendee.
        attendee_emails: emails that must each be an attendee email (case-insensitive).

    Returns:
        A list of events {calendar_event_id, calendar_id, title, description, start_datetime, end_datetime,
        is_all_day, recurrence_frequency, recurrence_interval, recurrence_until_datetime,
        recurrence_parent_id, recurrence_exclude_datetime, latitude, longitude, place_id, formatted_address,
        attendee_names, attendee_emails}.
    """
    criteria = {k: v for k, v in locals().items() if k != "world" and given(v)}
    if not criteria:
        raise ValueError("search_calendar_events needs at least one search criterion; all were omitted.")
    if given(datetime_range_lowerbound) != given(datetime_range_upperbound):
        raise ValueError("datetime_range_lowerbound and datetime_range_upperbound must be given together.")
    tz = device_tz(world)
    if given(datetime_range_lowerbound):
        lower = parse_iso(datetime_range_lowerbound, "datetime_range_lowerbound", tz)
        upper = parse_iso(datetime_range_upperbound, "datetime_range_upperbound", tz)
        if upper <= lower:
            raise ValueError("datetime_range_upperbound must be after datetime_range_lowerbound (the upper bound "
                             "is exclusive).")
        candidates = _in_range(world, lower, upper, tz)
    else:
        candidates = world.select(EVENTS_KEY, order_by="rowid")
        if given(calendar_event_id):
            candidates += world.select(STAGING_KEY, order_by="rowid")
    scored = []
    for row in candidates:
        score = _match(row, criteria, tz)
        if score is not None:
            scored.append((score, row))
    scored.sort(key=lambda x: (-x[0], _start_key(x[1], tz)))
    return [row for _, row in scored]


def _in_range(world: World, lower: datetime, upper: datetime, tz: tzinfo) -> list[dict[str, Any]]:
    """Events overlapping ``[lower, upper)``: single events, and each series' instances plus the series."""
    out: list[dict[str, Any]] = []
    for row in world.select(EVENTS_KEY, order_by="rowid"):
        if is_series(row):
            instances = recurrence.expand(world, row, lower, upper, tz)
            if instances:
                out += [*instances, row]
            continue
        occupied = span(row, tz)
        if occupied is not None and overlaps(occupied, lower, upper):
            out.append(row)
    return out


def _match(row: dict[str, Any], c: dict[str, Any], tz: tzinfo) -> float | None:
    """The row's relevance (1.0 without text criteria), or None when a criterion fails."""
    for key in ("calendar_id", "calendar_event_id", "place_id", "is_all_day", "recurrence_interval"):
        if key in c and row.get(key) != c[key]:
            return None
    if "recurrence_frequency" in c and row.get("recurrence_frequency") != c["recurrence_frequency"].value:
        return None
    if "recurrence_until_datetime" in c and not _until_matches(row, c["recurrence_until_datetime"], tz):
        return None
    for key in ("latitude", "longitude"):
        if key in c and not near(c[key], row.get(key)):
            return None
    if "attendee_emails" in c:
        stored = {str(e).casefold() for e in row.get("attendee_emails") or [] if e}
        if any(e.strip().casefold() not in stored for e in c["attendee_emails"]):
            return None
    scores = []
    for key in ("title", "description", "formatted_address"):
        if key in c:
            scores.append(text_similarity(c[key], row.get(key)))
    for name in c.get("attendee_names", []):
        scores.append(max((text_similarity(name, n) for n in row.get("attendee_names") or [] if n), default=0.0))
    if any(s < SEMANTIC_THRESHOLD for s in scores):
        return None
    return sum(scores) / len(scores) if scores else 1.0


def _until_matches(row: dict[str, Any], value: int, tz: tzinfo) -> bool:
    until = to_datetime(row.get("recurrence_until_datetime"), tz)
    if until is None:
        return False
    if 10_000_101 <= value <= 99_991_231:  # YYYYMMDD
        return until.strftime("%Y%m%d") == str(value)
    return int(until.timestamp()) == value


def _start_key(row: dict[str, Any], tz: tzinfo) -> float:
    start = to_datetime(row.get("start_datetime"), tz)
    return start.timestamp() if start is not None else float("inf")


@tool(domain=DOMAIN, mutates=True, tables=(EVENTS_KEY, STAGING_KEY))
def remove_calendar_event(world: World, calendar_event_id: str) -> None:
    """Deletes an event, one occurrence of a recurring event, or a whole recurring series.

    An instance id (from search_calendar_events with a datetime range) removes only that occurrence: it is
    excluded from its series. A series id removes the series with all its occurrences, including edited
    ones.

    Args:
        calendar_event_id: the event, instance or series to delete.

    Returns:
        None
    """
    key, row = find_event(world, calendar_event_id)
    if key == STAGING_KEY:
        recurrence.exclude_occurrence(world, row)
        return
    if is_series(row):
        recurrence.drop_instances(world, calendar_event_id)
        for detached in world.select(EVENTS_KEY, "recurrence_parent_id = ?", (calendar_event_id,)):
            world.delete(EVENTS_KEY, detached["calendar_event_id"])
    world.delete(EVENTS_KEY, calendar_event_id)


_RECURRENCE_FIELDS = ("recurrence_frequency", "recurrence_interval", "recurrence_until_datetime")


@tool(domain=DOMAIN, mutates=True, tables=(EVENTS_KEY, STAGING_KEY))
def modify_calendar_event(world: World, calendar_event_id: str, calendar_id: str | NotGiven = NOT_GIVEN,
                          title: str | NotGiven = NOT_GIVEN, description: str | NotGiven = NOT_GIVEN,
                          start_datetime: str | NotGiven = NOT_GIVEN, end_datetime: str | NotGiven = NOT_GIVEN,
                          is_all_day: bool | NotGiven = NOT_GIVEN,
                          recurrence_frequency: CalendarRecurrenceFrequencyType | NotGiven = NOT_GIVEN,
                          recurrence_interval: int | NotGiven = NOT_GIVEN,
                          recurrence_until_datetime: str | NotGiven = NOT_GIVEN,
                          latitude: float | NotGiven = NOT_GIVEN, longitude: float | NotGiven = NOT_GIVEN,
                          place_id: str | NotGiven = NOT_GIVEN, formatted_address: str | NotGiven = NOT_GIVEN,
                          attendee_names: list[str] | NotGiven = NOT_GIVEN,
                          attendee_emails: list[str] | NotGiven = NOT_GIVEN) -> None:
    """Changes fields of an event, of one occurrence of a recurring event, or of a whole series.

    Give at least one field; omitted fields keep their values. With a series id, the change applies to
    every occurrence and previously found instance ids become invalid (search again). With an instance id,
    only that occurrence changes: it becomes a separate event with the same id (recurrence fields cannot
    be changed on a single occurrence).

    Args:
        calendar_event_id: the event, instance or series to change.
        calendar_id: move the event to this calendar.
        title: new title (non-empty).
        description: new description.
        start_datetime: new start, ISO 8601 with offset, inclusive.
        end_datetime: new end, ISO 8601 with offset, exclusive; must stay after the start.
        is_all_day: True to make it an all-day event, False for a timed one.
        recurrence_frequency: repeat unit: YEARLY, MONTHLY, WEEKLY or DAILY.
        recurrence_interval: repeat every N units (positive).
        recurrence_until_datetime: last possible occurrence start, ISO 8601 (a bare date includes that day).
        latitude: place latitude (-90..90); the event must end up with both coordinates or neither.
        longitude: place longitude (-180..180).
        place_id: a map place identifier.
        formatted_address: the place's postal address.
        attendee_names: the new attendee names, paired 1:1 with attendee_emails.
        attendee_emails: the new attendee emails, in the same order as attendee_names.

    Returns:
        None
    """
    changes = {k: v for k, v in locals().items() if k not in ("world", "calendar_event_id") and given(v)}
    if not changes:
        raise ValueError("modify_calendar_event needs at least one field to change besides calendar_event_id.")
    key, row = find_event(world, calendar_event_id)
    tz = device_tz(world)
    blocked = [f for f in _RECURRENCE_FIELDS if f in changes]
    if blocked and row.get("recurrence_parent_id"):
        raise ValueError(f"{', '.join(blocked)} cannot be changed on a single occurrence; modify the series "
                         f"{row['recurrence_parent_id']!r} instead.")
    if key == STAGING_KEY:
        updated = _apply_changes(world, row, changes, tz)
        recurrence.exclude_occurrence(world, row)
        world.insert(EVENTS_KEY, dict(updated, recurrence_frequency=None, recurrence_interval=None,
                                      recurrence_until_datetime=None, recurrence_exclude_datetime=[]))
        return
    updated = _apply_changes(world, row, changes, tz)
    world.update(EVENTS_KEY, calendar_event_id, {k: v for k, v in updated.items() if row.get(k) != v})
    if is_series(row) or is_series(updated):
        recurrence.drop_instances(world, calendar_event_id)


def _apply_changes(world: World, row: dict[str, Any], changes: dict[str, Any], tz: tzinfo) -> dict[str, Any]:
    """The row with the changes applied, after validating the result as a whole."""
    new = dict(row)
    if "calendar_id" in changes:
        new["calendar_id"] = require_calendar(world, changes["calendar_id"])["calendar_id"]
    if "title" in changes:
        new["title"] = require_text(changes["title"], "title")
    for key in ("description", "place_id", "formatted_address", "is_all_day", "latitude", "longitude"):
        if key in changes:
            new[key] = changes[key]
    start = _changed_or_stored(changes, row, "start_datetime", tz)
    end = _changed_or_stored(changes, row, "end_datetime", tz)
    check_times(start, end, bool(new["is_all_day"]))
    new["start_datetime"] = iso(start) if "start_datetime" in changes else row["start_datetime"]
    new["end_datetime"] = iso(end) if "end_datetime" in changes else row["end_datetime"]
    if "recurrence_frequency" in changes:
        new["recurrence_frequency"] = changes["recurrence_frequency"].value
    if "recurrence_interval" in changes:
        new["recurrence_interval"] = changes["recurrence_interval"]
    until = to_datetime(row.get("recurrence_until_datetime"), tz)
    if "recurrence_until_datetime" in changes:
        until = parse_until(changes["recurrence_until_datetime"], "recurrence_until_datetime", tz)
        new["recurrence_until_datetime"] = iso(until)
    if not row.get("recurrence_parent_id"):
        check_recurrence(new["recurrence_frequency"], new["recurrence_interval"], until, start)
    if new["recurrence_frequency"] and new["recurrence_interval"] is None:
        new["recurrence_interval"] = 1
    check_coordinates(new["latitude"], new["longitude"])
    if "attendee_names" in changes or "attendee_emails" in changes:
        new["attendee_names"], new["attendee_emails"] = _changed_attendees(row, changes)
    return new


def _changed_or_stored(changes: dict[str, Any], row: dict[str, Any], key: str, tz: tzinfo) -> datetime:
    if key in changes:
        return parse_iso(changes[key], key, tz)
    value = to_datetime(row.get(key), tz)
    if value is None:
        raise ValueError(f"The event's stored {key} {row.get(key)!r} is unreadable; give a new {key}.")
    return value


def _changed_attendees(row: dict[str, Any], changes: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """New attendee lists; a list given alone must fit the stored other list (or that one must be empty)."""
    if "attendee_names" in changes and "attendee_emails" in changes:
        return pair_attendees(changes["attendee_names"], changes["attendee_emails"])
    given_key, other_key = (("attendee_names", "attendee_emails") if "attendee_names" in changes
                            else ("attendee_emails", "attendee_names"))
    new_list = changes[given_key]
    other = list(row.get(other_key) or [])
    if any(x is not None for x in other) and len(other) != len(new_list):
        raise ValueError(f"{given_key} has {len(new_list)} entries but the event's {other_key} has {len(other)}; "
                         "they are paired 1:1, so give both lists.")
    if not any(x is not None for x in other):
        other = None
    pair = {given_key: new_list, other_key: other}
    return pair_attendees(pair["attendee_names"], pair["attendee_emails"])
