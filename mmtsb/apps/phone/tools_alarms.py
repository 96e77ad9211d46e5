"""Alarms tools (6): the logged-in phone user's alarms (``phone.alarms``) and the simulated clock."""

from __future__ import annotations

import re
from typing import Any

from mmtsb.apps.common import api_error, paginate
from mmtsb.apps.phone.core import ONLINE, TOKEN, me
from mmtsb.apps.phone.schema import ALARMS
from mmtsb.tools.spec import tool
from mmtsb.world.world import World

DOMAIN = "alarms"
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")


def _time(value: str) -> str:
    """``H:MM``/``HH:MM`` (24-hour) -> zero-padded ``HH:MM``."""
    m = _TIME.match((value or "").strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise api_error(f"Invalid time {value!r}: use 24-hour HH:MM, e.g. 07:30 or 18:05.")
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _days(values: list[str]) -> list[str]:
    """Weekday names (any case, 3-letter abbreviations too) -> lowercase full names in week order."""
    chosen = set()
    for v in values:
        key = (v or "").strip().lower()
        day = next((d for d in WEEKDAYS if key in (d, d[:3])), None)
        if day is None:
            raise api_error(f"Invalid repeat day {v!r}: use weekday names ({', '.join(WEEKDAYS)}).")
        chosen.add(day)
    return [d for d in WEEKDAYS if d in chosen]


def _snooze(value: int) -> int:
    if value < 0:
        raise api_error(f"snooze_minutes must be >= 0 (0 = no snooze), got {value}.")
    return value


def _out(a: dict[str, Any]) -> dict[str, Any]:
    return {"alarm_id": a["id"], "time": a.get("time"), "repeat_days": list(a.get("repeat_days") or []),
            "label": a.get("label"), "enabled": bool(a.get("enabled")), "snooze_minutes": a.get("snooze_minutes"),
            "vibration": bool(a.get("vibration")), "created_at": a.get("created_at")}


def _own_alarm(world: World, alarm_id: int) -> dict[str, Any]:
    row = world.get(ALARMS, alarm_id)
    if row is None or row.get("user_id") != me(world)["id"]:
        raise api_error(f"Alarm with alarm_id={alarm_id} does not exist.")
    return row


@tool(domain=DOMAIN, requires=TOKEN, tables=(ALARMS,))
def alarms_show_alarms(world: World, page_index: int | None = 0, page_limit: int | None = 5) -> list[dict[str, Any]]:
    """Lists the user's alarms, paginated, in order of their clock time.

    Args:
        page_index: the page to return, from 0.
        page_limit: alarms per page, 1 to 20.

    Returns:
        list[{alarm_id, time (HH:MM), repeat_days (weekday names; [] = rings once), label, enabled, snooze_minutes,
        vibration, created_at}]
    """
    rows = world.select(ALARMS, "user_id = ?", (me(world)["id"],), order_by='"time", id')
    return [_out(a) for a in paginate(rows, page_index, page_limit)]


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(ALARMS,))
def alarms_create_alarm(world: World, time: str, repeat_days: list[str] | None = None, label: str | None = None,
                        enabled: bool = True, snooze_minutes: int = 15,
                        vibration: bool | None = True) -> dict[str, Any]:
    """Creates a new alarm at a given clock time with optional repeat days, label, snooze and vibration.

    Args:
        time: the clock time, 24-hour HH:MM (e.g. 06:45).
        repeat_days: weekdays it repeats on, e.g. ['monday', 'friday']; omitted or [] rings once.
        label: a name for the alarm, e.g. 'Gym'.
        enabled: whether the alarm is on.
        snooze_minutes: snooze length in minutes, >= 0 (0 = no snooze).
        vibration: whether the phone vibrates.

    Returns:
        {message, alarm_id}
    """
    row = {"user_id": me(world)["id"], "time": _time(time), "repeat_days": _days(repeat_days or []),
           "label": label.strip() if label and label.strip() else None, "enabled": bool(enabled),
           "snooze_minutes": _snooze(snooze_minutes), "vibration": True if vibration is None else vibration,
           "created_at": world.clock.now_str()}
    alarm_id = world.insert(ALARMS, row)
    return {"message": "Alarm created.", "alarm_id": alarm_id}


@tool(domain=DOMAIN, requires=TOKEN, tables=(ALARMS,))
def alarms_show_alarm(world: World, alarm_id: int) -> dict[str, Any]:
    """Returns the details of one alarm.

    Args:
        alarm_id: the alarm's id (see alarms_show_alarms).

    Returns:
        {alarm_id, time, repeat_days, label, enabled, snooze_minutes, vibration, created_at}
    """
    return _out(_own_alarm(world, alarm_id))


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(ALARMS,))
def alarms_update_alarm(world: World, alarm_id: int, time: str | None = None, repeat_days: list[str] | None = None,
                        label: str | None = None, enabled: bool | None = None, snooze_minutes: int | None = None,
                        vibration: bool | None = None) -> dict[str, str]:
    """Changes any subset of an existing alarm's fields; omitted fields keep their values (give at least one).

    Args:
        alarm_id: the alarm's id.
        time: the new clock time, 24-hour HH:MM.
        repeat_days: the new weekdays (replace the old ones); [] makes it ring once.
        label: the new label ('' removes it).
        enabled: turn the alarm on (true) or off (false).
        snooze_minutes: the new snooze length in minutes, >= 0.
        vibration: turn vibration on or off.

    Returns:
        {message}
    """
    _own_alarm(world, alarm_id)
    fields: dict[str, Any] = {}
    if time is not None:
        fields["time"] = _time(time)
    if repeat_days is not None:
        fields["repeat_days"] = _days(repeat_days)
    if label is not None:
        fields["label"] = label.strip() or None
    if enabled is not None:
        fields["enabled"] = enabled
    if snooze_minutes is not None:
        fields["snooze_minutes"] = _snooze(snooze_minutes)
    if vibration is not None:
        fields["vibration"] = vibration
    if not fields:
        raise api_error("Nothing to update: give at least one of time, repeat_days, label, enabled, "
                        "snooze_minutes, vibration.")
    world.update(ALARMS, alarm_id, fields)
    return {"message": "Alarm updated."}


@tool(domain=DOMAIN, mutates=True, requires=TOKEN, tables=(ALARMS,))
def alarms_delete_alarm(world: World, alarm_id: int) -> dict[str, str]:
    """Removes an alarm.

    Args:
        alarm_id: the alarm's id.

    Returns:
        {message}
    """
    _own_alarm(world, alarm_id)
    world.delete(ALARMS, alarm_id)
    return {"message": "Alarm deleted."}


@tool(domain=DOMAIN, requires=ONLINE)
def alarms_get_current_date_and_time(world: World) -> dict[str, str]:
    """Reports the simulated current date and time (no token needed).

    Returns:
        {date (YYYY-MM-DD), time (HH:MM, 24-hour)}
    """
    now = world.clock.now_naive()
    return {"date": now.date().isoformat(), "time": now.strftime("%H:%M")}
