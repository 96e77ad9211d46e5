"""The user-script parser and renderer, on hand-written scripts and on every released scenario file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from testkit import REFERENCE

from mmtsb.scenarios.script import (
    PLACEHOLDER,
    ScriptError,
    ScriptRound,
    parse_user_script,
    render_user_script,
)

REF_FILES = sorted((REFERENCE / "scenarios").glob("*/*.json")) if REFERENCE.exists() else []


def _zero_based(arrival: dict[str, list[str]]) -> dict[int, list[int]]:
    return {int(r): [int(name.split("_")[1]) - 1 for name in names] for r, names in arrival.items() if names}


@pytest.mark.skipif(not REF_FILES, reason="reference scenarios not available")
@pytest.mark.parametrize("path", REF_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_released_scripts_parse_consistently(path: Path):
    data = json.loads(path.read_text())
    meta = data["metadata"]
    script = parse_user_script(data["messages"][0]["content"])
    assert len(script.rounds) == meta["scenario_metadata"]["num_user_rounds"]
    assert [r.number for r in script.rounds] == list(range(1, len(script.rounds) + 1))
    assert script.image_arrival == _zero_based(meta["image_arrival"])
    assert script.rounds[0].query == data["messages"][1]["content"]
    assert script.rounds[0].provide_image_ids == data["messages"][1].get("image_ids", [])
    assert all(r.query and r.instructions for r in script.rounds)
    n = len(data["image_paths"])
    assert script.image_mapping == {f"image_{k + 1}": k for k in range(n)}
    assert script.delivery_schedule == {r: ids for r, ids in script.image_arrival.items() if r > 1}
    assert [d["image_ids"] for d in meta["image_delivery_map"]] == list(script.delivery_schedule.values())


@pytest.mark.skipif(not REF_FILES, reason="reference scenarios not available")
@pytest.mark.parametrize("path", REF_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rendering_reproduces_released_scripts_exactly(path: Path):
    data = json.loads(path.read_text())
    content = data["messages"][0]["content"]
    assert render_user_script(parse_user_script(content).rounds, len(data["image_paths"])) == content


def test_round_trip_of_a_rendered_script():
    rounds = [ScriptRound(1, [2, 0], "Here are two receipts.", "Send the receipts."),
              ScriptRound(2, [], "Now email Glen.", "Ask for the email.\nThen end."),
              ScriptRound(3, [1], "One more.", "Deliver the last image.")]
    text = render_user_script(rounds, 3)
    assert text.startswith(PLACEHOLDER + "ROUND 1 [provide: image_3, image_1]\nQuery: Here are two receipts.")
    assert "## IMAGE DELIVERY" in text and "Round 3: YOU MUST call the send_message_with_image tool with " \
                                          "image_ids='1'" in text
    parsed = parse_user_script(text)
    assert parsed.rounds == rounds
    assert parsed.delivery_schedule == {3: [1]}
    assert parsed.image_mapping == {"image_1": 0, "image_2": 1, "image_3": 2}
    assert parsed.round(2).instructions == "Ask for the email.\nThen end."
    with pytest.raises(KeyError, match="no round 4"):
        parsed.round(4)


def test_no_delivery_section_when_only_round_one_has_images():
    text = render_user_script([ScriptRound(1, [0, 1], "q1", "i1"), ScriptRound(2, [], "q2", "i2")], 2)
    assert "## IMAGE DELIVERY" not in text
    assert text.endswith("  image_2.jpg -> image ID 1")


def test_parser_tolerates_variations():
    text = ("{{USER_INSTRUCTION}}\r\nround 1  [provide: image_2.jpg , IMAGE_1 ]\r\nQuery: first line\r\n"
            "second line\r\nInstructions:do it\r\n\r\nROUND 2\r\nQuery: no instructions here\r\n")
    s = parse_user_script(text)
    assert [r.number for r in s.rounds] == [1, 2]
    assert s.rounds[0].provide_image_ids == [1, 0]
    assert s.rounds[0].query == "first line\nsecond line"
    assert s.rounds[0].instructions == "do it"
    assert s.rounds[1] == ScriptRound(2, [], "no instructions here", "")
    assert s.image_mapping == {} and s.delivery_schedule == {}


def test_a_script_without_rounds_is_rejected():
    with pytest.raises(ScriptError, match="no 'ROUND n' block"):
        parse_user_script("{{USER_INSTRUCTION}}Just help the user.")
