"""Turning a model's reply into a pydantic value, or into the precise reason it cannot be one.

Why separate from the backend: the verdict (kind + problem) feeds both the repair message sent back to the
model and the rejection the funnel records, so it must be computed one way, without any HTTP around it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

__all__ = ["KINDS", "Parsed", "extract_json", "looks_like_refusal", "parse_reply", "shorten",
           "validation_problem"]

M = TypeVar("M", bound=BaseModel)

#: every rejection kind the LLM backend reports
KINDS = ("malformed_json", "schema_invalid", "refusal", "empty", "llm_error")

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_REFUSAL = re.compile(
    r"\b(i\s*(?:'m|am)\s+(?:sorry|unable|not able)|i\s+(?:can\s*not|cannot|can't|can’t|won't|will not|must "
    r"decline)|unable to (?:help|assist|comply)|(?:can't|cannot) (?:help|assist) with|as an ai\b|not able to "
    r"(?:help|assist|comply)|against (?:my|the) (?:policy|policies|guidelines))", re.IGNORECASE)


def shorten(text: str, limit: int = 300) -> str:
    """``text`` on one line, cut to ``limit`` characters (with an ellipsis)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


@dataclass(frozen=True)
class Parsed(Generic[M]):
    """The outcome of one reply: ``value``, or ``kind`` (one of KINDS) and ``problem`` (for the model)."""

    value: M | None = None
    kind: str | None = None
    problem: str | None = None

    @property
    def reason(self) -> str:
        """``"<kind>: <short problem>"``, the form CallRecord.error and rejections use."""
        return f"{self.kind}: {shorten(self.problem or '', 200)}"


def _first_object(text: str) -> tuple[Any, str | None, bool]:
    """The first JSON object that decodes in ``text``: (object or None, the first decode error, whether any
    ``{`` was seen)."""
    decoder = json.JSONDecoder()
    first_error: str | None = None
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError as exc:
            if first_error is None:
                first_error = f"{exc.msg} at line {exc.lineno} column {exc.colno} (char {exc.pos})"
            continue
        if isinstance(value, dict):
            return value, None, True
    return None, first_error, first_error is not None


def extract_json(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The reply's JSON object: a fenced block's content (``json`` or untagged fences first), else the first
    object in the text. Returns (object, None), or (None, what is wrong); ``None, None`` means no JSON at
    all."""
    body = _THINK.sub("", text)
    fences = [m.group(2) for m in _FENCE.finditer(body) if m.group(1).lower() in ("json", "")]
    for candidate in [*fences, body]:
        stripped = candidate.strip()
        if stripped.startswith("["):
            try:
                if isinstance(json.loads(stripped), list):
                    return None, "expected one JSON object ({...}) but the reply is a JSON list"
            except json.JSONDecodeError:
                pass
        value, error, seen = _first_object(candidate)
        if value is not None:
            return value, None
        if seen:
            return None, error
    return None, None


def looks_like_refusal(text: str) -> bool:
    """Whether a reply without JSON reads like the model declining (apologies, "I can't help with ...")."""
    return bool(_REFUSAL.search(text[:2000]))


def validation_problem(exc: ValidationError, limit: int = 8) -> str:
    """pydantic's error list, one ``loc: message`` per error, at most ``limit`` of them."""
    errors = exc.errors(include_url=False)
    parts = []
    for err in errors[:limit]:
        loc = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
        msg = str(err.get("msg", "")).removeprefix("Value error, ")  # our own checks' wording, unprefixed
        parts.append(f"{loc}: {shorten(msg, 500)}")
    more = f"; (+{len(errors) - limit} more)" if len(errors) > limit else ""
    return "; ".join(parts) + more


def parse_reply(text: str | None, model: type[M], *, refused: str | None = None,
                context: dict[str, Any] | None = None) -> Parsed[M]:
    """Judge one reply against ``model`` (validated with ``context``, for checks that need the outline).
    ``refused``: the provider's own refusal message, when it sent one."""
    if refused:
        return Parsed(kind="refusal", problem=shorten(refused))
    if text is None or not text.strip():
        return Parsed(kind="empty", problem="the reply has no text")
    data, error = extract_json(text)
    if data is None:
        if error is not None:
            return Parsed(kind="malformed_json", problem=error)
        if looks_like_refusal(text):
            return Parsed(kind="refusal", problem=f"the reply declines instead of answering: {shorten(text, 160)}")
        return Parsed(kind="malformed_json", problem="no JSON object found in the reply")
    try:
        return Parsed(value=model.model_validate(data, context=context))
    except ValidationError as exc:
        return Parsed(kind="schema_invalid", problem=validation_problem(exc))
