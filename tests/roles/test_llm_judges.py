"""LLM rubric judges against the fake OpenAI-compatible server over real HTTP: verdict parsing, the AND of
the criteria, one repair retry, error verdicts, labelled images with a stated cap, usage, user evidence."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.evidence import EpisodeEvidence
from mmtsb.protocol.messages import AGENT, ENV, SYSTEM, USER, Message, ToolCall
from mmtsb.llm import ImageEncoder, flush_litellm_logging
from mmtsb.protocol.judges import AGENT_CRITERIA, USER_CRITERIA
from mmtsb.roles.judges.llm import (
    LLMAgentJudge,
    LLMUserJudge,
    agent_image_ids,
    model_config_from_settings,
    plan_images,
)
from mmtsb.roles.judges.parse import VerdictParseError, parse_verdict
from mmtsb.roles.judges.prompts import AGENT_JUDGE_VERSION, USER_JUDGE_VERSION
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import parse_scenario
from mmtsb.scenarios.script import parse_user_script
from mmtsb.testing import FakeLLMServer
from testkit import while_ticking

SCRIPT = ("{{USER_INSTRUCTION}}ROUND 1 [provide: image_1, image_2]\nQuery: Put the total of these two receipts "
          "in a note called Expenses.\nInstructions: Ask for a note titled Expenses with the total.\n\n"
          "ROUND 2 [provide: image_3]\nQuery: Also remind me to pay the bill in this photo tomorrow.\n"
          "Instructions: Ask for a reminder for tomorrow morning.\n\n")
SCENARIO = {
    "name": "judge_test_001", "description": "Expenses note and a reminder.",
    "device_state_id": "brenda.webe@gmail.com", "reference_time": "2026-04-16T23:51:15+00:00",
    "appworld_entities": {"simple_note.notes": [
        {"id": 3200, "user_id": 50, "title": "Trip", "content": "pack", "tags": [], "pinned": False,
         "created_at": "2026-04-01T10:00:00", "updated_at": "2026-04-01T10:00:00"}]},
    "image_paths": ["receipts/r1.png", "receipts/r2.png", "bills/b1.png"],
    "messages": [{"sender": "SYSTEM", "recipient": "USER", "content": SCRIPT},
                 {"sender": "USER", "recipient": "AGENT",
                  "content": "Put the total of these two receipts in a note called Expenses.", "image_ids": [0, 1]}],
    "task_completion_criteria": "A note titled 'Expenses' with the total 42.50 exists; a reminder for tomorrow.",
    "max_messages": 80,
    "metadata": {"scenario_metadata": {"num_images": 3, "num_user_rounds": 2, "challenge_type": "none",
                                       "image_arrival": "progressive", "require_disambiguation": False}},
}


def criteria_json(criteria: tuple[str, ...], failing: tuple[str, ...] = (), **extra: Any) -> str:
    return json.dumps({"criteria_evaluation": [
        {"criterion": c, "analysis": f"checked {c}", "pass": c not in failing, "evidence": f"ev {c}"}
        for c in criteria], "reasoning": "summary", **extra})


def run(coro: Any) -> Any:
    async def main() -> Any:
        try:
            return await coro
        finally:
            await flush_litellm_logging()

    return asyncio.run(main())


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


@pytest.fixture
def built():
    b = build_world(parse_scenario(SCENARIO), images="placeholder")
    yield b
    b.world.close()


def settings(server: FakeLLMServer, **kw: Any) -> ModelSettings:
    return ModelSettings(model="openai/fake-model", api_base=server.base_url, timeout_s=10.0, max_retries=0, **kw)


def conversation(extra_agent_images: list[int] | None = None) -> list[Message]:
    call = ToolCall("c1", "simple_note_create_note", {"title": "Expenses", "content": "Total: 42.50"})
    crop = ToolCall("c2", "crop_image", {"image_id": 2, "box": [0, 0, 10, 10]})
    msgs = [
        Message(0, SYSTEM, USER, SCRIPT),
        Message(1, USER, AGENT, "Put the total of these two receipts in a note called Expenses.", image_ids=[0, 1]),
        Message(2, AGENT, ENV, "", tool_calls=[call]),
        Message(3, ENV, AGENT, '{"note_id": 3201}', tool_call_id="c1", tool_name="simple_note_create_note"),
        Message(4, AGENT, USER, "Done: the note Expenses says Total: 42.50."),
        Message(5, USER, AGENT, "Also remind me to pay the bill in this photo tomorrow.", image_ids=[2]),
        Message(6, AGENT, ENV, "", tool_calls=[crop]),
        Message(7, ENV, AGENT, '{"image_id": 3}', tool_call_id="c2", tool_name="crop_image", image_ids=[3]),
        Message(8, AGENT, ENV, "", tool_calls=[ToolCall("c3", "create_reminder", {"content": "pay bill"})]),
        Message(9, ENV, AGENT, "Error: ArgumentError: missing reminder_datetime", tool_call_id="c3",
                tool_name="create_reminder", is_error=True, meta={"error_type": "ArgumentError"}),
        Message(10, AGENT, USER, "I could not create the reminder.", image_ids=extra_agent_images or []),
        Message(11, USER, ENV, "", tool_calls=[ToolCall("c4", "end_conversation", {})]),
        Message(12, ENV, USER, "null", tool_call_id="c4", tool_name="end_conversation", conversation_active=False),
    ]
    return msgs


def evidence_for(built, messages: list[Message] | None = None) -> EpisodeEvidence:
    world = built.world
    world.images.add_pil(Image.new("RGB", (32, 24), "red"), fmt="JPEG", source="crop")  # id 3 (a crop result)
    world.update("simple_note.notes", 3200, {"content": "pack the tent"})
    world.insert("simple_note.notes", {"user_id": 50, "title": "Expenses", "content": "Total: 42.50", "tags": [],
                                       "pinned": False, "created_at": "2026-04-16T23:51:15",
                                       "updated_at": "2026-04-16T23:51:15"})
    ev = EpisodeEvidence(built.scenario, parse_user_script(built.scenario.user_script), messages or conversation(),
                         world.diff(built.initial), None, "user_ended", image_ids=world.images.ids())
    ev.images = world.images  # the episode's image store (see the report: a field the loop should set)
    return ev


def user_text(body: dict[str, Any]) -> str:
    return "\n".join(p["text"] for p in body["messages"][1]["content"] if p["type"] == "text")


def image_parts(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(label text before the image, data URL) per image part of the judge request."""
    parts = body["messages"][1]["content"]
    return [(parts[i - 1]["text"], p["image_url"]["url"]) for i, p in enumerate(parts) if p["type"] == "image_url"]


# ---------------------------------------------------------------------------------------------- agent judge
def test_well_formed_verdict_passes_with_usage_and_prompt_version(server, built):
    server.reset(script=[{"text": criteria_json(AGENT_CRITERIA),
                          "usage": {"prompt_tokens": 1200, "completion_tokens": 300}}])
    judge = LLMAgentJudge(settings(server), {})
    verdict = run(judge.judge(evidence_for(built)))
    assert verdict.error is None and verdict.passed is True
    assert [c.criterion for c in verdict.criteria] == list(AGENT_CRITERIA)
    assert verdict.criteria[0].analysis == "checked task_completion" and verdict.criteria[0].evidence == "ev task_completion"
    assert verdict.kind == "agent" and verdict.judge == "llm:openai/fake-model"
    assert verdict.prompt_version.startswith(AGENT_JUDGE_VERSION + "#")
    assert verdict.usage["prompt_tokens"] == 1200 and verdict.usage["completion_tokens"] == 300
    assert verdict.usage["total_tokens"] == 1500 and verdict.usage["api_calls"] == 1
    assert verdict.usage["cost_known"] is False and verdict.usage["cost_usd"] == 0.0
    body = server.requests[0]
    assert body["max_tokens"] == 8192 and body["temperature"] == 0.0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert "information_accuracy" in body["messages"][0]["content"]
    text = user_text(body)
    for section in ("## Task completion criteria", "42.50 exists", "## Conversation", "## Agent actions",
                    "ERROR: Error: ArgumentError: missing reminder_datetime", "## Database changes",
                    "[simple_note.notes] +1 ~1 -0", "content: pack -> pack the tent", "ADD id=3201"):
        assert section in text, section


def test_model_overall_pass_is_ignored_when_a_criterion_fails(server, built):
    reply = criteria_json(AGENT_CRITERIA, failing=("no_side_effects",), result=True)
    server.reset(script=[reply])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.error is None and verdict.passed is False
    assert [c.criterion for c in verdict.criteria if not c.passed] == ["no_side_effects"]
    assert "overall flag (True) is ignored" in verdict.reasoning
    assert verdict.to_dict()["passed"] is False


def test_fenced_json_with_trailing_prose_parses(server, built):
    reply = "Here is my evaluation:\n```json\n" + criteria_json(AGENT_CRITERIA) + "\n```\nLet me know if you need more."
    server.reset(script=[reply])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.error is None and verdict.passed is True and server.request_count == 1


def test_malformed_then_repaired_takes_two_calls(server, built):
    broken = criteria_json(AGENT_CRITERIA)[:-40]
    server.reset(script=[{"text": broken, "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
                         {"text": criteria_json(AGENT_CRITERIA, failing=("information_accuracy",)),
                          "usage": {"prompt_tokens": 150, "completion_tokens": 20}}])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.error is None and verdict.passed is False
    assert verdict.usage["api_calls"] == 2 and verdict.usage["prompt_tokens"] == 250
    assert verdict.usage["completion_tokens"] == 30
    assert "repaired on retry" in verdict.reasoning
    retry = server.requests[1]["messages"]
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[2]["content"] == broken
    assert "could not be used" in retry[3]["content"] and "not closed" in retry[3]["content"]


def test_malformed_twice_gives_an_error_verdict_with_the_raw_text(server, built):
    server.reset(script=["I think the agent did fine overall.", "{'criteria_evaluation': oops"])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.error is not None and "after one repair retry" in verdict.error
    assert verdict.passed is False and verdict.criteria == []
    assert "I think the agent did fine overall." in verdict.reasoning and "oops" in verdict.reasoning
    assert verdict.usage["api_calls"] == 2 and server.request_count == 2


def test_missing_criterion_triggers_a_repair(server, built):
    partial = criteria_json(AGENT_CRITERIA[:4])
    server.reset(script=[partial, criteria_json(AGENT_CRITERIA)])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.error is None and verdict.passed is True and server.request_count == 2
    assert "missing criteria ['information_accuracy']" in server.requests[1]["messages"][3]["content"]


def test_truncated_reply_is_repaired_with_a_larger_token_budget(server, built):
    server.reset(script=[{"text": criteria_json(AGENT_CRITERIA)[:200], "finish_reason": "length"},
                         criteria_json(AGENT_CRITERIA)])
    verdict = run(LLMAgentJudge(settings(server, max_tokens=4000), {}).judge(evidence_for(built)))
    assert verdict.passed is True
    assert [r["max_tokens"] for r in server.requests] == [4000, 8000]
    assert "cut off at the output-token limit" in server.requests[1]["messages"][3]["content"]


def test_model_call_failure_is_an_error_verdict(server, built):
    server.reset(script=[{"status": 400, "error": "bad judge request"}])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.passed is False and "judge model call failed" in verdict.error
    assert "bad judge request" in verdict.error


def test_three_images_are_labelled_with_correct_data_urls(server, built):
    server.reset(script=[criteria_json(AGENT_CRITERIA)])
    evidence = evidence_for(built)
    run(LLMAgentJudge(settings(server), {}).judge(evidence))
    parts = image_parts(server.requests[0])
    # the user delivered 0, 1, 2; the crop tool produced 3 (a JPEG)
    assert [label.split("]")[0] + "]" for label, _ in parts] == [f"[image_id={i}]" for i in range(4)]
    assert "delivered by the user" in parts[0][0] and "produced by crop_image" in parts[3][0]
    encoder = ImageEncoder()
    for i, (_, url) in enumerate(parts):
        assert url == encoder.data_url(evidence.images.get(i).data)
    assert parts[0][1].startswith("data:image/png;base64,") and parts[3][1].startswith("data:image/jpeg;base64,")
    jpeg = base64.b64decode(parts[3][1].split(",", 1)[1])
    assert jpeg == evidence.images.get(3).data
    assert "Attached below (4)" in user_text(server.requests[0])


def test_image_cap_names_the_omitted_ids(server, built):
    shown = list(range(4, 22))
    evidence = evidence_for(built, conversation(extra_agent_images=shown))
    for k in shown:
        built.world.images.add_pil(Image.new("RGB", (8, 8), (k * 10, 0, 0)), source=f"plot{k}")  # ids 4..21
    server.reset(script=[criteria_json(AGENT_CRITERIA)])
    run(LLMAgentJudge(settings(server), {}).judge(evidence))
    parts = image_parts(server.requests[0])
    assert len(parts) == 16
    # priority: delivered by the user (0-2), shown to the user (4-21), produced by tools (3)
    attached = sorted(int(label.split("=")[1].split("]")[0]) for label, _ in parts)
    assert attached == [0, 1, 2, *range(4, 17)]
    text = user_text(server.requests[0])
    assert "NOT attached because of the cap of 16 images per judge call: ids [3, 17, 18, 19, 20, 21]" in text


def test_judge_encodes_a_photo_off_the_loop_and_notes_an_undecodable_image_in_its_place(server, built):
    import numpy as np

    evidence = evidence_for(built, conversation(extra_agent_images=[4, 5]))
    noise = np.random.default_rng(0).integers(0, 256, (1500, 2000, 3), dtype=np.uint8)
    built.world.images.add_pil(Image.fromarray(noise), fmt="JPEG", source="photo")   # id 4: 3 megapixels
    good = built.world.images.get(0).data
    built.world.images.add_bytes(good[: len(good) // 2], source="cut", mime_type="image/png")   # id 5: cut short
    judge = LLMAgentJudge(settings(server), {})

    messages, ticks = run(while_ticking(judge.build_messages_async(evidence)))
    # the same request as the synchronous build (the viewer's), the photo shrunk in a worker thread meanwhile
    assert messages == LLMAgentJudge(settings(server), {}).build_messages(evidence)
    assert ticks > 10
    texts = [p["text"] for p in messages[1]["content"] if p["type"] == "text"]
    assert any(t.startswith("[image_id=5] could not be encoded: cannot decode image") for t in texts)
    photo = next(i for i, p in enumerate(messages[1]["content"]) if p.get("text", "").startswith("[image_id=4]"))
    shrunk = base64.b64decode(messages[1]["content"][photo + 1]["image_url"]["url"].split(",", 1)[1])
    assert max(Image.open(io.BytesIO(shrunk)).size) == ImageEncoder().max_side


def test_image_plan_reports_unknown_and_missing_store():
    plan = plan_images([(0, "x"), (7, "y")], None, 16)
    assert set(plan.unavailable) == {0, 7} and not plan.attached
    assert "could not be attached" in plan.describe(16)


def test_agent_image_candidates_follow_priority(built):
    ev = evidence_for(built)
    ids = [i for i, _ in agent_image_ids(ev)]
    assert ids == [0, 1, 2, 3]  # delivered first, then the crop result (id 2 also used as an argument)


# ---------------------------------------------------------------------------------------------- user judge
def test_user_judge_evidence_has_the_delivery_checks(server, built):
    server.reset(script=[criteria_json(USER_CRITERIA, failing=("tool_channel_correctness",))])
    msgs = conversation()
    msgs[5].image_ids = []  # round 2's image never reached the agent
    verdict = run(LLMUserJudge(settings(server), {}).judge(evidence_for(built, msgs)))
    assert verdict.kind == "user" and verdict.passed is False
    assert verdict.prompt_version.startswith(USER_JUDGE_VERSION + "#")
    body = server.requests[0]
    assert "simulated user" in body["messages"][0]["content"].lower()
    text = user_text(body)
    for expected in ("## Hidden instructions of the simulated user", "ROUND 2 [provide: image_3]",
                     "send_message_with_image(message, image_ids)", "end_conversation()",
                     "#11 [USER → ENV]: end_conversation({})", "max_messages: 80",
                     "challenge_type: none", "require_disambiguation: False", "num_user_rounds: 2",
                     "image_arrival: progressive", "## Image Delivery Verification",
                     "Round 1 (image_1, image_2 -> ids [0, 1]): id 0 in message(s) [1], id 1 in message(s) [1]",
                     "id 2 NOT delivered", "Result: MISSING IDs [2]", "## Round Query Delivery Check",
                     "Round 1: delivered", "Round 2: delivered"):
        assert expected in text, expected
    assert [label.split("]")[0] + "]" for label, _ in image_parts(body)] == ["[image_id=0]", "[image_id=1]"]


def test_user_judge_all_delivered(server, built):
    server.reset(script=[criteria_json(USER_CRITERIA)])
    verdict = run(LLMUserJudge(settings(server), {}).judge(evidence_for(built)))
    assert verdict.passed is True
    assert "Result: all delivered" in user_text(server.requests[0])


# ---------------------------------------------------------------------------------------------- config & parsing
def test_model_settings_map_to_a_judge_config():
    cfg = model_config_from_settings(ModelSettings(model="openai/gpt-5.4", reasoning_effort="high", max_retries=2,
                                                   extra_params={"top_p": 0.9}))
    assert cfg.max_tokens == 8192 and cfg.temperature is None and cfg.max_retries == 2
    assert cfg.request_params() == {"max_tokens": 8192, "top_p": 0.9, "reasoning_effort": "high"}
    plain = model_config_from_settings(ModelSettings(model="anthropic/claude-sonnet-4-5", max_tokens=12000,
                                                     api_key_env="ANTHROPIC_API_KEY"))
    assert (plain.max_tokens, plain.temperature, plain.api_key_env) == (12000, 0.0, "ANTHROPIC_API_KEY")


def test_shared_limits_and_encoder_are_reused(server):
    shared: dict[str, Any] = {}
    a, u = LLMAgentJudge(settings(server), shared), LLMUserJudge(settings(server), shared)
    assert a.client.limits is u.client.limits is shared["limits"]
    assert a.client.images is u.client.images is shared["image_encoder"]


@pytest.mark.parametrize("text", [
    ("{'criteria_evaluation': [{'criterion': 'a', 'pass': True, 'analysis': \"it's ok\"}, "
     "{'criterion': 'B', 'pass': 'fail',},],}"),
    'Sure! {"criteria_evaluation": {"a": {"pass": "yes"}, "b": {"pass": false}}} hope that helps {x}',
])
def test_parser_tolerates_quotes_commas_and_mapping_forms(text):
    parsed = parse_verdict(text, ("a", "b"))
    assert [(c.criterion, c.passed) for c in parsed.criteria] == [("a", True), ("b", False)]


@pytest.mark.parametrize("text, message", [
    ('{"criteria_evaluation": [{"criterion": "a", "pass": "maybe"}, {"criterion": "b", "pass": true}]}',
     "'pass' must be true or false"),
    ('{"criteria_evaluation": [{"criterion": "a", "pass": true}, {"criterion": "c", "pass": true}]}',
     "unknown criteria ['c']"),
    (('{"criteria_evaluation": [{"criterion": "a", "pass": true}, {"criterion": "a", "pass": false}, '
      '{"criterion": "b", "pass": true}]}'), "appears twice"),
    ('{"verdict": "pass"}', "no 'criteria_evaluation'"),
    ("", "empty"),
])
def test_parser_errors_are_precise(text, message):
    with pytest.raises(VerdictParseError, match=None) as e:
        parse_verdict(text, ("a", "b"))
    assert message in str(e.value)


def test_parser_skips_thinking_and_non_verdict_objects():
    good = criteria_json(("a", "b"))
    text = ('<think>draft {"criteria_evaluation": [{"criterion": "a", "pass": false}]} and much more text '
            + "x" * 300 + '</think>Config used: {"mode": "strict"}\n' + good)
    parsed = parse_verdict(text, ("a", "b"))
    assert [c.passed for c in parsed.criteria] == [True, True] and parsed.reasoning == "summary"


def test_cached_judgement_makes_no_second_request(server, built, tmp_path):
    server.reset(script=[criteria_json(AGENT_CRITERIA)])
    evidence = evidence_for(built)
    first = run(LLMAgentJudge(settings(server), {}, response_cache_dir=str(tmp_path)).judge(evidence))
    again = run(LLMAgentJudge(settings(server), {}, response_cache_dir=str(tmp_path)).judge(evidence))
    assert first.passed and again.passed and server.request_count == 1
    assert again.usage["cached_calls"] == 1 and again.usage["prompt_tokens"] == first.usage["prompt_tokens"]


def test_failed_repair_call_keeps_the_first_reply(server, built):
    server.reset(script=["no json here", {"status": 400, "error": "context too long"}])
    verdict = run(LLMAgentJudge(settings(server), {}).judge(evidence_for(built)))
    assert "judge model call failed" in verdict.error and "no json here" in verdict.reasoning
    assert verdict.usage["api_calls"] == 1


def test_factory_builds_both_llm_judges_and_rejects_an_empty_model():
    from mmtsb.protocol.episode_config import EpisodeConfig
    from mmtsb.roles.factory import RoleFactory

    judges = RoleFactory().judges(EpisodeConfig(judge="llm", judge_model=ModelSettings(model="openai/gpt-x")))
    agent_judge, user_judge = judges["agent"], judges["user"]
    assert isinstance(agent_judge, LLMAgentJudge) and isinstance(user_judge, LLMUserJudge)
    assert agent_judge.client.limits is user_judge.client.limits
    with pytest.raises(ValueError, match="judge_model.model is empty"):
        LLMAgentJudge(ModelSettings(), {})
