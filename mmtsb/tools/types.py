"""Types shared by tool signatures: the NOT_GIVEN sentinel, ImageId and the calendar recurrence enum."""

from __future__ import annotations

import enum
from typing import Any, NewType


class NotGiven:
    """Marks an argument the caller omitted, distinct from an explicit ``None`` (which may mean "clear")."""

    _instance: "NotGiven | None" = None

    def __new__(cls) -> "NotGiven":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()

#: an integer image id in the episode's image store (schema: integer)
ImageId = NewType("ImageId", int)


class CalendarRecurrenceFrequencyType(str, enum.Enum):
    """How often a recurring calendar event repeats."""

    YEARLY = "YEARLY"
    MONTHLY = "MONTHLY"
    WEEKLY = "WEEKLY"
    DAILY = "DAILY"


def given(value: Any) -> bool:
    """True unless the value is the NOT_GIVEN sentinel."""
    return value is not NOT_GIVEN
