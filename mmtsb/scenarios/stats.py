"""The composition of a scenario set: how many scenarios per flow, image arrival, challenge, app domain, image
source category, source type, number of images and number of rounds (``mmtsb scenarios stats PATH``), and
whether each design axis is within a tolerance of an even share."""

from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["APP_DOMAINS", "AXES", "SetStats", "format_table", "set_stats"]

#: the paper's 16 application domains (reference TOOLS.md §2), in a fixed order
APP_DOMAINS = ("alarms", "amazon", "contacts", "file_system", "gmail", "messages", "phone", "simple_note",
               "splitwise", "spotify", "supervisor", "todoist", "venmo", "calendar", "reminder", "setting")
FLOWS = ("aggregate", "compare", "filter", "compute", "validate", "lookup_chain", "cross_reference")
ARRIVALS = ("upfront", "progressive", "late", "mixed")
CHALLENGES = ("none", "goal_change", "error_correction", "state_mutation")
#: the axes the design balances, with their values
AXES = {"flow": FLOWS, "arrival": ARRIVALS, "challenge": CHALLENGES}
TEXT_ONLY = "Text only"


@functools.cache
def _tool_domains() -> dict[str, str]:
    from mmtsb.tools.toolbox import full_registry

    return {spec.name: spec.domain for spec in full_registry()}


def _categories(data: dict[str, Any], meta: dict[str, Any]) -> list[str]:
    """Multi-label, as the paper's Table 12: every category the scenario has an image from (by the source type
    its image paths name, else its ``dataset_type``)."""
    from mmtsb.report.metrics import DATASET_CATEGORY, OTHER_CATEGORY, dataset_folder

    found = {DATASET_CATEGORY[f]: None for p in data.get("image_paths") or [] if (f := dataset_folder(str(p)))}
    if found:
        return list(found)
    if not data.get("image_paths"):
        return [TEXT_ONLY]
    dt = str(meta.get("dataset_type") or "").lower()
    return [DATASET_CATEGORY.get(dt, OTHER_CATEGORY)]


@dataclass
class SetStats:
    """Counts per value of every axis (``domain`` and ``image_category`` are multi-label)."""

    path: str
    n: int = 0
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)

    def balance(self, tolerance: float = 0.2) -> dict[str, dict[str, Any]]:
        """Per design axis: the even share and, per value, its count and whether it is within ``tolerance``
        (relative) of that share."""
        out = {}
        for axis, values in AXES.items():
            even = self.n / len(values) if self.n else 0.0
            out[axis] = {"even_share": round(even, 2), "values": {
                v: {"count": self.counts[axis][v], "within": abs(self.counts[axis][v] - even) <= tolerance * even}
                for v in values}}
        return out

    def to_dict(self) -> dict[str, Any]:
        order = {"flow": FLOWS, "arrival": ARRIVALS, "challenge": CHALLENGES, "domain": APP_DOMAINS}
        counts = {}
        for axis, c in self.counts.items():
            keys = [k for k in order.get(axis, ()) if k in c] + sorted(k for k in c if k not in order.get(axis, ()))
            if axis in ("num_images", "num_user_rounds"):
                keys = sorted(c, key=lambda k: int(k))
            counts[axis] = {k: c[k] for k in keys}
        return {"path": self.path, "scenarios": self.n, "counts": counts, "balance": self.balance(),
                "skipped": self.skipped}


def set_stats(path: str | Path) -> SetStats:
    """The composition of every scenario file in ``path`` (a folder: its ``*.json`` files; or one file). Files
    that are not scenarios (no ``metadata.scenario_metadata``) are listed as skipped."""
    root = Path(path)
    if not root.exists():
        raise FileNotFoundError(f"{root} does not exist")
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    stats = SetStats(str(root), counts={a: Counter() for a in (
        "flow", "arrival", "challenge", "domain", "image_category", "dataset_type", "num_images",
        "num_user_rounds")})
    domains = _tool_domains()
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
            meta = data["metadata"]["scenario_metadata"]
        except (OSError, ValueError, KeyError, TypeError):
            stats.skipped.append(f.name)
            continue
        stats.n += 1
        c = stats.counts
        c["flow"][str(meta.get("selected_flow_type"))] += 1
        c["arrival"][str(meta.get("image_arrival"))] += 1
        c["challenge"][str(meta.get("challenge_type"))] += 1
        tools = data["metadata"].get("expected_tools") or []
        c["domain"].update({d for t in tools if (d := domains.get(t)) in APP_DOMAINS})
        c["image_category"].update(_categories(data, meta))
        c["dataset_type"][str(meta.get("dataset_type"))] += 1
        c["num_images"][str(len(data.get("image_paths") or []))] += 1
        c["num_user_rounds"][str(meta.get("num_user_rounds"))] += 1
    return stats


def format_table(stats: SetStats) -> str:
    """The coverage table as text: one block per axis, count and share of the set."""
    d = stats.to_dict()
    lines = [f"{d['scenarios']} scenarios in {d['path']}" + (f" ({len(stats.skipped)} other files skipped)"
                                                           if stats.skipped else "")]
    balance = d["balance"]
    for axis, counts in d["counts"].items():
        lines.append(f"\n{axis}" + (f" (even share {balance[axis]['even_share']})" if axis in balance else ""))
        for value, n in counts.items():
            share = n / d["scenarios"] if d["scenarios"] else 0.0
            flag = ""
            if axis in balance:
                flag = "" if balance[axis]["values"][value]["within"] else "  <- outside +-20% of even"
            lines.append(f"  {value:<24} {n:>5}  {share:6.1%}{flag}")
        if axis in balance:
            missing = [v for v in AXES[axis] if v not in counts]
            lines += [f"  {v:<24} {0:>5}  {0:6.1%}  <- missing" for v in missing]
        if axis == "domain":
            lines += [f"  {v:<24} {0:>5}  {0:6.1%}  <- missing" for v in APP_DOMAINS if v not in counts]
    return "\n".join(lines)
