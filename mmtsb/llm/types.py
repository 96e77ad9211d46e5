"""The client's result types: LLMResponse, ToolCall and Usage (plain dataclasses, JSON round-trippable).

Malformed tool-call JSON is data here, not an exception (SPEC §9.11): the episode feeds the parse error
back to the model instead of aborting.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Usage:
    """Token counts of one call."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    @classmethod
    def from_dict(cls, data: Any) -> Usage:
        """Counts from a provider's ``usage`` object, read defensively: a count that is not a number (or a
        numeric string) counts as 0, a ``usage`` that is not an object as no usage (servers do send both)."""
        data = data if isinstance(data, dict) else {}
        prompt, completion = _count(data.get("prompt_tokens")), _count(data.get("completion_tokens"))
        return cls(prompt, completion, _count(data.get("total_tokens")) or prompt + completion)


def _count(value: Any) -> int:
    """A non-negative token count from a JSON value; 0 when it is not a number or a numeric string."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return 0
    if isinstance(value, (int, float)) and value == value and value not in (float("inf"), float("-inf")):
        return max(0, int(value))
    return 0


@dataclass(frozen=True)
class ToolCall:
    """One tool call as the model produced it; ``parsed_arguments`` is None when ``arguments`` is not a
    JSON object, and ``parse_error`` then says why."""

    id: str
    name: str
    arguments: str
    parsed_arguments: dict[str, Any] | None = None
    parse_error: str | None = None

    @classmethod
    def parse(cls, call_id: str, name: str, arguments: Any) -> ToolCall:
        """``arguments`` as the provider sent it: a JSON string normally; some servers send the object itself
        (kept as its JSON text, so the call is the same either way)."""
        raw = arguments if isinstance(arguments, str) else "" if arguments is None else json.dumps(arguments)
        if not raw.strip():
            return cls(call_id, name, raw, {}, None)  # "no arguments" is a valid call
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            return cls(call_id, name, raw, None, f"tool call arguments are not valid JSON: {exc}")
        if not isinstance(value, dict):
            return cls(call_id, name, raw, None,
                       f"tool call arguments must be a JSON object, got {type(value).__name__}")
        return cls(call_id, name, raw, value, None)


@dataclass
class LLMResponse:
    """One completion: text, tool calls, reasoning, usage, cost, timing and the provider's raw response."""

    text: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    reasoning: str | None = None
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0
    cost_known: bool = False
    latency_s: float = 0.0
    finish_reason: str | None = None
    model: str = ""
    provider: str = ""
    raw: dict[str, Any] = field(default_factory=dict)
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LLMResponse:
        data = dict(data)
        data["usage"] = Usage(**data.get("usage", {}))
        data["tool_calls"] = [ToolCall(**c) for c in data.get("tool_calls", [])]
        return cls(**data)
