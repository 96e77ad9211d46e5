"""Columns every stage row shares: the verdict (passed, reason) and the record of the model calls."""

from __future__ import annotations

import json
from typing import Any

from pipelines.backends.base import CallRecord, Generated

__all__ = ["call_columns", "generated_columns"]


def call_columns(calls: list[CallRecord]) -> dict[str, Any]:
    """Model, prompt hash (of the first call), tokens, cost and call count of one item's model calls."""
    return {
        "model": calls[0].model if calls else "",
        "prompt_hash": calls[0].prompt_hash if calls else "",
        "calls": len(calls),
        "cached_calls": sum(c.cached for c in calls),
        "prompt_tokens": sum(c.prompt_tokens for c in calls),
        "completion_tokens": sum(c.completion_tokens for c in calls),
        "cost": float(sum(c.cost for c in calls)),
        "call_errors": json.dumps([c.error for c in calls if c.error]),
    }


def generated_columns(gen: Generated[Any]) -> dict[str, Any]:
    """``payload`` (the value as JSON, "" when rejected), the backend's rejection, and the call columns."""
    payload = gen.value.model_dump_json() if gen.value is not None else ""
    return {"payload": payload, "backend_rejection": gen.rejection or "", **call_columns(gen.calls)}
