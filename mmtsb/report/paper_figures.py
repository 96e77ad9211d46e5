"""The paper's Figure 6(b) and 6(c): Agent SR across interfaces, and Agent SR and average steps across toolbox
levels, one series per model (drawn with :mod:`mmtsb.report.figures`' helpers)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mmtsb.report.figures import _err, _new, _save

#: model -> axis value (interface or toolbox level) -> that run's summary
Series = Mapping[str, Mapping[str, Mapping[str, Any]]]


def interface_figure(series: Series, path: Path) -> Path:
    """Figure 6(b): Agent SR per interface for each model run on several (Wilson 95% intervals)."""
    interfaces: list[str] = []
    for by in series.values():
        interfaces += [v for v in by if v not in interfaces]
    models = list(series)
    fig, axes = _new(max(6, 1.4 * len(models) + 3), 4.5)
    ax = axes[0][0]
    x = np.arange(len(models))
    width = 0.8 / max(len(interfaces), 1)
    for i, interface in enumerate(interfaces):
        ys = [(series[m].get(interface) or {}).get("agent_sr") or 0.0 for m in models]
        cis = [(series[m].get(interface) or {}).get("agent_sr_ci") for m in models]
        ax.bar(x + (i - (len(interfaces) - 1) / 2) * width, ys, width, label=interface, yerr=_err(ys, cis), capsize=2)
    ax.set_xticks(x, models, rotation=20 if len(models) > 3 else 0, ha="right" if len(models) > 3 else "center")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("Agent SR")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Agent SR by execution interface")
    return _save(fig, path)


def toolbox_figure(series: Series, order: Sequence[str], path: Path) -> Path:
    """Figure 6(c): Agent SR and average steps against the toolbox level, one line per model."""
    levels = [v for v in order if any(v in by for by in series.values())]
    levels += sorted({v for by in series.values() for v in by} - set(levels))
    fig, axes = _new(11, 4.2, ncols=2)
    for ax, (metric, ylabel) in zip(axes[0], (("agent_sr", "Agent SR"), ("avg_steps", "Average steps"))):
        for model, by in series.items():
            pts = [(i, by[v].get(metric)) for i, v in enumerate(levels) if v in by and by[v].get(metric) is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=model)
        ax.set_xticks(range(len(levels)), levels)
        ax.set_xlabel("toolbox level")
        ax.set_ylabel(ylabel)
        ax.set_ylim(0, 1.05) if metric == "agent_sr" else ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Toolbox granularity: Agent SR and average steps")
    return _save(fig, path)
