"""A whole UI-mode episode with model-driven roles against the fake OpenAI-compatible server: the tool-use
agent (UI-first prompt, pinned UI tools) renders and shows a screen, the LLM user (UI INTERACTION section,
ui_user_interact offered) clicks on it and hands the turn back, the agent acts on the reported choice, and the
three LLM judges (agent, user with its UI addendum, UI) decide. The results row carries the UI verdict."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from mmtsb.protocol.judges import AGENT_CRITERIA, UI_CRITERIA, USER_CRITERIA
from mmtsb.runner.rows import episode_row
from mmtsb.scenarios.script import parse_user_script
from mmtsb.testing import FakeLLMServer
from mmtsb.ui.mode import AGENT_UI_TOOLS
from uikit import GLEN, load, play, ui_config

DATA = load(GLEN)
SOLUTION = DATA["metadata"]["reference_solution"]["rounds"]
NOTE = SOLUTION[0]["steps"][0]["arguments"]
RENDER = next(s for s in SOLUTION[1]["steps"] if s["tool"] == "render_ui_screen")["arguments"]
EMAIL = {**SOLUTION[1]["after_user"]["steps"][0]["arguments"], "email_addresses": ["gl.moore@gmail.com"]}


def calls(*pairs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": [{"id": f"{name}_{i}_{len(args)}", "name": name, "arguments": args}
                           for i, (name, args) in enumerate(pairs)]}


AGENT_SCRIPT = [
    calls(("api_docs_search_api_docs", {"query": "simple note create note"})),
    calls(("simple_note_create_note", NOTE)),
    "I created the note 'Offsite expenses - April 14' with the three receipts and the grand total.",
    calls(("api_docs_search_api_docs", {"query": "contacts search contacts"})),
    calls(("contacts_search_contacts", {"query": "Glen"})),
    calls(("ui_get_quick_start", {})),
    calls(("render_ui_screen", RENDER), ("show_ui_to_user", {})),
    "You have two contacts named Glen: please pick one on the screen.",
    calls(("api_docs_search_api_docs", {"query": "gmail send email"})),
    calls(("gmail_send_email", EMAIL)),
    "I emailed Glen Moore the summary.",
]
USER_SCRIPT = [
    parse_user_script(DATA["messages"][0]["content"]).round(2).query,
    calls(("ui_user_interact", {"action_name": "choose_contact", "surface_id": "choose-glen",
                                "component_id": "act0"})),
    "Done, I picked Glen Moore on the screen.",
    calls(("end_conversation", {})),
]


def verdict(criteria: tuple[str, ...]) -> str:
    return json.dumps({"criteria_evaluation": [{"criterion": c, "analysis": "ok", "pass": True, "evidence": "x"}
                                               for c in criteria], "reasoning": "fine"})


def role_of(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"] if body["messages"][0]["role"] == "system" else ""
    system = system if isinstance(system, str) else json.dumps(system)
    for marker, role in (("interactive screens an AI assistant", "ui_judge"), ("SIMULATED USER", "user_judge"),
                         ("careful evaluator of an AI assistant", "agent_judge"), ("You are playing a person", "user")):
        if marker in system:
            return role
    return "agent"


class Responder:
    def __init__(self) -> None:
        self.scripts = {"agent": list(AGENT_SCRIPT), "user": list(USER_SCRIPT),
                        "agent_judge": [verdict(AGENT_CRITERIA)], "user_judge": [verdict(USER_CRITERIA)],
                        "ui_judge": [verdict(UI_CRITERIA)]}
        self.bodies: dict[str, list[dict[str, Any]]] = {k: [] for k in self.scripts}
        self.calls: Counter[str] = Counter()

    def __call__(self, body: dict[str, Any]) -> Any:
        role = role_of(body)
        self.calls[role] += 1
        self.bodies[role].append(body)
        return self.scripts[role].pop(0)


def texts(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if p.get("type") == "text")
    return content or ""


def has_image(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(p.get("type") == "image_url" for p in content)


def test_llm_agent_and_user_complete_a_ui_round_and_all_three_judges_pass(tmp_path):
    responder = Responder()
    with FakeLLMServer(responder=responder) as server:
        models = [f"{role}_model.{k}={v}" for role in ("agent", "user", "judge")
                  for k, v in (("model", "openai/fake-model"), ("api_base", server.base_url), ("max_retries", "0"))]
        result = play(GLEN, cfg=ui_config("agent=tool_use", "user=llm", "judge=llm", *models),
                      trajectory_dir=tmp_path)
    assert result.end_reason == "user_ended", result.error
    assert all(not s for s in responder.scripts.values()), responder.scripts
    assert result.entity_f1 == 1.0 and result.agent_pass and result.user_pass and result.ui_pass

    agent = responder.bodies["agent"]
    first = agent[0]
    assert "UI RENDERING" in first["messages"][0]["content"]
    offered = {t["function"]["name"] for t in first["tools"]}
    assert offered == {"api_docs_search_api_docs", *AGENT_UI_TOOLS}
    after_click = agent[8]["messages"]  # the agent's call after the user's interaction and message
    note = next(m for m in after_click if "User Interaction:" in texts(m))
    assert note["role"] == "user" and has_image(note) and "Action: choose_contact" in texts(note)
    assert "email: gl.moore@gmail.com" in texts(note)

    user = responder.bodies["user"]
    assert "UI INTERACTION" in user[0]["messages"][0]["content"]
    assert "ui_user_interact" in {t["function"]["name"] for t in user[1]["tools"]}
    shown = [m for m in user[1]["messages"] if "<ui_state_server>" in texts(m)]
    assert shown and any(has_image(m) for m in user[1]["messages"] if m["role"] == "user")
    assert "Interactive Elements:" in texts(shown[-1]) and "act0" in texts(shown[-1])
    assert "tools" not in user[2] or not user[2]["tools"]  # after its own tool result the user just talks

    t = result.trajectory
    assert t["prompts"]["agent"]["version"] == "mmtsb-agent-ui-2" and t["prompts"]["user"]["version"] == \
        "mmtsb-user-ui-2"
    sent = [c for c in t["tool_calls"] if c["tool"] == "gmail_send_email"]
    assert sent and sent[0]["ok"]
    row = episode_row(t, episode_id="e1")
    assert row["ui_pass"] is True and row["ui_judge"] == "llm:openai/fake-model"
    assert all(row[c] is True for c in UI_CRITERIA) and row["ui_judge_api_calls"] == 1
    assert json.loads((tmp_path / "mmtsb_ui_001.json").read_text())["ui_pass"] is True
