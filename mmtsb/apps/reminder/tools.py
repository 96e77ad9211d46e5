"""Reminder tools (ToolSandbox ``reminder`` domain), backed by the ``REMINDER`` namespace.

Datetimes are ISO 8601 strings (``2026-04-17T10:00:00-07:00``; no offset = the device's time zone) and
are stored with the offset given. ``creation_datetime`` is stamped from the episode clock on creation
and on every modification, as the reference does.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from mmtsb.apps.calendar.matching import FUZZY_THRESHOLD, fuzzy_score, near
from mmtsb.apps.reminder.schema import REMINDER_FIELDS, REMINDER_KEY
from mmtsb.apps.setting.core import check_coordinates, device_tz, iso, parse_iso, to_datetime
from mmtsb.tools.spec import tool
from mmtsb.tools.types import NOT_GIVEN, NotGiven, given
from mmtsb.world.world import World

DOMAIN = "reminder"


def _require_content(content: str) -> str:
    if not content.strip():
        raise ValueError("content must be a non-empty string.")
    return content


def _require_reminder(world: World, reminder_id: str) -> dict[str, Any]:
    row = world.get(REMINDER_KEY, reminder_id)
    if row is None:
        raise ValueError(f"No reminder with reminder_id {reminder_id!r}. Use search_reminder to find reminder ids.")
    return row


@tool(domain=DOMAIN, mutates=True, tables=(REMINDER_KEY,))
def add_reminder(world: World, content: str, reminder_datetime: str, latitude: float | None = None,
                 longitude: float | None = None) -> str:
    """Creates a reminder for a time, optionally tied to a place.

    Args:
        content: what to be reminded of (non-empty).
        reminder_datetime: when to remind, ISO 8601, e.g. "2026-04-17T10:00:00-07:00" (no offset = the
            device's time zone).
        latitude: place latitude (-90..90), given together with longitude.
        longitude: place longitude (-180..180), given together with latitude.

    Returns:
        The new reminder_id (a UUID string).
    """
    tz = device_tz(world)
    when = parse_iso(reminder_datetime, "reminder_datetime", tz)
    check_coordinates(latitude, longitude)
    reminder_id = world.new_uuid()
    world.insert(REMINDER_KEY, {"reminder_id": reminder_id, "content": _require_content(content),
                                "creation_datetime": iso(world.clock.now()), "reminder_datetime": iso(when),
                                "latitude": latitude, "longitude": longitude})
    return reminder_id


@tool(domain=DOMAIN, mutates=True, tables=(REMINDER_KEY,))
def modify_reminder(world: World, reminder_id: str, content: str | NotGiven = NOT_GIVEN,
                    reminder_datetime: str | NotGiven = NOT_GIVEN, latitude: float | None | NotGiven = NOT_GIVEN,
                    longitude: float | None | NotGiven = NOT_GIVEN) -> None:
    """Changes a reminder; give at least one field (omitted fields keep their values).

    The reminder's creation_datetime is refreshed to now.

    Args:
        reminder_id: the reminder to change.
        content: new text (non-empty).
        reminder_datetime: new time, ISO 8601 with offset.
        latitude: new latitude (-90..90), or null to remove the place (together with longitude).
        longitude: new longitude (-180..180), or null to remove the place (together with latitude).

    Returns:
        None
    """
    if not any(given(v) for v in (content, reminder_datetime, latitude, longitude)):
        raise ValueError("modify_reminder needs at least one field to change: content, reminder_datetime, "
                         "latitude or longitude.")
    row = _require_reminder(world, reminder_id)
    fields: dict[str, Any] = {}
    if given(content):
        fields["content"] = _require_content(content)
    if given(reminder_datetime):
        fields["reminder_datetime"] = iso(parse_iso(reminder_datetime, "reminder_datetime", device_tz(world)))
    if given(latitude):
        fields["latitude"] = latitude
    if given(longitude):
        fields["longitude"] = longitude
    check_coordinates(fields.get("latitude", row["latitude"]), fields.get("longitude", row["longitude"]))
    fields["creation_datetime"] = iso(world.clock.now())
    world.update(REMINDER_KEY, reminder_id, fields)


@tool(domain=DOMAIN, tables=(REMINDER_KEY,))
def search_reminder(world: World, reminder_id: str | NotGiven = NOT_GIVEN, content: str | NotGiven = NOT_GIVEN,
                    creation_datetime_lowerbound: str | NotGiven = NOT_GIVEN,
                    creation_datetime_upperbound: str | NotGiven = NOT_GIVEN,
                    reminder_datetime_lowerbound: str | NotGiven = NOT_GIVEN,
                    reminder_datetime_upperbound: str | NotGiven = NOT_GIVEN,
                    latitude: float | NotGiven = NOT_GIVEN,
                    longitude: float | NotGiven = NOT_GIVEN) -> list[dict[str, Any]]:
    """Finds reminders matching every given criterion; give at least one.

    Content matches fuzzily (rapidfuzz WRatio >= 50, best matches first); otherwise results are sorted by
    reminder time. Bounds are inclusive and may be given alone or in pairs.

    Args:
        reminder_id: exact reminder id.
        content: words of the reminder text.
        creation_datetime_lowerbound: created at or after, ISO 8601 with offset.
        creation_datetime_upperbound: created at or before, ISO 8601 with offset.
        reminder_datetime_lowerbound: due at or after, ISO 8601 with offset.
        reminder_datetime_upperbound: due at or before, ISO 8601 with offset.
        latitude: place latitude, matched within 0.01 degrees.
        longitude: place longitude, matched within 0.01 degrees.

    Returns:
        A list of {reminder_id, content, creation_datetime, reminder_datetime, latitude, longitude}.
    """
    criteria = {k: v for k, v in locals().items() if k != "world" and given(v)}
    if not criteria:
        raise ValueError("search_reminder needs at least one search criterion; all were omitted.")
    tz = device_tz(world)
    ranges = {col: _bounds(criteria, col, tz) for col in ("creation_datetime", "reminder_datetime")}
    scored = []
    for row in world.select(REMINDER_KEY, order_by="rowid"):
        if given(reminder_id) and row["reminder_id"] != reminder_id:
            continue
        if any(key in criteria and not near(criteria[key], row[key]) for key in ("latitude", "longitude")):
            continue
        if not all(_within(row[col], low, high, tz) for col, (low, high) in ranges.items()):
            continue
        score = fuzzy_score(content, row["content"]) if given(content) else 100.0
        if score >= FUZZY_THRESHOLD:
            scored.append((score, row))
    scored.sort(key=lambda x: (-x[0], _time_key(x[1], tz)))
    return [{f: row[f] for f in REMINDER_FIELDS} for _, row in scored]


def _bounds(criteria: dict[str, Any], column: str, tz: tzinfo) -> tuple[datetime | None, datetime | None]:
    low_key, high_key = f"{column}_lowerbound", f"{column}_upperbound"
    low = parse_iso(criteria[low_key], low_key, tz) if low_key in criteria else None
    high = parse_iso(criteria[high_key], high_key, tz) if high_key in criteria else None
    if low is not None and high is not None and high < low:
        raise ValueError(f"{high_key} must not be before {low_key}.")
    return low, high


def _within(value: Any, low: datetime | None, high: datetime | None, tz: tzinfo) -> bool:
    if low is None and high is None:
        return True
    when = to_datetime(value, tz)
    return when is not None and (low is None or when >= low) and (high is None or when <= high)


def _time_key(row: dict[str, Any], tz: tzinfo) -> float:
    when = to_datetime(row["reminder_datetime"], tz)
    return when.timestamp() if when is not None else float("inf")


@tool(domain=DOMAIN, mutates=True, tables=(REMINDER_KEY,))
def remove_reminder(world: World, reminder_id: str) -> None:
    """Deletes a reminder.

    Args:
        reminder_id: the reminder to delete (see search_reminder).

    Returns:
        None
    """
    _require_reminder(world, reminder_id)
    world.delete(REMINDER_KEY, reminder_id)
