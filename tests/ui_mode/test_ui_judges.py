"""The UI judges on real episodes (oracle + scripted user on the shipped set or an edited copy): the static
rules on a good UI and on the hard anti-patterns, and the LLM UI judge against the fake OpenAI-compatible
server, with its evidence (UI Requirements, structure summaries, UI tool trace, interactions, UI screenshots
only, at most 10) and the user judge's UI addendum."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mmtsb.protocol.judges import AGENT_CRITERIA, UI_CRITERIA, USER_CRITERIA
from mmtsb.testing import FakeLLMServer
from mmtsb.ui.examples import button, column, comp, screen, text
from uikit import GLEN, SHOW, glen_email_step, load, play, screen_step, ui_config, with_round, write

SEARCH = {"tool": "contacts_search_contacts", "arguments": {"query": "Glen"}, "save_as": "glens"}
TEXT_DUMP = screen("glens", [column("root", "h", "a", "b"), text("h", "Two Glens:", hint="h3"),
                             text("a", "Glen Moore - gl.moore@gmail.com"),
                             text("b", "Glen Peterson - glen.peterson@petersoncpa.com")])
NO_BUTTON = screen("glens", [column("root", "h", "ca", "cb"), text("h", "Two Glens", hint="h3"),
                             comp("ca", "Card", child="a"), text("a", "Glen Moore - gl.moore@gmail.com"),
                             comp("cb", "Card", child="b"), text("b", "Glen Peterson - accountant")])
ONE_BUTTON = screen("glens", [column("root", "h", "ca", "cb", "go"), text("h", "Two Glens", hint="h3"),
                              comp("ca", "Card", child="a"), text("a", "Glen Moore - gl.moore@gmail.com"),
                              comp("cb", "Card", child="b"), text("b", "Glen Peterson - accountant"),
                              text("go-label", "Continue"), button("go", "go-label", "continue")])


def played_with(tmp_path, steps: list[dict[str, Any]], *overrides: str, name: str = "variant"):
    """Glen's scenario with round 2's screen replaced (the email then goes to Glen Moore whatever was picked)."""
    data = load(GLEN)
    path = write(tmp_path, with_round(data, 2, steps=steps, after_steps=[glen_email_step(data)]), name)
    return play(path, *overrides)


def ui_verdict(result) -> dict[str, dict[str, Any]]:
    v = result.trajectory["judges"]["ui"]
    return {c["criterion"]: c for c in v["criteria"]}


# ------------------------------------------------------------------------------------------ static judge
def test_static_ui_judge_passes_a_good_ui_with_reasons():
    result = play(GLEN)
    v = result.trajectory["judges"]["ui"]
    assert v["passed"] is True and v["static"] is True and v["kind"] == "ui"
    assert [c["criterion"] for c in v["criteria"]] == list(UI_CRITERIA)
    c = ui_verdict(result)
    assert "1 shown to the user" in c["ui_task_focus"]["analysis"]
    assert 'buttons: "Email Glen Moore" (choose_contact); "Email Glen Peterson" (choose_contact)' in \
        c["ui_structure_and_patterns"]["evidence"]
    assert "1 successful user interaction(s) of 1; the agent acted on them." in c["ui_feedback_and_flow"]["analysis"]


def test_a_text_dump_fails_structure_clarity_and_flow(tmp_path):
    result = played_with(tmp_path, [SEARCH, screen_step(TEXT_DUMP), SHOW])
    assert result.entity_f1 == 1.0 and result.agent_pass is True  # the task itself is done (text fallback)
    assert result.ui_pass is False
    c = ui_verdict(result)
    assert c["ui_task_focus"]["passed"] is True
    assert c["ui_structure_and_patterns"]["passed"] is False and "text dumps" in c["ui_structure_and_patterns"][
        "analysis"]
    assert c["ui_action_clarity"]["passed"] is False and "no shown screen has a button" in c["ui_action_clarity"][
        "analysis"].lower()
    assert c["ui_feedback_and_flow"]["passed"] is False and "never completed an interaction" in c[
        "ui_feedback_and_flow"]["analysis"]


def test_cards_without_buttons_fail_action_clarity_only_for_the_missing_buttons(tmp_path):
    c = ui_verdict(played_with(tmp_path, [SEARCH, screen_step(NO_BUTTON), SHOW]))
    assert c["ui_structure_and_patterns"]["passed"] is True  # a structure, not a text dump
    assert c["ui_action_clarity"]["passed"] is False and c["ui_feedback_and_flow"]["passed"] is False


def test_a_single_button_for_several_items_fails_action_clarity(tmp_path):
    result = played_with(tmp_path, [SEARCH, screen_step(ONE_BUTTON), SHOW])
    c = ui_verdict(result)
    assert c["ui_action_clarity"]["passed"] is False
    assert "single button for several items" in c["ui_action_clarity"]["analysis"]
    assert c["ui_feedback_and_flow"]["passed"] is True  # the user could still press the one button
    assert result.ui_pass is False


def test_a_screen_never_shown_fails_task_focus(tmp_path):
    data = load(GLEN)
    steps = data["metadata"]["reference_solution"]["rounds"][1]["steps"][:-1]  # no show_ui_to_user
    c = ui_verdict(played_with(tmp_path, steps))
    assert c["ui_task_focus"]["passed"] is False and "Nothing was shown" in c["ui_task_focus"]["analysis"]


# ------------------------------------------------------------------------------------------ LLM judges
def verdict(criteria: tuple[str, ...], failing: tuple[str, ...] = ()) -> str:
    return json.dumps({"criteria_evaluation": [{"criterion": c, "analysis": "checked", "pass": c not in failing,
                                                "evidence": "x"} for c in criteria], "reasoning": "ok"})


def judge_of(body: dict[str, Any]) -> str:
    system = body["messages"][0]["content"]
    if "interactive screens an AI assistant" in system:
        return "ui"
    if "SIMULATED USER" in system:
        return "user"
    return "agent"


class Judges:
    """Answers each judge with a verdict over its own criteria; keeps the requests by judge."""

    def __init__(self, ui_failing: tuple[str, ...] = ()) -> None:
        self.bodies: dict[str, list[dict[str, Any]]] = {"agent": [], "user": [], "ui": []}
        self.ui_failing = ui_failing

    def __call__(self, body: dict[str, Any]) -> str:
        kind = judge_of(body)
        self.bodies[kind].append(body)
        criteria = {"agent": AGENT_CRITERIA, "user": USER_CRITERIA, "ui": UI_CRITERIA}[kind]
        return verdict(criteria, self.ui_failing if kind == "ui" else ())


def llm_judges(server: FakeLLMServer) -> list[str]:
    return ["judge=llm", "judge_model.model=openai/fake-model", f"judge_model.api_base={server.base_url}",
            "judge_model.max_retries=0"]


def user_part(body: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    parts = body["messages"][1]["content"]
    texts = "\n".join(p["text"] for p in parts if p["type"] == "text")
    images = [(parts[i - 1]["text"], p["image_url"]["url"]) for i, p in enumerate(parts) if p["type"] == "image_url"]
    return texts, images


def test_llm_ui_judge_gets_the_ui_evidence_and_ui_screenshots_only():
    judges = Judges(ui_failing=("ui_action_clarity",))
    with FakeLLMServer(responder=judges) as server:
        result = play(GLEN, cfg=ui_config(*llm_judges(server)))
    assert result.end_reason == "user_ended", result.error
    assert result.agent_pass is True and result.user_pass is True and result.ui_pass is False
    assert [len(judges.bodies[k]) for k in ("agent", "user", "ui")] == [1, 1, 1]
    t = result.trajectory
    v = t["judges"]["ui"]
    assert v["judge"] == "llm:openai/fake-model" and v["prompt_version"].startswith("ui-judge/v1#")
    assert [c["criterion"] for c in v["criteria"] if not c["passed"]] == ["ui_action_clarity"]
    assert t["usage"]["ui_judge"]["api_calls"] == 1

    body = judges.bodies["ui"][0]
    system = body["messages"][0]["content"]
    for rule in ("Text dump", "No buttons", "A single button for several items", *UI_CRITERIA):
        assert rule in system
    evidence, images = user_part(body)
    for section in ("## UI Requirements\n- Round 2: The agent must present the matching Glen contacts",
                    "## Screens", "surface choose-glen, shown to the user",
                    '"Email Glen Moore" (choose_contact); "Email Glen Peterson" (choose_contact)',
                    "after the user clicked act0", "## UI tool calls", "render_ui_screen(", "show_ui_to_user(",
                    "ui_user_interact(", "## The user's UI interactions", "ui_user_interact({\"action_name\": "
                    "\"choose_contact\"", "-> ok"):
        assert section in evidence, section
    assert "## Conversation" not in evidence and "Database changes" not in evidence
    ui_ids = {r["image_id"] for r in t["ui"]["renders"]}
    labelled = [int(label.split("=")[1].split("]")[0]) for label, _ in images]
    assert labelled and set(labelled) <= ui_ids and not set(labelled) & {0, 1, 2}  # no scenario photo
    assert len(labelled) == len(ui_ids) <= 10

    user_system = judges.bodies["user"][0]["messages"][0]["content"]
    assert "## UI mode" in user_system and "ui_user_interact" in user_system
    assert t["judges"]["user"]["prompt_version"].startswith("user-judge/v2+user-judge-ui/v1#")
    assert "## UI mode" not in judges.bodies["agent"][0]["messages"][0]["content"]


def test_llm_ui_judge_sees_at_most_ten_screenshots_and_names_the_rest(tmp_path):
    data = load(GLEN)
    steps = data["metadata"]["reference_solution"]["rounds"][1]["steps"]
    render = next(s for s in steps if s["tool"] == "render_ui_screen")
    drafts = []
    for i in range(11):  # eleven drafts before the screen that is shown
        draft = json.loads(json.dumps(render))
        draft["arguments"]["ui_json"][0]["surfaceUpdate"]["components"][1]["component"]["Text"]["text"] = {
            "literalString": f"Draft {i}"}
        drafts.append(draft)
    path = write(tmp_path, with_round(data, 2, steps=[*drafts, *steps]), "many_renders")
    judges = Judges()
    with FakeLLMServer(responder=judges) as server:
        result = play(path, cfg=ui_config(*llm_judges(server)))
    assert result.end_reason == "user_ended", result.error
    renders = result.trajectory["ui"]["renders"]
    assert len(renders) == 13  # 12 renders + the screenshot after the click
    evidence, images = user_part(judges.bodies["ui"][0])
    labelled = [int(label.split("=")[1].split("]")[0]) for label, _ in images]
    assert len(labelled) == 10
    shown = result.trajectory["ui"]["shown"][0]["image_id"]
    clicked = result.trajectory["ui"]["interactions"][0]["image_id"]
    assert {shown, clicked} <= set(labelled)  # what the user saw comes first; drafts fill the rest
    assert "NOT attached because of the cap of 10 images per judge call" in evidence


@pytest.mark.parametrize("judge", ["static", "llm"])
def test_no_ui_judge_outside_ui_mode(judge):
    judges = Judges()
    with FakeLLMServer(responder=judges) as server:
        overrides = llm_judges(server) if judge == "llm" else []
        result = play(GLEN, cfg=ui_config("ui=false", *overrides))
    assert result.ui_pass is None and result.trajectory["judges"]["ui"] is None and not judges.bodies["ui"]
    if judge == "llm":
        assert "## UI mode" not in judges.bodies["user"][0]["messages"][0]["content"]
