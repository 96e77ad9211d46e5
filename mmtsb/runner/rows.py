"""One flat results row per episode (the columns of ``episodes.parquet``), derived from its trajectory.

The row holds ids, the config hash, model ids, metrics, judge verdicts per criterion, steps, tokens and cost
per role, durations, the end reason and error, and the scenario's taxonomy for breakdowns. Reports read only
these rows (and the trajectories for details), so this module is the contract between runners and reports.
"""

from __future__ import annotations

import json
from typing import Any

from mmtsb.protocol.judges import AGENT_CRITERIA, UI_CRITERIA, USER_CRITERIA

#: tools that are not app tools (never counted in tool recall)
FRAMEWORK_TOOLS = frozenset({"api_docs_search_api_docs", "execute_code", "end_conversation",
                             "send_message_with_image"})
ROLES = ("agent", "user", "agent_judge", "user_judge", "ui_judge")
TAXONOMY = ("selected_flow_type", "image_arrival", "challenge_type", "dataset_type", "num_images",
            "num_user_rounds", "require_disambiguation")


def invoked_tools(trajectory: dict[str, Any]) -> list[str]:
    """App tools the agent called (tool calls and calls made from its code), in first-call order."""
    seen: dict[str, None] = {}
    for call in trajectory.get("tool_calls", []):
        name = call.get("tool")
        if name and name not in FRAMEWORK_TOOLS:
            seen.setdefault(name, None)
    return list(seen)


def surfaced_tools(trajectory: dict[str, Any]) -> list[str]:
    """App tools the agent was shown by discovery (registered names or returned docs), plus invoked ones."""
    seen: dict[str, None] = {}
    for call in trajectory.get("tool_calls", []):
        if call.get("tool") != "api_docs_search_api_docs" or not call.get("ok"):
            continue
        value = call.get("value")
        if isinstance(value, list):
            names = [d.get("tool_name") for d in value if isinstance(d, dict)]
        elif isinstance(value, str) and "[" in value:
            inside = value[value.index("[") + 1: value.index("]", value.index("["))] if "]" in value else ""
            names = [n.strip().strip("'\"") for n in inside.split(",")]
        else:
            names = []
        for n in names:
            if n and n not in FRAMEWORK_TOOLS:
                seen.setdefault(n, None)
    for n in invoked_tools(trajectory):
        seen.setdefault(n, None)
    return list(seen)


def _recall(expected: list[str], found: list[str]) -> float | None:
    exp = [t for t in expected if t not in FRAMEWORK_TOOLS]
    if not exp:
        return None
    return sum(1 for t in exp if t in set(found)) / len(exp)


def episode_row(trajectory: dict[str, Any], **run_fields: Any) -> dict[str, Any]:
    """The results row of one episode. ``run_fields`` adds run-level columns (episode_id, repeat, seed,
    config_hash, model ids, toolbox, attempts, infra_failure, trajectory_path, ...)."""
    t = trajectory
    ed = t.get("entity_diff") or {}
    row: dict[str, Any] = {
        "scenario": t.get("scenario"),
        "scenario_file": t.get("scenario_file"),
        "interface": t.get("interface"),
        "agent": (t.get("roles") or {}).get("agent"),
        "user": (t.get("roles") or {}).get("user"),
        "agent_judge": (t.get("roles") or {}).get("agent_judge"),
        "agent_pass": t.get("agent_pass"),
        "user_pass": t.get("user_pass"),
        "entity_f1": t.get("entity_f1"),
        "entity_f1_micro": ed.get("micro_f1"),
        "entity_f1_macro": ed.get("macro_f1"),
        "entity_f1_reference": ed.get("reference_f1"),
        "unexpected_writes": len(ed.get("unexpected_writes") or []),
        "steps": t.get("steps", 0),
        "rows": (t.get("budgets") or {}).get("rows"),
        "end_reason": t.get("end_reason"),
        "error": t.get("error"),
        "duration_s": (t.get("timing") or {}).get("duration_s"),
        "categories": json.dumps(t.get("categories") or []),
        "expected_tools": json.dumps(t.get("expected_tools") or []),
    }
    judges = t.get("judges") or {}
    for kind, criteria in (("agent", AGENT_CRITERIA), ("user", USER_CRITERIA)):
        verdict = judges.get(kind) or {}
        by_name = {c["criterion"]: c["passed"] for c in verdict.get("criteria", [])}
        for c in criteria:
            row[f"{kind}_{c}"] = by_name.get(c)
        row[f"{kind}_judge_error"] = verdict.get("error")
    ui_verdict = judges.get("ui")
    if ui_verdict:  # UI mode only: the columns exist only where a UI judge ran (never null-typed)
        row["ui_judge"] = (t.get("roles") or {}).get("ui_judge")
        if not ui_verdict.get("error"):  # a judge that gave no verdict is not a UI failure (left out of UI SR)
            row["ui_pass"] = bool(t.get("ui_pass"))
        by_name = {c["criterion"]: c["passed"] for c in ui_verdict.get("criteria", [])}
        for c in UI_CRITERIA:
            if by_name.get(c) is not None:
                row[c] = bool(by_name[c])  # the UI criteria are already named ui_*
        if ui_verdict.get("error"):
            row["ui_judge_error"] = ui_verdict["error"]
    usage = t.get("usage") or {}
    for role in ROLES:
        u = usage.get(role) or {}
        for k in ("prompt_tokens", "completion_tokens", "total_tokens", "api_calls", "cost_usd"):
            row[f"{role}_{k}"] = u.get(k, 0) or 0
    taxonomy = t.get("taxonomy") or {}
    for k in TAXONOMY:
        row[k] = taxonomy.get(k)
    invoked, surfaced = invoked_tools(t), surfaced_tools(t)
    expected = t.get("expected_tools") or []
    row["invoked_tools"] = json.dumps(invoked)
    row["surfaced_tools"] = json.dumps(surfaced)
    row["invoked_tool_recall"] = _recall(expected, invoked)
    row["surfaced_tool_recall"] = _recall(expected, surfaced)
    row.update(run_fields)
    return row
