"""What judges see: the conversation, the agent's actions with results and errors, a row-level database diff
over ALL tables, the images (with id labels), and deterministic delivery checks (SPEC.md §6.4, improved).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from mmtsb.episode.messages import AGENT, ENV, USER, Message
from mmtsb.eval.result import EntityDiffResult
from mmtsb.scenarios.model import Scenario
from mmtsb.scenarios.script import UserScript
from mmtsb.vision.store import ImageStore
from mmtsb.world.diff import WorldDiff

VALUE_CHARS = 300
ROWS_PER_OPERATION = 50
_WORDS = re.compile(r"\w+")


def _short(value: Any, limit: int = VALUE_CHARS) -> str:
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

    # ------------------------------------------------------------------ renderings
    def conversation_text(self) -> str:
        lines = []
        for m in self.messages:
            if {m.sender, m.recipient} == {USER, AGENT}:
                imgs = f" [image_ids={m.image_ids}]" if m.image_ids else ""
                lines.append(f"[{m.sender} → {m.recipient}]: {m.content}{imgs}")
        return "\n".join(lines)

    def agent_actions_text(self) -> str:
        lines = []
        for m in self.messages:
            if m.sender == AGENT and m.recipient == ENV:
                if m.tool_calls:
                    for c in m.tool_calls:
                        args = c.raw_arguments if c.parse_error else json.dumps(c.arguments, ensure_ascii=False)
                        lines.append(f"[AGENT → ENV]: {c.name}({_short(args)})")
                else:
                    lines.append(f"[AGENT → ENV]: <code>\n{_short(m.content, 2000)}\n</code>")
            elif m.sender == ENV and m.recipient == AGENT:
                tag = "ERROR: " if m.is_error else ""
                name = f"{m.tool_name} → " if m.tool_name else ""
                lines.append(f"[ENV → AGENT]: {name}{tag}{_short(m.content, 1000)}")
        return "\n".join(lines) or "(no actions)"

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
                    out.append(f"  {label} " + ", ".join(f"{k}={_short(v)}" for k, v in row.items()))
                if len(rows) > ROWS_PER_OPERATION:
                    out.append(f"  … and {len(rows) - ROWS_PER_OPERATION} more {label} rows")
            for u in d.updated[:ROWS_PER_OPERATION]:
                changes = "; ".join(f"{c}: {_short(o)} -> {_short(n)}" for c, (o, n) in u.changed.items())
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
