"""The shipped UI set ``scenarios/ui/``: format, validity, gold checks, regeneration, and played end to end by
the oracle (tool calls and sandboxed code) with the scripted user choosing on the screen; the text fallback
outside UI mode; the reference-solution ``after_user`` part and the scripted ``ui_interactions``."""

from __future__ import annotations

import pytest
from testkit import REPO

from mmtsb.authoring import ui as ui_set
from mmtsb.protocol.messages import AGENT, ENV, USER
from mmtsb.scenarios.build import build_world
from mmtsb.scenarios.loader import load_scenario
from mmtsb.scenarios.script import ScriptError, parse_ui_interactions, parse_user_script
from mmtsb.scenarios.solution import ReferenceSolution, SolutionError, SolutionRunner
from mmtsb.scenarios.validate import gold_check_file, validate_file
from mmtsb.tools.session import ToolSession
from mmtsb.tools.toolbox import full_registry
from mmtsb.ui.mode import UI_CATEGORY, ui_requirements
from uikit import GLEN, UI_DIR, UI_FILES, load, play

IDS = [p.stem for p in UI_FILES]
NOMINAL = REPO / "scenarios" / "nominal"


def test_the_set_has_six_ui_scenarios_converted_from_starters():
    assert len(UI_FILES) == 6 and all(p.stem.startswith("mmtsb_ui_") for p in UI_FILES)
    for path in UI_FILES:
        data = load(path)
        base = load(NOMINAL / path.name.replace("_ui_", "_nominal_"))
        assert list(data) == list(base)  # the released key order
        assert data["categories"] == [*base["categories"], UI_CATEGORY]
        assert data["entity_diff_specs"] == base["entity_diff_specs"]  # the same programmatic evaluation
        assert data["task_completion_criteria"].startswith(base["task_completion_criteria"])
        assert ui_requirements(data["task_completion_criteria"]).startswith("- Round ")
        assert "(UI mode" in data["description"]


@pytest.mark.parametrize("path", UI_FILES, ids=IDS)
def test_ui_round_instructions_name_ui_user_interact_with_a_text_fallback(path):
    data = load(path)
    script = parse_user_script(data["messages"][0]["content"])
    interactions = parse_ui_interactions(data["metadata"]["ui_interactions"])
    assert interactions
    for number, steps in interactions.items():
        text = script.round(number).instructions
        assert "via `ui_user_interact`" in text and "If no interactive UI is shown" in text
        assert f"Round {number}:" in ui_requirements(data["task_completion_criteria"])
        solution = ReferenceSolution.from_data(data["metadata"]["reference_solution"])
        round_ = solution.round(number)
        tools = [s.tool for s in round_.steps]
        assert tools[-2:] == ["render_ui_screen", "show_ui_to_user"] and round_.after_user is not None
        assert round_.after_user.ui_action_as == "picked" and round_.after_user.steps
        assert all(s.choose and s.message and s.fallback for s in steps)
    assert data["metadata"]["expected_tools"][-1] == "ui_user_interact"


@pytest.mark.parametrize("path", UI_FILES, ids=IDS)
def test_validate_and_gold_check(path):
    report = validate_file(path, full_registry())
    assert report.ok and not report.warnings, report.to_dict()
    gold = gold_check_file(path)
    assert gold["passed"] and gold["f1_gold"] == 1.0


def test_the_generator_reproduces_the_committed_files(tmp_path):
    written = ui_set.build(tmp_path)
    assert sorted(p.name for p in written if p.suffix == ".json") == [p.name for p in UI_FILES]
    committed_files = sorted(p.relative_to(UI_DIR).as_posix() for p in UI_DIR.rglob("*") if p.is_file())
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == committed_files
    for p in written:
        committed = UI_DIR / p.relative_to(tmp_path)
        assert committed.read_bytes() == p.read_bytes(), f"{committed} differs from its generator"


# ------------------------------------------------------------------------------------------ played end to end
@pytest.mark.parametrize("path", UI_FILES, ids=IDS)
def test_oracle_and_scripted_user_pass_in_ui_mode_with_tool_calls(path):
    result = play(path)
    assert result.end_reason == "user_ended", result.error
    assert result.entity_f1 == 1.0 and result.agent_pass is True and result.user_pass is True
    assert result.ui_pass is True and result.summary()["ui_pass"] is True
    t = result.trajectory
    assert t["ui_mode"] is True and t["judges"]["ui"]["passed"] is True and t["roles"]["ui_judge"] == "static"
    assert len(t["ui"]["interactions"]) == len(load(path)["metadata"]["ui_interactions"])


def test_the_oracle_replays_ui_rounds_as_sandboxed_code_too():
    result = play(UI_DIR / "mmtsb_ui_008.json", "interface=code_exec")
    assert result.end_reason == "user_ended", result.error
    assert result.entity_f1 == 1.0 and result.ui_pass is True
    code = [m for m in result.trajectory["messages"] if m["sender"] == AGENT and m["recipient"] == ENV]
    assert any("render_ui_screen(" in m["content"] for m in code)
    assert any(m["content"].startswith("picked = {'name': 'add_task'") for m in code)  # the real UI action


def test_the_scripted_user_clicks_then_hands_the_turn_back():
    t = play(GLEN).trajectory
    msgs = t["messages"]
    shown = [m for m in msgs if m["sender"] == AGENT and m["recipient"] == USER and m["visible_to"] == [USER]]
    assert len(shown) == 1 and "<ui_state_server>" in shown[0]["content"] and shown[0]["image_ids"]
    calls = [m for m in msgs if m["sender"] == USER and m["recipient"] == ENV and m["tool_calls"]
             and m["tool_calls"][0]["name"] == "ui_user_interact"]
    assert len(calls) == 1
    args = calls[0]["tool_calls"][0]["arguments"]
    assert args["action_name"] == "choose_contact" and args["surface_id"] == "choose-glen"
    i = calls[0]["index"]
    event, result, said = msgs[i + 1], msgs[i + 2], msgs[i + 3]
    assert (event["sender"], event["recipient"], event["visible_to"]) == (ENV, AGENT, [AGENT])
    assert "Action: choose_contact" in event["content"] and "email: gl.moore@gmail.com" in event["content"]
    assert (result["sender"], result["recipient"], result["is_error"]) == (ENV, USER, False)
    assert (said["sender"], said["recipient"], said["content"]) == (USER, AGENT,
                                                                   "Done, I picked Glen Moore on the screen.")
    sent = [c for c in t["tool_calls"] if c["tool"] == "gmail_send_email"]
    assert sent[0]["arguments"]["email_addresses"] == ["gl.moore@gmail.com"]  # taken from the UI action


def test_outside_ui_mode_the_user_answers_in_words_and_the_oracle_uses_the_fallback():
    result = play(GLEN, "ui=false")
    assert result.end_reason == "user_ended" and result.entity_f1 == 1.0 and result.ui_pass is None
    t = result.trajectory
    assert t["ui_mode"] is False and "ui" not in t and t["judges"]["ui"] is None
    names = [c["tool"] for c in t["tool_calls"]]
    assert "ui_user_interact" not in names and "show_ui_to_user" in names
    said = [m["content"] for m in t["messages"] if m["sender"] == USER and m["recipient"] == AGENT]
    assert "I mean Glen Moore, my coworker, not Glen Peterson." in said


# ------------------------------------------------------------------------------------------ format extensions
def test_after_user_saves_the_ui_action_or_the_fallback_and_renders_python():
    data = load(GLEN)
    runner = SolutionRunner(data["metadata"]["reference_solution"])
    assert runner.parts(1) == 1 and runner.parts(2) == 2
    assert runner.accept_ui_action(2, None)["context"]["email"] == "gl.moore@gmail.com"  # the fallback
    action = {"name": "choose_contact", "context": {"email": "glen.peterson@petersoncpa.com"}}
    assert runner.accept_ui_action(2, action) == action
    assert runner.arguments_for(2, 0, part=1)["email_addresses"] == ["glen.peterson@petersoncpa.com"]
    code = runner.to_python(2, part=1)
    assert code.splitlines()[0] == f"picked = {action!r}" and "email_addresses=[picked['context']['email']]" in code
    built = build_world(load_scenario(GLEN), image_root=UI_DIR)
    try:
        session = ToolSession(built.world, full_registry(), mode="code_exec")
        fresh = SolutionRunner(data["metadata"]["reference_solution"])
        outcomes = [o for n in (1, 2) for o in fresh.run_round(session, n)]
        assert all(o.ok for o in outcomes) and outcomes[-1].tool == "gmail_send_email"
    finally:
        built.world.close()


def test_after_user_is_validated():
    base = {"round": 1, "steps": [], "after_user": {"steps": [
        {"tool": "gmail_send_email", "arguments": {"email_addresses": ["$picked.context.email"]}}]}}
    with pytest.raises(SolutionError, match=r"\$picked.context.email names no earlier save_as"):
        ReferenceSolution.from_data({"rounds": [base]})
    base["after_user"]["ui_action_as"] = "picked"
    with pytest.raises(SolutionError, match="ui_action_fallback is required"):
        ReferenceSolution.from_data({"rounds": [base]})
    base["after_user"]["ui_action_fallback"] = {"context": {"email": "a@b.c"}}
    assert ReferenceSolution.from_data({"rounds": [base]}).tools() == ["gmail_send_email"]


def test_ui_interactions_are_validated():
    ok = parse_ui_interactions([{"round": 2, "choose": "Glen", "message": "Done.", "fallback": "Glen Moore."}])
    assert ok[2][0].choose == "Glen" and parse_ui_interactions(None) == {}
    for bad, message in (({"round": 0, "choose": "a", "message": "b", "fallback": "c"}, "round must be"),
                         ({"round": 1, "choose": "a", "message": "b"}, r"missing key\(s\) \['fallback'\]"),
                         ({"round": 1, "choose": "", "message": "b", "fallback": "c"}, "choose must be"),
                         ({"round": 1, "choose": "a", "message": "b", "fallback": "c", "click": 1}, "unknown key")):
        with pytest.raises(ScriptError, match=message):
            parse_ui_interactions([bad])
