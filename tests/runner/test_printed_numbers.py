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


def test_every_report_that_prints_a_static_agent_sr_marks_it_4_of_5(tmp_path, capsys):
    """`mmtsb report` of one run, of several (the comparison), of a sweep folder and --paper (Tables 2/4) all say
    that the static judge's Agent SR covers 4 of the 5 criteria; the sweep prints an unknown price as unknown."""
    from mmtsb.report.cli import main

    sweep = tmp_path / "sweep"
    with FakeLLMServer(default="All done.") as server:
        execute_run(settings(sweep / "0", scenarios=STARTERS[:1]), progress=False)
        execute_run(settings(sweep / "1", scenarios=STARTERS[:1], episode=llm_agent(server.base_url)),
                    progress=False)
    one, both = sweep / "0", [str(sweep / "0"), str(sweep / "1")]
    assert main([str(one), "--out", str(tmp_path / "r1")]) == 0
    assert "Agent SR (4 of 5 criteria) 100.0%" in capsys.readouterr().out
    assert main([*both, "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert sum("Agent SR (4 of 5 criteria)" in line for line in printed) == 2, printed
    compared = (tmp_path / "cmp" / "report.md").read_text()
    assert "Agent SR over 4 of the 5 criteria (the static judge does not assess information_accuracy" in compared
    assert main([str(sweep), "--out", str(tmp_path / "sw")]) == 0
    assert sum("Agent SR (4 of 5 criteria)" in line for line in capsys.readouterr().out.splitlines()) == 2
    jobs = (tmp_path / "sw" / "report.md").read_text().split("# Comparison of the jobs' runs")[0]
    assert "for: 0, 1." in jobs
    job1 = next(line for line in jobs.splitlines() if line.startswith("| 1 |"))
    assert job1.endswith("| unknown |") and "0.0000" not in job1
    assert main(["--paper", *both, "--out", str(tmp_path / "paper")]) == 0
    capsys.readouterr()
    paper = json.loads((tmp_path / "paper" / "paper.json").read_text())
    assert "Agent SR over 4 of the 5 criteria" in paper["tables"]["table2"]["note"]
