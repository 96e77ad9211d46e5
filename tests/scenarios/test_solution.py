"""Reference solutions: the model, references and escaping, failures as scenario bugs, Python rendering."""

from __future__ import annotations

import pytest
from testkit import MAIN_EMAIL, MAIN_ID, REFERENCE_TIME

from mmtsb.scenarios.loader import parse_scenario
from mmtsb.scenarios.solution import (
    ReferenceSolution,
    SolutionError,
    SolutionRunner,
    ToolCallFailed,
    parse_reference,
    render_value,
    tool_functions,
)
from mmtsb.tools.session import ToolSession
from mmtsb.tools.toolbox import full_registry

NOTE_AND_EMAIL = {
    "version": 1,
    "rounds": [
        {"round": 1, "reply": "Noted.",
         "steps": [{"tool": "simple_note_create_note", "arguments": {"title": "Gift ideas", "content": "a scarf"},
                    "save_as": "created"},
                   {"tool": "simple_note_show_note", "arguments": {"note_id": "$created.note_id"},
                    "save_as": "note"}]},
        {"round": 2, "reply": "Sent.",
         "steps": [{"tool": "contacts_search_contacts", "arguments": {"query": "Glen Moore"}, "save_as": "glen"},
                   {"tool": "gmail_send_email",
                    "arguments": {"email_addresses": ["$glen.0.email"], "subject": "$note.title",
                                  "body": "$$40 budget for: a scarf"}},
                   {"tool": "simple_note_update_note",
                    "arguments": {"note_id": "$created.note_id", "content": "a scarf (sent to Glen)"}}]},
    ],
}


def _emails_to(world, uid):
    return [e for e in world.rows("gmail.emails") if uid in (e["recipient_ids"] or [])]


def test_runner_resolves_references_across_rounds(session):
    runner = SolutionRunner(NOTE_AND_EMAIL)
    out1 = runner.run_round(session, 1)
    assert [o.tool for o in out1] == ["simple_note_create_note", "simple_note_show_note"]
    note_id = out1[0].value["note_id"]
    assert out1[1].arguments == {"note_id": note_id}
    assert runner.saved["note"]["title"] == "Gift ideas"
    out2 = runner.run_round(session, 2)
    assert out2[1].arguments["email_addresses"] == ["gl.moore@gmail.com"]
    sent = _emails_to(session.world, 55)[-1]
    assert sent["subject"] == "Gift ideas" and sent["body"] == "$40 budget for: a scarf"  # "$$" escaped
    assert session.world.get("simple_note.notes", note_id)["content"] == "a scarf (sent to Glen)"
    assert runner.reply(2) == "Sent."


def test_run_executes_every_round_in_order(session):
    outcomes = SolutionRunner(ReferenceSolution.from_data(NOTE_AND_EMAIL)).run(session)
    assert list(outcomes) == [1, 2] and all(o.ok for os_ in outcomes.values() for o in os_)


def test_reference_parsing_and_escapes():
    ref = parse_reference("$found.0.note_id")
    assert ref is not None and ref.name == "found" and ref.path == ("0", "note_id")
    assert parse_reference("$$12.50") is None and parse_reference("plain $5") is None
    with pytest.raises(ValueError, match="write '\\$\\$' for a literal dollar"):
        parse_reference("$5 off")
    with pytest.raises(ValueError, match="not a reference"):
        parse_reference("$name..x")


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["rounds"][0]["steps"][1]["arguments"].update(note_id="$missing.note_id"),
     "round 1, step 1 (simple_note_show_note), argument 'note_id': $missing.note_id names no earlier save_as"),
    (lambda d: d["rounds"].reverse(), "increasing order"),
    (lambda d: d["rounds"][0]["steps"][0].update(save_as="not valid"), "must be a Python identifier"),
    (lambda d: d["rounds"][0]["steps"][0]["arguments"].update(content="$20 off"), "literal dollar"),
    (lambda d: d["rounds"][0]["steps"][0].update(extra=1), "Extra inputs are not permitted"),
])
def test_invalid_solutions_are_rejected_with_the_place(mutate, message):
    import copy

    data = copy.deepcopy(NOTE_AND_EMAIL)
    mutate(data)
    with pytest.raises(SolutionError, match="reference solution") as e:
        ReferenceSolution.from_data(data)
    assert message in str(e.value)


def test_a_failing_step_names_round_step_and_tool_and_writes_nothing(session):
    solution = {"rounds": [{"round": 1, "steps": [
        {"tool": "simple_note_create_note", "arguments": {"title": "ok", "content": "first"}},
        {"tool": "simple_note_update_note", "arguments": {"note_id": 999999, "content": "x"}}]}]}
    runner = SolutionRunner(solution)
    before = len(session.world.rows("simple_note.notes"))
    with pytest.raises(SolutionError) as e:
        runner.run_round(session, 1)
    err = e.value
    assert (err.round_number, err.step_index, err.tool) == (1, 1, "simple_note_update_note")
    assert str(err).startswith("reference solution, round 1, step 1 (simple_note_update_note): the tool call failed")
    assert len(session.world.rows("simple_note.notes")) == before + 1  # the first step ran; the failed one left nothing


def test_bad_paths_and_missing_rounds_raise_solution_errors(session):
    solution = {"rounds": [{"round": 1, "steps": [
        {"tool": "contacts_search_contacts", "arguments": {"query": "Glen Moore"}, "save_as": "hits"},
        {"tool": "simple_note_show_note", "arguments": {"note_id": "$hits.40.id"}}]}]}
    runner = SolutionRunner(solution)
    with pytest.raises(SolutionError, match=r"round 1, step 1 \(simple_note_show_note\): \$hits is a list of \d+; "
                                            r"index 40 is out of range"):
        runner.run_round(session, 1)
    with pytest.raises(SolutionError, match=r"round 3: no steps for this round; the solution covers rounds \[1\]"):
        runner.run_round(session, 3)
    runner.saved["hits"] = [{"email": "x@y.z"}]
    with pytest.raises(ValueError, match="has no key 'mail'; its keys are: email"):
        runner.resolve("$hits.0.mail")


def test_static_problems_against_the_registry():
    solution = ReferenceSolution.from_data({"rounds": [{"round": 1, "steps": [
        {"tool": "simple_note_make_note", "arguments": {}},
        {"tool": "simple_note_create_note", "arguments": {"title": "t", "colour": "red"}}]}]})
    problems = solution.problems(full_registry())
    assert problems[0] == "round 1, step 0 (simple_note_make_note): unknown tool"
    assert "unknown parameter(s) ['colour']" in problems[1]
    assert "missing required parameter(s) ['content']" in problems[2]
    assert ReferenceSolution.from_data(NOTE_AND_EMAIL).problems(full_registry()) == []
    assert ReferenceSolution.from_data(NOTE_AND_EMAIL).tools()[:2] == ["simple_note_create_note",
                                                                      "simple_note_show_note"]


def test_python_rendering():
    runner = SolutionRunner(NOTE_AND_EMAIL)
    assert runner.to_python(1) == ("created = simple_note_create_note(title='Gift ideas', content='a scarf')\n"
                                   "note = simple_note_show_note(note_id=created['note_id'])")
    code2 = runner.to_python(2)
    assert "email_addresses=[glen[0]['email']]" in code2 and "subject=note['title']" in code2
    assert "body='$40 budget for: a scarf'" in code2
    assert render_value({"a": ["$x.k", 1.5, None, True, "$$"]}) == "{'a': [x['k'], 1.5, None, True, '$']}"


def _fresh_world():
    from mmtsb.apps.base_world import build_base_world

    return build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)


def test_rendered_python_executes_equivalently():
    registry = full_registry()
    w_runner, w_code = _fresh_world(), _fresh_world()
    try:
        runner = SolutionRunner(NOTE_AND_EMAIL)
        s_runner = ToolSession(w_runner, registry, mode="code_exec")
        s_code = ToolSession(w_code, registry, mode="code_exec")
        namespace = tool_functions(s_code)
        for n in runner.solution.round_numbers:
            runner.run_round(s_runner, n)
            exec(runner.to_python(n), namespace)  # noqa: S102 - our own rendered code
        assert [(o.tool, o.arguments) for o in s_runner.history] == [(o.tool, o.arguments) for o in s_code.history]
        for key in w_runner.tables:
            assert w_runner.rows(key) == w_code.rows(key), key
    finally:
        w_runner.close()
        w_code.close()


def test_solution_is_read_from_scenario_metadata():
    script = [{"sender": "SYSTEM", "recipient": "USER", "content": "Round 1"}]
    scenario = parse_scenario({"name": "s", "device_state_id": MAIN_EMAIL, "reference_time": REFERENCE_TIME,
                               "messages": script, "metadata": {"reference_solution": NOTE_AND_EMAIL}})
    solution = ReferenceSolution.from_scenario(scenario)
    assert solution is not None and solution.round_numbers == [1, 2]
    bare = parse_scenario({"name": "s", "device_state_id": MAIN_EMAIL, "reference_time": REFERENCE_TIME,
                           "messages": script})
    assert ReferenceSolution.from_scenario(bare) is None


def test_tool_functions_raise_on_failed_calls(session):
    functions = tool_functions(session)
    assert functions["simple_note_create_note"](title="t", content="c")["note_id"] >= 1
    with pytest.raises(ToolCallFailed, match="simple_note_show_note: "):
        functions["simple_note_show_note"](note_id=999999)
