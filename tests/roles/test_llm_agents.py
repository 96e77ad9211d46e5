"""The LLM agents against the fake OpenAI-compatible server over real HTTP: code execution (RunCode / Say,
cut after the first block, execution results), tool use (parallel and malformed calls, working-set schemas,
tool images), usage, nudges, incremental history, and one episode through the real loop."""

from __future__ import annotations

import asyncio
import base64
import copy
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from mmtsb.protocol.episode_config import EpisodeConfig, ModelSettings
from mmtsb.episode.context import EpisodeContext
from mmtsb.episode.loop import EpisodeRunner
from mmtsb.protocol.messages import AGENT, ENV, USER, Message
from mmtsb.llm import LLMAuthError, flush_litellm_logging
from mmtsb.roles.agents.code_exec import CodeExecAgent, execution_body, first_code_block
from mmtsb.roles.agents.tool_use import EXECUTE_CODE, ToolUseAgent
from mmtsb.protocol import CallTools, RunCode, Say
from mmtsb.roles.factory import RoleFactory
from mmtsb.roles.llm_common import IMAGES_KEY, model_config
from mmtsb.roles.prompts.agent import (
    AGENT_CODE_EXEC_PROMPT_VERSION,
    AGENT_HYBRID_PROMPT_VERSION,
    AGENT_TOOL_USE_PROMPT_VERSION,
    NUDGE_EMPTY_CODE,
    TOOL_IMAGES_NOTE,
)
from mmtsb.roles.scripted_user import ScriptedUser
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import parse_scenario
from mmtsb.testing import FakeLLMServer
from mmtsb.tools.session import ToolSession, WorkingSet
from mmtsb.tools.toolbox import full_registry

SCENARIO: dict[str, Any] = {
    "name": "scenario_roles_001", "base_scenario": "base", "description": "Make a note from a receipt.",
    "device_state_id": "brenda.webe@gmail.com", "reference_time": "2026-04-16T23:51:15+00:00",
    "agentsandbox_entities": {}, "appworld_entities": {},
    "image_paths": ["receipts/r1.png", "receipts/r2.png"],
    "messages": [{"sender": "SYSTEM", "recipient": "USER",
                  "content": "{{USER_INSTRUCTION}}ROUND 1 [provide: image_1]\nQuery: Save this receipt as a note."
                             "\nInstructions: Ask for a note. End when it is done."},
                 {"sender": "USER", "recipient": "AGENT", "content": "Save this receipt as a note.",
                  "image_ids": [0]}],
    "entity_diff_specs": [
        {"operation": "create", "source": "appworld", "table": "simple_note.notes",
         "entity_data": {"user_id": 50, "title": "Receipt"},
         "column_similarity_measure": {"user_id": "column_exact_match_similarity",
                                       "title": "column_rouge_l_similarity"}}],
    "task_completion_criteria": "A note is created.", "categories": ["APPWORLD"], "max_messages": 60,
    "metadata": {"expected_tools": ["simple_note_create_note"],
                 "scenario_metadata": {"num_images": 2, "challenge_type": "none"}},
}
SEARCH = "api_docs_search_api_docs"
USAGE = {"prompt_tokens": 10, "completion_tokens": 2}


def run(coro: Any) -> Any:
    async def main() -> Any:
        try:
            return await coro
        finally:
            await flush_litellm_logging()

    return asyncio.run(main())


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(usage=USAGE) as srv:
        yield srv


def settings(server: FakeLLMServer, **kw: Any) -> ModelSettings:
    return ModelSettings(model="openai/fake-model", api_base=server.base_url, timeout_s=10, max_retries=0, **kw)


def make_ctx(interface: str = "code_exec", data: dict[str, Any] | None = None) -> EpisodeContext:
    built = build_world(parse_scenario(copy.deepcopy(data or SCENARIO)), images="placeholder")
    registry = full_registry()
    if interface == "code_exec":
        session = ToolSession(built.world, registry, mode="code_exec")
    else:
        session = ToolSession(built.world, registry, mode="tool_use",
                              working_set=WorkingSet(pinned=[SEARCH] + ([EXECUTE_CODE] if interface == "hybrid" else [])))
    return EpisodeContext(built=built, registry=registry, session=session, interface=interface)


class Feed:
    """Sends messages to a role the way the loop does (index, visibility)."""

    def __init__(self, role: Any) -> None:
        self.role, self.n = role, 0

    def __call__(self, sender: str, recipient: str, content: str = "", **kw: Any) -> Message:
        m = Message(index=self.n, sender=sender, recipient=recipient, content=content, **kw)
        self.n += 1
        self.role.observe(m)
        return m

    def seed(self, ctx: EpisodeContext) -> None:
        for m in ctx.scenario.messages:
            self(m.sender, m.recipient, m.content, image_ids=list(m.image_ids or []))


def started(agent: Any, ctx: EpisodeContext) -> Feed:
    run(agent.start(ctx))
    feed = Feed(agent)
    feed.seed(ctx)
    return feed


def jpeg_bytes() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (32, 24), "blue").save(out, format="JPEG")
    return out.getvalue()


def image_urls(content: Any) -> list[str]:
    return [p["image_url"]["url"] for p in content if p.get("type") == "image_url"] if isinstance(content, list) else []


# ---------------------------------------------------------------------------------------------- config
def test_model_settings_map_to_model_config():
    cfg = model_config(ModelSettings(model="openai/gpt-5.4", api_key_env="MY_KEY", temperature=0.3, max_tokens=99,
                                     reasoning_effort="high", timeout_s=30, max_retries=2, concurrency=3,
                                     extra_params={"top_p": 0.9}))
    assert (cfg.model, cfg.api_key_env, cfg.temperature, cfg.max_tokens) == ("openai/gpt-5.4", "MY_KEY", 0.3, 99)
    assert (cfg.timeout_s, cfg.max_retries, cfg.concurrency) == (30, 2, 3)
    assert cfg.extra_params == {"top_p": 0.9} and cfg.provider == "openai"
    assert cfg.request_params() == {"temperature": 0.3, "max_tokens": 99, "top_p": 0.9, "reasoning_effort": "high"}
    with pytest.raises(ValueError, match="agent_model.model is empty"):
        model_config(ModelSettings())
    with pytest.raises(ValueError, match="agent_model: .*provider prefix"):
        model_config(ModelSettings(model="gpt-5.4"))


def test_the_factory_makes_the_agent_of_each_interface(server):
    factory = RoleFactory()
    shared = factory.shared
    kinds = {}
    for agent in ("code_exec", "tool_use", "hybrid"):
        cfg = EpisodeConfig(agent=agent, agent_model=settings(server))
        role = factory.agent(cfg)
        kinds[agent] = (type(role).__name__, role.prompt_version, role.name)
    assert kinds == {"code_exec": ("CodeExecAgent", AGENT_CODE_EXEC_PROMPT_VERSION, "code_exec:openai/fake-model"),
                     "tool_use": ("ToolUseAgent", AGENT_TOOL_USE_PROMPT_VERSION, "tool_use:openai/fake-model"),
                     "hybrid": ("ToolUseAgent", AGENT_HYBRID_PROMPT_VERSION, "hybrid:openai/fake-model")}
    assert set(shared) == {"limits", "image_encoder", "direct_transport"}  # process-wide objects, created once


def test_date_line_includes_the_utc_offset():
    from datetime import datetime, timedelta, timezone

    from mmtsb.roles.prompts.agent import format_now

    assert format_now(datetime(2026, 4, 6, 9, 5, tzinfo=timezone(timedelta(hours=-4)))) == (
        "Monday, April 06, 2026 at 09:05 AM (UTC-04:00)")
    assert format_now(datetime(2026, 4, 16, 23, 51, tzinfo=timezone(timedelta(hours=5, minutes=30)))).endswith(
        "11:51 PM (UTC+05:30)")


# ---------------------------------------------------------------------------------------------- code exec
def test_first_code_block_cuts_after_the_first_block():
    text = "Checking.\n```python\nx = 1\nprint(x)\n```\nThen:\n```python\nprint(2)\n```\n<execution_results>1"
    block = first_code_block(text)
    assert block is not None
    assert (block.code, block.before) == ("x = 1\nprint(x)", "Checking.")
    assert block.kept == "Checking.\n```python\nx = 1\nprint(x)\n```"
    assert first_code_block("All done, the note is saved.") is None
    assert first_code_block("Plain ``` fence\n```\nnot python\n```") is None
    unclosed = first_code_block("Go:\n```python\nprint(1)\nfor i in")
    assert unclosed is not None and unclosed.code == "print(1)\nfor i in" and unclosed.kept.endswith("```")


def test_execution_results_mark_errors_as_the_reference_does():
    ok = Message(0, ENV, AGENT, "42")
    assert execution_body(ok) == "42"
    tb = "hello\nTraceback (most recent call last):\n  File \"<cell 1>\", line 1\nNameError: name 'y' is not defined"
    assert execution_body(Message(0, ENV, AGENT, tb, is_error=True)) == (
        "hello\n[Error]: Traceback (most recent call last):\n  File \"<cell 1>\", line 1\n"
        "NameError: name 'y' is not defined")
    assert execution_body(Message(0, ENV, AGENT, "Execution blocked: import of os", is_error=True)) == (
        "[Error]: Execution blocked: import of os")
    structured = Message(0, ENV, AGENT, "ignored", is_error=True, meta={"stdout": "a\n", "error": "ValueError: x"})
    assert execution_body(structured) == "a\n[Error]: ValueError: x"


def test_code_exec_agent_turns_replies_into_run_code_and_say(server):
    server.reset(script=[
        ("I'll search the note tools.\n```python\nprint(api_docs_search_api_docs(query='note'))\n```\n"
         "<execution_results>\nmade up\n</execution_results>"),
        "Saved the note \"Receipt\".",
    ])
    ctx = make_ctx("code_exec")
    agent = CodeExecAgent(settings(server), {})
    feed = started(agent, ctx)
    action = run(agent.act())
    assert isinstance(action, RunCode)
    assert action.code == "print(api_docs_search_api_docs(query='note'))"
    assert action.text == "I'll search the note tools."
    feed(AGENT, ENV, action.code)
    feed(ENV, AGENT, "[{'tool_name': 'simple_note_create_note'}]")
    reply = run(agent.act())
    assert isinstance(reply, Say) and reply.text == 'Saved the note "Receipt".'

    first, second = server.requests
    assert "tools" not in first and "tools" not in second
    system = first["messages"][0]
    assert system["role"] == "system"
    assert system["content"].startswith(
        "Current date and time: Thursday, April 16, 2026 at 11:51 PM (UTC+00:00)\n\n")
    assert "api_docs_search_api_docs" in system["content"] and "<execution_results>" in system["content"]
    user = first["messages"][1]
    assert user["content"][0] == {"type": "text", "text": "Save this receipt as a note."}
    assert user["content"][1] == {"type": "text", "text": "image_id: 0"}
    assert image_urls(user["content"])[0].startswith("data:image/png;base64,")
    assistant, results = second["messages"][2], second["messages"][3]
    assert assistant == {"role": "assistant", "content": "I'll search the note tools.\n```python\n"
                         "print(api_docs_search_api_docs(query='note'))\n```"}
    assert results == {"role": "user", "content": "<execution_results>\n[{'tool_name': "
                       "'simple_note_create_note'}]\n</execution_results>"}
    assert agent.prompts()["system"] == system["content"]


def test_code_results_merge_and_carry_images(server):
    ctx = make_ctx("code_exec")
    jpeg_id = ctx.world.images.add_bytes(jpeg_bytes(), source="crop")
    agent = CodeExecAgent(settings(server), {})
    feed = started(agent, ctx)
    n = len(agent.history)
    feed(ENV, AGENT, "first")
    feed(ENV, AGENT, "Traceback (most recent call last):\nKeyError: 'x'", is_error=True, image_ids=[jpeg_id])
    assert len(agent.history) == n + 1  # consecutive results: one message
    content = agent.history[-1]["content"]
    assert content[0]["text"] == "<execution_results>\nfirst\n</execution_results>"
    assert content[1]["text"] == ("<execution_results>\n[Error]: Traceback (most recent call last):\nKeyError: 'x'"
                                  "\n</execution_results>")
    assert {"type": "text", "text": f"image_id: {jpeg_id}"} in content
    server.reset(script=["ok"])
    run(agent.act())  # the image part is filled in as the history is sent
    sent = server.requests[-1]["messages"][-1]["content"]
    assert image_urls(sent)[0].startswith("data:image/jpeg;base64,")
    assert image_urls(agent.history[n]["content"]) == image_urls(sent)  # kept in the history, encoded once


def test_observed_images_are_encoded_when_sent_a_photo_shrunk_and_a_broken_one_noted(server):
    """Observing only records the images; the call encodes them (a large one off the event loop) and an
    image that cannot be decoded becomes a note in its place, the rest of the message intact."""
    import numpy as np

    from mmtsb.llm.images import INLINE_MAX_BYTES

    ctx = make_ctx("tool_use")
    photo = io.BytesIO()
    Image.fromarray(np.random.default_rng(0).integers(0, 256, (1200, 1600, 3), dtype=np.uint8)).save(
        photo, format="JPEG", quality=90)
    assert len(photo.getvalue()) > INLINE_MAX_BYTES
    photo_id = ctx.world.images.add_bytes(photo.getvalue(), source="camera")
    png = io.BytesIO()
    Image.new("RGB", (40, 30), "red").save(png, format="PNG")
    broken_id = ctx.world.images.add_bytes(png.getvalue()[:40], source="cut", mime_type="image/png")
    shared: dict[str, Any] = {}
    agent = ToolUseAgent(settings(server), shared)
    feed = started(agent, ctx)
    feed(USER, AGENT, "what do these show?", image_ids=[photo_id, broken_id])
    assert shared[IMAGES_KEY].encode_count == 0  # nothing decoded while observing
    server.reset(script=["a street"])
    run(agent.act())
    sent = server.requests[-1]["messages"][-1]["content"]
    urls = image_urls(sent)
    assert len(urls) == 1 and urls[0].startswith("data:image/jpeg;base64,")
    with Image.open(io.BytesIO(base64.b64decode(urls[0].split(",", 1)[1]))) as shown:
        assert shown.size == (1024, 768)
    texts = [p["text"] for p in sent if p["type"] == "text"]
    assert texts[0] == "what do these show?" and f"image_id: {photo_id}" in texts
    assert texts[-2] == f"image_id: {broken_id}"
    assert texts[-1].startswith(f"[image {broken_id} could not be loaded: cannot decode image")


def test_empty_reply_is_nudged_not_raised(server):
    server.reset(script=["", "   ", "Could you tell me which note?"])
    agent = CodeExecAgent(settings(server), {})
    started(agent, make_ctx("code_exec"))
    action = run(agent.act())
    assert isinstance(action, Say) and action.text == "Could you tell me which note?"
    last = server.requests[-1]["messages"]
    assert [m["content"] for m in last[-2:]] == [NUDGE_EMPTY_CODE, NUDGE_EMPTY_CODE]
    assert agent.usage.api_calls == 3


def test_provider_errors_propagate(server):
    server.reset(script=[{"status": 401, "error": "bad key"}])
    agent = CodeExecAgent(settings(server), {})
    started(agent, make_ctx("code_exec"))
    with pytest.raises(LLMAuthError, match="fake-model"):
        run(agent.act())


# ---------------------------------------------------------------------------------------------- tool use
def test_discovered_tools_are_offered_on_the_next_call(server):
    server.reset(script=[{"tool_calls": [{"id": "c1", "name": SEARCH, "arguments": {"query": "simple note create"}}]},
                         "Done."])
    ctx = make_ctx("tool_use")
    agent = ToolUseAgent(settings(server), {})
    feed = started(agent, ctx)
    action = run(agent.act())
    assert isinstance(action, CallTools) and [c.name for c in action.calls] == [SEARCH]
    call = action.calls[0]
    assert (call.id, call.arguments, call.parse_error) == ("c1", {"query": "simple note create"}, None)
    feed(AGENT, ENV, "", tool_calls=action.calls)
    out = ctx.session.call(call.name, call.arguments, role="agent")
    assert out.ok
    feed(ENV, AGENT, out.value, tool_call_id=call.id, tool_name=call.name)
    assert isinstance(run(agent.act()), Say)

    offered = [[t["function"]["name"] for t in r["tools"]] for r in server.requests]
    assert offered[0] == [SEARCH]
    assert SEARCH in offered[1] and "simple_note_create_note" in offered[1] and len(offered[1]) > 1
    assert set(offered[1]) == {s.name for s in ctx.session.available("agent")}
    tool_msg = server.requests[1]["messages"][-1]
    assert tool_msg == {"role": "tool", "tool_call_id": "c1", "content": out.value}


def test_native_thinking_blocks_go_back_with_the_tool_call_they_preceded(server):
    """Issue 13 (Claude native thinking): Anthropic refuses a tool-use turn whose assistant message lost its
    thinking block (and litellm then fails or silently turns thinking off), so the block a reply carried goes
    back into the history with that reply's tool calls; a reply without one is kept unchanged."""
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt

    blocks = [{"type": "thinking", "thinking": "Find the notes tool first.", "signature": "c2lnbmF0dXJl"}]
    server.reset(script=[{"tool_calls": [{"id": "c1", "name": SEARCH, "arguments": {"query": "simple note"}}],
                          "thinking_blocks": blocks},
                         {"tool_calls": [{"id": "c2", "name": SEARCH, "arguments": {"query": "notes"}}]}, "Done."])
    ctx = make_ctx("tool_use")
    agent = ToolUseAgent(settings(server), {})
    feed = started(agent, ctx)
    for _ in range(2):
        action = run(agent.act())
        feed(AGENT, ENV, "", tool_calls=action.calls)
        call = action.calls[0]
        feed(ENV, AGENT, ctx.session.call(call.name, call.arguments, role="agent").value, tool_call_id=call.id,
             tool_name=call.name)
    assert isinstance(run(agent.act()), Say)
    sent = [m for m in agent.history if m["role"] == "assistant"]   # the messages each model call is given
    assert sent[0]["thinking_blocks"] == blocks and "thinking_blocks" not in sent[1]
    # litellm's Anthropic request starts that assistant turn with the thinking block, as Anthropic requires
    turns = anthropic_messages_pt(agent.history[1:4], model="claude-sonnet-4-5", llm_provider="anthropic")
    assistant = next(t for t in turns if t["role"] == "assistant")
    assert [b["type"] for b in assistant["content"]][:2] == ["thinking", "tool_use"]


def test_parallel_calls_malformed_json_and_unknown_tools_reach_the_loop(server):
    server.reset(script=[{"text": "Looking at both.", "tool_calls": [
        {"id": "a", "name": SEARCH, "arguments": {"query": "note"}},
        {"id": "b", "name": SEARCH, "arguments": '{"query": "gmail"'},
        {"id": "c", "name": "no_such_tool", "arguments": {}}]}])
    agent = ToolUseAgent(settings(server), {})
    started(agent, make_ctx("tool_use"))
    action = run(agent.act())
    assert isinstance(action, CallTools) and action.text == "Looking at both."
    a, b, c = action.calls
    assert (a.name, a.arguments, a.parse_error) == (SEARCH, {"query": "note"}, None)
    assert b.arguments == {} and b.raw_arguments == '{"query": "gmail"' and "not valid JSON" in b.parse_error
    assert c.name == "no_such_tool"
    stored = agent.history[-1]
    assert stored["content"] == "Looking at both." and [t["id"] for t in stored["tool_calls"]] == ["a", "b", "c"]
    assert json.loads(stored["tool_calls"][1]["function"]["arguments"]) == {"unparsed_arguments": '{"query": "gmail"'}


def test_tool_images_follow_all_parallel_results_with_mime_types(server):
    server.reset(script=[{"tool_calls": [{"id": "v1", "name": SEARCH, "arguments": {"query": "image"}},
                                         {"id": "v2", "name": SEARCH, "arguments": {"query": "crop"}}]},
                         "Here is what I see."])
    ctx = make_ctx("tool_use")
    jpeg_id = ctx.world.images.add_bytes(jpeg_bytes(), source="crop")
    agent = ToolUseAgent(settings(server), {})
    feed = started(agent, ctx)
    action = run(agent.act())
    feed(AGENT, ENV, "", tool_calls=action.calls)
    feed(ENV, AGENT, "first result", tool_call_id="v1", image_ids=[jpeg_id])
    assert agent.history[-1]["role"] == "tool"  # images wait for the second result
    feed(ENV, AGENT, "Error: ValueError: bad crop", tool_call_id="v2", is_error=True, image_ids=[1])
    run(agent.act())
    msgs = server.requests[1]["messages"]
    assert [m["role"] for m in msgs[-4:]] == ["assistant", "tool", "tool", "user"]
    assert (msgs[-3]["tool_call_id"], msgs[-2]["tool_call_id"]) == ("v1", "v2")
    parts = msgs[-1]["content"]
    assert parts[0] == {"type": "text", "text": TOOL_IMAGES_NOTE}
    assert parts[1] == {"type": "text", "text": f"image_id: {jpeg_id}"}
    assert parts[2]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    assert parts[3] == {"type": "text", "text": "image_id: 1"}
    assert parts[4]["image_url"]["url"].startswith("data:image/png;base64,")


def test_hybrid_offers_execute_code_and_maps_a_lone_call(server):
    server.reset(script=[{"tool_calls": [{"id": "x1", "name": EXECUTE_CODE, "arguments": {"code": "print(1)"}}]},
                         "One."])
    ctx = make_ctx("hybrid")
    agent = ToolUseAgent(settings(server), {}, hybrid=True)
    feed = started(agent, ctx)
    action = run(agent.act())
    names = [t["function"]["name"] for t in server.requests[0]["tools"]]
    assert EXECUTE_CODE in names and SEARCH in names
    assert "CODE EXECUTION" in server.requests[0]["messages"][0]["content"]
    if EXECUTE_CODE in ctx.registry:  # a registered tool goes through the session like any other
        assert isinstance(action, CallTools) and action.calls[0].name == EXECUTE_CODE
        feed(AGENT, ENV, "", tool_calls=action.calls)
        feed(ENV, AGENT, "1", tool_call_id="x1")
    else:  # fallback: run as code; the result answers the call
        assert isinstance(action, RunCode) and action.code == "print(1)"
        feed(AGENT, ENV, "print(1)")
        feed(ENV, AGENT, "1")
    run(agent.act())
    assert server.requests[1]["messages"][-1] == {"role": "tool", "tool_call_id": "x1", "content": "1"}


def test_usage_is_accumulated(server):
    server.reset(script=[{"tool_calls": [{"id": "u1", "name": SEARCH, "arguments": {"query": "x"}}]}, "ok"])
    agent = ToolUseAgent(settings(server), {})
    feed = started(agent, make_ctx("tool_use"))
    action = run(agent.act())
    feed(AGENT, ENV, "", tool_calls=action.calls)
    feed(ENV, AGENT, "r", tool_call_id="u1")
    run(agent.act())
    u = agent.usage
    assert (u.prompt_tokens, u.completion_tokens, u.total_tokens, u.api_calls) == (20, 4, 24, 2)
    assert u.cost_known is False and u.cost_usd == 0.0  # the fake model has no price


def test_history_is_incremental_and_images_encode_once(server):
    """Ten user turns with images: each distinct image is encoded once; conversions per turn are constant
    (turn 5 vs turn 50) and every request extends the previous one."""
    turns = 50
    server.reset(script=["reply"] * turns)
    shared: dict[str, Any] = {}
    agent = CodeExecAgent(settings(server), shared)
    feed = started(agent, make_ctx("code_exec"))
    per_turn = []
    for turn in range(turns):
        before = agent.conversions
        run(agent.act())
        feed(AGENT, USER, "reply")
        feed(USER, AGENT, f"turn {turn}", image_ids=[turn % 2] if turn < 10 else [])
        per_turn.append(agent.conversions - before)
    assert shared[IMAGES_KEY].encode_count == 2
    assert per_turn[5] == per_turn[49] == 2  # the model's reply and the user's next message
    bodies = [r["messages"] for r in server.requests]
    assert all(bodies[i + 1][:len(bodies[i])] == bodies[i] for i in range(len(bodies) - 1))
    assert len(bodies[-1]) == 2 + 2 * (turns - 1)


# ---------------------------------------------------------------------------------------------- the loop
def test_tool_use_episode_through_the_loop(server):
    server.reset(script=[
        {"tool_calls": [{"id": "s1", "name": SEARCH, "arguments": {"query": "simple note create"}}]},
        {"tool_calls": [{"id": "n1", "name": "simple_note_create_note",
                         "arguments": {"title": "Receipt", "content": "coffee 4.50"}},
                        {"id": "n2", "name": "simple_note_create_note", "arguments": '{"title": '}]},
        "I saved the receipt as the note \"Receipt\".",
    ])
    ctx = make_ctx("tool_use")
    agent = ToolUseAgent(settings(server), {})
    result = run(EpisodeRunner(ctx, agent, ScriptedUser()).run())
    assert result.end_reason == "user_ended", result.error
    errors = [m for m in result.trajectory["messages"] if m["is_error"]]
    assert len(errors) == 1 and "not valid JSON" in errors[0]["content"]
    assert result.entity_f1 == 1.0
    assert result.trajectory["prompts"]["agent"]["version"] == AGENT_TOOL_USE_PROMPT_VERSION
    assert result.trajectory["usage"]["agent"]["api_calls"] == 3
    last = server.requests[-1]["messages"]
    assert [m["role"] for m in last[-3:]] == ["assistant", "tool", "tool"]
