"""The image families the procedural source draws, by name (add a module and a line here for a new one)."""

from __future__ import annotations

from pipelines.procedural.families.base import ImageFamily
from pipelines.procedural.families.cards import CARDS
from pipelines.procedural.families.events import EVENTS
from pipelines.procedural.families.patterns import PATTERNS
from pipelines.procedural.families.receipts import RECEIPTS

__all__ = ["FAMILIES", "ImageFamily"]

#: every family, by name
FAMILIES: dict[str, ImageFamily] = {f.name: f for f in (RECEIPTS, EVENTS, CARDS, PATTERNS)}
