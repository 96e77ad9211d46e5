"""mmtsb rejudge when things go wrong, and what a re-judge sees: a judge that fails is recorded (never a crash,
never cached), an image changed since the run is named and not shown, a static re-judge reproduces the run's
own verdicts (the rebuilt evidence is the episode's), and bad settings are refused before any call."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image

from mmtsb.cli import main
from mmtsb.judging.views import row_under
from mmtsb.report.data import RunData
from mmtsb.testing import FakeLLMServer
from judgekit import NOMINAL, REPO, judge, judge_args, mmtsb_run, rejudge


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle episode (scenario 004) played from a copy of the scenario and its images."""
    base = tmp_path_factory.mktemp("faults")
    data = base / "data"
    (data / "images").mkdir(parents=True)
    shutil.copy(NOMINAL / "mmtsb_nominal_004.json", data)
    for p in NOMINAL.glob("images/n004_*"):
        shutil.copy(p, data / "images")
    run = base / "run"
    mmtsb_run(run, ["mmtsb_nominal_004"], dataset_path=data)
    return run


def stored(run: Path, label: str) -> list[dict]:
    return pq.read_table(run / "rejudge" / label / "verdicts.parquet").to_pylist()


def test_a_failing_judge_is_recorded_not_cached(small_run):
    with FakeLLMServer(default={"fault": "server_error"}) as server:
        rc, calls = rejudge(small_run, server, "label=flaky")
    assert rc == 1 and calls == 2            # agent and user judge, one attempt each (max_retries=0)
    (row,) = stored(small_run, "flaky")
    assert row["agent_pass"] is None and "judge model call failed" in row["agent_judge_error"]
    summary = json.loads((small_run / "summary.json").read_text())["judges"]["flaky"]
    assert summary["n_judged"] == 0 and summary["agent_sr"] is None     # left out, never counted as a fail
    with FakeLLMServer(responder=judge(set())) as server:
        rc, calls = rejudge(small_run, server, "label=flaky")
    assert rc == 0 and calls == 2            # the failed verdicts are asked again
    (row,) = stored(small_run, "flaky")
    assert row["agent_pass"] is True and row["agent_judge_error"] is None


def test_an_image_changed_since_the_run_is_named_and_not_shown(small_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(small_run, run, ignore=shutil.ignore_patterns("rejudge"))
    scenario_file = json.loads(next((run / "trajectories").glob("*.json")).read_text())["scenario_file"]
    image = Path(scenario_file).parent / "images" / "n004_2_bill_water.png"
    original = image.read_bytes()
    try:
        Image.new("RGB", (20, 20), "white").save(image)
        with FakeLLMServer(responder=judge(set())) as server:
            assert rejudge(run, server, "label=changed", "parties=agent")[0] == 0
            (request,) = server.requests
    finally:
        image.write_bytes(original)
    content = request["messages"][1]["content"]
    assert "Image id 1 could not be attached" in content[0]["text"]
    assert "now differs from the image the episode saw" in content[0]["text"]
    assert sum(1 for p in content if p.get("type") == "image_url") == 2
    (row,) = stored(run, "changed")
    assert json.loads(row["parties"]) == ["agent"] and "user_pass" not in row
    changed = json.loads((run / "summary.json").read_text())["judges"]["changed"]
    assert changed["n_judged"] == 1 and changed["n_user_judged"] == 0     # no user verdict is borrowed from the run


def test_a_static_rejudge_reproduces_the_runs_own_verdicts(small_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(small_run, run, ignore=shutil.ignore_patterns("rejudge"))
    assert main(["rejudge", str(run), "judge=static", "report=false"]) == 0
    (original,) = RunData.load(run).rows
    (again,) = stored(run, "static")
    trajectory = json.loads((run / original["trajectory_path"]).read_text())
    for party in ("agent", "user"):
        verdict = json.loads(again["verdicts"])[party]
        assert verdict["criteria"] == trajectory["judges"][party]["criteria"]   # analyses and evidence included
        assert again[f"{party}_pass"] == original[f"{party}_pass"]


def test_a_static_rejudge_of_a_ui_mode_run_reproduces_its_ui_verdicts(tmp_path):
    run = tmp_path / "ui"
    mmtsb_run(run, ["mmtsb_ui_001"], extra=("dataset=ui",))
    assert main(["rejudge", str(run), "judge=static", "report=false"]) == 0
    (original,) = RunData.load(run).rows
    (again,) = stored(run, "static")
    assert json.loads(again["parties"]) == ["agent", "ui", "user"]
    trajectory = json.loads((run / original["trajectory_path"]).read_text())
    ui = json.loads(again["verdicts"])["ui"]
    assert ui["criteria"] == trajectory["judges"]["ui"]["criteria"] and again["ui_pass"] is True


def test_row_under_a_judge_that_gives_the_verdict_the_run_judge_could_not():
    row = {"episode_id": "e1", "end_reason": "user_ended", "agent_pass": False, "failure_class": "infrastructure",
           "infra_failure": True, "agent_judge_error": "judge model call failed: 503"}
    verdict = {"episode_id": "e1", "parties": '["agent"]', "agent_pass": True, "agent_judge_error": None}
    under = row_under(row, verdict)
    assert under["agent_pass"] is True and under["failure_class"] is None and under["infra_failure"] is False
    crashed = {**row, "end_reason": "error", "error": "actor died"}
    assert row_under(crashed, verdict)["failure_class"] == "infrastructure"    # a crashed episode stays out
    failing = row_under({**row, "failure_class": None, "infra_failure": False, "agent_judge_error": None},
                        {**verdict, "agent_pass": None, "agent_judge_error": "unusable verdict"})
    assert failing["failure_class"] == "infrastructure" and failing["agent_pass"] is None


@pytest.mark.parametrize("args, says", [
    (["label=x"], "judge=...: name the judge"),
    (["judge=static", "model=gpt_5_4_high"], "model: not a rejudge setting"),
    (["judge=static", "judge_repeats=0"], "judge_repeats=0: must be at least 1"),
    (["judge=static", "parties=agent,robot"], "parties: robot not judged parties"),
    (["judge=none"], "judge=none judges nothing"),
    (["judge=gpt_5_4", "judge.model.tempreature=1"], "tempreature"),
    (["judge=static", "label=../escape"], "label='../escape'"),
])
def test_bad_settings_are_refused_before_any_call(small_run, capsys, args, says):
    assert main(["rejudge", str(small_run), *args]) == 2
    assert says in capsys.readouterr().err


def test_another_judge_config_under_a_used_label_is_refused(small_run, capsys):
    with FakeLLMServer(responder=judge(set())) as server:
        assert rejudge(small_run, server, "label=owned")[0] == 0
        assert main(["rejudge", str(small_run), *judge_args(server, "label=owned", "judge.model.temperature=1.0")]) == 2
        assert "holds the verdicts of another judge config (model differ)" in capsys.readouterr().err
        rc, calls = rejudge(small_run, server, "label=owned", "judge.model.temperature=1.0", "replace=true")
    assert rc == 0 and calls == 2


def test_the_command_refuses_a_missing_key_in_its_own_process(small_run):
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    before = sorted(p.name for p in (small_run / "rejudge").iterdir()) if (small_run / "rejudge").exists() else []
    proc = subprocess.run([sys.executable, "-m", "mmtsb.cli", "rejudge", str(small_run), "judge=gpt_5_4"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 2
    assert "judge.model.api_key_env=OPENAI_API_KEY: the environment variable OPENAI_API_KEY is not set" in proc.stderr
    after = sorted(p.name for p in (small_run / "rejudge").iterdir()) if (small_run / "rejudge").exists() else []
    assert after == before                    # refused before anything was written
