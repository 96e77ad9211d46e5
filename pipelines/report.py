"""The report of one ``mmtsb generate`` run: ``report.md`` and ``figures/distribution.png`` in the run folder.

The report has the funnel (what each stage let through and why it rejected the rest), the composition of the
final set (flow x arrival, challenges, domains, source datasets, images and rounds per scenario), the model
usage per stage, the schema failures of stage 5 and the oracle check. The figure is the bottom of the
paper's Figure 4: the final scenarios across flow types, arrival patterns, challenge types and source datasets.
Every input is optional: a missing stage table, column or funnel file leaves its part of the report empty.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from mmtsb.report.markdown import num, table
from pipelines.items import ARRIVALS, CHALLENGES, FLOWS

__all__ = ["STAGES", "composition", "distribution_figure", "read_stage", "write_report"]

#: the stage tables of a run folder, in order
STAGES = ("1_associate", "2_cluster", "3_outline", "4_scenario", "5_entities", "6_quality")
REPORT_FILE = "report.md"
FIGURE_FILE = "figures/distribution.png"
#: (composition key, panel title, the known values in display order)
PANELS = (("flow", "Flow types", FLOWS), ("arrival", "Image-arrival patterns", ARRIVALS),
          ("challenge", "Challenge types", CHALLENGES), ("dataset_type", "Source dataset types", ()))
UNKNOWN = "unknown"


# ---------------------------------------------------------------------------------------------- inputs
def read_stage(run_dir: Path, stage: str) -> list[dict[str, Any]]:
    """The rows of ``stages/<stage>.parquet`` as dicts ([] when the table is absent or unreadable)."""
    path = Path(run_dir) / "stages" / f"{stage}.parquet"
    if not path.is_file():
        return []
    try:
        return pq.read_table(path).to_pylist()
    except (OSError, ValueError):
        return []


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _final_files(run_dir: Path) -> list[Path]:
    folder = Path(run_dir) / "scenarios"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


# ---------------------------------------------------------------------------------------------- composition
def _rounds_of(data: dict[str, Any]) -> int | None:
    """The number of user rounds: the metadata's, else the rounds of the user script."""
    meta = (data.get("metadata") or {}).get("scenario_metadata") or {}
    if isinstance(meta.get("num_user_rounds"), int):
        return meta["num_user_rounds"]
    from mmtsb.scenarios.script import ScriptError, parse_user_script

    for m in data.get("messages") or []:
        if (m.get("sender"), m.get("recipient")) == ("SYSTEM", "USER"):
            try:
                return len(parse_user_script(m.get("content") or "").rounds)
            except ScriptError:
                return None
    return None


def composition(scenario_files: Iterable[Path]) -> dict[str, Any]:
    """Counts of the scenarios in ``scenario_files`` (unreadable files are counted under ``unreadable``).

    Keys: ``scenarios``, ``unreadable``, ``flow``, ``arrival``, ``challenge``, ``domain``, ``dataset_type``,
    ``num_images`` and ``num_rounds`` (value -> count, values as strings), ``flow_x_arrival`` (flow ->
    arrival -> count) and ``images`` (the total number of images).
    """
    counts: dict[str, Counter[str]] = {k: Counter() for k in
                                       ("flow", "arrival", "challenge", "domain", "dataset_type", "num_images",
                                        "num_rounds")}
    grid: dict[str, Counter[str]] = {}
    n = unreadable = images = 0
    for path in scenario_files:
        data = _read_json(Path(path))
        if not isinstance(data, dict):
            unreadable += 1
            continue
        n += 1
        metadata = data.get("metadata") or {}
        meta = metadata.get("scenario_metadata") or {}
        gen = metadata.get("generation") or {}
        flow = str(meta.get("selected_flow_type") or UNKNOWN)
        arrival = str(meta.get("image_arrival") or UNKNOWN)
        n_images = meta.get("num_images")
        if not isinstance(n_images, int):
            n_images = len(data.get("image_paths") or [])
        images += n_images
        rounds = _rounds_of(data)
        counts["flow"][flow] += 1
        counts["arrival"][arrival] += 1
        counts["challenge"][str(meta.get("challenge_type") or UNKNOWN)] += 1
        counts["domain"][str(gen.get("domain") or UNKNOWN)] += 1
        counts["dataset_type"][str(meta.get("dataset_type") or UNKNOWN)] += 1
        counts["num_images"][str(n_images)] += 1
        counts["num_rounds"][str(rounds) if rounds is not None else UNKNOWN] += 1
        grid.setdefault(flow, Counter())[arrival] += 1
    out: dict[str, Any] = {"scenarios": n, "unreadable": unreadable, "images": images}
    out.update({k: dict(c) for k, c in counts.items()})
    out["flow_x_arrival"] = {f: dict(c) for f, c in grid.items()}
    return out


def _ordered(counts: dict[str, int], known: Sequence[str] = ()) -> list[str]:
    """The known values first (in their order, present or not when ``known`` is given), then the rest sorted."""
    keys = list(known) + sorted((k for k in counts if k not in known), key=_sort_key)
    return keys


def _sort_key(value: str) -> tuple[int, Any]:
    return (0, int(value)) if value.isdigit() else (1, value)


# ---------------------------------------------------------------------------------------------- figure
def distribution_figure(comp: dict[str, Any], path: Path) -> Path:
    """Four bar panels (flow types, arrival patterns, challenge types, source dataset types) with counts."""
    fig = Figure(figsize=(16, 4.2), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(PANELS), squeeze=False)[0]
    colors = ("#4c72b0", "#55a868", "#c44e52", "#8172b2")
    for ax, (key, title, known), color in zip(axes, PANELS, colors):
        counts = comp.get(key) or {}
        labels = _ordered(counts, known)
        values = [counts.get(v, 0) for v in labels]
        ax.set_title(f"{title} (n={sum(values)})")
        if not values or not sum(values):
            ax.text(0.5, 0.5, "no scenarios", ha="center", va="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
            continue
        ys = list(range(len(labels)))
        bars = ax.barh(ys, values, color=color)
        ax.set_yticks(ys, labels=[v.replace("_", " ") for v in labels])
        ax.invert_yaxis()
        ax.bar_label(bars, labels=[str(v) for v in values], padding=2)
        ax.set_xlim(0, max(values) * 1.2 + 0.5)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("scenarios")
    fig.suptitle(f"Distribution of the {comp.get('scenarios', 0)} final scenarios")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, format="png")
    return path


# ---------------------------------------------------------------------------------------------- sections
def _funnel_stages(run_dir: Path) -> list[dict[str, Any]]:
    """The funnel's stages from ``funnel.json``, or derived from the stage tables when it is absent."""
    funnel = _read_json(Path(run_dir) / "funnel.json")
    if isinstance(funnel, dict) and isinstance(funnel.get("stages"), list):
        return [s for s in funnel["stages"] if isinstance(s, dict)]
    stages = []
    for stage in STAGES:
        rows = read_stage(run_dir, stage)
        if not rows:
            continue
        rejected = Counter(str(r.get("reason") or "rejected") for r in rows if not r.get("passed"))
        stages.append({"stage": stage, "unit": "", "in": len(rows), "out": sum(bool(r.get("passed")) for r in rows),
                       "rejected": dict(rejected)})
    return stages


def _top_reasons(rejected: Any, k: int = 3) -> str:
    if not isinstance(rejected, dict) or not rejected:
        return ""
    top = sorted(rejected.items(), key=lambda kv: (-int(kv[1] or 0), str(kv[0])))
    text = "; ".join(f"{reason} ({count})" for reason, count in top[:k])
    return text + (f"; +{len(top) - k} more" if len(top) > k else "")


def _funnel_section(run_dir: Path) -> list[str]:
    stages = _funnel_stages(run_dir)
    out = ["## Funnel", ""]
    if not stages:
        return out + ["No funnel recorded.", ""]
    rows = [[s.get("stage", ""), s.get("unit", ""), s.get("in", ""), s.get("out", ""),
             _top_reasons(s.get("rejected"))] for s in stages]
    out += [table(["stage", "unit", "in", "out", "top rejection reasons"], rows), ""]
    funnel = _read_json(Path(run_dir) / "funnel.json")
    if isinstance(funnel, dict) and "final" in funnel:
        out += [f"Final scenarios: **{funnel['final']}**", ""]
    return out


def _counts_table(title: str, counts: dict[str, int], known: Sequence[str] = ()) -> list[str]:
    labels = _ordered(counts, known)
    rows = [[v, counts.get(v, 0)] for v in labels]
    rows.append(["**total**", sum(counts.values())])
    return [f"### {title}", "", table([title.lower(), "scenarios"], rows), ""]


def _grid_table(comp: dict[str, Any]) -> list[str]:
    grid: dict[str, dict[str, int]] = comp.get("flow_x_arrival") or {}
    arrivals = _ordered(comp.get("arrival") or {}, ARRIVALS)
    flows = _ordered(comp.get("flow") or {}, FLOWS)
    rows = []
    for f in flows:
        cells = [grid.get(f, {}).get(a, 0) for a in arrivals]
        rows.append([f, *cells, sum(cells)])
    totals = [sum(grid.get(f, {}).get(a, 0) for f in flows) for a in arrivals]
    rows.append(["**total**", *totals, sum(totals)])
    return ["### Flow × arrival", "", table(["flow \\ arrival", *arrivals, "total"], rows), ""]


def _composition_section(comp: dict[str, Any]) -> list[str]:
    out = ["## Composition of the final set", ""]
    if not comp["scenarios"]:
        return out + ["The final set is empty: no scenario passed every stage.", ""]
    out += [f"{comp['scenarios']} scenarios, {comp['images']} images in all"
            + (f" ({comp['unreadable']} unreadable file(s) skipped)" if comp["unreadable"] else "") + ".", ""]
    out += _grid_table(comp)
    out += _counts_table("Challenge type", comp["challenge"], CHALLENGES)
    out += _counts_table("Domain", comp["domain"])
    out += _counts_table("Dataset type", comp["dataset_type"])
    out += _counts_table("Images per scenario", comp["num_images"])
    out += _counts_table("Rounds per scenario", comp["num_rounds"])
    return out


def _int(v: Any) -> int:
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0


def _float(v: Any) -> float:
    try:
        return float(v or 0.0)
    except (TypeError, ValueError):
        return 0.0


def _usage_section(stage_rows: dict[str, list[dict[str, Any]]]) -> list[str]:
    out = ["## Model usage", ""]
    rows, total = [], [0, 0, 0, 0, 0.0]
    for stage, items in stage_rows.items():
        if not items:
            continue
        calls = sum(_int(r.get("calls")) for r in items)
        cached = sum(_int(r.get("cached_calls")) for r in items)
        prompt = sum(_int(r.get("prompt_tokens")) for r in items)
        completion = sum(_int(r.get("completion_tokens")) for r in items)
        cost = sum(_float(r.get("cost")) for r in items)
        models = ", ".join(sorted({str(r["model"]) for r in items if r.get("model")})) or "–"
        rows.append([stage, models, calls, cached, prompt, completion, f"{cost:.4f}"])
        for i, v in enumerate((calls, cached, prompt, completion, cost)):
            total[i] += v
    if not rows:
        return out + ["No stage tables recorded.", ""]
    rows.append(["**total**", "", *total[:4], f"{total[4]:.4f}"])
    return out + [table(["stage", "model", "calls", "cached", "prompt tokens", "completion tokens", "cost (USD)"],
                        rows), ""]


def _schema_section(rows: list[dict[str, Any]]) -> list[str]:
    out = ["## Stage 5 schema failures", ""]
    if not rows:
        return out + ["No stage 5 table recorded.", ""]
    failures = sum(_int(r.get("schema_failures")) for r in rows)
    affected = sum(_int(r.get("schema_failures")) > 0 for r in rows)
    attempts = sum(_int(r.get("attempts")) for r in rows)
    invalid = sum(not r.get("passed") for r in rows)
    return out + [f"{failures} schema failure(s) over {attempts} attempt(s) for {len(rows)} scenario(s) "
                  f"({affected} with at least one failure; {invalid} rejected in the end).", ""]


def _oracle_results(run_dir: Path, quality: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per checked scenario: oracle_f1, oracle_judge_pass, solvable (from 6_quality, else the oracle run)."""
    checked = [r for r in quality if r.get("oracle_episode_id") or r.get("solvable") is not None]
    if checked:
        return [{"scenario": r.get("scenario_id"), "oracle_f1": r.get("oracle_f1"),
                 "oracle_judge_pass": r.get("oracle_judge_pass"), "solvable": r.get("solvable")} for r in checked]
    run = Path(run_dir) / "oracle" / "run"
    if not run.is_dir():
        return []
    from mmtsb.runner.results import RunLayout

    out = []
    for row in RunLayout(run).read_rows():
        f1, judge = row.get("entity_f1"), row.get("agent_pass")
        solvable = not row.get("error") and f1 is not None and f1 >= 1.0 and judge is not False
        out.append({"scenario": row.get("scenario"), "oracle_f1": f1, "oracle_judge_pass": judge,
                    "solvable": solvable})
    return out


def _oracle_section(results: list[dict[str, Any]]) -> list[str]:
    out = ["## Oracle solvability check", ""]
    if not results:
        return out + ["No oracle check recorded.", ""]
    f1s = [float(r["oracle_f1"]) for r in results if r.get("oracle_f1") is not None]
    judged = [r for r in results if r.get("oracle_judge_pass") is not None]
    rows = [["scenarios checked", len(results)],
            ["solvable", sum(bool(r.get("solvable")) for r in results)],
            ["mean oracle F1", num(sum(f1s) / len(f1s) if f1s else None)],
            ["judge passed", f"{sum(bool(r['oracle_judge_pass']) for r in judged)} of {len(judged)}"]]
    return out + [table(["measure", "value"], rows), ""]


# ---------------------------------------------------------------------------------------------- entry point
def write_report(run_dir: Path) -> Path:
    """Write ``report.md`` and ``figures/distribution.png`` into ``run_dir``; returns the report's path."""
    run_dir = Path(run_dir)
    comp = composition(_final_files(run_dir))
    figure = distribution_figure(comp, run_dir / FIGURE_FILE)
    stage_rows = {s: read_stage(run_dir, s) for s in STAGES}
    funnel = _read_json(run_dir / "funnel.json")
    lines = [f"# Scenario generation report: {run_dir.name}", ""]
    if isinstance(funnel, dict) and ("cost" in funnel or "tokens" in funnel):
        tokens = funnel.get("tokens") or {}
        lines += [f"Cost: ${_float(funnel.get('cost')):.4f}; tokens: {_int(tokens.get('prompt'))} prompt, "
                  f"{_int(tokens.get('completion'))} completion.", ""]
    lines += _funnel_section(run_dir)
    lines += _composition_section(comp)
    lines += ["## Distribution", "", f"![Distribution of the final scenarios]({figure.relative_to(run_dir)})", ""]
    lines += _usage_section(stage_rows)
    lines += _schema_section(stage_rows["5_entities"])
    lines += _oracle_section(_oracle_results(run_dir, stage_rows["6_quality"]))
    path = run_dir / REPORT_FILE
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
