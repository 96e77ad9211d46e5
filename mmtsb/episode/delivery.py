"""Image delivery fallback (SPEC.md §3.4): a user message that carries a later round's query but no images
gets that round's images, matched by ROUGE-L F1 >= 0.7 against ``metadata.image_delivery_map``."""

from __future__ import annotations

from functools import cache

from rouge_score import rouge_scorer

from mmtsb.scenarios.model import Scenario

DELIVERY_THRESHOLD = 0.7


@cache
def _scorer() -> rouge_scorer.RougeScorer:
    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def scheduled_images_for(scenario: Scenario, text: str, delivered: set[int]) -> list[int]:
    """The image ids of the first undelivered delivery-map entry whose query matches ``text`` (or [])."""
    if not text.strip():
        return []
    for entry in scenario.metadata.image_delivery_map:
        pending = [i for i in entry.image_ids if i not in delivered]
        if not pending:
            continue
        if _scorer().score(entry.query, text)["rougeL"].fmeasure >= DELIVERY_THRESHOLD:
            return list(entry.image_ids)
    return []
