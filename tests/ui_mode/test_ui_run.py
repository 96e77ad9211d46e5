"""UI mode through the platform: ``execute_run`` on the shipped UI set (rows with the UI verdicts, ``ui_sr``
in summary.json and report.md, the UI SR breakdowns), a run without UI mode reporting no UI SR, and
``mmtsb run dataset=ui`` as a Hydra application offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pyarrow.parquet as pq

from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.report.metrics import group_metrics
from mmtsb.runner.execute import execute_run
from mmtsb.runner.settings import RunnerSettings, RunSettings
from mmtsb.runner.summary import summarize
from testkit import REPO
from uikit import UI_FILES

UI_CRITERIA_COLUMNS = ("ui_task_focus", "ui_structure_and_patterns", "ui_action_clarity", "ui_feedback_and_flow")


def settings(run_dir, *, ui: bool, scenarios=UI_FILES) -> RunSettings:
    return RunSettings(run_dir=run_dir, scenarios=list(scenarios), episode=EpisodeConfig(ui=ui), repeats=1,
                       runner=RunnerSettings(kind="inprocess"), dataset="ui" if ui else "nominal",
                       resolved_config={"test": str(run_dir), "ui": ui})


def test_a_ui_run_records_ui_verdicts_and_reports_ui_sr(tmp_path):
    summary = execute_run(settings(tmp_path, ui=True), progress=False)
    assert summary.n_episodes == 6 and summary.infra_failures == 0
    assert (summary.agent_sr, summary.entity_f1, summary.user_sr, summary.ui_sr) == (1.0, 1.0, 1.0, 1.0)
    rows = pq.read_table(tmp_path / "episodes.parquet").to_pylist()
    assert len(rows) == 6
    for row in rows:
        assert row["ui_pass"] is True and row["ui_judge"] == "static"
        assert all(row[c] is True for c in UI_CRITERIA_COLUMNS)
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["ui_sr"] == 1.0 and saved["n_ui_judged"] == 6 and saved["ui_sr_ci"][1] == 1.0
    assert saved["criteria"]["ui_action_clarity"] == {"pass_rate": 1.0, "n": 6}
    arrival = saved["breakdowns"]["image_arrival"]
    assert all(g["ui_sr"] == 1.0 for g in arrival.values()) and sum(g["n_ui_judged"] for g in arrival.values()) == 6
    report = (tmp_path / "report.md").read_text()
    assert "| UI SR | 100.0% | [61.0, 100.0] | 6 |" in report
    assert "| ui_feedback_and_flow | 100.0% | 6 |" in report and "| User SR | UI SR | Avg steps |" in report


def test_a_run_without_ui_mode_has_no_ui_sr(tmp_path):
    summary = execute_run(settings(tmp_path, ui=False, scenarios=UI_FILES[:1]), progress=False)
    assert summary.ui_sr is None and "ui_sr" not in summary.to_dict() and summary.agent_sr == 1.0
    rows = pq.read_table(tmp_path / "episodes.parquet").to_pylist()
    assert "ui_pass" not in rows[0] and "ui_task_focus" not in rows[0]
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert "ui_sr" not in saved and "ui_task_focus" not in saved["criteria"]
    assert "UI SR" not in (tmp_path / "report.md").read_text()


def test_ui_sr_counts_judged_episodes_only():
    rows = [{"agent_pass": True, "user_pass": True, "ui_pass": True, "steps": 3},
            {"agent_pass": True, "user_pass": True, "ui_pass": False, "steps": 3},
            {"agent_pass": False, "user_pass": True, "ui_judge_error": "judge model call failed", "steps": 3},
            {"agent_pass": None, "end_reason": "error", "steps": 0}]
    assert summarize(rows).ui_sr == 0.5
    m = group_metrics(rows[:3])
    assert m["ui_sr"] == 0.5 and m["n_ui_judged"] == 2
    assert "ui_sr" not in group_metrics([{"agent_pass": True}])


def test_mmtsb_run_dataset_ui_runs_offline_as_a_hydra_app(tmp_path):
    run_dir = tmp_path / "run"
    code = ("import sys; from mmtsb.config.app import main; "
            f"sys.exit(main(['dataset=ui', 'runner=inprocess', 'hydra.run.dir={run_dir}']))")
    env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["n_episodes"] == 6 and summary["ui_sr"] == 1.0 and summary["agent_sr"] == 1.0
    assert summary["entity_f1"] == 1.0 and summary["dataset"] == "ui"
    assert "enable_ui: true" in (run_dir / "config.yaml").read_text()
