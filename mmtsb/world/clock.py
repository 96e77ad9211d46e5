"""The episode clock: the scenario's reference time, frozen by default."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, UTC

from dateutil import parser as dateparser


def parse_datetime(text: str) -> datetime:
    """Parse an ISO-8601 (or close) timestamp; a naive value is taken as UTC."""
    value = dateparser.isoparse(text) if "T" in text or "-" in text else dateparser.parse(text)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass
class Clock:
    """Per-World time source.

    Frozen (the default) means every call returns ``reference_time``, so timestamps created during an
    episode are deterministic, as in the reference. Unfrozen, time advances from ``reference_time`` with
    the real monotonic clock.
    """

    reference_time: datetime
    frozen: bool = True
    _started: float = field(default_factory=time.monotonic, repr=False)

    def __post_init__(self) -> None:
        if self.reference_time.tzinfo is None:
            self.reference_time = self.reference_time.replace(tzinfo=UTC)

    @classmethod
    def at(cls, reference_time: str | datetime, *, frozen: bool = True) -> "Clock":
        ref = parse_datetime(reference_time) if isinstance(reference_time, str) else reference_time
        return cls(ref, frozen=frozen)

    def now(self) -> datetime:
        """The current time, timezone-aware (in the reference time's offset)."""
        if self.frozen:
            return self.reference_time
        return self.reference_time + timedelta(seconds=time.monotonic() - self._started)

    def now_naive(self) -> datetime:
        """Current wall-clock time without tz and microseconds (the AppWorld storage convention)."""
        return self.now().replace(tzinfo=None, microsecond=0)

    def now_str(self) -> str:
        """``YYYY-MM-DDTHH:MM:SS`` as AppWorld-side rows store timestamps."""
        return self.now_naive().isoformat()
