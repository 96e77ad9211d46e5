"""What a UI-mode scenario is authored as: a starter definition plus, for the rounds that become interactive,
what the oracle shows and does and what the scripted user picks on the screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mmtsb.authoring.model import Definition

__all__ = ["UIRound", "UIVariant"]


@dataclass
class UIRound:
    """How one round of the base scenario becomes a UI round.

    ``steps``/``reply`` end with the screen shown and a short reply; ``after_steps``/``after_reply`` run once the
    user has chosen (the choice is saved as ``$picked``, or ``fallback_action`` when the user answers in words).
    """

    round: int                       # 1-based round of the base definition
    query: str
    instructions: str
    requirement: str                 # the round's line under "UI Requirements:"
    steps: list[dict[str, Any]]
    reply: str
    after_steps: list[dict[str, Any]]
    after_reply: str
    fallback_action: dict[str, Any]  # the userAction-like value used when the user answers in words
    choose: str                      # what the scripted user picks (visible text on the screen)
    message: str                     # what it says after the click
    fallback: str                    # what it says when no interactive UI was shown
    field_values: dict[str, Any] | None = None


@dataclass
class UIVariant:
    """A UI scenario: its number, the starter definition it converts, a note appended to the description and
    the converted rounds."""

    number: int
    base: Callable[[], Definition]
    description: str
    rounds: list[UIRound]
    criteria: str = ""               # replaces the base criteria when set (before the UI Requirements)
    edit: Callable[[Definition], None] | None = None     # extra entities etc.
