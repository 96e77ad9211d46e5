"""Our A2UI validator (pydantic models with path-named messages) checked against the reference JSON schemas of
A2UI v0.8 with jsonschema as an independent oracle: what we accept, the reference schema accepts.

Where they may differ, by design: we are stricter on the protocol's "exactly one of" rules the schema states
only in prose (one message type per message, one component type per entry, explicitList or template, one
value per data entry), and we tolerate an explicit null for an optional property (read as absent)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from testkit import REFERENCE

from mmtsb.ui.examples import EXAMPLES
from mmtsb.ui.validation import A2UIValidationError, parse_messages, validate_client_message

A2UI = REFERENCE / "a2ui_v0_8"
EXAMPLE_FILES = sorted((A2UI / "examples").glob("*.json")) if A2UI.is_dir() else []
pytestmark = pytest.mark.skipif(not EXAMPLE_FILES, reason="the A2UI v0.8 reference schemas are absent")


def _validator(name: str) -> Draft202012Validator:
    schema = json.loads((A2UI / name).read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _accepted(check, value: Any) -> bool:
    try:
        check(value)
    except A2UIValidationError:
        return False
    return True


def _without_nulls(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_nulls(v) for k, v in node.items() if v is not None}
    if isinstance(node, list):
        return [_without_nulls(v) for v in node]
    return node


def _mutants(messages: list[Any], n: int, seed: int) -> list[Any]:
    """``n`` copies of the messages, each with one value deleted, retyped or given an unknown property."""
    rng = random.Random(seed)
    kinds = ["delete", "extra", None, 3, 2.5, "s", True, [], {}]
    out: list[Any] = []
    while len(out) < n:
        message = copy.deepcopy(rng.choice(messages))
        paths = [p for p in _paths(message) if p]
        path = rng.choice(paths)
        parent = message
        for key in path[:-1]:
            parent = parent[key]
        kind = rng.choice(kinds)
        if kind == "delete":
            del parent[path[-1]]
        elif kind == "extra":
            if not isinstance(parent[path[-1]], dict):
                continue
            parent[path[-1]]["notInTheSchema"] = 1
        else:
            parent[path[-1]] = copy.deepcopy(kind)
        out.append(message)
    return out


def _paths(node: Any, path: tuple[Any, ...] = ()):
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from _paths(value, (*path, key))


def _reference_messages() -> list[Any]:
    return [m for path in EXAMPLE_FILES for m in json.loads(path.read_text())]


def test_every_screen_we_accept_is_valid_under_the_reference_schema():
    reference = _validator("server_to_client_with_standard_catalog.json")
    ours = [m for _, make in EXAMPLES.values() for m in make()]
    for message in _reference_messages() + ours:
        parse_messages([message])
        assert not list(reference.iter_errors(message)), message


def test_we_never_accept_a_message_the_reference_schema_rejects():
    reference = _validator("server_to_client_with_standard_catalog.json")
    mutants = _mutants(_reference_messages(), 1500, seed=8)
    accepted = [m for m in mutants if _accepted(lambda m: parse_messages([m]), m)]
    assert 0 < len(accepted) < len(mutants)  # the corpus has both kinds
    for message in accepted:
        assert reference.is_valid(_without_nulls(message)), message


def test_client_messages_agree_with_the_reference_schema():
    reference = _validator("client_to_server.json")
    action = {"userAction": {"name": "submit", "surfaceId": "s", "sourceComponentId": "b",
                             "timestamp": "2026-04-16T23:51:15+00:00", "context": {"guest": "Ada", "n": 2}}}
    for message in [action, {"error": {"message": "boom"}}, *_mutants([action], 200, seed=3)]:
        if _accepted(validate_client_message, message):
            assert reference.is_valid(message), message
