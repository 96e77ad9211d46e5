"""The LLM user simulator against the fake OpenAI-compatible server over real HTTP: the supervisor prompt
and guardrails, mirrored history with image-id suffixes, tools only after an agent message, image delivery
and ending actions, only the latest agent image sent, and one episode through the real loop."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Iterator
from typing import Any

import pytest

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.episode.context import EpisodeContext
from mmtsb.episode.loop import EpisodeRunner
from mmtsb.protocol.messages import AGENT, ENV, USER, Message, ToolCall
from mmtsb.llm import flush_litellm_logging
from mmtsb.protocol import Action, CallTools, Role, Say
from mmtsb.roles.llm_user import LLMUser, strip_sent_ids
from mmtsb.roles.prompts.user import (
    GUARDRAIL_ERROR_CORRECTION,
    GUARDRAIL_GOAL_CHANGE,
    IMAGE_OMITTED,
    NUDGE_EMPTY_USER,
    USER_PROMPT_VERSION,
    USER_SUPERVISOR_PROMPT,
)
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import parse_scenario
from mmtsb.testing import FakeLLMServer
from mmtsb.tools.session import ToolSession
from mmtsb.tools.toolbox import full_registry

SCRIPT = ("{{USER_INSTRUCTION}}ROUND 1 [provide: image_1, image_2]\nQuery: Save these two receipts as notes.\n"
          "Instructions: Ask for two notes.\n\nROUND 2 [provide: image_3]\nQuery: And this one too.\n"
          "Instructions: Deliver the third receipt. End when done.\n\n"
          "You have 3 images available to share with the agent using the send_message_with_image tool.")
SCENARIO: dict[str, Any] = {
    "name": "scenario_user_001", "base_scenario": "base", "description": "Notes from receipts.",
    "device_state_id": "brenda.webe@gmail.com", "reference_time": "2026-04-16T23:51:15+00:00",
    "agentsandbox_entities": {}, "appworld_entities": {},
    "image_paths": ["r1.png", "r2.png", "r3.png"],
    "messages": [{"sender": "SYSTEM", "recipient": "USER", "content": SCRIPT},
                 {"sender": "USER", "recipient": "AGENT", "content": "Save these two receipts as notes.",
                  "image_ids": [0, 1]}],
    "entity_diff_specs": [], "task_completion_criteria": "Three notes.", "categories": [], "max_messages": 40,
    "metadata": {"image_delivery_map": [{"query": "And this one too.", "image_ids": [2]}],
                 "scenario_metadata": {"num_images": 3, "challenge_type": "none"}},
}
USAGE = {"prompt_tokens": 7, "completion_tokens": 3}


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


def make_user(server: FakeLLMServer, challenge: str = "none") -> tuple[LLMUser, EpisodeContext]:
    data = copy.deepcopy(SCENARIO)
    data["metadata"]["scenario_metadata"]["challenge_type"] = challenge
    built = build_world(parse_scenario(data), images="placeholder")
    registry = full_registry()
    ctx = EpisodeContext(built=built, registry=registry, session=ToolSession(built.world, registry, mode="code_exec"),
                         interface="code_exec")
    user = LLMUser(ModelSettings(model="openai/fake-model", api_base=server.base_url, timeout_s=10, max_retries=0),
                   {})
    run(user.start(ctx))
    return user, ctx


class Feed:
    def __init__(self, role: Role) -> None:
        self.role, self.n = role, 0

    def __call__(self, sender: str, recipient: str, content: str = "", **kw: Any) -> Message:
        m = Message(index=self.n, sender=sender, recipient=recipient, content=content, **kw)
        self.n += 1
        self.role.observe(m)
        return m


def seeded(user: LLMUser, ctx: EpisodeContext) -> Feed:
    feed = Feed(user)
    for m in ctx.scenario.messages:
        feed(m.sender, m.recipient, m.content, image_ids=list(m.image_ids or []))
    return feed


def tool_names(body: dict[str, Any]) -> list[str]:
    return sorted(t["function"]["name"] for t in body.get("tools") or [])


# ---------------------------------------------------------------------------------------------- prompt
@pytest.mark.parametrize("challenge, present, absent", [
    ("none", [], [GUARDRAIL_GOAL_CHANGE, GUARDRAIL_ERROR_CORRECTION]),
    ("goal_change", [GUARDRAIL_GOAL_CHANGE], [GUARDRAIL_ERROR_CORRECTION]),
    ("error_correction", [GUARDRAIL_ERROR_CORRECTION], [GUARDRAIL_GOAL_CHANGE]),
])
def test_script_becomes_the_system_message_with_our_instruction(server, challenge, present, absent):
    user, ctx = make_user(server, challenge)
    seeded(user, ctx)
    system = user.history[0]
    assert system["role"] == "system" and "{{USER_INSTRUCTION}}" not in system["content"]
    assert system["content"].startswith(USER_SUPERVISOR_PROMPT)
    assert system["content"].index("ROUND 1 [provide: image_1, image_2]") > system["content"].index("YOUR SCRIPT")
    assert all(g in system["content"] for g in present) and not any(g in system["content"] for g in absent)
    assert user.prompt_version == USER_PROMPT_VERSION and user.prompts()["user_instruction"] in system["content"]
    for rule in ("end_conversation", "send_message_with_image", "5 times", "Never describe"):
        assert rule in USER_SUPERVISOR_PROMPT


def test_own_messages_are_assistant_turns_with_image_suffix(server):
    user, ctx = make_user(server)
    seeded(user, ctx)
    assert user.history[1] == {"role": "assistant",
                               "content": "Save these two receipts as notes.\n[Sent image IDs: 0, 1]"}
    assert strip_sent_ids("Here you go [Sent image IDs: 2]") == "Here you go"


# ---------------------------------------------------------------------------------------------- acting
def test_tools_only_after_an_agent_message_and_send_images(server):
    server.reset(script=[
        {"text": "", "tool_calls": [{"id": "u1", "name": "send_message_with_image",
                                     "arguments": {"message": "And this one too. [Sent image IDs: 2]",
                                                   "image_ids": [2]}}]},
        "Sure, go ahead.",
    ])
    user, ctx = make_user(server)
    feed = seeded(user, ctx)
    assert not user.tools_offered()  # the last message is the user's own
    feed(AGENT, USER, "Both notes are saved.")
    assert user.tools_offered()
    action = run(user.act())
    assert isinstance(action, CallTools)
    call = action.calls[0]
    assert (call.name, call.arguments) == ("send_message_with_image", {"message": "And this one too.",
                                                                        "image_ids": "2"})
    out = ctx.session.call(call.name, call.arguments, role="user")
    assert out.ok and out.value == {"message": "And this one too.", "image_ids": [2]}
    body = server.requests[0]
    assert tool_names(body) == ["end_conversation", "send_message_with_image"]
    assert [m["role"] for m in body["messages"]] == ["system", "assistant", "user"]
    assert body["messages"][2] == {"role": "user", "content": "Both notes are saved."}

    # the loop delivers it as a USER->AGENT message; then a non-agent message means no tools
    feed(USER, AGENT, "And this one too.", image_ids=[2])
    feed(USER, ENV, "", tool_calls=[ToolCall("u9", "end_conversation", {})])
    feed(ENV, USER, "null", tool_call_id="u9", tool_name="end_conversation")
    assert not user.tools_offered()
    run(user.act())
    second = server.requests[1]
    assert "tools" not in second
    assert second["messages"][3] == {"role": "assistant", "content": "And this one too.\n[Sent image IDs: 2]"}
    assert second["messages"][4]["tool_calls"][0]["function"] == {"name": "end_conversation", "arguments": "{}"}
    assert second["messages"][5] == {"role": "tool", "tool_call_id": "u9", "content": "null"}


def test_failed_own_tool_call_offers_tools_again(server):
    user, ctx = make_user(server)
    feed = seeded(user, ctx)
    feed(AGENT, USER, "Done.")
    feed(USER, ENV, '{"message": "x", "image_ids": "9"}',
         tool_calls=[ToolCall("f1", "send_message_with_image", {"message": "x", "image_ids": "9"},
                              raw_arguments='{"message": "x", "image_ids": "9"}')])
    feed(ENV, USER, "Error: ValueError: Unknown image id(s) 9.", tool_call_id="f1", is_error=True)
    assert user.tools_offered()
    assert user.history[-2]["tool_calls"][0]["function"]["arguments"] == '{"message": "x", "image_ids": "9"}'
    assert user.history[-1]["role"] == "tool"


def test_end_conversation_and_plain_replies(server):
    server.reset(script=[{"tool_calls": [{"id": "e1", "name": "end_conversation", "arguments": {}}]},
                         "", "Thanks! [Sent image IDs: 0]"])
    user, ctx = make_user(server)
    feed = seeded(user, ctx)
    feed(AGENT, USER, "All three notes are saved.")
    action = run(user.act())
    assert isinstance(action, CallTools) and [c.name for c in action.calls] == ["end_conversation"]
    assert action.calls[0].arguments == {}
    reply = run(user.act())  # an empty reply is nudged, then the echoed suffix is stripped
    assert isinstance(reply, Say) and reply.text == "Thanks!"
    assert server.requests[-1]["messages"][-1] == {"role": "user", "content": NUDGE_EMPTY_USER}
    assert user.usage.api_calls == 3 and user.usage.prompt_tokens == 21 and user.usage.completion_tokens == 9


def test_only_the_latest_agent_image_is_sent(server):
    server.reset(script=["Looks right."])
    user, ctx = make_user(server)
    feed = seeded(user, ctx)
    feed(AGENT, USER, "Here is a chart.", image_ids=[0], visible_to=(USER,))
    feed(AGENT, USER, "And the updated one.", image_ids=[1], visible_to=(USER,))
    run(user.act())
    msgs = server.requests[0]["messages"]
    assert msgs[1]["content"].endswith("[Sent image IDs: 0, 1]")  # own images: ids only, never pixels
    assert msgs[2] == {"role": "user", "content": f"Here is a chart.\n{IMAGE_OMITTED}"}
    latest = msgs[3]["content"]
    assert latest[0] == {"type": "text", "text": "And the updated one."}
    assert latest[1] == {"type": "text", "text": "image_id: 1"}
    assert latest[2]["image_url"]["url"].startswith("data:image/png;base64,")
    assert sum(isinstance(m["content"], list) for m in msgs) == 1


# ---------------------------------------------------------------------------------------------- the loop
class EchoAgent(Role):
    """Confirms whatever the user asked."""

    name = "echo"

    async def act(self) -> Action:
        return Say("Done, saved.")


def test_llm_user_plays_through_the_loop(server):
    server.reset(script=[
        {"tool_calls": [{"id": "s1", "name": "send_message_with_image",
                         "arguments": {"message": "And this one too.", "image_ids": "2"}}]},
        {"tool_calls": [{"id": "s2", "name": "end_conversation", "arguments": {}}]},
    ])
    user, ctx = make_user(server)
    result = run(EpisodeRunner(ctx, EchoAgent(), user).run())
    assert result.end_reason == "user_ended", result.error
    to_agent = [m for m in result.trajectory["messages"] if m["sender"] == USER and m["recipient"] == AGENT]
    assert [(m["content"], m["image_ids"]) for m in to_agent] == [
        ("Save these two receipts as notes.", [0, 1]), ("And this one too.", [2])]
    assert result.trajectory["prompts"]["user"]["version"] == USER_PROMPT_VERSION
    assert result.trajectory["usage"]["user"]["api_calls"] == 2
