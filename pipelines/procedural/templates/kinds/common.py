"""Helpers the per-kind recipes share: how the user refers to an image, a written-result goal in the outline's
sink, amounts rounded the way the users ask, and the details a user may misstate."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from pipelines.procedural.templates.base import Goal, Item, Material, Misstatement, ordinal
from pipelines.procedural.templates.entities import SENDABLE
from pipelines.procedural.templates.sinks import DOC_SINKS, doc_ask, doc_criteria, doc_entities

__all__ = ["DOC", "avoid", "doc_goal", "half_up", "misstate", "nth"]

#: the document sinks every written-result recipe offers
DOC = DOC_SINKS


def nth(m: Material, k: int) -> str:
    """``the second receipt``."""
    return f"the {ordinal(k)} {m.family.noun}"


def half_up(x: float, places: int = 2) -> float:
    """``x`` rounded half up (what the users ask for: 22.015 -> 22.02)."""
    q = Decimal(1).scaleb(-places)
    return float(Decimal(str(round(x, 6))).quantize(q, rounding=ROUND_HALF_UP))


def doc_goal(m: Material, key: str, title: str, what: str, body: Callable[[list[Item]], str],
             share: Callable[[list[Item]], str] | None = None) -> Goal:
    """A goal whose result is written (``body`` of the images so far; empty: nothing yet) to the sink (a note
    when the material's sink is not a document sink, e.g. for the pivot of a Splitwise goal)."""
    if (m.sink or "note") not in DOC_SINKS:
        m = replace(m, sink="note")

    def outcome(items: list[Item], final: bool) -> list[Any]:
        text = body(items)
        return doc_entities(m, key, title, text, final) if text else []

    sent = (m.sink or "note") in ("email", "email_phone", "text")
    return Goal(doc_ask(m, title, what), outcome,
                lambda items: doc_criteria(doc_entities(m, key, title, body(items), True)),
                None if sent else share)


def avoid(m: Material) -> list[str]:
    """Every value the images show (a misstatement must be none of them)."""
    return [v for _, c in m.items for v in m.family.values(c)]


def misstate(m: Material, k: int, what: str, right: str, candidates: list[str]) -> Misstatement:
    """The user misremembers ``what`` on image ``k``: the first candidate that no image shows."""
    shown = avoid(m)
    for wrong in candidates:
        if wrong != right and not any(wrong in v or v == wrong for v in shown):
            return Misstatement(k, what, wrong, right)
    raise ValueError(f"no misstatement for {what} on image {k}")


def shuffled(rng: random.Random, values: list[Any]) -> list[Any]:
    out = list(values)
    rng.shuffle(out)
    return out


def is_sent(goal_entities: list[Any]) -> bool:
    return any(e.kind in SENDABLE for e in goal_entities)
