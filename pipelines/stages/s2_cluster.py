"""Stage 2, clustering and viability: CLIP embeddings of the images that passed stage 1 (open_clip in batched
Ray Data actors), grouped by primary domain and clustered into groups of 3-6 with FAISS; then the backend
scores each group's fit for every flow type and arrival pattern (0-3) and only natural fits (>= 2) are kept."""

from __future__ import annotations

import json
from typing import Any

from pipelines.backends.base import Backend, GroupContext
from pipelines.items import ARRIVALS, FLOWS, Group, ImageVerdict, SourceImage, Viability
from pipelines.rows import generated_columns

__all__ = ["MIN_SCORE", "NAME", "context_of", "context_payload", "viability_task", "viable_pairs"]

NAME = "cluster"
#: the lowest score of a natural fit (paper §5: "only natural fits (score >= 2) are retained")
MIN_SCORE = 2


def viable_pairs(v: Viability) -> list[str]:
    """The ``flow/arrival`` pairs where both scores are natural fits, in the paper's order of the axes."""
    flows = [f for f in FLOWS if v.flows.get(f, 0) >= MIN_SCORE]
    arrivals = [a for a in ARRIVALS if v.arrivals.get(a, 0) >= MIN_SCORE]
    return [f"{f}/{a}" for f in flows for a in arrivals]


async def viability_task(backend: Backend, payload: dict[str, Any]) -> dict[str, Any]:
    ctx = context_of(payload)
    gen = await backend.viability(ctx)
    pairs = viable_pairs(gen.value) if gen.value is not None else []
    reason = gen.rejection or ("" if pairs else "no flow/arrival pair scores >= 2")
    group = ctx.group
    return {"cluster_id": group.cluster_id, "domain": group.domain, "image_ids": group.image_ids,
            "mean_similarity": group.mean_similarity, "viable_pairs": pairs,
            "flow_scores": json.dumps(gen.value.flows if gen.value else {}),
            "arrival_scores": json.dumps(gen.value.arrivals if gen.value else {}),
            "passed": not reason, "reason": reason, **generated_columns(gen)}


def context_payload(ctx: GroupContext) -> dict[str, Any]:
    """A group context as JSON-able data (what travels to the stage actors)."""
    return {"group": ctx.group.model_dump(), "images": [i.model_dump() for i in ctx.images],
            "verdicts": [v.model_dump() for v in ctx.verdicts]}


def context_of(payload: dict[str, Any]) -> GroupContext:
    """The group context back from :func:`context_payload`'s data."""
    return GroupContext(group=Group.model_validate(payload["group"]),
                        images=[SourceImage.model_validate(i) for i in payload["images"]],
                        verdicts=[ImageVerdict.model_validate(v) for v in payload["verdicts"]])
