"""What the fake LLM server answers: scripted replies, regex rules, injected faults, response bodies.

A reply is written as plain JSON so scripts can live in files: a string is a text reply; a dict may hold
``text``, ``tool_calls`` ([{name, arguments (dict or raw str), id?}]), ``reasoning``, ``thinking_blocks`` (as
litellm reports Anthropic's extended thinking), ``finish_reason``, ``latency_s``, ``usage`` (values as given,
non-numeric ones too), ``args_as_object`` (tool-call arguments sent as a JSON object instead of a string, as
some servers do), or a fault: ``status`` (+ ``error``,
``retry_after``), ``hang_s`` (sleep, e.g. longer than the client timeout), ``empty_choices``,
``malformed_args``, ``wire`` (a broken HTTP answer, see :data:`WIRE_FAULTS`). ``fault`` is a shorthand:
"rate_limit" (429), "server_error" (500), "unavailable" (503), "timeout", "empty_choices",
"malformed_tool_args", and one per wire fault ("connection_reset", "cut_body", "truncated_body",
"html_body", "empty_body", "not_json_body", "non_utf8_body").
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
    "connection_reset": {"wire": "reset"},
    "cut_body": {"wire": "cut"},
    "truncated_body": {"wire": "truncated"},
    "html_body": {"wire": "html"},
    "empty_body": {"wire": "empty"},
    "not_json_body": {"wire": "not_json"},
    "non_utf8_body": {"wire": "non_utf8"},
}

#: broken answers the server can give with HTTP 200: the connection closed before any answer ("reset") or
#: half-way through a body whose Content-Length promised more ("cut"); a completion's JSON cut short but
#: complete on the wire ("truncated"); a proxy's HTML page ("html"); no body ("empty"); plain text
#: ("not_json"); the completion with bytes that are not UTF-8 ("non_utf8")
WIRE_FAULTS = ("reset", "cut", "truncated", "html", "empty", "not_json", "non_utf8")


@dataclass(frozen=True)
class Reply:
    """One answer of the fake server: a completion, or a fault to inject."""

    text: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    reasoning: str | None = None
    thinking_blocks: list[dict[str, Any]] | None = None
    finish_reason: str | None = None
    latency_s: float | None = None
    usage: Any = None   # a dict of counts normally; any JSON value to test a client's parsing
    args_as_object: bool = False
    status: int | None = None
    error: str | None = None
    retry_after: float | None = None
    hang_s: float | None = None
    empty_choices: bool = False
    malformed_args: bool = False
    wire: str | None = None

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
        if spec.get("wire") is not None and spec["wire"] not in WIRE_FAULTS:
            raise ValueError(f"unknown wire fault {spec['wire']!r}; allowed: {list(WIRE_FAULTS)}")
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


def _arguments(raw: Any, reply: Reply) -> Any:
    if reply.args_as_object and not isinstance(raw, str):
        return raw
    text = raw if isinstance(raw, str) else json.dumps(raw)
    return text[:-1] if reply.malformed_args and text else text


def _estimate_usage(body: dict[str, Any], produced: str) -> dict[str, int]:
    prompt = max(1, len(json.dumps(body.get("messages", []))) // 4)
    completion = max(1, len(produced) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def completion_body(reply: Reply, body: dict[str, Any], seq: int,
                    usage: dict[str, int] | None = None) -> dict[str, Any]:
    """The OpenAI chat.completion JSON for a (non-fault) reply to request ``body``."""
    calls = [{"id": c.get("id") or f"call_{seq}_{i}", "type": "function",
              "function": {"name": c["name"], "arguments": _arguments(c.get("arguments", {}), reply)}}
             for i, c in enumerate(reply.tool_calls)]
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if calls:
        message["tool_calls"] = calls
    if reply.reasoning is not None:
        message["reasoning_content"] = reply.reasoning
    if reply.thinking_blocks is not None:
        message["thinking_blocks"] = reply.thinking_blocks
    produced = (reply.text or "") + "".join(json.dumps(c["function"]["arguments"]) for c in calls)
    used = reply.usage if reply.usage is not None else dict(usage or _estimate_usage(body, produced))
    if isinstance(used, dict) and "total_tokens" not in used and all(isinstance(used.get(k, 0), int)
                                          for k in ("prompt_tokens", "completion_tokens")):
        used["total_tokens"] = used.get("prompt_tokens", 0) + used.get("completion_tokens", 0)
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


def broken_body(wire: str, completion: dict[str, Any]) -> tuple[bytes, str]:
    """(body, content type) of a broken answer with HTTP 200 (``wire`` other than "reset" and "cut", which
    the server makes by closing the connection)."""
    encoded = json.dumps(completion).encode()
    if wire == "truncated":
        return encoded[: len(encoded) // 2], "application/json"
    if wire == "html":
        return (b"<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
                b"<p>The upstream server is not answering.</p></body></html>", "text/html")
    if wire == "empty":
        return b"", "application/json"
    if wire == "not_json":
        return b"upstream connect error or disconnect/reset before headers", "text/plain"
    if wire == "non_utf8":   # bytes 0xFF 0xFE never occur in UTF-8
        return encoded.replace(b'"chat.completion"', b'"chat.' + bytes([0xFF, 0xFE]) + b'completion"'), \
            "application/json"
    raise ValueError(f"not a body fault: {wire!r}")
