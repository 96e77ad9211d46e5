"""What UI mode changes in the model-facing roles: the UI-first agent prompt and its pinned UI tools, the
user's UI INTERACTION section and its ui_user_interact tool, and nothing of it outside UI mode."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.episode.context import EpisodeContext
from mmtsb.protocol import registry as kinds
from mmtsb.roles.agents.tool_use import ToolUseAgent
from mmtsb.roles.llm_user import LLMUser
from mmtsb.roles.prompts import (
    AGENT_TOOL_USE_PROMPT_VERSION,
    AGENT_UI_HYBRID_PROMPT_VERSION,
    AGENT_UI_PROMPT_VERSION,
    USER_PROMPT_VERSION,
    USER_UI_PROMPT_VERSION,
    tool_use_prompt,
    ui_first_prompt,
    user_instruction,
)
from mmtsb.roles.prompts.user import UI_INTERACTION
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import load_scenario
from mmtsb.tools.session import ToolSession, WorkingSet
from mmtsb.tools.toolbox import full_registry
from mmtsb.ui.mode import AGENT_UI_TOOLS, USER_UI_TOOL, ui_requirements, without_ui_requirements
from uikit import GLEN, UI_DIR

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=UTC)
SETTINGS = ModelSettings(model="openai/fake-model", api_base="http://127.0.0.1:9/v1")


def context(ui: bool) -> EpisodeContext:
    built = build_world(load_scenario(GLEN), image_root=UI_DIR)
    registry = full_registry()
    pinned = list(kinds.interface("tool_use").pinned_tools) + (list(AGENT_UI_TOOLS) if ui else [])
    session = ToolSession(built.world, registry, mode="tool_use", working_set=WorkingSet(pinned=pinned))
    return EpisodeContext(built=built, registry=registry, session=session, interface="tool_use", ui=ui)


def test_the_ui_first_prompt_has_the_ui_sections_and_rules():
    text = ui_first_prompt(NOW)
    for section in ("IMAGES", "SPECIAL APPS", "AUTHENTICATION", "TOOL DISCOVERY", "RULES", "UI RENDERING",
                    "UI IMAGE HANDLING", "RESPONSE FORMAT"):
        assert f"\n{section}\n" in text, section
    for must in ("render_ui_screen", "show_ui_to_user", "ui_get_quick_start", "IMAGE_URL_1", "image_placeholders",
                 "never decide for the user", "wait for the user's interaction", "User Interaction",
                 "never one button for several items"):
        assert " ".join(must.split()) in " ".join(text.split()), must
    assert text.startswith("Current date and time: Thursday, April 16, 2026 at 11:51 PM (UTC+00:00)")
    assert "CODE EXECUTION" in ui_first_prompt(NOW, hybrid=True) and "CODE EXECUTION" not in text
    assert "UI RENDERING" not in tool_use_prompt(NOW)


def test_the_tool_use_agent_uses_the_ui_first_prompt_and_sees_the_pinned_ui_tools():
    for ui, hybrid, version in ((True, False, AGENT_UI_PROMPT_VERSION), (True, True, AGENT_UI_HYBRID_PROMPT_VERSION),
                                (False, False, AGENT_TOOL_USE_PROMPT_VERSION)):
        ctx = context(ui)
        agent = ToolUseAgent(SETTINGS, {}, hybrid=hybrid)
        asyncio.run(agent.start(ctx))
        assert agent.prompt_version == version
        assert ("UI RENDERING" in agent.system_prompt) is ui
        offered = {s["function"]["name"] for s in agent.tool_schemas()}
        assert (set(AGENT_UI_TOOLS) <= offered) is ui and USER_UI_TOOL not in offered
        ctx.world.close()


def test_ui_tools_stay_pinned_in_the_working_set():
    ctx = context(True)
    ws = ctx.session.working_set
    ws.capacity = len(ws) + 2
    evicted = ws.touch([f"tool_{i}" for i in range(20)])
    assert not set(AGENT_UI_TOOLS) & set(evicted) and set(AGENT_UI_TOOLS) <= set(ws.names())
    ctx.world.close()


def test_the_user_gets_the_ui_interaction_section_and_tool_in_ui_mode_only():
    assert UI_INTERACTION in user_instruction("none", ui=True)
    assert "UI INTERACTION" not in user_instruction("none")
    assert user_instruction("goal_change", ui=True).index("UI INTERACTION") < \
        user_instruction("goal_change", ui=True).index("CHANGE OF PLANS")
    for ui in (True, False):
        ctx = context(ui)
        user = LLMUser(SETTINGS, {})
        asyncio.run(user.start(ctx))
        assert user.prompt_version == (USER_UI_PROMPT_VERSION if ui else USER_PROMPT_VERSION)
        assert ("ui_user_interact" in user.instruction) is ui
        names = {s["function"]["name"] for s in user.tool_schemas()}
        assert (USER_UI_TOOL in names) is ui and {"end_conversation", "send_message_with_image"} <= names
        ctx.world.close()


def test_ui_requirements_are_split_from_the_criteria():
    criteria = load_scenario(GLEN).task_completion_criteria
    assert ui_requirements(criteria).startswith("- Round 2: The agent must present the matching Glen contacts")
    assert "UI Requirements" not in without_ui_requirements(criteria)
    assert ui_requirements("Send the email.") == "" and without_ui_requirements("Send it.") == "Send it."
