"""Matplotlib figures like the paper's Figures 5-7, drawn on ``matplotlib.figure.Figure`` objects (Agg
canvas, no pyplot global state), one series per run so the same code draws a single run and a comparison.

``Series`` maps a run label to that run's data (breakdowns, taxonomy counts, pass^k table, headline).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mmtsb.report.metrics import AXES
from mmtsb.report.taxonomy import CATEGORIES, CATEGORY_TITLES

Series = Mapping[str, Any]
DPI = 120
AXIS_TITLES = dict(AXES)
#: the panels of the Figure 5-like breakdown figure
FIG5_PANELS = (("image_arrival", "(a) Image arrival"), ("num_images", "(b) Number of images"),
               ("challenge_type", "(c) Challenge type"), ("selected_flow_type", "(d) Flow type"))
CATEGORY_COLORS = {"factual_error": "#d62728", "task_failure": "#1f77b4", "incomplete_execution": "#ff7f0e",
                   "uncontrolled_behavior": "#9467bd", "other": "#7f7f7f"}


def _new(width: float, height: float, ncols: int = 1, nrows: int = 1) -> tuple[Figure, Any]:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def _save(fig: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, format="png")
    return path


def _err(values: Sequence[float], cis: Sequence[Sequence[float] | None]) -> np.ndarray:
    lo = [max(0.0, v - c[0]) if c else 0.0 for v, c in zip(values, cis)]
    hi = [max(0.0, c[1] - v) if c else 0.0 for v, c in zip(values, cis)]
    return np.array([lo, hi])


def _grouped_bars(ax: Any, series: Mapping[str, Mapping[str, dict[str, Any]]], metric: str = "agent_sr",
                  title: str = "", ylabel: str = "Agent SR") -> None:
    """Bars per axis value, one colour per run, Wilson intervals as error bars (Agent SR)."""
    values: list[str] = []
    for groups in series.values():
        values += [v for v in groups if v not in values]
    x = np.arange(len(values))
    width = 0.8 / max(len(series), 1)
    for i, (label, groups) in enumerate(series.items()):
        ys = [(groups.get(v) or {}).get(metric) for v in values]
        heights = [y if y is not None else 0.0 for y in ys]
        cis = [(groups.get(v) or {}).get(f"{metric}_ci") for v in values]
        bars = ax.bar(x + (i - (len(series) - 1) / 2) * width, heights, width, label=label,
                      yerr=_err(heights, cis) if metric in ("agent_sr", "user_sr") else None, capsize=2)
        if len(series) == 1:
            for b, v in zip(bars, values):
                n = (groups.get(v) or {}).get("n", 0)
                ax.annotate(f"n={n}", (b.get_x() + b.get_width() / 2, 0.01), ha="center", va="bottom",
                            fontsize=7, color="white" if b.get_height() > 0.08 else "black")
    ax.set_xticks(x, values, rotation=30 if len(values) > 4 else 0, ha="right" if len(values) > 4 else "center")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)


def _line(ax: Any, series: Mapping[str, Mapping[str, dict[str, Any]]], metric: str = "agent_sr",
          title: str = "", ylabel: str = "Agent SR") -> None:
    """Agent SR against a numeric axis (number of images), one line per run."""
    xs: set[int] = set()
    for label, groups in series.items():
        pts = sorted((int(v), g.get(metric)) for v, g in groups.items()
                     if v.lstrip("-").isdigit() and g.get(metric) is not None)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            xs.update(p[0] for p in pts)
    if xs:
        ax.set_xticks(sorted(xs))
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("images in the scenario")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)


def breakdown_figure(series: Mapping[str, Mapping[str, Mapping[str, dict[str, Any]]]], path: Path) -> Path:
    """Figure 5: Agent SR by image arrival, number of images, challenge type and flow type.
    ``series``: run label -> breakdowns (axis -> value -> metrics)."""
    fig, axes = _new(11, 8, ncols=2, nrows=2)
    for ax, (axis, title) in zip(axes.flat, FIG5_PANELS):
        per_run = {label: b.get(axis, {}) for label, b in series.items()}
        if axis == "num_images":
            _line(ax, per_run, title=title)
        else:
            _grouped_bars(ax, per_run, title=title)
    if len(series) > 1:
        axes[0][0].legend(fontsize=7)
    fig.suptitle("Agent SR by scenario design axis (infrastructure failures excluded)")
    return _save(fig, path)


def image_source_figure(series: Mapping[str, Mapping[str, Mapping[str, dict[str, Any]]]], path: Path) -> Path:
    """Agent SR by image source category (paper Table 12 / D.4)."""
    fig, axes = _new(8, 4.5)
    _grouped_bars(axes[0][0], {label: b.get("image_category", {}) for label, b in series.items()},
                  title="Agent SR by image source category")
    if len(series) > 1:
        axes[0][0].legend(fontsize=7)
    return _save(fig, path)


def taxonomy_figure(series: Mapping[str, Mapping[str, int]], path: Path) -> Path:
    """Figure 7: the failure taxonomy as 100% stacked bars (one per run), counts written on the segments.
    ``series``: run label -> category -> count of failures."""
    labels = list(series)
    fig, axes = _new(9, 2.0 + 0.6 * len(labels))
    ax = axes[0][0]
    left = np.zeros(len(labels))
    for cat in CATEGORIES:
        counts = np.array([series[label].get(cat, 0) for label in labels], dtype=float)
        totals = np.array([max(sum(series[label].get(c, 0) for c in CATEGORIES), 1) for label in labels])
        share = counts / totals
        ax.barh(labels, share, left=left, color=CATEGORY_COLORS[cat], label=CATEGORY_TITLES[cat])
        for y, (s, c, x0) in enumerate(zip(share, counts, left)):
            if s >= 0.06:
                ax.text(x0 + s / 2, y, f"{int(c)}", ha="center", va="center", color="white", fontsize=8)
        left += share
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of agent failures (infrastructure failures excluded)")
    ax.invert_yaxis()
    fig.legend(loc="outside lower center", ncols=len(CATEGORIES), fontsize=7)
    ax.set_title("Failure root causes (heuristic classification, paper §6.4)")
    return _save(fig, path)


def pass_k_figure(series: Mapping[str, Mapping[str, dict[str, Any]]], path: Path) -> Path:
    """pass^k against k with its bootstrap interval, one line per run. ``series``: label -> pass^k table."""
    fig, axes = _new(6, 4)
    ax = axes[0][0]
    all_ks: set[int] = set()
    for label, table in series.items():
        ks = sorted(int(k) for k, v in table.items() if v.get("pass_hat_k") is not None)
        if not ks:
            continue
        all_ks.update(ks)
        ys = [table[str(k)]["pass_hat_k"] for k in ks]
        ax.plot(ks, ys, marker="o", label=label)
        cis = [table[str(k)].get("ci") for k in ks]
        if all(cis):
            ax.fill_between(ks, [c[0] for c in cis], [c[1] for c in cis], alpha=0.2)
    if all_ks:
        ax.set_xticks(sorted(all_ks))
    ax.set_xlabel("k")
    ax.set_ylabel("pass^k")
    ax.set_ylim(0, 1.05)
    ax.grid(alpha=0.3)
    ax.set_title("pass^k (all k tries succeed), bootstrap 95% CI over scenarios")
    ax.legend(fontsize=7)
    return _save(fig, path)


def headline_figure(series: Mapping[str, Mapping[str, Any]], path: Path) -> Path:
    """Comparison of runs: Agent SR (Wilson 95% CI), Entity F1 micro and macro, User SR."""
    metrics = (("agent_sr", "Agent SR"), ("entity_f1", "Entity F1 (micro)"),
               ("entity_f1_macro", "Entity F1 (macro, ref.)"), ("user_sr", "User SR"))
    labels = list(series)
    fig, axes = _new(max(7, 1.6 * len(labels) + 3), 4.5)
    ax = axes[0][0]
    x = np.arange(len(labels))
    width = 0.8 / len(metrics)
    for i, (key, title) in enumerate(metrics):
        ys = [series[label].get(key) or 0.0 for label in labels]
        cis = [series[label].get(f"{key}_ci") for label in labels]
        ax.bar(x + (i - (len(metrics) - 1) / 2) * width, ys, width, label=title,
               yerr=_err(ys, cis) if key in ("agent_sr", "user_sr") else None, capsize=2)
    ax.set_xticks(x, labels, rotation=20, ha="right")
    ax.set_ylim(0, 1.05)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Headline metrics per run (infrastructure failures excluded)")
    return _save(fig, path)


def user_vs_agent_figure(series: Mapping[str, Mapping[str, Any]], path: Path) -> Path:
    """Figure 6(a): User SR against Agent SR, one point per run, with Pearson r when there are 3+ runs."""
    fig, axes = _new(5.5, 5)
    ax = axes[0][0]
    pts = [(label, m.get("agent_sr"), m.get("user_sr")) for label, m in series.items()]
    pts = [p for p in pts if p[1] is not None and p[2] is not None]
    for label, a, u in pts:
        ax.scatter(a, u)
        ax.annotate(label, (a, u), fontsize=7, xytext=(3, 3), textcoords="offset points")
    title = "User SR vs Agent SR"
    if len(pts) >= 3 and len({p[1] for p in pts}) > 1 and len({p[2] for p in pts}) > 1:
        r = float(np.corrcoef([p[1] for p in pts], [p[2] for p in pts])[0, 1])
        title += f" (Pearson r = {r:.2f})"
    ax.set_xlim(0, 1.05)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("Agent SR")
    ax.set_ylabel("User SR")
    ax.grid(alpha=0.3)
    ax.set_title(title)
    return _save(fig, path)
