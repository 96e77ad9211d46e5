"""The clock agent code reads inside the sandbox: the episode World's time, not the machine's.

Why: tools stamp what they write with the World's clock (the scenario's reference time), and the agent is told
that date in its prompt. Code that computes "next Monday" with ``datetime.now()`` must get the same date, as in
the reference, which runs the episode under a frozen clock. The parent sends the World's current time with
every run and with every tool result (:func:`clock_fields`); the child freezes ``datetime.now()``,
``date.today()``, ``time.time()``, ``time.localtime()`` and friends there (with time-machine, which patches the
C-level clocks, so ``datetime`` stays the real class) and sets the process's time zone to the World's UTC
offset, so naive local times read as the prompt's. ``time.monotonic()`` and CPU clocks are left alone.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

#: a source of the World's current time (``World.clock.now``): timezone-aware
ClockSource = Callable[[], datetime]


def clock_fields(source: ClockSource | None) -> dict[str, Any]:
    """What the parent adds to a run request or a tool result: ``now`` (epoch seconds) and ``utc_offset_s``;
    nothing without a source (the code then sees the machine's clock)."""
    if source is None:
        return {}
    now = source()
    offset = now.utcoffset()
    return {"now": now.timestamp(), "utc_offset_s": int(offset.total_seconds()) if offset is not None else 0}


def posix_tz(utc_offset_s: int) -> str:
    """A POSIX TZ string for a fixed offset (POSIX counts west of UTC as positive): +02:00 -> ``<+0200>-02:00``."""
    sign = "-" if utc_offset_s >= 0 else "+"
    hh, rest = divmod(abs(utc_offset_s), 3600)
    mm = rest // 60
    name = f"{'+' if utc_offset_s >= 0 else '-'}{hh:02d}{mm:02d}"
    return f"<{name}>{sign}{hh:02d}:{mm:02d}"


class FrozenClock:
    """The child's side: holds the time-machine patch and moves it to each time the parent sends."""

    def __init__(self) -> None:
        self._coordinates: Any = None
        self._offset: int | None = None

    def update(self, message: dict[str, Any]) -> None:
        """Freeze the clock at ``message["now"]`` (if the message carries one)."""
        now = message.get("now")
        if not isinstance(now, (int, float)) or isinstance(now, bool):
            return
        offset = message.get("utc_offset_s")
        if isinstance(offset, int) and offset != self._offset:
            os.environ["TZ"] = posix_tz(offset)
            time.tzset()
            self._offset = offset
        if self._coordinates is None:
            import time_machine

            self._coordinates = time_machine.travel(float(now), tick=False).start()
        else:
            self._coordinates.move_to(float(now))
