"""``build_report``: a run folder's summary.json, report.md, failures.json and figures/*.png."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from mmtsb.report import figures as figs
from mmtsb.report import markdown
from mmtsb.protocol.failures import FailureClass, count_by_class, row_failure_class
from mmtsb.report.data import RunData, episode_key, first_line, infra_reason
from mmtsb.report.metrics import (
    breakdowns, criteria_rates, group_metrics, image_categories, pass_k_table, repeats_of, search_calls,
    token_efficiency, tool_discovery, usage_by_role,
)
from mmtsb.report.taxonomy import CATEGORIES, SIGNALS, Classification, classify
from mmtsb.runner.summary import agent_sr_note

FIGURE_DIR = "figures"
FIGURE_FILES = {"breakdowns": "fig5_breakdowns.png", "image_source": "image_source_category.png",
                "taxonomy": "fig7_failure_taxonomy.png", "pass_k": "pass_k.png"}


def episode_facts(data: RunData) -> dict[str, dict[str, Any]]:
    """What the report needs from each trajectory, read once and kept small (trajectories are not kept)."""
    facts: dict[str, dict[str, Any]] = {}
    for row in data.rows:
        t = data.trajectory(row)
        facts[episode_key(row)] = {
            "has_trajectory": t is not None,
            "image_categories": image_categories(row, t),
            "search_calls": search_calls(t) if t is not None else None,
            "classification": classify(row, t),
        }
    return facts


def compute(data: RunData) -> dict[str, Any]:
    """Everything a report shows: ``summary`` (what summary.json holds) and ``details`` (per-episode lists)."""
    rows, ev, infra = data.rows, data.evaluated, data.infra
    facts = episode_facts(data)
    head = group_metrics(ev)
    usage = usage_by_role(rows)
    failures_by_class = count_by_class(rows)
    repeats = repeats_of(rows)
    classes: list[tuple[dict[str, Any], Classification]] = [(r, facts[episode_key(r)]["classification"]) for r in ev]
    failures = [(r, c) for r, c in classes if c.category is not None]
    summary: dict[str, Any] = {
        "run_dir": str(data.run_dir),
        "label": data.label(),
        "config": data.config(),
        "n_episodes": len(rows),
        "n_evaluated": len(ev),
        "n_scenarios": len({str(r.get("scenario")) for r in rows}),
        "repeats": repeats,
        "agent_sr": head["agent_sr"],
        "agent_sr_note": agent_sr_note(ev),
        "agent_sr_ci": head["agent_sr_ci"],
        "n_judged": head["n_judged"],
        "entity_f1": head["entity_f1"],
        "entity_f1_macro": head["entity_f1_macro"],
        "user_sr": head["user_sr"],
        "user_sr_ci": head["user_sr_ci"],
        "n_user_judged": head["n_user_judged"],
        **{k: head[k] for k in ("ui_sr", "ui_sr_ci", "n_ui_judged") if k in head},   # UI mode only
        "avg_steps": head["avg_steps"],
        "avg_agent_steps": head["avg_agent_steps"],
        "infra_failures": failures_by_class[FailureClass.INFRASTRUCTURE],
        "not_evaluated": len(infra),
        "infra_rate": len(infra) / len(rows) if rows else None,
        "failures": failures_by_class,
        "usage": usage,
        "total_tokens": sum(u["total_tokens"] for u in usage.values()),
        "cost_usd": sum(u["cost_usd"] for u in usage.values()),
        "cost_known": all(u.get("cost_known", True) for u in usage.values()),
        "token_efficiency": token_efficiency(ev),
        **tool_discovery(ev, facts),
        "criteria": criteria_rates(ev),
        "failure_taxonomy": {
            "n_failures": len(failures),
            "counts": {c: sum(1 for _, k in failures if k.category == c) for c in CATEGORIES},
            "methods": dict(Counter(k.method for _, k in failures)),
        },
        "failure_signals": {s: sum(1 for _, k in failures if s in k.signals) for s in SIGNALS},
        "pass_k": (pass_k_table(ev) or None) if repeats > 1 else None,
        "breakdowns": breakdowns(ev, facts),
        "end_reasons": dict(Counter(str(r.get("end_reason")) for r in rows)),
        "invalid_scenarios": [str(i["file"]) for i in data.invalid_scenarios()],
        "trajectories_found": sum(1 for f in facts.values() if f["has_trajectory"]),
    }
    from mmtsb.judging.views import judges_summary   # a column per re-judged label (mmtsb rejudge)

    if (judges := judges_summary(data)) is not None:
        summary["judges"] = judges
    details = {
        "failures": [{"episode_id": episode_key(r), "scenario": r.get("scenario"), "repeat": r.get("repeat"),
                      **c.to_dict()} for r, c in failures],
        "infra": [{"episode_id": episode_key(r), "scenario": r.get("scenario"), "attempts": r.get("attempts"),
                   "failure_class": str(row_failure_class(r)), "reason": infra_reason(r),
                   "error": first_line(r.get("error"), 400)} for r in infra],
        "invalid_scenarios": data.invalid_scenarios(),
    }
    return {"summary": summary, "details": details}


def draw_run_figures(summary: dict[str, Any], fig_dir: Path) -> dict[str, str]:
    """The run's figures (file names relative to ``fig_dir``)."""
    label = summary["label"]
    out = {
        "breakdowns": figs.breakdown_figure({label: summary["breakdowns"]}, fig_dir / FIGURE_FILES["breakdowns"]),
        "image_source": figs.image_source_figure({label: summary["breakdowns"]},
                                                 fig_dir / FIGURE_FILES["image_source"]),
        "taxonomy": figs.taxonomy_figure({label: summary["failure_taxonomy"]["counts"]},
                                         fig_dir / FIGURE_FILES["taxonomy"]),
    }
    if summary.get("pass_k"):
        out["pass_k"] = figs.pass_k_figure({label: summary["pass_k"]}, fig_dir / FIGURE_FILES["pass_k"])
    return {k: p.name for k, p in out.items()}


def write_json(path: Path, data: Any) -> None:
    """Atomically (temp file + rename), so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, default=str)
    os.replace(tmp, path)


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def build_report(run_dir: Path, out_dir: Path | None = None) -> dict[str, Any]:
    """Read a run folder's episodes (and trajectories) and write ``summary.json``, ``report.md``,
    ``failures.json`` and ``figures/*.png`` into ``out_dir`` (default: the run folder). Keys of an existing
    summary.json that the report does not compute (e.g. the runner's ``duration_s``) are kept.
    Returns the summary."""
    run_dir = Path(run_dir)
    out_dir = Path(out_dir) if out_dir is not None else run_dir
    result = compute(RunData.load(run_dir))
    summary, details = result["summary"], result["details"]
    figures = draw_run_figures(summary, out_dir / FIGURE_DIR)
    summary["figures"] = {k: f"{FIGURE_DIR}/{v}" for k, v in figures.items()}
    previous = out_dir / "summary.json"
    merged: dict[str, Any] = {}
    if previous.is_file():
        try:
            merged = json.loads(previous.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            merged = {}
    merged.update(summary)
    write_json(previous, merged)
    write_json(out_dir / "failures.json", details)
    write_text(out_dir / "report.md", markdown.run_report(summary, details, figures))
    return merged
