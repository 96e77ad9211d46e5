"""Tool JSON schemas come from the pydantic model that validates the call (ToolSpec.arguments_model), brought
to the function-calling shape: inlined enums, no titles, no null defaults, ``required`` always present. Every
schema is a valid JSON Schema (Draft 2020-12), and whatever it admits the call's validation accepts."""

from __future__ import annotations

import json
import random
from typing import Any, Literal

import pytest
from jsonschema import Draft202012Validator

from mmtsb.tools.levels.data import LEVELS
from mmtsb.tools.levels.toolbox import registry_for_level
from mmtsb.tools.session import ArgumentError, validate_arguments
from mmtsb.tools.spec import spec_of, tool
from mmtsb.tools.types import NOT_GIVEN, CalendarRecurrenceFrequencyType, ImageId, NotGiven


@tool(domain="test")
def sample(world, text: str, image_id: ImageId, count: int | None = 3, when: str | None = None,
           freq: CalendarRecurrenceFrequencyType | NotGiven = NOT_GIVEN, mode: Literal["a", "b"] = "a",
           only: Literal["x"] = "x", tags: list[str] | None = None, groups: dict[str, list[float]] | None = None,
           payload: Any = None, json: str = "") -> None:
    """A tool with one parameter of every kind the toolbox uses.

    Args:
        text: some text.
        image_id: an image.
        count: how many.
        when: a time.
        freq: how often.
        mode: a choice.
        only: a one-value choice.
        tags: labels.
        groups: name -> values.
        payload: anything.
        json: a name BaseModel itself uses.
    """


SPEC = spec_of(sample)


def test_the_schema_is_the_arguments_model_schema_in_function_calling_shape():
    assert SPEC.openai_schema()["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "some text."},
            "image_id": {"type": "integer", "description": "an image."},
            "count": {"type": "integer", "description": "how many.", "default": 3},
            "when": {"type": "string", "description": "a time."},
            "freq": {"type": "string", "enum": ["YEARLY", "MONTHLY", "WEEKLY", "DAILY"], "description": "how often."},
            "mode": {"type": "string", "enum": ["a", "b"], "description": "a choice.", "default": "a"},
            "only": {"type": "string", "enum": ["x"], "description": "a one-value choice.", "default": "x"},
            "tags": {"type": "array", "items": {"type": "string"}, "description": "labels."},
            "groups": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "number"}},
                       "description": "name -> values."},
            "payload": {"type": "object", "description": "anything."},
            "json": {"type": "string", "description": "a name BaseModel itself uses.", "default": ""},
        },
        "required": ["text", "image_id"],
    }
    assert SPEC.openai_schema() is not SPEC.openai_schema()  # a fresh copy each time


def test_the_same_model_validates_the_call():
    out = validate_arguments(SPEC, {"text": "t", "image_id": 2.0, "freq": "WEEKLY", "json": "j", "count": None})
    assert out == {"text": "t", "image_id": 2, "count": None, "when": None,
                   "freq": CalendarRecurrenceFrequencyType.WEEKLY, "mode": "a", "only": "x", "tags": None,
                   "groups": None, "payload": None, "json": "j"}
    with pytest.raises(ArgumentError, match="parameter 'mode' expects str, got 'c'"):
        validate_arguments(SPEC, {"text": "t", "image_id": 1, "mode": "c", "only": "y"})
    with pytest.raises(ArgumentError, match="parameter 'text' must not be null"):  # first in signature order
        validate_arguments(SPEC, {"text": None, "image_id": "one"})
    with pytest.raises(ArgumentError, match="parameter 'image_id' expects ImageId"):
        validate_arguments(SPEC, {"text": "t", "image_id": "one", "json": None})


@pytest.mark.parametrize("level", LEVELS)
def test_every_schema_is_plain_json_in_the_shape_providers_take(level):
    for spec in registry_for_level(level):
        params = spec.openai_schema()["function"]["parameters"]
        assert set(params) == {"type", "properties", "required"} and params["type"] == "object"
        assert list(params["properties"]) == spec.param_names
        assert params["required"] == [p.name for p in spec.params if p.required]
        text = json.dumps(params)
        assert "$ref" not in text and "$defs" not in text and '"const"' not in text, spec.name
        for name, prop in params["properties"].items():
            assert "title" not in prop and prop.get("default", 0) is not None, (spec.name, name)
            assert prop["description"] == spec.param(name).description


#: argument values of every JSON type, for probing schemas against the validation
_VALUES = [0, 7, -3, 2.0, 2.5, "x", "7", "YEARLY", "create", True, False, [], [1], ["a"], [1.5], {}, {"a": [1.0]}]


@pytest.mark.parametrize("level", LEVELS)
def test_every_schema_is_valid_json_schema_and_admits_only_what_validation_accepts(level):
    rng = random.Random(level)
    for spec in registry_for_level(level):
        params = spec.openai_schema()["function"]["parameters"]
        Draft202012Validator.check_schema(params)
        validator = Draft202012Validator(params)
        for _ in range(12):
            args = {p.name: rng.choice(_VALUES) for p in spec.params if p.required or rng.random() < 0.3}
            for p in spec.params:   # mostly a value of the allowed ones, so that some calls are valid
                allowed = params["properties"][p.name].get("enum")
                if p.name in args and allowed and rng.random() < 0.8:
                    args[p.name] = rng.choice(allowed)
            if validator.is_valid(args):
                validate_arguments(spec, args)  # raises ArgumentError if the schema promised too much
