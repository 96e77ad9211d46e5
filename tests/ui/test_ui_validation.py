"""A2UI v0.8 validation: every upstream example screen validates; malformed messages fail with the path and
the problem named; userAction messages are checked."""

from __future__ import annotations

import json

import pytest
from testkit import REFERENCE

from mmtsb.ui.examples import EXAMPLES
from mmtsb.ui.validation import (
    A2UIValidationError,
    load_messages,
    parse_messages,
    validate_client_message,
    validate_user_action,
)

EXAMPLES_DIR = REFERENCE / "a2ui_v0_8" / "examples"
EXAMPLE_FILES = sorted(EXAMPLES_DIR.glob("*.json")) if EXAMPLES_DIR.is_dir() else []
needs_examples = pytest.mark.skipif(not EXAMPLE_FILES, reason="the A2UI v0.8 reference examples are absent")


def _problems(ui_json) -> list[str]:
    with pytest.raises(A2UIValidationError) as info:
        parse_messages(ui_json)
    return info.value.problems


def _surface(*components, sid="s") -> list[dict]:
    return [{"surfaceUpdate": {"surfaceId": sid, "components": list(components)}},
            {"beginRendering": {"surfaceId": sid, "root": "root"}}]


@needs_examples
def test_the_reference_ships_35_example_screens():
    assert len(EXAMPLE_FILES) == 35


@needs_examples
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_every_reference_example_validates(path):
    raw = json.loads(path.read_text())
    messages = parse_messages(raw)
    assert [kind for kind, _ in messages] == [next(iter(m)) for m in raw]
    assert messages[-1][0] == "beginRendering"


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_our_own_examples_validate(name):
    kinds = [k for k, _ in parse_messages(EXAMPLES[name][1]())]
    assert kinds[0] == "surfaceUpdate" and kinds[-1] == "beginRendering"


@pytest.mark.parametrize(("components", "expected"), [
    ([{"id": "t", "component": {"Text": {"txt": {"literalString": "x"}}}}],
     ["components[0] (id 't').component.Text: missing required property 'text'",
      "components[0] (id 't').component.Text: unknown property 'txt' (allowed: text, usageHint)"]),
    ([{"id": "b", "component": {"Buton": {}}}],
     ["components[0] (id 'b').component: unknown component type 'Buton' (did you mean 'Button'?)"]),
    ([{"id": "b", "component": {"Button": {"child": "l", "primary": "yes"}}}],
     ["component.Button.primary: expected a boolean, got 'yes'",
      "component.Button: missing required property 'action'"]),
    ([{"id": "h", "component": {"Text": {"text": {"literalString": "x"}, "usageHint": "h9"}}}],
     ["component.Text.usageHint: must be one of 'h1', 'h2', 'h3', 'h4', 'h5', 'caption' or 'body'; got 'h9'"]),
    ([{"id": "i", "component": {"Icon": {"name": {"literalString": "stars"}}}}],
     ["component.Icon.name.literalString: must be one of", "got 'stars' (did you mean 'star'?)"]),
    ([{"id": "r", "component": {"Row": {"children": {}}}}],
     ["component.Row.children: needs exactly one of explicitList (a list of ids) or template"]),
    ([{"id": "r", "component": {"Column": {"children": {"template": {"componentId": "x"}}}}}],
     ["component.Column.children.template: missing required property 'dataBinding'"]),
    ([{"id": "two", "component": {"Text": {"text": {"literalString": "a"}}, "Divider": {}}}],
     ["components[0] (id 'two').component: must contain exactly one key, the component type", "found Text, Divider"]),
    ([{"id": "s", "component": {"Slider": {"value": {"literalNumber": "5"}}}}],
     ["component.Slider.value.literalNumber: expected a number, got '5'"]),
    ([{"component": {"Divider": {}}}], ["surfaceUpdate.components[0]: missing required property 'id'"]),
    ([{"id": "m", "component": {"MultipleChoice": {"selections": {"literalArray": ["a", 1]}, "options": []}}}],
     ["component.MultipleChoice.selections.literalArray[1]: expected a string, got 1"]),
])
def test_malformed_components_name_the_path_and_the_problem(components, expected):
    problems = "\n".join(_problems(_surface(*components)))
    for fragment in expected:
        assert fragment in problems
    assert problems.startswith("messages[0].surfaceUpdate")


@pytest.mark.parametrize(("message", "expected"), [
    ({"beginRendering": {"surfaceId": "s"}}, "messages[0].beginRendering: missing required property 'root'"),
    ({"beginRendering": {"surfaceId": "s", "root": "r"}, "deleteSurface": {"surfaceId": "s"}},
     "messages[0]: a message must contain exactly one of beginRendering, surfaceUpdate, dataModelUpdate, "
     "deleteSurface, found beginRendering, deleteSurface"),
    ({"createSurface": {"surfaceId": "s"}}, "'createSurface' is A2UI v0.9; in v0.8 use 'beginRendering'"),
    ({}, "messages[0]: empty message"),
    ("surfaceUpdate", "messages[0]: expected an object with exactly one of"),
    ({"surfaceUpdate": {"surfaceId": "s", "components": []}},
     "messages[0].surfaceUpdate.components: must not be empty"),
    ({"beginRendering": {"surfaceId": "s", "root": "r", "styles": {"primaryColor": "blue"}}},
     "messages[0].beginRendering.styles.primaryColor: 'blue' does not match the pattern ^#[0-9a-fA-F]{6}$"),
    ({"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a"}]}},
     "messages[0].dataModelUpdate.contents[0] (key 'a'): needs exactly one of valueString, valueNumber, "
     "valueBoolean, valueMap; found none"),
    ({"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a", "valueString": "x", "valueNumber": 1}]}},
     "found valueString, valueNumber"),
    ({"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "m", "valueMap": [{"key": "q", "valueMap": []}]}]}},
     "messages[0].dataModelUpdate.contents[0].valueMap[0]: unknown property 'valueMap' (allowed: key, valueString, "
     "valueNumber, valueBoolean)"),
    ({"deleteSurface": {}}, "messages[0].deleteSurface: missing required property 'surfaceId'"),
])
def test_malformed_messages_name_the_path_and_the_problem(message, expected):
    assert expected in "\n".join(_problems([message]))


def test_every_problem_of_a_batch_is_reported_and_the_message_counts_them():
    bad = [{"beginRendering": {"surfaceId": "s"}}, {"deleteSurface": {"surfaceId": 3}}]
    with pytest.raises(A2UIValidationError) as info:
        parse_messages(bad)
    text = str(info.value)
    assert text.startswith("UI description does not match the A2UI v0.8 schema (2 problems):")
    assert "- messages[0].beginRendering: missing required property 'root'" in text
    assert "- messages[1].deleteSurface.surfaceId: expected a string, got 3" in text
    assert isinstance(info.value, ValueError)


def test_long_problem_lists_are_capped():
    many = [{"id": f"t{i}", "component": {"Text": {}}} for i in range(20)]
    with pytest.raises(A2UIValidationError) as info:
        parse_messages(_surface(*many))
    assert len(info.value.problems) == 20 and "... and 8 more" in str(info.value)


def test_ui_json_may_be_a_dict_a_json_string_json_lines_or_a_fenced_block():
    one = {"deleteSurface": {"surfaceId": "x"}}
    assert parse_messages(one) == [("deleteSurface", {"surfaceId": "x"})]
    assert parse_messages(json.dumps([one, one])) == [("deleteSurface", {"surfaceId": "x"})] * 2
    assert len(parse_messages(json.dumps(one) + "\n" + json.dumps(one))) == 2
    assert len(parse_messages("```json\n" + json.dumps([one]) + "\n```")) == 1
    assert load_messages({"messages": [one, one]}) == [one, one]


@pytest.mark.parametrize(("ui_json", "expected"), [
    ('[{"deleteSurface": {"surfaceId": "x"},}]', "ui_json: invalid JSON at line 1 column 39"),
    ("   ", "ui_json: the string is empty"),
    ([], "ui_json: the message list is empty"),
    (42, "ui_json: expected a list of A2UI messages, one message object or a JSON string, got int"),
])
def test_unreadable_ui_json_is_reported(ui_json, expected):
    assert _problems(ui_json) == [expected] or expected in _problems(ui_json)[0]


def test_user_action_validation():
    action = {"name": "submit", "surfaceId": "s", "sourceComponentId": "b", "timestamp": "2026-04-16T23:51:15+00:00",
              "context": {"guest": "Ada", "n": 2}}
    assert validate_user_action(action) == action
    assert validate_client_message({"error": {"message": "boom"}}) == {"error": {"message": "boom"}}
    with pytest.raises(A2UIValidationError) as info:
        validate_user_action({**action, "timestamp": "yesterday", "context": None})
    text = str(info.value)
    assert text.startswith("Client message does not match the A2UI v0.8 schema (2 problems)")
    assert "userAction.timestamp: timestamp must be an ISO 8601 date-time, got 'yesterday'" in text
    assert "userAction.context: expected an object, got null" in text
    with pytest.raises(A2UIValidationError, match="userAction: missing required property 'sourceComponentId'"):
        validate_user_action({k: v for k, v in action.items() if k != "sourceComponentId"})
    with pytest.raises(A2UIValidationError, match="exactly one of userAction, error; found userAction, error"):
        validate_client_message({"userAction": action, "error": {}})
