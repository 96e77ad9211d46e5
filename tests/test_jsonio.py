"""The fast JSON encoder writes what the standard one would read back the same."""

from __future__ import annotations

import json
from datetime import datetime, UTC

from mmtsb.jsonio import dumps, dumps_bytes


def test_round_trips_like_the_standard_encoder():
    value = {"text": "café ☕", "n": 3, "x": 1.5, "none": None, "ok": True, "list": [1, "a", {"b": [2]}]}
    assert json.loads(dumps(value)) == value
    assert json.loads(dumps_bytes(value).decode()) == value


def test_non_string_keys_unknown_objects_and_huge_ints():
    when = datetime(2026, 4, 16, 23, 51, 15, tzinfo=UTC)
    assert json.loads(dumps({1: "a", "t": when, "s": {3}})) == {"1": "a", "t": when.isoformat(), "s": "{3}"}
    assert json.loads(dumps({"big": 2**80})) == {"big": 2**80}   # beyond orjson: the standard encoder takes over
