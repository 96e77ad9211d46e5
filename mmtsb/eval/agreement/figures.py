"""Figures of the judge study (matplotlib, on Figure objects with the Agg canvas: no pyplot state). Each
function draws from the study's data (:mod:`mmtsb.eval.agreement.study`), saves a PNG and returns the Figure,
whose artists hold exactly the numbers drawn (the tests read them back against worked examples)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from mmtsb.report.figures import _new, _save   # the report's figure set-up (Agg canvas) and PNG writer

NAN = float("nan")


def _value(x: float | None) -> float:
    return NAN if x is None else float(x)


def kappa_matrix(block: Mapping[str, Any]) -> tuple[list[str], np.ndarray]:
    """The raters and their pairwise Cohen's kappa (1 on the diagonal, NaN where undefined or never paired)."""
    raters = [*block["judges"], *block["humans"]]
    m = np.full((len(raters), len(raters)), NAN)
    np.fill_diagonal(m, 1.0)
    index = {r: i for i, r in enumerate(raters)}
    for p in block["pairwise"]:
        i, j = index[p["a"]], index[p["b"]]
        m[i, j] = m[j, i] = _value(p["kappa"])
    return raters, m


def kappa_figure(block: Mapping[str, Any], path: Path, title: str = "Pairwise Cohen's kappa") -> Figure:
    """A heatmap of every pair of raters' Cohen's kappa."""
    raters, m = kappa_matrix(block)
    size = 2.5 + 0.7 * len(raters)
    fig, axes = _new(size + 1, size)
    ax = axes[0][0]
    image = ax.imshow(m, cmap="RdYlGn", vmin=-1, vmax=1)
    ax.set_xticks(range(len(raters)), raters, rotation=40, ha="right", fontsize=8)
    ax.set_yticks(range(len(raters)), raters, fontsize=8)
    for i in range(len(raters)):
        for j in range(len(raters)):
            ax.text(j, i, "–" if np.isnan(m[i, j]) else f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="Cohen's kappa")
    ax.set_title(title)
    _save(fig, path)
    return fig


def confusion_figure(block: Mapping[str, Any], path: Path, title: str = "Judge vs human majority") -> Figure:
    """One confusion matrix per judge against the human majority (rows: human pass/fail; columns: the judge's)."""
    judges = list(block.get("vs_majority") or {})
    fig, axes = _new(3.2 * max(len(judges), 1), 3.2, ncols=max(len(judges), 1))
    for ax, judge in zip(axes[0], judges):
        c = block["vs_majority"][judge]["confusion"]
        m = np.array([[c["tp"], c["fn"]], [c["fp"], c["tn"]]])
        ax.imshow(m, cmap="Blues", vmin=0)
        for i in range(2):
            for j in range(2):
                ax.text(j, i, str(m[i, j]), ha="center", va="center",
                        color="white" if m[i, j] > m.max() / 2 else "black")
        ax.set_xticks([0, 1], ["judge pass", "judge fail"])
        ax.set_yticks([0, 1], ["human pass", "human fail"])
        ax.set_title(judge, fontsize=9)
    fig.suptitle(title)
    _save(fig, path)
    return fig


def criteria_comparisons(party: Mapping[str, Any]) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """(criteria, comparisons, raw agreement, kappa): each judge against the human majority when annotators
    labelled the criteria, else each pair of judges."""
    criteria = list(party["criteria"])
    comparisons: list[str] = []
    for c in criteria:
        b = party["criteria"][c]
        names = list(b["vs_majority"]) if b.get("vs_majority") else [f"{p['a']} vs {p['b']}" for p in b["pairwise"]]
        comparisons += [n for n in names if n not in comparisons]
    raw = np.full((len(criteria), len(comparisons)), NAN)
    kappa = raw.copy()
    for i, c in enumerate(criteria):
        b = party["criteria"][c]
        found = b["vs_majority"] if b.get("vs_majority") else {f"{p['a']} vs {p['b']}": p for p in b["pairwise"]}
        for j, name in enumerate(comparisons):
            if name in found:
                raw[i, j], kappa[i, j] = _value(found[name]["raw"]), _value(found[name]["kappa"])
    return criteria, comparisons, raw, kappa


def criteria_figure(party: Mapping[str, Any], path: Path, title: str = "Agreement per criterion") -> Figure:
    """Raw agreement (a) and Cohen's kappa (b) per criterion, one bar per comparison."""
    criteria, comparisons, raw, kappa = criteria_comparisons(party)
    fig, axes = _new(max(6.0, 1.4 * len(criteria) * max(len(comparisons), 1) ** 0.5), 6.5, nrows=2)
    x = np.arange(len(criteria))
    width = 0.8 / max(len(comparisons), 1)
    for ax, values, label in ((axes[0][0], raw, "(a) raw agreement"), (axes[1][0], kappa, "(b) Cohen's kappa")):
        for j, name in enumerate(comparisons):
            at = x + (j - (len(comparisons) - 1) / 2) * width
            ax.bar(at, values[:, j], width, label=name)
            for xi, v in zip(at, values[:, j]):   # undefined (no labels, or kappa undefined): said, not hidden
                if np.isnan(v):
                    ax.text(xi, 0.02, "–", ha="center", va="bottom", fontsize=8)
        ax.set_xlim(-0.5, len(criteria) - 0.5)
        ax.set_xticks(x, criteria, rotation=25, ha="right", fontsize=8)
        ax.set_ylim(-1 if label.startswith("(b)") else 0, 1.05)
        ax.set_title(label)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(title)
    _save(fig, path)
    return fig


def rankings_figure(rankings: Mapping[str, Any], path: Path) -> Figure:
    """Agent SR of each run under each judge (the runs ordered by the first judge), one line per judge."""
    sr: Mapping[str, Mapping[str, float]] = rankings["agent_sr"]
    judges = list(sr)
    runs: list[str] = []
    for j in judges:
        runs += [r for r in sorted(sr[j], key=lambda r, j=j: sr[j][r]) if r not in runs]
    fig, axes = _new(max(5.0, 1.1 * len(runs)), 4.0)
    ax = axes[0][0]
    x = np.arange(len(runs))
    for j in judges:
        ax.plot(x, [100 * sr[j][r] if r in sr[j] else NAN for r in runs], marker="o", label=j)
    ax.set_xticks(x, runs, rotation=25, ha="right", fontsize=8)
    ax.set_ylabel("Agent SR (%)")
    ax.set_title("Agent SR per run under each judge")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    _save(fig, path)
    return fig


def variance_figure(judge_variance: Sequence[Mapping[str, Any]], rollout_variance: Sequence[Mapping[str, Any]],
                    path: Path) -> Figure:
    """Mean Agent SR (%) with its SD as error bars: (a) over judge repeats of fixed trajectories, (b) over
    rollout repeats."""
    fig, axes = _new(9.0, 4.0, ncols=2)
    for ax, entries, title in ((axes[0][0], judge_variance, "(a) judge repeats (fixed trajectories)"),
                               (axes[0][1], rollout_variance, "(b) rollout repeats")):
        names = [f"{e['run']}\n{e['judge']}" for e in entries]
        means = [100 * e["mean"] if e["mean"] is not None else NAN for e in entries]
        sds = [100 * e["sd"] if e["sd"] is not None else 0.0 for e in entries]
        ax.bar(np.arange(len(entries)), means, yerr=sds, capsize=4)
        ax.set_xticks(np.arange(len(entries)), names, fontsize=7, rotation=20 if len(entries) > 1 else 0,
                      ha="right" if len(entries) > 1 else "center")
        ax.set_ylabel("Agent SR (%)")
        ax.set_ylim(0, 105)
        ax.set_title(title, fontsize=9)
        if not entries:
            ax.text(0.5, 0.5, "no repeats", ha="center", va="center", transform=ax.transAxes)
    _save(fig, path)
    return fig


def draw_all(result: Mapping[str, Any], fig_dir: Path) -> dict[str, str]:
    """Every figure the study's data supports; returns {name: file name under ``fig_dir``}."""
    out: dict[str, Path] = {}
    for party, data in result["agreement"].items():
        overall = data["overall"]
        if len(overall["judges"]) + len(overall["humans"]) >= 2:
            out[f"{party}_kappa"] = fig_dir / f"agreement_{party}_kappa.png"
            kappa_figure(overall, out[f"{party}_kappa"], f"{party}: pairwise Cohen's kappa (overall verdict)")
        if overall.get("vs_majority"):
            out[f"{party}_confusion"] = fig_dir / f"agreement_{party}_confusion.png"
            confusion_figure(overall, out[f"{party}_confusion"], f"{party} judge vs human majority")
        if any(b["pairwise"] for b in data["criteria"].values()):
            out[f"{party}_criteria"] = fig_dir / f"agreement_{party}_criteria.png"
            criteria_figure(data, out[f"{party}_criteria"], f"{party}: agreement per criterion")
    if result["rankings"]["agent_sr"]:
        out["rankings"] = fig_dir / "agreement_rankings.png"
        rankings_figure(result["rankings"], out["rankings"])
    if result["judge_variance"] or result["rollout_variance"]:
        out["variance"] = fig_dir / "agreement_variance.png"
        variance_figure(result["judge_variance"], result["rollout_variance"], out["variance"])
    return {k: p.name for k, p in out.items()}
