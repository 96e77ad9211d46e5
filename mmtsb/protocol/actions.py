"""What a role can do on its turn: say something, call tools, or run code. The episode loop turns an action
into messages and routes them (SPEC.md §3.1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mmtsb.protocol.messages import ToolCall


@dataclass
class Say:
    """Talk to the other party (agent -> user reply, or user -> agent message with optional images)."""

    text: str
    image_ids: list[int] = field(default_factory=list)


@dataclass
class CallTools:
    """Call tools (one or several in parallel); ``text`` is anything said alongside."""

    calls: list[ToolCall]
    text: str = ""


@dataclass
class RunCode:
    """Run Python in the episode's sandbox (code-execution interface)."""

    code: str
    text: str = ""


Action = Say | CallTools | RunCode
