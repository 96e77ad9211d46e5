"""`mmtsb report` around the viewer: a summary across a --multirun sweep's jobs, a warning when compared runs cover
different scenario sets, and links from report.md into `mmtsb view`."""

from __future__ import annotations

import json
import shutil

import pytest

from mmtsb.report.build import build_report
from mmtsb.report.cli import main as report_main
from mmtsb.report.coverage import coverage_warnings
from mmtsb.view.links import DEFAULT_PORT, run_id


def test_no_warning_when_every_run_covers_the_same_scenarios():
    assert coverage_warnings(["A", "B"], [{"s1", "s2"}, {"s2", "s1"}]) == []


def test_the_warning_names_each_run_and_what_only_it_covers():
    w = coverage_warnings(["A", "B"], [{"s1", "s2", "s3"}, {"s2", "s3", "s4"}])
    assert w[0].startswith("the runs cover different scenario sets: 2 scenario(s) are in every run")
    assert w[1] == "A: 3 scenario(s), 1 not in every run (s1)"
    assert w[2] == "B: 3 scenario(s), 1 not in every run (s4)"


def test_report_a_b_warns_on_stderr_and_in_the_report(run_a, run_b, tmp_path, capsys):
    assert report_main([str(run_a), str(run_b), "--out", str(tmp_path / "cmp")]) == 0
    err = capsys.readouterr().err
    assert "mmtsb report: warning: the runs cover different scenario sets: 2 scenario(s) are in every run" in err
    text = (tmp_path / "cmp" / "report.md").read_text()
    assert text.startswith("# Comparison of 2 runs\n\n> **Warning:** the runs cover different scenario sets")
    assert "3 not in every run (s3, s4, s5)" in text
    assert json.loads((tmp_path / "cmp" / "comparison.json").read_text())["warnings"][0].startswith("the runs cover")


def test_report_on_a_sweep_folder_summarizes_its_jobs(run_a, run_b, tmp_path, capsys):
    sweep = tmp_path / "multirun" / "12-00-00"
    for n, (src, override) in enumerate(((run_a, "toolbox=full"), (run_b, "toolbox=mini"))):
        job = sweep / f"{n}_{override}"
        shutil.copytree(src, job)
        (job / ".hydra").mkdir()
        (job / ".hydra" / "overrides.yaml").write_text(f"- {override}\n- model=oracle\n")
    (sweep / "2_toolbox=medium" / ".hydra").mkdir(parents=True)   # a job that stopped before any episode
    (sweep / "multirun.yaml").write_text("hydra: {}\n")
    assert report_main([str(sweep)]) == 0
    out = capsys.readouterr()
    assert "0_toolbox=full: toolbox=full model=oracle: Agent SR" in out.out
    assert "2_toolbox=medium: (no overrides): no results" in out.out
    text = (sweep / "report.md").read_text()
    assert text.startswith("# Sweep summary: 3 job(s)")
    jobs = text.split("## Jobs", 1)[1]
    assert "| 0_toolbox=full | `toolbox=full`, `model=oracle` | oracle / code_exec / full | 10 | 2 | 37.5% |" in jobs
    assert "| 2_toolbox=medium | – | no results in this job's folder |" in jobs
    assert "# Comparison of the jobs' runs" in text and "**Warning:** the runs cover different scenario sets" in text
    summary = json.loads((sweep / "sweep.json").read_text())
    assert [j["job"] for j in summary["jobs"]] == ["0_toolbox=full", "1_toolbox=mini", "2_toolbox=medium"]
    assert [j["has_results"] for j in summary["jobs"]] == [True, True, False]
    assert summary["jobs"][1]["overrides"] == ["toolbox=mini", "model=oracle"]


def test_a_folder_with_neither_a_run_nor_jobs_is_a_clear_error(tmp_path, capsys):
    assert report_main([str(tmp_path)]) == 2
    assert "no episodes.parquet/" in capsys.readouterr().err


def test_run_report_links_episodes_into_the_viewer(run_a, tmp_path):
    out = tmp_path / "rep"
    build_report(run_a, out_dir=out)
    text = (out / "report.md").read_text()
    rid = run_id(run_a)
    base = f"http://127.0.0.1:{DEFAULT_PORT}/#/run/{rid}"
    assert "## Viewer\n\nEvery episode of this run" in text and f"<{base}>" in text
    assert f"[`s2__r0__cfgA`]({base}/episode/s2__r0__cfgA)" in text          # a failure example
    assert f"[`s5__r0__cfgA`]({base}/episode/s5__r0__cfgA)" in text          # an episode not evaluated


@pytest.mark.parametrize("path", ["outputs/2026-05-01/12-00-00", "/x/multirun/2026-05-01/12-00-00/3_model=a,b"])
def test_run_ids_are_the_last_two_folder_names(path):
    assert run_id(path) in ("2026-05-01_12-00-00", "12-00-00_3_model-a-b")
