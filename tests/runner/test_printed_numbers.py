"""What a run prints says what its numbers are (issue 13): Agent SR of the static judge covers 4 of the 5 criteria
(summary, report, progress line), and a cost whose price is unknown prints as "unknown", never as $0.0000."""

from __future__ import annotations

import json

from mmtsb.protocol.roles import cost_text
from mmtsb.runner.execute import execute_run
from mmtsb.runner.progress import RunningStats
from mmtsb.runner.summary import summarize
from runkit import STARTERS, llm_agent, rows, settings
from mmtsb.testing import FakeLLMServer


def test_cost_text():
    assert cost_text(0.0123) == "$0.0123" and cost_text(0.0, False) == "unknown"
    assert cost_text(0.5, False) == "$0.5000 + unknown"


def test_a_static_judged_run_says_agent_sr_covers_4_of_5_criteria(tmp_path):
    run_dir = tmp_path / "run"
    execute_run(settings(run_dir, scenarios=STARTERS[:1]), progress=False)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["agent_sr_note"].startswith("Agent SR over 4 of the 5 criteria: the static judge does not "
                                               "assess information_accuracy")
    assert "Agent SR (4 of 5 criteria)" in (run_dir / "report.md").read_text()
    stats = RunningStats()
    for row in rows(run_dir):
        stats.add(row)
    assert "Agent SR 1.000 (4/5 criteria: static judge)" in stats.line()


def test_an_llm_judge_verdict_on_all_five_criteria_has_no_note():
    row = {"agent_pass": True, "agent_information_accuracy": True, "entity_f1": 1.0}
    assert summarize([row]).agent_sr_note is None
    stats = RunningStats()
    stats.add(row)
    assert "criteria" not in stats.line()


def test_an_unknown_price_prints_unknown(tmp_path):
    run_dir = tmp_path / "run"
    with FakeLLMServer(default="All done.") as server:
        cfg = llm_agent(server.base_url)   # openai/fake-model: not in litellm's price map, no configured price
        execute_run(settings(run_dir, scenarios=STARTERS[:1], episode=cfg), progress=False)
    [row] = rows(run_dir)
    assert row["agent_cost_known"] is False and row["agent_total_tokens"] > 0
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["cost_known"] is False
    report = (run_dir / "report.md").read_text()
    assert "tokens, unknown." in report
    agent_line = next(line for line in report.splitlines() if line.startswith("| agent |"))
    assert agent_line.endswith("| unknown | unknown |") and "$" not in agent_line
    stats = RunningStats()
    stats.add(row)
    assert stats.line().endswith("| unknown")
