"""Tool JSON schemas come from the pydantic model that validates the call (ToolSpec.arguments_model), brought
to the function-calling shape: inlined enums, no titles, no null defaults, ``required`` always present."""

from __future__ import annotations

import json
from typing import Any, Literal

import pytest

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
