"""The judge study of the paper's Appendix B and C over run folders and human labels, as plain data (what
``agreement.json`` holds): per judged party and per criterion, raw agreement and Cohen's kappa of every pair
of raters, the annotators' own agreement (mean pairwise, Fleiss' kappa for three or more), the judges' Fleiss'
kappa, each judge against the human majority (confusion matrix, false-positive and false-negative rates, pass
rates: Tables 5 and 6); model rankings across judges (Spearman, Kendall: Table 8); judge run-to-run spread
(Table 9); rollout spread across repeats; pass^k with intervals per run and judge.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from mmtsb.eval.agreement import stats
from mmtsb.eval.agreement.labels import OVERALL
from mmtsb.eval.agreement.ratings import Ratings, RunView, criteria_rated, describe, items_of, parties_rated
from mmtsb.judging.views import evaluated, group_metrics_sr
from mmtsb.report.data import Row

Keyed = dict[tuple[str, str], bool]


# ---------------------------------------------------------------------------------------------- agreement
def pair(a: Keyed, b: Keyed) -> dict[str, Any]:
    """Raw agreement and Cohen's kappa of two raters over the items both labelled."""
    keys = sorted(set(a) & set(b))
    xa, xb = [a[k] for k in keys], [b[k] for k in keys]
    return {"n": len(keys), "raw": stats.raw_agreement(xa, xb), "kappa": stats.cohen_kappa(xa, xb)}


def fleiss_over(raters: Mapping[str, Keyed]) -> dict[str, Any]:
    """Fleiss' kappa over the items every rater labelled."""
    keys = sorted(set.intersection(*(set(r) for r in raters.values()))) if raters else []
    return {"n_raters": len(raters), "n_items": len(keys),
            "kappa": stats.fleiss_kappa([[r[k] for r in raters.values()] for k in keys])}


def majority_of(humans: Mapping[str, Keyed]) -> tuple[Keyed, int]:
    """The human majority label per item (over the annotators who labelled it) and the number of ties."""
    votes: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for rating in humans.values():
        for k, v in rating.items():
            votes[k].append(v)
    out: Keyed = {}
    ties = 0
    for k, vs in votes.items():
        m = stats.majority(vs)
        if m is None:
            ties += 1
        else:
            out[k] = m
    return out, ties


def _range(values: Sequence[float | None]) -> dict[str, Any]:
    vals = [v for v in values if v is not None]
    return {"mean": sum(vals) / len(vals) if vals else None, "min": min(vals, default=None),
            "max": max(vals, default=None)}


def vs_majority(judge: Keyed, majority: Keyed) -> dict[str, Any]:
    """One judge against the human majority: agreement, kappa, the confusion matrix and its error rates."""
    keys = sorted(set(judge) & set(majority))
    human, said = [majority[k] for k in keys], [judge[k] for k in keys]
    c = stats.confusion(human, said)
    return {"n": len(keys), "raw": stats.raw_agreement(human, said), "kappa": stats.cohen_kappa(human, said),
            "confusion": c, **stats.error_rates(c),
            "judge_pass_rate": sum(said) / len(said) if said else None,
            "human_pass_rate": sum(human) / len(human) if human else None}


def block(judges: Mapping[str, Keyed], humans: Mapping[str, Keyed]) -> dict[str, Any]:
    """Every agreement measure over one (party, criterion)'s labels."""
    judges = {k: v for k, v in judges.items() if v}
    humans = {k: v for k, v in humans.items() if v}
    raters = {**judges, **humans}
    pairs = [{"a": a, "b": b, **pair(raters[a], raters[b])} for a, b in combinations(raters, 2)]
    pairs = [p for p in pairs if p["n"]]
    out: dict[str, Any] = {"judges": list(judges), "humans": list(humans), "pairwise": pairs}
    human_pairs = [p for p in pairs if p["a"] in humans and p["b"] in humans]
    if len(humans) >= 2:
        out["inter_annotator"] = {"raw": _range([p["raw"] for p in human_pairs]),
                                  "kappa": _range([p["kappa"] for p in human_pairs]),
                                  **({"fleiss": fleiss_over(humans)} if len(humans) >= 3 else {})}
    if len(judges) >= 3:
        out["judges_fleiss"] = fleiss_over(judges)
    if humans:
        majority, ties = majority_of(humans)
        out["majority"] = {"n_items": len(majority), "ties": ties,
                           "pass_rate": sum(majority.values()) / len(majority) if majority else None}
        out["vs_majority"] = {name: vs_majority(rating, majority) for name, rating in judges.items()}
    return out


def agreement(ratings: Ratings) -> dict[str, Any]:
    """Per judged party: the overall verdict's block and one per criterion."""
    out: dict[str, Any] = {}
    for party in parties_rated(ratings):
        def keyed(raters: Mapping[str, Any], criterion: str, party: str = party) -> dict[str, Keyed]:
            return {name: items_of(r, party, criterion) for name, r in raters.items()}

        out[party] = {"overall": block(keyed(ratings.judges, OVERALL), keyed(ratings.humans, OVERALL)),
                      "criteria": {c: block(keyed(ratings.judges, c), keyed(ratings.humans, c))
                                   for c in criteria_rated(ratings, party)}}
    return out


# ---------------------------------------------------------------------------------------------- rankings
def rankings(runs: Sequence[RunView]) -> dict[str, Any]:
    """Agent SR of every run under every judge, and how alike the judges rank the runs (Spearman, Kendall)."""
    sr: dict[str, dict[str, float]] = defaultdict(dict)
    for view in runs:
        for judge, rows in view.by_judge.items():
            value = group_metrics_sr(rows)
            if value is not None:
                sr[judge][view.label] = value
    judges = [j for j, by_run in sr.items() if len(by_run) >= 2]
    pairs = []
    for a, b in combinations(judges, 2):
        common = [r for r in sr[a] if r in sr[b]]
        pairs.append({"a": a, "b": b, "runs": common,
                      **stats.rank_correlation([sr[a][r] for r in common], [sr[b][r] for r in common])})
    return {"agent_sr": {j: dict(v) for j, v in sr.items()}, "pairs": pairs}


# ---------------------------------------------------------------------------------------------- variance
def judge_variance(runs: Sequence[RunView]) -> list[dict[str, Any]]:
    """Agent SR per judge repeat over the same trajectories, with mean, SD and range (Table 9)."""
    out = []
    for view in runs:
        for label, repeats in view.repeats.items():
            if len(repeats) < 2:
                continue
            values = [group_metrics_sr(rows) for rows in repeats]
            out.append({"run": view.label, "judge": label, "n_repeats": len(repeats),
                        **stats.spread([v for v in values if v is not None])})
    return out


def by_rollout_repeat(rows: Sequence[Row]) -> dict[int, list[Row]]:
    groups: dict[int, list[Row]] = defaultdict(list)
    for r in rows:
        groups[int(r.get("repeat") or 0)].append(r)
    return dict(sorted(groups.items()))


def rollout_variance(runs: Sequence[RunView]) -> list[dict[str, Any]]:
    """Agent SR per rollout repeat (each repeat a full pass over the scenarios) under each judge, with mean,
    SD and range (the paper's C.3 rollout variance)."""
    out = []
    for view in runs:
        for judge, rows in view.by_judge.items():
            groups = by_rollout_repeat(rows)
            if len(groups) < 2:
                continue
            values = [group_metrics_sr(g) for g in groups.values()]
            out.append({"run": view.label, "judge": judge, "n_repeats": len(groups),
                        **stats.spread([v for v in values if v is not None])})
    return out


def pass_k(runs: Sequence[RunView]) -> dict[str, dict[str, Any]]:
    """pass^k and pass@k with bootstrap intervals per run (with repeats) and judge (the report's estimator)."""
    from mmtsb.report.metrics import pass_k_table

    out: dict[str, dict[str, Any]] = {}
    for view in runs:
        if len(by_rollout_repeat(view.rows)) < 2:
            continue
        out[view.label] = {judge: pass_k_table(evaluated(rows)) for judge, rows in view.by_judge.items()}
    return out


# ---------------------------------------------------------------------------------------------- the study
def study(ratings: Ratings) -> dict[str, Any]:
    """Everything ``mmtsb agreement`` reports, as JSON-ready data."""
    return {
        "runs": [{"run_id": v.run_id, "path": str(v.path), "label": v.label, "n_episodes": len(v.rows),
                  "rollout_repeats": len(by_rollout_repeat(v.rows)), "judges": list(v.by_judge),
                  "judge_repeats": {label: len(reps) for label, reps in v.repeats.items()}} for v in ratings.runs],
        "raters": describe(ratings),
        "notes": list(ratings.notes),
        "agreement": agreement(ratings),
        "rankings": rankings(ratings.runs),
        "judge_variance": judge_variance(ratings.runs),
        "rollout_variance": rollout_variance(ratings.runs),
        "pass_k": pass_k(ratings.runs),
    }
