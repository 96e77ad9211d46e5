"""One flat results row per episode (the columns of ``episodes.parquet``), derived from its trajectory.

The row holds ids, the config hash, model ids, metrics, judge verdicts per criterion, steps, tokens and cost
per role, durations, the end reason and error, and the scenario's taxonomy for breakdowns. Reports read only
these rows (and the trajectories for details), so this module is the contract between runners and reports.
"""

from __future__ import annotations

import json
from typing import Any

from mmtsb.protocol import registry
from mmtsb.protocol.failures import row_failure_class
from mmtsb.protocol.judges import AGENT_CRITERIA, UI_CRITERIA, USER_CRITERIA
from mmtsb.protocol.steps import reported_steps
from mmtsb.protocol.trajectory import Trajectory, parse_trajectory

__all__ = ["AGENT_CRITERIA", "FRAMEWORK_TOOLS", "TAXONOMY", "UI_CRITERIA", "USER_CRITERIA", "episode_row",
           "invoked_tools", "role_keys", "surfaced_tools"]

#: tools that are not app tools (never counted in tool recall)
FRAMEWORK_TOOLS = frozenset({"api_docs_search_api_docs", "execute_code", "end_conversation",
                             "send_message_with_image"})
TAXONOMY = ("selected_flow_type", "image_arrival", "challenge_type", "dataset_type", "num_images",
            "num_user_rounds", "require_disambiguation")
#: per role: tokens, successful calls, failed attempts (retried or final) and cost
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens", "api_calls", "failed_calls", "cost_usd")


def role_keys() -> tuple[str, ...]:
    """The usage keys of a row: the agent, the user, and one judge per judged party of the registry."""
    return ("agent", "user", *(f"{party}_judge" for party in registry.judged_parties()))


def invoked_tools(trajectory: Trajectory) -> list[str]:
    """App tools the agent called (tool calls and calls made from its code), in first-call order; a
    reduced-level tool's call counts as the FULL tool it dispatched to."""
    seen: dict[str, None] = {}
    for call in trajectory.tool_calls:
        name = call.full_tool or call.tool
        if name and name not in FRAMEWORK_TOOLS:
            seen.setdefault(name, None)
    return list(seen)


def absorbed_tools(toolbox: str | None) -> dict[str, tuple[str, ...]]:
    """The FULL tools each tool of a reduced toolbox level stands for (empty for FULL or an unknown level)."""
    if not toolbox or toolbox == "full":
        return {}
    from mmtsb.tools.levels import registry_for_level

    try:
        registry = registry_for_level(toolbox)
    except ValueError:
        return {}
    return {s.name: s.absorbs for s in registry if s.absorbs}


def surfaced_tools(trajectory: Trajectory) -> list[str]:
    """App tools the agent was shown by discovery (registered names or returned docs), plus invoked ones; at a
    reduced toolbox level, a level tool shown stands for the FULL tools it absorbs."""
    absorbs = absorbed_tools(trajectory.toolbox)
    seen: dict[str, None] = {}
    for call in trajectory.tool_calls:
        if call.tool != "api_docs_search_api_docs" or not call.ok:
            continue
        value = call.value
        if isinstance(value, list):
            names = [d.get("tool_name") for d in value if isinstance(d, dict)]
        elif isinstance(value, str) and "[" in value:
            inside = value[value.index("[") + 1: value.index("]", value.index("["))] if "]" in value else ""
            names = [n.strip().strip("'\"") for n in inside.split(",")]
        else:
            names = []
        for n in names:
            # a level tool surfaced is every FULL tool it absorbs surfaced (and itself, when it is one)
            for full in (n, *absorbs.get(n, ())) if n else ():
                if full not in FRAMEWORK_TOOLS:
                    seen.setdefault(full, None)
    for n in invoked_tools(trajectory):
        seen.setdefault(n, None)
    return list(seen)


def _recall(expected: list[str], found: list[str]) -> float | None:
    exp = [t for t in expected if t not in FRAMEWORK_TOOLS]
    if not exp:
        return None
    return sum(1 for t in exp if t in set(found)) / len(exp)


def episode_row(trajectory: Trajectory | dict[str, Any], **run_fields: Any) -> dict[str, Any]:
    """The results row of one episode (a trajectory, or its JSON form in any readable version). ``run_fields``
    adds run-level columns (episode_id, repeat, seed, config_hash, model ids, toolbox, attempts, infra_failure,
    trajectory_path, ...)."""
    t = trajectory if isinstance(trajectory, Trajectory) else parse_trajectory(trajectory)
    ed = t.entity_diff or {}
    row: dict[str, Any] = {
        "scenario": t.scenario,
        "scenario_file": t.scenario_file,
        "interface": t.interface,
        "agent": t.roles.get("agent"),
        "user": t.roles.get("user"),
        "agent_judge": t.roles.get("agent_judge"),
        "agent_pass": t.agent_pass,
        "user_pass": t.user_pass,
        "entity_f1": t.entity_f1,
        "entity_f1_micro": ed.get("micro_f1"),
        "entity_f1_macro": ed.get("macro_f1"),
        "entity_f1_reference": ed.get("reference_f1"),
        "unexpected_writes": len(ed.get("unexpected_writes") or []),
        "steps": reported_steps(t.steps),      # the paper's: agent + user messages, capped at 100
        "agent_steps": t.agent_steps,          # ours: the agent's actions
        "rows": t.budgets.rows,
        "end_reason": t.end_reason,
        "error": t.error,
        "failure_class": t.failure_class,
        "duration_s": t.timing.duration_s,
        "categories": json.dumps(t.categories),
        "expected_tools": json.dumps(t.expected_tools),
        # where the episode's images came from (scenario paths, crop/plot/ui_render...): the image source
        # category of an episode without reading its trajectory
        "image_sources": json.dumps(list(dict.fromkeys(i.source for i in t.images if i.source))),
    }
    for party in registry.judged_parties().values():
        row.update(judge_columns(t, party))
    for role in role_keys():
        u = t.usage.get(role)
        for k in USAGE_FIELDS:
            row[f"{role}_{k}"] = (getattr(u, k, 0) or 0) if u is not None else 0
        # a price litellm's map does not know (and no configured price): cost_usd counts those calls as 0
        row[f"{role}_cost_known"] = bool(getattr(u, "cost_known", True)) if u is not None else True
    for k in TAXONOMY:
        row[k] = t.taxonomy.get(k)
    invoked, surfaced = invoked_tools(t), surfaced_tools(t)
    row["invoked_tools"] = json.dumps(invoked)
    row["surfaced_tools"] = json.dumps(surfaced)
    row["invoked_tool_recall"] = _recall(t.expected_tools, invoked)
    row["surfaced_tool_recall"] = _recall(t.expected_tools, surfaced)
    row.update(run_fields)
    if row["failure_class"] is None and (legacy := row_failure_class(row)) is not None:   # an older trajectory
        row["failure_class"] = legacy.value
    return row


def judge_columns(t: Trajectory, party: registry.JudgedParty) -> dict[str, Any]:
    """One judged party's columns: per criterion (``<party>_<criterion>``) and the judge's error. A party with
    ``optional_columns`` (the UI judge) has columns only where its judge ran (never null-typed), with
    ``<party>_pass`` and ``<party>_judge`` among them, and a criterion only when assessed."""
    verdict = t.judges.get(party.name)
    by_name = {c.criterion: c.passed for c in verdict.criteria} if verdict is not None else {}
    if not party.optional_columns:
        cols: dict[str, Any] = {f"{party.name}_pass": t.passed(party.name)}
        cols.update({party.column(c): by_name.get(c) for c in party.criteria})
        cols[f"{party.name}_judge_error"] = verdict.error if verdict is not None else None
        return cols
    if verdict is None:
        return {}
    cols = {f"{party.name}_judge": t.roles.get(f"{party.name}_judge")}
    if not verdict.error:   # a judge that gave no verdict is not a failure (left out of the party's SR)
        cols[f"{party.name}_pass"] = bool(t.passed(party.name))
    cols.update({party.column(c): bool(by_name[c]) for c in party.criteria if by_name.get(c) is not None})
    if verdict.error:
        cols[f"{party.name}_judge_error"] = verdict.error
    return cols
