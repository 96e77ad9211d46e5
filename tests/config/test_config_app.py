"""The Hydra application end to end, in subprocesses (Hydra sets up logging and global state per process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mmtsb.config.paths import ConfNotFoundError, conf_dir, find_project_root

ROOT = find_project_root()


def run_app(args: list[str], cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    code = f"import sys; sys.argv = ['mmtsb run', *{args!r}]; from mmtsb.config.app import main; sys.exit(main())"
    env = {**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0"}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_multirun_gives_each_job_its_own_run_folder_with_results(tmp_path):
    sweep = tmp_path / "sweep"
    proc = run_app(["--multirun", "model=oracle", "interface=code_exec,tool_use", "dataset.limit=1",
                    "runner=inprocess", "+model.extra_params.api_key=sk-never-written", f"hydra.sweep.dir={sweep}"],
                   cwd=tmp_path)   # started outside the project: conf/ and scenarios/ are still found
    assert proc.returncode == 0, proc.stderr[-3000:]
    jobs = sorted(p for p in sweep.iterdir() if p.is_dir())
    assert [p.name.split("_", 1)[0] for p in jobs] == ["0", "1"]
    assert "interface=code_exec" in jobs[0].name and "interface=tool_use" in jobs[1].name
    hashes = set()
    for job, interface in zip(jobs, ("code_exec", "tool_use")):
        summary = json.loads((job / "summary.json").read_text())
        assert summary["n_episodes"] == 1 and summary["agent_sr"] == 1.0 and summary["infra_failures"] == 0
        assert len(list((job / "trajectories").glob("*.json"))) == 1
        config = (job / "config.yaml").read_text()
        assert f"name: {interface}" in config and "api_key: '***'" in config
        hashes.add(config.splitlines()[0].rsplit(" ", 1)[-1])
        for record in [job / "config.yaml", *(job / ".hydra").glob("*.yaml")]:
            assert "sk-never-written" not in record.read_text(), record
    assert len(hashes) == 2
    assert "sk-never-written" not in (sweep / "multirun.yaml").read_text()


def test_a_config_error_exits_2_with_a_message(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run_app([f"dataset.path={empty}", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert "mmtsb run: dataset=nominal: no scenario files match '*.json'" in proc.stderr


def test_a_typo_fails_before_anything_runs(tmp_path):
    proc = run_app(["budgets.max_stepz=3", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT, timeout=120)
    assert proc.returncode == 1
    assert "Key 'max_stepz' not in 'BudgetsConf'" in proc.stderr and not (tmp_path / "run").exists()


def test_conf_dir_is_found_or_named_clearly(tmp_path, monkeypatch):
    assert conf_dir() == ROOT / "conf"
    monkeypatch.setenv("MMTSB_CONF_DIR", str(tmp_path))
    with pytest.raises(ConfNotFoundError, match="MMTSB_CONF_DIR"):
        conf_dir()
    (tmp_path / "config.yaml").write_text("defaults: []\n")
    assert conf_dir() == tmp_path


def test_summary_dict_accepts_the_runner_shapes():
    from dataclasses import dataclass

    from mmtsb.config.app import summary_dict

    @dataclass
    class Summary:
        n_episodes: int

    assert summary_dict(Summary(3)) == {"n_episodes": 3} and summary_dict({"a": 1}) == {"a": 1}


@pytest.mark.parametrize(("override", "message"), [
    ("budgets.max_steps=0", "budgets.max_steps=0: must be at least 1"),
    ("budgets.wall_clock_s=-1", "budgets.wall_clock_s=-1.0: must be greater than 0 seconds"),
    ("budgets.max_messages=0", "budgets.max_messages=0: must be at least 1"),
    ("budgets.max_tokens=0", "budgets.max_tokens=0: must be at least 1"),
])
def test_impossible_budgets_are_config_errors_before_any_episode(tmp_path, override, message):
    proc = run_app([override, "runner=inprocess", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr[-2000:]
    assert not (tmp_path / "run" / "episodes.parquet").exists()


@pytest.mark.parametrize(("override", "message"), [
    ("model.timeout_s=0", "model.timeout_s=0.0: must be greater than 0"),
    ("model.concurrency=0", "model.concurrency=0: must be at least 1"),
    ("model.max_retries=-1", "model.max_retries=-1: must be at least 0"),
])
def test_impossible_model_settings_are_config_errors_before_any_episode(tmp_path, override, message):
    proc = run_app(["model=gpt_5_4_none", "model.api_base=http://127.0.0.1:9/v1", override, "runner=inprocess",
                    f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "episodes.parquet").exists()


@pytest.mark.parametrize(("overrides", "message"), [
    (["user.model.timeout_s=60"], "user.model.timeout_s=60: user=scripted has no user.model (it is null there); "
                                  "choose a user option that has one ("),
    (["judge=none", "judge.model.temperature=0"], "judge.model.temperature=0: judge=none has no judge.model"),
])
def test_a_setting_inside_a_section_the_option_leaves_null_is_one_line(tmp_path, overrides, message):
    """Hydra itself answers these with an AssertionError traceback (exit 1)."""
    proc = run_app([*overrides, "runner=inprocess", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stderr.startswith(f"mmtsb run: {message}") and len(proc.stderr.strip().splitlines()) == 1
    assert "gpt_5_4" in proc.stderr and "static" not in proc.stderr.split("(it is null there)")[1]
    assert not (tmp_path / "run").exists()


def test_a_run_folder_that_cannot_be_made_is_one_line_not_a_traceback(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    proc = run_app([f"hydra.run.dir={blocker / 'run'}", "runner=inprocess"], cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (f"mmtsb run: hydra.run.dir={blocker / 'run'}: cannot make the run folder there: "
                                   f"{blocker} is not a folder")
