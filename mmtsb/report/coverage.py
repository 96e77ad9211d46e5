"""Which scenarios each compared run covers: runs over different scenario sets are not comparable head to head,
so ``mmtsb report A B`` (and a sweep summary) says so, naming the runs and what differs."""

from __future__ import annotations

from collections.abc import Sequence

from mmtsb.report.data import RunData

#: scenario names listed in a warning before "and N more"
LISTED = 5


def scenario_set(data: RunData) -> set[str]:
    return {str(r.get("scenario")) for r in data.rows if r.get("scenario") is not None}


def _names(names: set[str]) -> str:
    shown = sorted(names)[:LISTED]
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def coverage_warnings(labels: Sequence[str], scenario_sets: Sequence[set[str]]) -> list[str]:
    """One warning per run whose scenarios differ from the scenarios common to all runs (none when every run
    covers the same set)."""
    if len(scenario_sets) < 2 or all(s == scenario_sets[0] for s in scenario_sets):
        return []
    common = set.intersection(*scenario_sets)
    out = [f"the runs cover different scenario sets: {len(common)} scenario(s) are in every run; "
           "headline metrics over different sets are not directly comparable"]
    for label, scenarios in zip(labels, scenario_sets):
        extra = scenarios - common
        if extra:
            out.append(f"{label}: {len(scenarios)} scenario(s), {len(extra)} not in every run ({_names(extra)})")
        else:
            out.append(f"{label}: {len(scenarios)} scenario(s), all in every run")
    return out


def warning_block(warnings: Sequence[str]) -> str:
    """The warnings as a Markdown quote for the top of a comparison report."""
    if not warnings:
        return ""
    return "> **Warning:** " + warnings[0] + "\n" + "".join(f">\n> - {w}\n" for w in warnings[1:])
