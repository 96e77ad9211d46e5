"""The image families, by name (add a module and a line here for a new one).

``FAMILIES`` holds every family (lookups by name: the backend, the critic, the benchmark design);
``DEFAULT_SOURCE`` names the four the plain procedural source draws by default (``source.families=null``), so
the offline default of ``mmtsb generate`` keeps its small, fast mix. The knob-aware families (by content kind:
expense, event, person, product, music, departure, metric, task; the parking sign draws an expense) are what the
benchmark sets are drawn from."""

from __future__ import annotations

from pipelines.procedural.families.base import ImageFamily
from pipelines.procedural.families.cards import CARDS
from pipelines.procedural.families.departure import DEPARTURE_FAMILIES
from pipelines.procedural.families.event import EVENT_FAMILIES
from pipelines.procedural.families.events import EVENTS
from pipelines.procedural.families.expense import EXPENSE_FAMILIES
from pipelines.procedural.families.metric import METRIC_FAMILIES
from pipelines.procedural.families.music import MUSIC_FAMILIES
from pipelines.procedural.families.parking import PARKING_FAMILIES
from pipelines.procedural.families.patterns import PATTERNS
from pipelines.procedural.families.person import PERSON_FAMILIES
from pipelines.procedural.families.product import PRODUCT_FAMILIES
from pipelines.procedural.families.receipts import RECEIPTS
from pipelines.procedural.families.task import TASK_FAMILIES

__all__ = ["DEFAULT_SOURCE", "FAMILIES", "KNOB_FAMILIES", "ImageFamily", "families_of_kind"]

#: the families with difficulty knobs, by content kind
KNOB_FAMILIES: tuple[ImageFamily, ...] = (*EXPENSE_FAMILIES, *PARKING_FAMILIES, *EVENT_FAMILIES, *PERSON_FAMILIES,
                                          *PRODUCT_FAMILIES,
                                          *MUSIC_FAMILIES, *DEPARTURE_FAMILIES, *METRIC_FAMILIES, *TASK_FAMILIES)
#: every family, by name
FAMILIES: dict[str, ImageFamily] = {f.name: f for f in (RECEIPTS, EVENTS, CARDS, PATTERNS, *KNOB_FAMILIES)}
#: what ``draw_source`` draws when no families are named
DEFAULT_SOURCE: tuple[str, ...] = (RECEIPTS.name, EVENTS.name, CARDS.name, PATTERNS.name)


def families_of_kind(kind: str) -> list[ImageFamily]:
    """The knob-aware families whose content is of ``kind``."""
    return [f for f in KNOB_FAMILIES if f.kind == kind]
