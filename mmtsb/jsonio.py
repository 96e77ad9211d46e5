"""Fast JSON encoding for the hot paths (model request bodies, trajectories) with orjson.

Why: a request body carries the whole conversation (images as base64 data URLs) and a trajectory the whole
episode; the standard library's encoder made them a tenth of an episode's harness CPU. orjson writes the
same JSON (UTF-8, non-string keys turned into strings, unknown objects through ``str``); what it refuses
(integers beyond 64 bits) falls back to the standard encoder.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps_bytes(value: Any) -> bytes:
    """UTF-8 JSON of ``value``; objects JSON cannot hold are written as ``str(obj)``."""
    try:
        return orjson.dumps(value, default=str, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, ensure_ascii=False, default=str).encode()


def dumps(value: Any) -> str:
    """:func:`dumps_bytes` as text."""
    return dumps_bytes(value).decode()
