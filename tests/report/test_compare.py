"""compare_runs and the `mmtsb report` entry point over two synthetic runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmtsb.report import compare_runs
from mmtsb.report.cli import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_compare_two_runs(tmp_path: Path, run_a: Path, run_b: Path) -> None:
    out = tmp_path / "cmp"
    result = compare_runs([run_a, run_b], out)
    a, b = result["runs"]
    assert a["label"] == "oracle / code_exec / full" and b["label"] == "gpt-5.4 / code_exec / mini"
    assert a["agent_sr"] == pytest.approx(0.375) and b["agent_sr"] == pytest.approx(0.5)
    assert b["failure_taxonomy"]["counts"]["factual_error"] == 1
    assert set(result["figures"]) == {"headline", "user_vs_agent", "taxonomy", "breakdowns", "image_source",
                                      "pass_k"}
    for rel in result["figures"].values():
        assert (out / rel).read_bytes().startswith(PNG_MAGIC)
    md = (out / "report.md").read_text()
    for section in ("# Comparison of 2 runs", "## Runs", "## Headline metrics", "## Failure taxonomy",
                    "## pass^k", "## Breakdowns", "### Image arrival", "### Image source category"):
        assert section in md, section
    assert "| oracle / code_exec / full | 10 | 2 | 37.5% |" in md
    assert "| gpt-5.4 / code_exec / mini | 2 | 0 | 50.0% |" in md
    # breakdowns side by side: s1 is upfront in both runs (2/4 in A, 1/1 in B)
    assert "| upfront | 50.0% (4) | 100.0% (1) |" in md
    assert json.loads((out / "comparison.json").read_text())["runs"][1]["n_episodes"] == 2
    assert not (run_b / "report.md").exists()      # the compared runs are only read


def test_same_config_twice_gets_distinct_labels(tmp_path: Path, run_b: Path) -> None:
    result = compare_runs([run_b, run_b], tmp_path / "cmp")
    labels = [r["label"] for r in result["runs"]]
    assert len(set(labels)) == 2 and all(lbl.startswith("gpt-5.4 / code_exec / mini [") for lbl in labels)


def test_cli_one_run_and_several(tmp_path: Path, run_b: Path, run_a: Path, capsys: pytest.CaptureFixture) -> None:
    out1 = tmp_path / "one"
    assert main([str(run_b), "--out", str(out1)]) == 0
    assert (out1 / "report.md").is_file() and (out1 / "summary.json").is_file()
    assert "Agent SR (4 of 5 criteria) 50.0%" in capsys.readouterr().out   # run_b: static judge
    out2 = tmp_path / "two"
    assert main([str(run_a), str(run_b), "--out", str(out2)]) == 0
    assert (out2 / "report.md").is_file() and (out2 / "figures" / "compare_headline.png").is_file()
    assert main([str(tmp_path / "nothing-here")]) == 2
    assert "no episodes.parquet" in capsys.readouterr().err
