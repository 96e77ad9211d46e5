"""Reading device settings and interpreting datetimes the way the device does.

Shared by the setting, calendar and reminder tools: the device's time zone comes from
``SETTING.utc_offset_seconds`` (UTC-7 in the base world), and a datetime typed without an offset is
taken as device-local time.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo
from typing import Any

from mmtsb.apps.setting.schema import DEVICE_UTC_OFFSET_SECONDS
from mmtsb.world.world import World

SETTING = "SETTING"
ISO_EXAMPLE = "2026-04-17T15:00:00-07:00"


def setting_row(world: World) -> dict[str, Any]:
    """The device's SETTING row (the first one); a clear error when the world has none."""
    if not world.has_table(SETTING):
        raise RuntimeError("This world has no device SETTING table.")
    rows = world.rows(SETTING)
    if not rows:
        raise RuntimeError("The device has no SETTING row; the world was built without device settings.")
    return rows[0]


def device_tz(world: World) -> tzinfo:
    """The device's fixed-offset time zone (base world: UTC-07:00)."""
    offset = DEVICE_UTC_OFFSET_SECONDS
    if world.has_table(SETTING):
        rows = world.rows(SETTING)
        if rows and rows[0].get("utc_offset_seconds") is not None:
            offset = int(rows[0]["utc_offset_seconds"])
    return timezone(timedelta(seconds=offset))


def parse_iso(text: str, param: str, tz: tzinfo) -> datetime:
    """Parse an ISO 8601 datetime argument; a value without offset is taken in ``tz``.

    Raises:
        ValueError: naming the parameter and showing the expected format.
    """
    value = to_datetime(text, tz)
    if value is None:
        raise ValueError(f"{param} {text!r} is not an ISO 8601 datetime; use e.g. {ISO_EXAMPLE!r} "
                         "(a value without offset is taken in the device's time zone).")
    return value


def to_datetime(value: Any, tz: tzinfo) -> datetime | None:
    """Best-effort conversion of a stored or given value to an aware datetime (None if impossible)."""
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str) and value.strip():
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            return None
    else:
        return None
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=tz)


def is_date_only(text: str) -> bool:
    """True for a bare ``YYYY-MM-DD`` (no time part)."""
    return "T" not in text.upper() and " " not in text.strip() and len(text.strip()) <= 10


def iso(value: datetime) -> str:
    """Storage form: ISO 8601 with the value's own offset (e.g. ``2026-04-17T20:00:00-07:00``)."""
    return value.isoformat()


def check_coordinates(latitude: float | None, longitude: float | None) -> None:
    """Both coordinates or neither, each within its valid range."""
    if (latitude is None) != (longitude is None):
        raise ValueError("latitude and longitude must be given together (or both omitted).")
    if latitude is not None and not -90.0 <= latitude <= 90.0:
        raise ValueError(f"latitude must be between -90 and 90, got {latitude}.")
    if longitude is not None and not -180.0 <= longitude <= 180.0:
        raise ValueError(f"longitude must be between -180 and 180, got {longitude}.")
