"""What the fake LLM server answers: scripted replies, regex rules, injected faults, response bodies.

A reply is written as plain JSON so scripts can live in files: a string is a text reply; a dict may hold
``text``, ``tool_calls`` ([{name, arguments (dict or raw str), id?}]), ``reasoning``, ``finish_reason``,
``latency_s``, ``usage``, or a fault: ``status`` (+ ``error``, ``retry_after``), ``hang_s`` (sleep, e.g.
longer than the client timeout), ``empty_choices``, ``malformed_args``. ``fault`` is a shorthand:
"rate_limit" (429), "server_error" (500), "unavailable" (503), "timeout", "empty_choices",
"malformed_tool_args".
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

_FAULTS: dict[str, dict[str, Any]] = {
    "rate_limit": {"status": 429},
    "server_error": {"status": 500},
    "unavailable": {"status": 503},
    "timeout": {"hang_s": 30.0},
    "empty_choices": {"empty_choices": True},
    "malformed_tool_args": {"malformed_args": True},
}


@dataclass(frozen=True)
class Reply:
    """One answer of the fake server: a completion, or a fault to inject."""

    text: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    reasoning: str | None = None
    finish_reason: str | None = None
    latency_s: float | None = None
    usage: dict[str, int] | None = None
    status: int | None = None
    error: str | None = None
    retry_after: float | None = None
    hang_s: float | None = None
    empty_choices: bool = False
    malformed_args: bool = False

    @classmethod
    def parse(cls, spec: Reply | str | dict[str, Any]) -> Reply:
        """Build a Reply from its JSON form; unknown keys raise with the allowed names."""
        if isinstance(spec, Reply):
            return spec
        if isinstance(spec, str):
            return cls(text=spec)
        if not isinstance(spec, dict):
            raise TypeError(f"reply must be a str, dict or Reply, got {type(spec).__name__}")
        spec = dict(spec)
        fault = spec.pop("fault", None)
        if fault is not None:
            if fault not in _FAULTS:
                raise ValueError(f"unknown fault {fault!r}; allowed: {sorted(_FAULTS)}")
            spec = {**_FAULTS[fault], **spec}
        allowed = {f.name for f in fields(cls)}
        unknown = set(spec) - allowed
        if unknown:
            raise ValueError(f"unknown reply keys {sorted(unknown)}; allowed: {sorted(allowed | {'fault'})}")
        return cls(**spec)


@dataclass(frozen=True)
class Rule:
    """Reply with ``reply`` when ``match`` (a regex) is found in the last user/tool message."""

    match: re.Pattern[str]
    reply: Reply

    @classmethod
    def parse(cls, spec: Rule | dict[str, Any]) -> Rule:
        if isinstance(spec, Rule):
            return spec
        return cls(re.compile(spec["match"], re.DOTALL), Reply.parse(spec["reply"]))


Responder = Callable[[dict[str, Any]], "Reply | str | dict[str, Any] | None"]


def last_prompt_text(body: dict[str, Any]) -> str:
    """Text of the last user or tool message (text parts joined), which rules match against."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") in ("user", "tool"):
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
            return ""
    return ""


def _arguments(raw: Any, malformed: bool) -> str:
    text = raw if isinstance(raw, str) else json.dumps(raw)
    return text[:-1] if malformed and text else text


def _estimate_usage(body: dict[str, Any], produced: str) -> dict[str, int]:
    prompt = max(1, len(json.dumps(body.get("messages", []))) // 4)
    completion = max(1, len(produced) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def completion_body(reply: Reply, body: dict[str, Any], seq: int,
                    usage: dict[str, int] | None = None) -> dict[str, Any]:
    """The OpenAI chat.completion JSON for a (non-fault) reply to request ``body``."""
    calls = [{"id": c.get("id") or f"call_{seq}_{i}", "type": "function",
              "function": {"name": c["name"], "arguments": _arguments(c.get("arguments", {}),
                                                                         reply.malformed_args)}}
             for i, c in enumerate(reply.tool_calls)]
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if calls:
        message["tool_calls"] = calls
    if reply.reasoning is not None:
        message["reasoning_content"] = reply.reasoning
    produced = (reply.text or "") + "".join(c["function"]["arguments"] for c in calls)
    used = dict(reply.usage or usage or _estimate_usage(body, produced))
    used.setdefault("total_tokens", used.get("prompt_tokens", 0) + used.get("completion_tokens", 0))
    choices = [] if reply.empty_choices else [{
        "index": 0, "message": message,
        "finish_reason": reply.finish_reason or ("tool_calls" if calls else "stop")}]
    return {"id": f"chatcmpl-fake-{seq}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake-model"), "choices": choices, "usage": used,
            "system_fingerprint": "mmtsb-fake"}


_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 429: "rate_limit_error"}


def error_body(status: int, message: str | None) -> dict[str, Any]:
    """An OpenAI-style error payload."""
    kind = _ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message or f"fake server: injected HTTP {status}", "type": kind,
                      "param": None, "code": str(status)}}
