"""What judges see: the conversation, the agent's actions with results and errors, a row-level database diff
over ALL tables, the images (with id labels), and deterministic delivery checks (SPEC.md §6.4, improved).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from mmtsb.protocol.messages import AGENT, ENV, USER, Message
from mmtsb.eval.result import EntityDiffResult
from mmtsb.scenarios.model import Scenario
from mmtsb.scenarios.script import UserScript
from mmtsb.vision.store import ImageStore
from mmtsb.world.diff import WorldDiff

VALUE_CHARS = 300
ROWS_PER_OPERATION = 50
_WORDS = re.compile(r"\w+")


def shorten(value: Any, limit: int = VALUE_CHARS) -> str:
    """``value`` as text (JSON unless a string), cut at ``limit`` characters with the cut stated."""
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + f"… [{len(text) - limit} more chars]"


@dataclass
class EpisodeEvidence:
    """Everything a judge may use, assembled once per episode."""

    scenario: Scenario
    script: UserScript
    messages: list[Message]
    world_diff: WorldDiff
    entity_diff: EntityDiffResult | None
    end_reason: str
    image_ids: list[int] = field(default_factory=list)
    images: ImageStore | None = None          # the episode's images, for judges that look at them
    max_messages: int | None = None           # the message budget in effect
    rows: int = 0                             # rows counted against it
    ui: bool = False                          # UI mode: the UI judge runs, the user judge gets its UI addendum
    ui_state: Any = None                      # the episode's final UIState (mmtsb.ui.state), in UI mode
    tool_history: list[Any] = field(default_factory=list)   # every ToolOutcome of the episode, in order

    # ------------------------------------------------------------------ renderings
    def database_changes_text(self) -> str:
        """Every changed table with ADD/UPD/DEL lines (values cut at 300 chars, at most 50 rows per
        operation, and the cut is always stated)."""
        if self.world_diff.empty:
            return "No state changes detected."
        out = []
        for key, d in sorted(self.world_diff.tables.items()):
            out.append(f"[{key}] +{len(d.added)} ~{len(d.updated)} -{len(d.deleted)}")
            for label, rows in (("ADD", d.added), ("DEL", d.deleted)):
                for row in rows[:ROWS_PER_OPERATION]:
                    out.append(f"  {label} " + ", ".join(f"{k}={shorten(v)}" for k, v in row.items()))
                if len(rows) > ROWS_PER_OPERATION:
                    out.append(f"  … and {len(rows) - ROWS_PER_OPERATION} more {label} rows")
            for u in d.updated[:ROWS_PER_OPERATION]:
                changes = "; ".join(f"{c}: {shorten(o)} -> {shorten(n)}" for c, (o, n) in u.changed.items())
                out.append(f"  UPD key={u.key}: {changes}")
            if len(d.updated) > ROWS_PER_OPERATION:
                out.append(f"  … and {len(d.updated) - ROWS_PER_OPERATION} more UPD rows")
        return "\n".join(out)

    # ------------------------------------------------------------------ deterministic checks
    def delivered_image_ids(self) -> set[int]:
        return {i for m in self.messages if m.sender == USER and m.recipient == AGENT for i in m.image_ids}

    def image_delivery_check(self) -> dict[str, Any]:
        """Which scripted image ids never reached the agent."""
        expected = {i for r in self.script.rounds for i in r.provide_image_ids}
        missing = sorted(expected - self.delivered_image_ids())
        return {"expected": sorted(expected), "missing": missing}

    def query_delivery_check(self) -> list[dict[str, Any]]:
        """Each scripted query matched to the user message with the best word Jaccard (reference §6.4)."""
        sent = [m.content for m in self.messages if m.sender == USER and m.recipient == AGENT]
        out = []
        for r in self.script.rounds:
            q = set(_WORDS.findall(r.query.lower()))
            best, best_text = 0.0, ""
            for text in sent:
                w = set(_WORDS.findall(text.lower()))
                j = len(q & w) / len(q | w) if q | w else 0.0
                if j > best:
                    best, best_text = j, text
            status = "delivered" if best >= 0.3 else "NOT delivered"
            if best >= 0.3 and len(best_text) < 0.5 * len(r.query):
                status = "WARNING: delivered much shorter than scripted"
            out.append({"round": r.number, "jaccard": round(best, 3), "status": status})
        return out

    def tool_errors(self) -> list[Message]:
        return [m for m in self.messages if m.sender == ENV and m.recipient == AGENT and m.is_error]


# ---------------------------------------------------------------------------------------------- UI evidence
UI_TRACE_ARG_CHARS = 500
UI_TRACE_RESULT_CHARS = 300


@dataclass
class UIScreen:
    """One screenshot of the episode's UI, with its structure summary (``mmtsb.ui.inspect.Structure``)."""

    image_id: int
    surface_id: str | None
    structure: dict[str, Any] | None
    shown: bool = False               # shown to the user with show_ui_to_user
    clicked: str | None = None        # the highlighted component of an interaction screenshot


def ui_screens(evidence: EpisodeEvidence) -> list[UIScreen]:
    """Every UI screenshot in drawing order, flagged with whether the user was shown it."""
    state = evidence.ui_state
    if state is None:
        return []
    shown = {s.get("image_id") for s in state.shown}
    return [UIScreen(r["image_id"], r.get("surface_id"), r.get("structure"), r["image_id"] in shown,
                     r.get("highlight")) for r in state.renders]


def ui_interactions(evidence: EpisodeEvidence) -> list[dict[str, Any]]:
    """The user's ``ui_user_interact`` calls with their outcome: {index, arguments, ok, result}."""
    out: list[dict[str, Any]] = []
    pending: dict[str, dict[str, Any]] = {}
    for m in evidence.messages:
        if m.sender == USER and m.recipient == ENV:
            for c in m.tool_calls:
                if c.name == "ui_user_interact":
                    entry = {"index": m.index, "arguments": c.arguments, "ok": None, "result": ""}
                    pending[c.id] = entry
                    out.append(entry)
        elif m.sender == ENV and m.recipient == USER and m.tool_call_id in pending:
            entry = pending.pop(m.tool_call_id)
            entry["ok"] = not m.is_error
            entry["result"] = m.content
    return out


#: documentation tools: their (long) results are summarised by length in the trace
UI_DOC_TOOLS = ("ui_get_quick_start", "ui_get_item_details", "ui_explore_capabilities", "ui_list_items",
                "ui_search_docs")


def ui_tool_trace(evidence: EpisodeEvidence) -> list[str]:
    """The agent's UI tool calls in order (documentation, render, show), one line each: arguments and
    results cut to a few hundred chars, documentation results given by length. The user's ui_user_interact
    calls are listed apart (:func:`ui_interactions`)."""
    from mmtsb.tools.session import to_jsonable
    from mmtsb.ui.mode import AGENT_UI_TOOLS

    lines = []
    for o in evidence.tool_history:
        if getattr(o, "tool", None) not in AGENT_UI_TOOLS:
            continue
        args = shorten(o.arguments, UI_TRACE_ARG_CHARS)
        if o.error is not None:
            result = f"ERROR: {shorten(str(o.error), UI_TRACE_RESULT_CHARS)}"
        elif o.tool in UI_DOC_TOOLS:
            value = to_jsonable(o.value)
            result = f"(documentation, {len(value if isinstance(value, str) else json.dumps(value))} chars)"
        else:
            result = shorten(to_jsonable(o.value), UI_TRACE_RESULT_CHARS)
        lines.append(" ".join(f"{o.tool}({args}) -> {result}".split()))
    return lines
