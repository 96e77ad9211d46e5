"""Relative-time specs: datetimes written relative to the scenario's reference time.

A spec is a dict of ``dateutil.relativedelta`` fields, e.g. ``{"days": 1, "hour": 20}`` ("tomorrow at
8 pm") or ``{"days": 1, "weekday": "MO(+1)", "hour": 9}`` ("next Monday at 9 am": add the days, then
move to the first Monday on or after that date). Plural keys are offsets, singular keys set absolute
values. The reference time is first converted to the device's time zone, so "hour" means device-local
wall-clock time; the result is an ISO 8601 string with that offset.

Truncation: microseconds are always dropped, and setting ``hour`` or ``minute`` zeroes the smaller
time fields that are not given (``hour=20`` means 20:00:00, not 20:51:15).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from dateutil.relativedelta import relativedelta, weekday
from dateutil.relativedelta import weekdays as _WEEKDAYS

from mmtsb.apps.setting.schema import DEVICE_UTC_OFFSET_SECONDS
from mmtsb.world.clock import parse_datetime

OFFSET_KEYS = ("years", "months", "weeks", "days", "hours", "minutes", "seconds")
ABSOLUTE_KEYS = ("year", "month", "day", "hour", "minute", "second", "microsecond")
RELATIVE_KEYS = frozenset((*OFFSET_KEYS, *ABSOLUTE_KEYS, "weekday"))
_TIME_FIELDS = ("hour", "minute", "second")
_WEEKDAY = re.compile(r"^\s*(MO|TU|WE|TH|FR|SA|SU)\s*(?:\(\s*([+-]?\d+)\s*\))?\s*$", re.IGNORECASE)
_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def parse_weekday(value: Any) -> weekday:
    """``"MO(+1)"``, ``"mo"``, ``"FR(-1)"`` or 0..6 (Monday = 0) -> a relativedelta weekday."""
    if isinstance(value, weekday):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 6:
        return _WEEKDAYS[value]
    match = _WEEKDAY.match(value) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f"invalid weekday {value!r}: use MO, TU, WE, TH, FR, SA or SU, optionally with an "
                         "occurrence such as MO(+1) (next Monday on or after) or FR(-1), or an int 0..6")
    day = _WEEKDAYS[_CODES.index(match.group(1).upper())]
    return day(int(match.group(2))) if match.group(2) else day


def _as_spec(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as e:
            raise ValueError(f"relative-time spec {value!r} is not valid JSON: {e}") from None
    if not isinstance(value, dict) or not value:
        raise ValueError(f"relative-time spec must be a non-empty dict of relativedelta fields, got {value!r}")
    unknown = sorted(set(value) - RELATIVE_KEYS)
    if unknown:
        raise ValueError(f"relative-time spec has unknown field(s) {unknown}; allowed: {sorted(RELATIVE_KEYS)}")
    return value


def is_relative_spec(value: Any) -> bool:
    """True for a dict (or JSON text of one) that :func:`resolve_relative` accepts."""
    try:
        _as_spec(value)
    except ValueError:
        return False
    return True


def to_delta(spec: dict[str, Any]) -> relativedelta:
    """The relativedelta a spec describes, with the truncation rule of this module applied."""
    kwargs: dict[str, Any] = {}
    for key, val in spec.items():
        if key == "weekday":
            kwargs[key] = parse_weekday(val)
            continue
        if isinstance(val, bool) or not isinstance(val, (int, float)) or int(val) != val:
            raise ValueError(f"relative-time field {key!r} must be an integer, got {val!r}")
        kwargs[key] = int(val)
    given = [f for f in _TIME_FIELDS if f in kwargs]
    if given:
        smallest = max(_TIME_FIELDS.index(f) for f in given)
        for f in _TIME_FIELDS[smallest + 1:]:
            kwargs.setdefault(f, 0)
    kwargs.setdefault("microsecond", 0)
    try:
        return relativedelta(**kwargs)
    except (TypeError, ValueError) as e:
        raise ValueError(f"invalid relative-time spec {spec!r}: {e}") from None


def resolve_relative(value: dict[str, Any] | str, reference_time: datetime | str, *,
                     utc_offset_seconds: int = DEVICE_UTC_OFFSET_SECONDS) -> str:
    """Resolve a relative-time spec against the reference time; returns an ISO 8601 string.

    Args:
        value: e.g. ``{"days": 1, "hour": 20, "minute": 0, "weekday": "MO(+1)"}`` or its JSON text.
        reference_time: the scenario reference time (a naive value is taken as UTC).
        utc_offset_seconds: the time zone to resolve in and to write the result with (device default).

    Raises:
        ValueError: for malformed specs (unknown fields, non-integer values, bad weekday, impossible date).
    """
    spec = _as_spec(value)
    ref = parse_datetime(reference_time) if isinstance(reference_time, str) else reference_time
    if ref.tzinfo is None:
        ref = ref.replace(tzinfo=UTC)
    local = ref.astimezone(timezone(timedelta(seconds=utc_offset_seconds)))
    try:
        resolved = local + to_delta(spec)
    except (OverflowError, ValueError) as e:
        raise ValueError(f"relative-time spec {spec!r} gives no valid datetime: {e}") from None
    return resolved.isoformat()
