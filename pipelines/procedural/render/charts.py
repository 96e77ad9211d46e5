"""Charts drawn with matplotlib's object API (no pyplot state): bar, horizontal bar, line, pie, scatter and
multi-series bars, each with its values printed, a title and, for several series, a legend."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from pipelines.procedural.render.knobs import Knobs

__all__ = ["CHART_KINDS", "chart_image"]

CHART_KINDS = ("bar", "barh", "line", "pie", "scatter", "grouped")
PALETTES = (("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860"),
            ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"),
            ("#264653", "#2a9d8f", "#e9c46a", "#f4a261", "#e76f51", "#8ab17d"))


def _fmt(v: float, unit: str) -> str:
    text = f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}"
    return f"{unit}{text}" if unit == "$" else f"{text}{unit}"


def chart_image(kind: str, title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float]]],
                unit: str, knobs: Knobs, rng: random.Random, *, subtitle: str = "") -> Image.Image:
    """One chart as an RGB image (about 760 x 500 px before the knobs' resolution). ``series``: (name,
    values per label); more than one series draws a legend. Every value is printed on the chart."""
    palette = rng.choice(PALETTES)
    scale = knobs.text_scale
    fs = 10.5 * scale
    fig = Figure(figsize=(7.6, 5.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(111)
    fig.suptitle(title, fontsize=14 * scale, fontweight="bold", x=0.02, ha="left")
    if subtitle:
        ax.set_title(subtitle, fontsize=fs, loc="left", color="#555555")
    alpha = 0.35 + 0.65 * knobs.contrast
    x = np.arange(len(labels))
    if kind == "pie":
        name, values = series[0]
        total = sum(values)
        wedges, _ = ax.pie(values, colors=palette[:len(values)], startangle=rng.choice([0, 45, 90, 135]),
                           counterclock=False, wedgeprops={"linewidth": 1, "edgecolor": "white", "alpha": alpha})
        for w, v, lab in zip(wedges, values, labels):
            ang = np.deg2rad((w.theta1 + w.theta2) / 2)
            ax.annotate(f"{lab}\n{_fmt(v, unit)}", (np.cos(ang) * 0.72, np.sin(ang) * 0.72), ha="center",
                        va="center", fontsize=fs * 0.95, color="black")
        ax.set_aspect("equal")
        ax.text(0, -1.25, f"Total: {_fmt(total, unit)}", ha="center", fontsize=fs)
    elif kind == "scatter":
        name, values = series[0]
        xs = [float(i + 1) for i in range(len(values))]
        ax.scatter(xs, values, s=60, color=palette[0], alpha=alpha)
        for xv, v, lab in zip(xs, values, labels):
            ax.annotate(f"{lab}: {_fmt(v, unit)}", (xv, v), textcoords="offset points", xytext=(6, 6),
                        fontsize=fs * 0.9)
        ax.set_xticks(xs)
        ax.set_xticklabels([str(i) for i in range(1, len(values) + 1)], fontsize=fs)
        ax.set_xlim(0.4, len(values) + 1.4)
        ax.set_ylabel(name, fontsize=fs)
    elif kind == "line":
        for i, (name, values) in enumerate(series):
            ax.plot(x, values, marker="o", color=palette[i], label=name, alpha=alpha, linewidth=2)
            for xv, v in zip(x, values):
                ax.annotate(_fmt(v, unit), (xv, v), textcoords="offset points", xytext=(0, 7), ha="center",
                            fontsize=fs * 0.85, color=palette[i])
        ax.set_xticks(x)
        ax.set_xticklabels(labels, fontsize=fs)
    elif kind == "barh":
        name, values = series[0]
        bars = ax.barh(x, values, color=palette[rng.randrange(len(palette))], alpha=alpha)
        ax.bar_label(bars, labels=[_fmt(v, unit) for v in values], padding=3, fontsize=fs)
        ax.set_yticks(x)
        ax.set_yticklabels(labels, fontsize=fs)
        ax.invert_yaxis()
        ax.set_xlim(0, max(values) * 1.2)
    else:  # bar and grouped
        n = len(series)
        width = 0.8 / n
        for i, (name, values) in enumerate(series):
            bars = ax.bar(x + (i - (n - 1) / 2) * width, values, width, color=palette[i], label=name, alpha=alpha)
            ax.bar_label(bars, labels=[_fmt(v, unit) for v in values], padding=2, fontsize=fs * (0.95 if n == 1
                                                                                                   else 0.8))
        ax.set_xticks(x)
        ax.set_xticklabels(labels, fontsize=fs)
        ax.set_ylim(0, max(v for _, vs in series for v in vs) * 1.18)
    if kind != "pie":
        ax.tick_params(labelsize=fs * 0.9)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        ax.grid(axis="y" if kind != "barh" else "x", alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize=fs * 0.9, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    canvas = fig.canvas
    canvas.draw()
    arr = np.asarray(canvas.buffer_rgba())[..., :3].copy()
    return Image.fromarray(arr, "RGB")
