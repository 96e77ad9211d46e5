"""The paper's metrics over episode rows, their confidence intervals, pass^k and the breakdowns.

Every agent metric is computed over the evaluated episodes only: infrastructure failures (see
``data.is_infra``) are counted apart and never enter Agent SR, Entity F1, User SR or average steps.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats

from mmtsb.report.data import Row, episode_key, is_infra, json_list
from mmtsb.protocol import registry
from mmtsb.runner.rows import USAGE_FIELDS, role_keys

CONFIDENCE = 0.95
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 0

#: the paper's image source categories (Appendix D.4) by source dataset; the starter set's synthetic images
#: are placed by their visual character
IMAGE_CATEGORIES = ("Natural (text-rich)", "Natural (less text)", "Docs/Charts/Tables", "UI")
DATASET_CATEGORY = {
    "hiertext": "Natural (text-rich)",
    "worldvqa": "Natural (less text)",
    "docvqa": "Docs/Charts/Tables", "chartqapro": "Docs/Charts/Tables", "omnidocbench": "Docs/Charts/Tables",
    "infographicvqa": "Docs/Charts/Tables", "chartmuseum": "Docs/Charts/Tables",
    "screenspotpro": "UI",
    "synthetic_document": "Docs/Charts/Tables", "synthetic_chart": "Docs/Charts/Tables",
    "synthetic_poster": "Docs/Charts/Tables", "synthetic_screenshot": "UI",
    "synthetic_photo": "Natural (less text)", "synthetic_scene_text": "Natural (text-rich)",
    # the benchmark sets' source types (scenarios/mmtsb_v1*: images/<type>/...)
    "synthetic_receipt": "Docs/Charts/Tables", "synthetic_handwriting": "Docs/Charts/Tables",
    "synthetic_infographic": "Docs/Charts/Tables",
}
OTHER_CATEGORY = "Other"

#: breakdown axes: (key, title); ``image_category`` is multi-label (a scenario counts in every category it
#: has an image from, as in the paper's Table 12)
AXES = (("image_arrival", "Image arrival"), ("num_images", "Number of images"),
        ("challenge_type", "Challenge type"), ("selected_flow_type", "Flow type"),
        ("image_category", "Image source category"), ("dataset_type", "Image source dataset"))
ARRIVAL_ORDER = ("upfront", "progressive", "mixed", "late")
UNKNOWN = "unknown"
#: per-episode facts taken from trajectories (episode key -> {image_categories, search_calls, ...})
Facts = Mapping[str, dict[str, Any]]


# ---------------------------------------------------------------------------------------------- basics
def mean(values: Iterable[float | None]) -> float | None:
    vals = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return sum(vals) / len(vals) if vals else None


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (well-behaved at 0, 1 and small n)."""
    if n <= 0:
        return None
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_mean_ci(values: Sequence[float], *, samples: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED,
                      confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """Percentile bootstrap interval of a mean (scipy's ``bootstrap``; deterministic: a fixed seed). A single
    value is its own interval (scipy needs two)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return None
    if arr.size == 1:
        return float(arr[0]), float(arr[0])
    result = stats.bootstrap((arr,), np.mean, n_resamples=samples, confidence_level=confidence,
                             method="percentile", vectorized=True, random_state=np.random.default_rng(seed))
    lo, hi = result.confidence_interval
    return float(lo), float(hi)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of pass^k (all of k fresh tries succeed) from c successes in n tries: C(c,k)/C(n,k)."""
    if not 0 < k <= n:
        raise ValueError(f"k must be in 1..n (k={k}, n={n})")
    return math.comb(c, k) / math.comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of pass@k (at least one of k tries succeeds): 1 - C(n-c,k)/C(n,k)."""
    if not 0 < k <= n:
        raise ValueError(f"k must be in 1..n (k={k}, n={n})")
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _bool_rate(rows: Sequence[Row], key: str) -> tuple[float | None, int, int]:
    judged = [r for r in rows if r.get(key) is not None]
    passed = sum(1 for r in judged if r[key])
    return (passed / len(judged) if judged else None), passed, len(judged)


def micro_f1(row: Row) -> float | None:
    """The entity-level (micro) F1 of an episode (the headline F1 when the row has no micro column)."""
    v = row.get("entity_f1_micro")
    return row.get("entity_f1") if v is None else v


def macro_f1(row: Row) -> float | None:
    """The reference's F1 (macro over table groups, zeroed by a failed device guardrail)."""
    for key in ("entity_f1_reference", "entity_f1_macro"):
        if row.get(key) is not None:
            return row[key]
    return None


# ---------------------------------------------------------------------------------------------- headline
def group_metrics(rows: Sequence[Row]) -> dict[str, Any]:
    """Agent SR (with a Wilson interval), Entity F1 micro/macro, User SR and average steps of evaluated rows;
    UI SR (with its interval) too when some of the rows were UI-judged (UI mode)."""
    sr, passed, judged = _bool_rate(rows, "agent_pass")
    usr, upassed, ujudged = _bool_rate(rows, "user_pass")
    return {**_core_metrics(rows, sr, passed, judged, usr, upassed, ujudged), **ui_metrics(rows)}


def ui_metrics(rows: Sequence[Row]) -> dict[str, Any]:
    """``ui_sr``, ``ui_sr_ci`` and ``n_ui_judged`` over the UI-judged rows; empty when there are none."""
    rate, passed, judged = _bool_rate(rows, "ui_pass")
    if not judged:
        return {}
    return {"ui_sr": rate, "ui_sr_ci": list(wilson(passed, judged) or []) or None, "n_ui_judged": judged}


def _core_metrics(rows: Sequence[Row], sr: float | None, passed: int, judged: int, usr: float | None,
                  upassed: int, ujudged: int) -> dict[str, Any]:
    return {
        "n": len(rows),
        "n_judged": judged,
        "agent_passed": passed,
        "agent_sr": sr,
        "agent_sr_ci": list(wilson(passed, judged) or []) or None,
        "entity_f1": mean(micro_f1(r) for r in rows),
        "entity_f1_macro": mean(macro_f1(r) for r in rows),
        "user_sr": usr,
        "n_user_judged": ujudged,
        "user_sr_ci": list(wilson(upassed, ujudged) or []) or None,
        "avg_steps": mean(r.get("steps") for r in rows),
        "avg_agent_steps": mean(r.get("agent_steps") for r in rows),
    }


def criteria_rates(rows: Sequence[Row]) -> dict[str, dict[str, float | int | None]]:
    """Pass rate per judge criterion, over the episodes where the criterion was assessed."""
    out: dict[str, dict[str, float | int | None]] = {}
    for party in registry.judged_parties().values():
        for c in party.criteria:
            rate, _, n = _bool_rate(rows, party.column(c))
            if n or not party.optional_columns:   # optional parties (UI) are listed only where judged
                out[party.column(c)] = {"pass_rate": rate, "n": n}
    return out


def usage_by_role(rows: Sequence[Row]) -> dict[str, dict[str, float]]:
    """Tokens, API calls, failed attempts and cost per role: totals and means per episode (over every episode,
    failed or not: an infrastructure failure spends tokens too), and ``earlier_attempts``: what the episode
    attempts retried and thrown away spent (all roles together; listed only when not zero)."""
    out: dict[str, dict[str, float]] = {}
    n = max(len(rows), 1)
    for role in (*role_keys(), "earlier_attempts"):
        totals = {f: float(sum((r.get(f"{role}_{f}") or 0) for r in rows)) for f in USAGE_FIELDS}
        if role == "earlier_attempts" and not any(totals.values()):
            continue   # listed only when retried attempts spent something
        out[role] = {**totals, **{f"mean_{f}": totals[f] / n for f in ("total_tokens", "cost_usd")},
                     "cost_known": all(r.get(f"{role}_cost_known", True) is not False for r in rows)}
    return out


def token_efficiency(rows: Sequence[Row]) -> dict[str, float | None]:
    """Agent tokens per passing and per failing episode, and per successful episode (paper D.6)."""
    passed = [r for r in rows if r.get("agent_pass") is True]
    failed = [r for r in rows if r.get("agent_pass") is False]
    total = sum((r.get("agent_total_tokens") or 0) for r in rows)
    return {
        "agent_tokens_passing": mean(r.get("agent_total_tokens") or 0 for r in passed),
        "agent_tokens_failing": mean(r.get("agent_total_tokens") or 0 for r in failed),
        "agent_tokens_per_success": (total / len(passed)) if passed else None,
    }


def search_calls(trajectory: dict[str, Any]) -> int:
    return sum(1 for c in trajectory.get("tool_calls") or [] if c.get("tool") == "api_docs_search_api_docs")


def tool_discovery(rows: Sequence[Row], facts: Facts) -> dict[str, float | None]:
    """Surfaced and invoked recall of ``expected_tools`` (paper D.3) and search calls per episode (from the
    trajectories, when found)."""
    searches = [facts[episode_key(r)].get("search_calls") for r in rows if episode_key(r) in facts]
    return {
        "surfaced_tool_recall": mean(r.get("surfaced_tool_recall") for r in rows),
        "invoked_tool_recall": mean(r.get("invoked_tool_recall") for r in rows),
        "search_calls_per_episode": mean(searches),
        "n_with_expected_tools": sum(1 for r in rows if r.get("invoked_tool_recall") is not None),
    }


# ---------------------------------------------------------------------------------------------- pass^k
def per_scenario_outcomes(rows: Sequence[Row]) -> dict[str, tuple[int, int]]:
    """(tries, successes) per scenario over judged, evaluated episodes."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if is_infra(r) or r.get("agent_pass") is None:
            continue
        c = counts[str(r.get("scenario"))]
        c[0] += 1
        c[1] += int(bool(r["agent_pass"]))
    return {k: (v[0], v[1]) for k, v in counts.items()}


def repeats_of(rows: Sequence[Row]) -> int:
    """The largest number of episodes of one scenario in a run (1 for a single pass)."""
    per: dict[str, int] = defaultdict(int)
    for r in rows:
        per[str(r.get("scenario"))] += 1
    return max(per.values(), default=0)


def pass_k_table(rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    """pass^k and pass@k for k = 1..max tries, each the mean over scenarios with at least k judged tries of
    the unbiased per-scenario estimate, with a bootstrap interval over scenarios."""
    outcomes = per_scenario_outcomes(rows)
    kmax = max((n for n, _ in outcomes.values()), default=0)
    table: dict[str, dict[str, Any]] = {}
    for k in range(1, kmax + 1):
        eligible = [(n, c) for n, c in outcomes.values() if n >= k]
        hat = [pass_hat_k(n, c, k) for n, c in eligible]
        at = [pass_at_k(n, c, k) for n, c in eligible]
        ci = bootstrap_mean_ci(hat)
        ci_at = bootstrap_mean_ci(at)
        table[str(k)] = {"pass_hat_k": mean(hat), "ci": list(ci) if ci else None,
                         "pass_at_k": mean(at), "pass_at_k_ci": list(ci_at) if ci_at else None,
                         "n_scenarios": len(eligible)}
    return table


# ---------------------------------------------------------------------------------------------- breakdowns
def dataset_folder(source: str) -> str | None:
    """The source dataset named in an image path (``hiertext/images/test/x.jpg`` -> ``hiertext``)."""
    parts = [p.lower() for p in re.split(r"[\\/]", source or "") if p]
    return next((p for p in parts if p in DATASET_CATEGORY), None)


def image_categories(row: Row, trajectory: dict[str, Any] | None) -> list[str]:
    """The image source categories of an episode: from its images' source datasets when the paths name them
    (multi-label, as the paper's Table 12), else from the scenario's ``dataset_type``."""
    found: dict[str, None] = {}
    for img in (trajectory or {}).get("images") or []:
        folder = dataset_folder(str(img.get("source") or ""))
        if folder:
            found.setdefault(DATASET_CATEGORY[folder], None)
    if found:
        return list(found)
    dt = row.get("dataset_type")
    if dt in (None, ""):
        return [UNKNOWN]
    return [DATASET_CATEGORY.get(str(dt).lower(), OTHER_CATEGORY)]


def axis_values(row: Row, axis: str, facts: Facts) -> list[str]:
    """The value(s) of one breakdown axis for a row."""
    if axis == "image_category":
        f = facts.get(episode_key(row)) or {}
        return f.get("image_categories") or image_categories(row, None)
    v = row.get(axis)
    if v is None or v == "":
        return [UNKNOWN]
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return [str(v)]


def _order(axis: str, values: Iterable[str]) -> list[str]:
    vals = set(values)

    def key(v: str) -> tuple[int, Any]:
        if v == UNKNOWN:
            return (9, v)
        if axis == "num_images":
            return (0, int(v)) if v.lstrip("-").isdigit() else (1, v)
        if axis == "image_arrival" and v in ARRIVAL_ORDER:
            return (0, ARRIVAL_ORDER.index(v))
        if axis == "image_category" and v in IMAGE_CATEGORIES:
            return (0, IMAGE_CATEGORIES.index(v))
        return (1, v)

    return sorted(vals, key=key)


def breakdown(rows: Sequence[Row], axis: str, facts: Facts,
              metrics: Callable[[Sequence[Row]], dict[str, Any]] = group_metrics) -> dict[str, dict[str, Any]]:
    """Metrics per value of an axis, in a natural order (arrival as in the paper, image counts ascending)."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        for v in axis_values(r, axis, facts):
            groups[v].append(r)
    return {v: metrics(groups[v]) for v in _order(axis, groups)}


def breakdowns(rows: Sequence[Row], facts: Facts) -> dict[str, dict[str, dict[str, Any]]]:
    return {axis: breakdown(rows, axis, facts) for axis, _ in AXES}


def expected_tools(row: Row) -> list[str]:
    return [str(t) for t in json_list(row.get("expected_tools"))]
