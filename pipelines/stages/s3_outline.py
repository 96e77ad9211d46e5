"""Stage 3, outlines: one plan per viable group, sampled from its viable flow/arrival pairs and the four
challenge types with weights that steer the set toward the balance targets (paper §5: "weighted sampling that
steers toward a balanced distribution"). Deterministic for a seed: groups are visited in id order and every
draw comes from one seeded generator.

The weight of a candidate (flow, arrival, challenge) is the sum over the three axes of how far that axis value
lags its target share so far (``target_share * (k + 1) - count``, floored at a small epsilon), so values the
set lacks are drawn more often and an axis value a group cannot take does not block the others.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pipelines.items import CHALLENGES, Outline

__all__ = ["NAME", "OutlineSampler", "outline_row", "rounds_for"]

NAME = "outline"
EPSILON = 0.05


def rounds_for(n_images: int, rng: random.Random, lo: int, hi: int) -> int:
    """A round count in [lo, hi], at most one more than the images (so rounds have something to do)."""
    return rng.randint(lo, max(lo, min(hi, n_images + 1)))


class OutlineSampler:
    """Draws outlines one group after another, keeping the running counts per axis."""

    def __init__(self, shares: dict[str, dict[str, float]], seed: int, rounds: tuple[int, int] = (2, 5)) -> None:
        self.shares = shares
        self.rng = random.Random(seed)
        self.seed = seed
        self.rounds = rounds
        self.counts: dict[str, Counter[str]] = {"flow": Counter(), "arrival": Counter(), "challenge": Counter()}
        self.drawn = 0

    def _lag(self, axis: str, value: str) -> float:
        return max(EPSILON, self.shares[axis].get(value, 0.0) * (self.drawn + 1) - self.counts[axis][value])

    def draw(self, cluster_id: str, domain: str, image_ids: Sequence[str], viable_pairs: Sequence[str],
             tools: Sequence[str]) -> Outline | None:
        """The outline of one group (None when it has no viable pair)."""
        candidates = [(f, a, c) for pair in viable_pairs for f, a in [pair.split("/")] for c in CHALLENGES
                      if self.shares["challenge"].get(c, 0.0) > 0 and self.shares["flow"].get(f, 0.0) > 0
                      and self.shares["arrival"].get(a, 0.0) > 0]
        if not candidates:
            return None
        weights = [self._lag("flow", f) + self._lag("arrival", a) + self._lag("challenge", c) for f, a, c in candidates]
        flow, arrival, challenge = self.rng.choices(candidates, weights=weights, k=1)[0]
        order = list(image_ids)
        self.rng.shuffle(order)
        n_rounds = rounds_for(len(order), self.rng, *self.rounds)
        digest = hashlib.sha256(f"{cluster_id}|{self.seed}".encode()).hexdigest()
        self.counts["flow"][flow] += 1
        self.counts["arrival"][arrival] += 1
        self.counts["challenge"][challenge] += 1
        self.drawn += 1
        return Outline(outline_id="ol-" + digest[:12], cluster_id=cluster_id, domain=domain, flow=flow,
                       arrival=arrival, challenge=challenge, n_rounds=n_rounds, image_ids=order,
                       required_tools=list(dict.fromkeys(tools)), seed=int(digest[12:20], 16))


def outline_row(outline: Outline | None, cluster_id: str) -> dict[str, Any]:
    """The stage-3 row of a group."""
    if outline is None:
        return {"outline_id": f"ol-none-{cluster_id}", "cluster_id": cluster_id, "passed": False,
                "reason": "no viable pair within the balance targets", "payload": ""}
    return {"outline_id": outline.outline_id, "cluster_id": cluster_id, "flow": outline.flow,
            "arrival": outline.arrival, "challenge": outline.challenge, "n_rounds": outline.n_rounds,
            "image_ids": outline.image_ids, "required_tools": outline.required_tools, "passed": True, "reason": "",
            "payload": outline.model_dump_json()}
