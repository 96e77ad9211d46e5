"""Recurring events: expanding a series into instances inside a time window, cached in the staging table.

An instance is a copy of its series row with its own ``calendar_event_id``, the occurrence's start and
end, and ``recurrence_parent_id`` pointing to the series. Instances are written to
``CALENDAR_EVENTS_RECURRENCE_STAGING`` (as the reference does, TOOLS.md §11.5), and a later search reuses
a cached instance for the same occurrence, so its id stays valid until the series is edited or removed
(:func:`drop_instances`). Occurrence k starts at ``start + k * interval * frequency`` (computed from the
series start, so monthly events on the 31st do not drift), up to ``recurrence_until_datetime``
(inclusive), skipping the starts listed in ``recurrence_exclude_datetime``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, tzinfo
from typing import Any

from dateutil.relativedelta import relativedelta

from mmtsb.apps.calendar.events import overlaps, span
from mmtsb.apps.calendar.schema import EVENTS_KEY, STAGING_KEY
from mmtsb.apps.setting.core import iso, to_datetime
from mmtsb.world.world import World

#: the most instances one search may expand per series (a guard against absurdly wide ranges)
MAX_INSTANCES = 1000
_UNIT = {"DAILY": "days", "WEEKLY": "weeks", "MONTHLY": "months", "YEARLY": "years"}
#: the longest a period can be, so that skipping ahead never skips an occurrence
_MAX_DAYS = {"DAILY": 1, "WEEKLY": 7, "MONTHLY": 31, "YEARLY": 366}


def _step(frequency: str, interval: int, k: int) -> relativedelta:
    return relativedelta(**{_UNIT[frequency]: k * interval})


def occurrence_starts(series: dict[str, Any], lower: datetime, upper: datetime,
                      tz: tzinfo) -> Iterator[datetime]:
    """Starts of the series' occurrences that overlap ``[lower, upper)``, excluded ones skipped."""
    frequency = str(series["recurrence_frequency"]).upper()
    if frequency not in _UNIT:
        return
    interval = int(series.get("recurrence_interval") or 1)
    first = to_datetime(series["start_datetime"], tz)
    duration = _duration(series, tz)
    occupied = span(series, tz)
    if first is None or duration is None or occupied is None:
        return
    length = occupied[1] - occupied[0]
    until = to_datetime(series.get("recurrence_until_datetime"), tz)
    excluded = {d for d in (to_datetime(x, tz) for x in series.get("recurrence_exclude_datetime") or []) if d}
    # jump close to the window instead of walking from the first occurrence (a lower bound on k)
    k = max(0, (lower - length - first).days // (_MAX_DAYS[frequency] * interval) - 1)
    emitted = 0
    while True:
        start = first + _step(frequency, interval, k)
        k += 1
        if until is not None and start > until:
            return
        occupied = span({"start_datetime": start, "end_datetime": start + duration,
                         "is_all_day": series.get("is_all_day")}, tz)
        if occupied is None or occupied[0] >= upper:
            return
        if start in excluded or not overlaps(occupied, lower, upper):
            continue
        emitted += 1
        if emitted > MAX_INSTANCES:
            raise ValueError(f"The datetime range holds more than {MAX_INSTANCES} occurrences of the recurring "
                             f"event {series['calendar_event_id']!r}; search a narrower range.")
        yield start


def expand(world: World, series: dict[str, Any], lower: datetime, upper: datetime, tz: tzinfo) -> list[dict[str, Any]]:
    """The series' instances in ``[lower, upper)``, taken from or added to the staging table."""
    cached: dict[datetime, dict[str, Any]] = {}
    for row in world.select(STAGING_KEY, "recurrence_parent_id = ?", (series["calendar_event_id"],)):
        start = to_datetime(row["start_datetime"], tz)
        if start is not None:
            cached[start] = row
    duration = _duration(series, tz)
    out = []
    for start in occurrence_starts(series, lower, upper, tz):
        row = cached.get(start)
        if row is None:
            row = instance_row(series, world.new_uuid(), start, duration)
            world.insert(STAGING_KEY, row)
        out.append(row)
    return out


def _duration(series: dict[str, Any], tz: tzinfo) -> timedelta | None:
    start = to_datetime(series["start_datetime"], tz)
    end = to_datetime(series["end_datetime"], tz)
    return (end - start) if start is not None and end is not None else None


def instance_row(series: dict[str, Any], instance_id: str, start: datetime,
                 duration: timedelta | None) -> dict[str, Any]:
    """A copy of the series row for the occurrence starting at ``start``."""
    end = start + duration if duration is not None else start
    return dict(series, calendar_event_id=instance_id, start_datetime=iso(start), end_datetime=iso(end),
                recurrence_parent_id=series["calendar_event_id"], recurrence_exclude_datetime=[])


def drop_instances(world: World, series_id: str) -> None:
    """Forget the cached instances of a series (its next expansion gets new instance ids)."""
    for row in world.select(STAGING_KEY, "recurrence_parent_id = ?", (series_id,)):
        world.delete(STAGING_KEY, row["calendar_event_id"])


def exclude_occurrence(world: World, instance: dict[str, Any]) -> dict[str, Any]:
    """Mark an instance's occurrence as excluded on its series and drop it from the staging table."""
    series = world.get(EVENTS_KEY, instance["recurrence_parent_id"])
    if series is None:
        raise ValueError(f"The recurring event {instance['recurrence_parent_id']!r} of instance "
                         f"{instance['calendar_event_id']!r} no longer exists.")
    excluded = list(series.get("recurrence_exclude_datetime") or [])
    if instance["start_datetime"] not in excluded:
        excluded.append(instance["start_datetime"])
    world.update(EVENTS_KEY, series["calendar_event_id"], {"recurrence_exclude_datetime": excluded})
    world.delete(STAGING_KEY, instance["calendar_event_id"])
    return series
