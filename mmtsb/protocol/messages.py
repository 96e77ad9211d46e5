"""The conversation record: messages between SYSTEM, USER, AGENT and EXECUTION_ENVIRONMENT (SPEC.md §3.1).

Each message says who sent it to whom and who may see it; tool calls and their results are messages too,
so the record is one ordered list, as the reference's SANDBOX table, but typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

#: the four parties of a conversation (SPEC.md §3.1)
Party = Literal["SYSTEM", "USER", "AGENT", "EXECUTION_ENVIRONMENT"]
SYSTEM: Party = "SYSTEM"
USER: Party = "USER"
AGENT: Party = "AGENT"
ENV: Party = "EXECUTION_ENVIRONMENT"


@dataclass
class ToolCall:
    """One tool call as a role made it: an id, the tool name and its arguments (or why they were unusable)."""

    id: str
    name: str
    arguments: dict[str, Any]
    raw_arguments: str | None = None
    parse_error: str | None = None


@dataclass
class Message:
    """One row of the conversation."""

    index: int
    sender: Party
    recipient: Party
    content: str = ""
    image_ids: list[int] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str | None = None          # set on a tool result: the call it answers
    tool_name: str | None = None
    is_error: bool = False                   # a failed tool call or execution
    visible_to: tuple[Party, ...] = ()
    conversation_active: bool = True
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.visible_to:
            self.visible_to = (self.sender, self.recipient)

    def visible(self, role: Party) -> bool:
        return role in self.visible_to

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (field by field: ``dataclasses.asdict`` deep-copies every value, which made it a
        visible share of an episode's CPU)."""
        return {"index": self.index, "sender": self.sender, "recipient": self.recipient, "content": self.content,
                "image_ids": list(self.image_ids),
                "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments, "raw_arguments": c.raw_arguments,
                                "parse_error": c.parse_error} for c in self.tool_calls],
                "tool_call_id": self.tool_call_id, "tool_name": self.tool_name, "is_error": self.is_error,
                "visible_to": list(self.visible_to), "conversation_active": self.conversation_active,
                "meta": self.meta}
