"""Stage 4, scenario expansion: the backend turns each outline into a conversation (rounds with deictic image
references, transitions, the challenge, a fully resolved goal, the entities that must pre-exist, a persona).
The stage checks the draft against its outline: the round count, every image delivered exactly once, and
deliveries that fit the arrival pattern."""

from __future__ import annotations

from typing import Any

from pipelines.assemble import scenario_id_of
from pipelines.backends.base import Backend
from pipelines.items import Outline, ScenarioDraft
from pipelines.rows import generated_columns
from pipelines.stages.s2_cluster import context_of

__all__ = ["NAME", "draft_problems", "expand_task"]

NAME = "scenario"


def draft_problems(outline: Outline, draft: ScenarioDraft) -> list[str]:
    """Where a draft breaks its outline (empty when it keeps it)."""
    out = []
    if len(draft.rounds) != outline.n_rounds:
        out.append(f"{len(draft.rounds)} rounds for an outline of {outline.n_rounds}")
    delivered = sorted(k for r in draft.rounds for k in r.provide)
    if delivered != list(range(1, len(outline.image_ids) + 1)):
        out.append(f"images delivered {delivered}, expected each of 1..{len(outline.image_ids)} once")
    if draft.rounds:
        first, later = bool(draft.rounds[0].provide), any(r.provide for r in draft.rounds[1:])
        fits = {"upfront": first and not later, "late": not first and later, "progressive": first and later,
                "mixed": first and later}
        if not fits[outline.arrival]:
            out.append(f"deliveries do not fit image arrival {outline.arrival!r}")
    if any(not r.query.strip() for r in draft.rounds):
        out.append("a round has an empty query")
    return out


async def expand_task(backend: Backend, payload: dict[str, Any]) -> dict[str, Any]:
    outline = Outline.model_validate(payload["outline"])
    ctx = context_of(payload["context"])
    gen = await backend.expand(outline, ctx)
    problems = draft_problems(outline, gen.value) if gen.value is not None else []
    reason = gen.rejection or (f"draft breaks its outline: {'; '.join(problems)}" if problems else "")
    return {"scenario_id": scenario_id_of(outline), "outline_id": outline.outline_id,
            "cluster_id": outline.cluster_id, "passed": not reason, "reason": reason, **generated_columns(gen)}
