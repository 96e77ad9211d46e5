"""Stage 6, quality: the critic's seven criteria, balanced downsampling, then the oracle solvability check
(paper §5.1) through the project's own runner on Ray.

Order of work: the critic judges every valid scenario; the ones it passes are ordered so that any prefix is as
balanced as possible across flow x arrival x challenge; the first ``n_scenarios * (1 + reserve)`` of that order
go to the oracle; the first ``n_scenarios`` that the oracle solves (entity F1 >= ``min_f1`` and the agent judge
passes) are the final set. Oracle failures stay in the stage table with their reasons, for review.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipelines.backends.base import Backend
from pipelines.items import Outline
from pipelines.rows import generated_columns
from pipelines.stages.s2_cluster import context_of

__all__ = ["NAME", "balanced_order", "critique_task", "oracle_results"]

NAME = "quality"
AXES = ("flow", "arrival", "challenge")


async def critique_task(backend: Backend, payload: dict[str, Any]) -> dict[str, Any]:
    outline = Outline.model_validate(payload["outline"])
    scenario = json.loads(payload["scenario"])
    gen = await backend.critique(outline, scenario, context_of(payload["context"]))
    failures = gen.value.failures() if gen.value is not None else []
    reason = gen.rejection or (f"critic: {'; '.join(failures)}" if failures else "")
    return {"scenario_id": payload["scenario_id"], "outline_id": outline.outline_id, "flow": outline.flow,
            "arrival": outline.arrival, "challenge": outline.challenge, "critic_passed": not reason,
            "passed": not reason, "reason": reason,
            "critique": gen.value.model_dump_json() if gen.value is not None else "", **generated_columns(gen)}


def balanced_order(items: Sequence[dict[str, Any]], shares: dict[str, dict[str, float]]) -> list[str]:
    """The scenario ids of ``items`` (each with flow, arrival, challenge, scenario_id) in an order whose every
    prefix follows the target shares as closely as the items allow: each next item is the one whose axis values
    lag their targets most (ties: the smaller id, so the order is deterministic)."""
    left = sorted(items, key=lambda r: r["scenario_id"])
    counts: dict[str, Counter[str]] = {a: Counter() for a in AXES}
    order: list[str] = []
    while left:
        k = len(order) + 1
        lags = [sum(shares[a].get(r[a], 0.0) * k - counts[a][r[a]] for a in AXES) for r in left]
        best = left[max(range(len(left)), key=lambda i: (lags[i], -i))]
        left.remove(best)
        for a in AXES:
            counts[a][best[a]] += 1
        order.append(best["scenario_id"])
    return order


def oracle_results(run_dir: Path, min_f1: float) -> dict[str, dict[str, Any]]:
    """Per scenario name, the oracle run's verdict: F1, judge, solvable and why not."""
    from mmtsb.runner.results import RunLayout

    out: dict[str, dict[str, Any]] = {}
    for row in RunLayout(run_dir).read_rows():
        f1 = row.get("entity_f1")
        judge = row.get("agent_pass")
        problems = []
        if row.get("error"):
            problems.append(f"episode error: {row['error']}")
        if f1 is None or f1 < min_f1:
            problems.append(f"entity F1 {f1 if f1 is not None else 'n/a'} < {min_f1}")
        if judge is False:
            problems.append("the agent judge failed the oracle")
        out[str(row["scenario"])] = {"oracle_f1": f1, "oracle_judge_pass": judge,
                                     "oracle_episode_id": row.get("episode_id", ""), "solvable": not problems,
                                     "oracle_reason": "; ".join(problems)}
    return out
