"""A deterministic, heuristic failure classifier mapped to the paper's root-cause taxonomy (§6.4).

The paper derives a failure's root cause from which rubric criteria of the agent judge failed:

- **Factual error**: task completion passes but information accuracy fails (right workflow, wrong facts
  read from the images);
- **Task failure**: task completion fails (missing workflow steps, resources not found, loops);
- **Incomplete execution**: task completion and information accuracy pass, instruction following fails
  (a requirement missed, e.g. one of N items omitted);
- **Uncontrolled behaviour**: only no-side-effects fails (extra entities, residual state).

The judge's criteria come first (the paper's Table 3 classes), whichever judge assessed them:

``rubric``: the agent judge assessed task completion. The paper's rule is applied in order: task completion
  failed -> task failure (whatever else failed or the evidence shows); information accuracy failed -> factual
  error; instruction following failed -> incomplete execution; no side effects failed -> uncontrolled
  behaviour; tool-use validity alone -> task failure (an execution failure).
``rubric+evidence``: as ``rubric``, but the judge did not assess information accuracy (the static judge
  cannot): with task completion passed, wrong values in the produced entities (the perception_extraction
  signal) stand in for a failed information accuracy -> factual error.
``evidence``: the judge's criteria decide nothing (no task completion verdict, or no failed criterion). The
  category comes from the episode's own evidence, in this order:
  1. ``task_failure``: the episode ran out of budget (max messages/steps, wall clock, tokens), or no expected
     entity was produced at all (nothing matched, nothing close);
  2. ``factual_error``: an expected entity was produced but with wrong values in counted columns (a matched
     row with a column score < 1, or a closest candidate below the match threshold): a perception /
     extraction error visible in the entity diff evidence;
  3. ``incomplete_execution``: some but not all expected entities were produced, or the scenario requires
     disambiguation and the agent never asked the user a question, or instruction following failed;
  4. ``uncontrolled_behavior``: the expected state is right but there are unexpected writes or extra rows;
  5. ``task_failure`` again when only tool use was invalid (unknown tool, bad arguments, a tool not
     available), as in the rubric method;
  6. ``other``: the judge failed the episode and none of the above is visible.

Independently of the category, each failure lists the **signals** seen in it (perception_extraction,
missing_entity, expected_tool_not_invoked, side_effects, budget_exhausted, disambiguation_missed,
hallucinated_completion, tool_call_errors). Infrastructure failures are their own category and never an
agent failure. This is a heuristic classification: keyword and threshold rules, not a judgment.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from mmtsb.report.data import BUDGET_END_REASONS, Row, first_line, infra_reason, is_infra, json_list

INFRASTRUCTURE = "infrastructure"
CATEGORIES = ("factual_error", "task_failure", "incomplete_execution", "uncontrolled_behavior", "other")
CATEGORY_TITLES = {
    "factual_error": "Factual error",
    "task_failure": "Task failure",
    "incomplete_execution": "Incomplete execution",
    "uncontrolled_behavior": "Uncontrolled behaviour",
    "other": "Other / unattributed",
    INFRASTRUCTURE: "Infrastructure",
}
SIGNALS = ("perception_extraction", "missing_entity", "expected_tool_not_invoked", "side_effects",
           "budget_exhausted", "disambiguation_missed", "hallucinated_completion", "tool_call_errors")
SIGNAL_TITLES = {
    "perception_extraction": "wrong values in produced entities (perception / extraction)",
    "missing_entity": "an expected entity was never produced",
    "expected_tool_not_invoked": "an expected tool was never invoked",
    "side_effects": "unexpected writes or extra rows",
    "budget_exhausted": "the episode ran out of budget",
    "disambiguation_missed": "disambiguation required, no question asked",
    "hallucinated_completion": "claimed completion while Entity F1 < 1",
    "tool_call_errors": "tool calls or code that failed",
}
#: the last agent reply claims the work is done
_CLAIM = re.compile(r"\b(done|complete[d]?|created|sent|added|updated|scheduled|saved|booked|posted|deleted|"
                    r"removed|all set|taken care of|has been|have been|i've|i have)\b", re.IGNORECASE)
_INVALID_USE = ("UnknownToolError", "ArgumentError", "PermissionError")


@dataclass
class Classification:
    """The root cause of one episode's failure (``category`` None: the episode passed)."""

    category: str | None
    method: str                       # rubric / evidence / row (no trajectory) / infrastructure / passed
    signals: list[str] = field(default_factory=list)
    evidence: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------------------------- evidence
@dataclass
class _EntityEvidence:
    expected: int = 0
    produced: int = 0          # matched, or with a close candidate
    wrong_values: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra_rows: int = 0


def _f1(row: Row) -> float | None:
    v = row.get("entity_f1_micro")
    return row.get("entity_f1") if v is None else v


def _short(v: Any, limit: int = 40) -> str:
    s = repr(v)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _entity_evidence(trajectory: dict[str, Any]) -> _EntityEvidence:
    ev = _EntityEvidence()
    for g in (trajectory.get("entity_diff") or {}).get("groups") or []:
        table = f"{g.get('table_key')}:{g.get('operation')}"
        ev.extra_rows += len(g.get("unmatched_actual_keys") or [])
        for e in g.get("entities") or []:
            ev.expected += 1
            matched = e.get("matched_key") is not None
            columns = e.get("columns") if matched else e.get("closest_columns")
            if not matched and e.get("closest_key") is None:
                ev.missing.append(f"{table} ({e.get('reason') or 'not produced'})")
                continue
            ev.produced += 1
            wrong = [c for c in columns or [] if c.get("counted", True) and (c.get("score") or 0) < 1]
            for c in wrong[:3]:
                ev.wrong_values.append(f"{table}.{c.get('column')}: expected {_short(c.get('expected'))}, "
                                       f"got {_short(c.get('actual'))}")
            if not matched and not wrong:
                ev.wrong_values.append(f"{table}: closest row below the match threshold")
    return ev


def _agent_replies(trajectory: dict[str, Any]) -> list[str]:
    return [str(m.get("content") or "") for m in trajectory.get("messages") or []
            if m.get("sender") == "AGENT" and m.get("recipient") == "USER"
            and not (m.get("meta") or {}).get("shown_by_tool")]


def _tool_errors(trajectory: dict[str, Any]) -> tuple[int, int]:
    """(failed calls and code runs seen by the agent, of which invalid tool use)."""
    errors = invalid = 0
    for m in trajectory.get("messages") or []:
        if m.get("sender") == "EXECUTION_ENVIRONMENT" and m.get("recipient") == "AGENT" and m.get("is_error"):
            errors += 1
            invalid += str((m.get("meta") or {}).get("error_type")) in _INVALID_USE
    return errors, invalid


def signals_of(row: Row, trajectory: dict[str, Any] | None) -> tuple[list[str], dict[str, Any]]:
    """The failure signals of an episode and the details behind them."""
    found: dict[str, None] = {}
    details: dict[str, Any] = {}
    f1 = _f1(row)
    if row.get("end_reason") in BUDGET_END_REASONS:
        found["budget_exhausted"] = None
        details["budget"] = f"ended by {row['end_reason']} after {row.get('steps')} steps"
    if (row.get("unexpected_writes") or 0) > 0:
        found["side_effects"] = None
        details["side_effects"] = f"{row['unexpected_writes']} unexpected write(s)"
    if row.get("invoked_tool_recall") is not None and row["invoked_tool_recall"] < 1:
        invoked = set(json_list(row.get("invoked_tools")))
        missing = [t for t in json_list(row.get("expected_tools")) if t not in invoked]
        if missing:
            found["expected_tool_not_invoked"] = None
            details["tools"] = "never invoked: " + ", ".join(missing[:4])
    if trajectory is None:
        return list(found), details
    ev = _entity_evidence(trajectory)
    details["entities"] = ev
    if ev.wrong_values:
        found["perception_extraction"] = None
    if ev.missing:
        found["missing_entity"] = None
    if ev.extra_rows:
        found["side_effects"] = None
        details.setdefault("side_effects", f"{ev.extra_rows} extra row(s) in expected tables")
    replies = _agent_replies(trajectory)
    taxonomy = trajectory.get("taxonomy") or {}
    needs_question = row.get("require_disambiguation", taxonomy.get("require_disambiguation"))
    if needs_question and not any("?" in r for r in replies):
        found["disambiguation_missed"] = None
    if replies and f1 is not None and f1 < 1 and _CLAIM.search(replies[-1]):
        found["hallucinated_completion"] = None
        details["claim"] = first_line(replies[-1], 100)
    errors, invalid = _tool_errors(trajectory)
    details["tool_errors"], details["invalid_use"] = errors, invalid
    if errors:
        found["tool_call_errors"] = None
    return [s for s in SIGNALS if s in found], details


# ---------------------------------------------------------------------------------------------- classify
def _rubric_category(row: Row, signals: list[str]) -> tuple[str, str] | None:
    """The paper's rule from the judge's criteria (category, method), or None when they decide nothing."""
    tc, ia = row.get("agent_task_completion"), row.get("agent_information_accuracy")
    if tc is None:
        return None
    if tc is False:
        return "task_failure", "rubric"
    if ia is False:
        return "factual_error", "rubric"
    if ia is None and "perception_extraction" in signals:   # the evidence stands in for the unassessed criterion
        return "factual_error", "rubric+evidence"
    if row.get("agent_instruction_following") is False:
        return "incomplete_execution", "rubric"
    if row.get("agent_no_side_effects") is False:
        return "uncontrolled_behavior", "rubric"
    if row.get("agent_tool_use_validity") is False:
        return "task_failure", "rubric"
    return None


def _evidence_category(row: Row, signals: list[str], details: dict[str, Any]) -> str:
    ev: _EntityEvidence | None = details.get("entities")
    if "budget_exhausted" in signals:
        return "task_failure"
    if ev is not None and ev.expected and not ev.produced:
        return "task_failure"
    if "perception_extraction" in signals:
        return "factual_error"
    if "missing_entity" in signals or "disambiguation_missed" in signals \
            or row.get("agent_instruction_following") is False:
        return "incomplete_execution"
    if "side_effects" in signals:
        return "uncontrolled_behavior"
    if (details.get("invalid_use") or 0) > 0 or row.get("agent_tool_use_validity") is False:
        return "task_failure"
    return "other"


def _row_only_category(row: Row, signals: list[str]) -> str:
    """No trajectory: only the row's own fields."""
    f1 = _f1(row)
    if "budget_exhausted" in signals or f1 == 0 or row.get("agent_task_completion") is False:
        return "task_failure"
    if f1 == 1 and "side_effects" in signals:
        return "uncontrolled_behavior"
    if row.get("agent_instruction_following") is False:
        return "incomplete_execution"
    return "other"


_CRITERIA_ORDER = ("task_completion", "information_accuracy", "instruction_following", "no_side_effects",
                   "tool_use_validity")


def _failed_criteria(row: Row) -> list[str]:
    return [c for c in _CRITERIA_ORDER if row.get(f"agent_{c}") is False]


def _evidence_text(category: str, method: str, signals: list[str], details: dict[str, Any], row: Row) -> str:
    ev: _EntityEvidence | None = details.get("entities")
    parts: list[str] = []
    if method.startswith("rubric"):
        parts.append("judge failed " + (", ".join(_failed_criteria(row)) or "no criterion"))
    if category == "factual_error" and ev and ev.wrong_values:
        parts.append(ev.wrong_values[0])
    if category in ("task_failure", "incomplete_execution") and ev and ev.missing:
        parts.append(f"missing: {ev.missing[0]}")
    for key in ("budget", "tools", "side_effects", "claim"):
        if key in details:
            parts.append(f"claimed {details[key]!r}" if key == "claim" else str(details[key]))
    if "disambiguation_missed" in signals:
        parts.append("no clarifying question")
    if not parts:
        failed = _failed_criteria(row)
        parts.append("judge failed " + ", ".join(failed) if failed else f"entity F1 {row.get('entity_f1')}")
    return "; ".join(parts)


def classify(row: Row, trajectory: dict[str, Any] | None = None) -> Classification:
    """The root cause of an episode's outcome (see the module docstring for the rules)."""
    if is_infra(row):
        return Classification(INFRASTRUCTURE, "infrastructure", [], infra_reason(row))
    if row.get("agent_pass") is not False:
        return Classification(None, "passed" if row.get("agent_pass") else "unjudged")
    signals, details = signals_of(row, trajectory)
    decided = _rubric_category(row, signals)
    if decided is not None:
        category, method = decided
    elif trajectory is not None:
        category, method = _evidence_category(row, signals, details), "evidence"
    else:
        category, method = _row_only_category(row, signals), "row"
    return Classification(category, method, signals, _evidence_text(category, method, signals, details, row))
