"""The paper's step count (its Avg. Steps, §4.3 and §6): the messages the agent and the user send during play,
across both roles, capped at 100.

What counts: every message whose sender is the agent or the user once play has started (an agent reply, an
agent's tool-call or code message, a user message, a user's tool call). What does not: the scenario's scripted
rows (the SYSTEM script and the opening user message, which nobody played), environment results, and the
image rows a tool delivers to the user on the agent's behalf (``meta.shown_by_tool``: the tool's doing, not a
step of either role). Our own count of agent actions is kept beside it as ``agent_steps``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: the paper caps an episode at 100 interaction steps; reported step counts are capped there too
PAPER_STEP_CAP = 100
_ROLES = frozenset({"AGENT", "USER"})


def is_interaction_step(sender: str, meta: Mapping[str, Any] | None = None) -> bool:
    """Whether a message played during an episode is one of the paper's steps."""
    return str(sender) in _ROLES and not (meta or {}).get("shown_by_tool")


def count_interaction_steps(messages: Iterable[Any]) -> int:
    """The paper's steps of a recorded conversation (messages as records or dicts with ``sender`` and ``meta``):
    the scripted rows before the agent's first message are not counted."""
    count, playing = 0, False
    for m in messages:
        sender = m.get("sender") if isinstance(m, Mapping) else m.sender
        meta = m.get("meta") if isinstance(m, Mapping) else m.meta
        playing = playing or sender == "AGENT"
        if playing and is_interaction_step(sender, meta):
            count += 1
    return count


def reported_steps(steps: int | None) -> int | None:
    """The step count as the paper reports it: capped at :data:`PAPER_STEP_CAP`."""
    return None if steps is None else min(int(steps), PAPER_STEP_CAP)
