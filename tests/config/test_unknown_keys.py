"""A key added with ``+`` that the schema does not have is a config error naming it (issue 11): nothing would
read it, so a misspelt budget or sampling setting would otherwise change nothing, silently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mmtsb.config.build import RunConfigError, build_run_settings
from mmtsb.config.paths import find_project_root


@pytest.mark.parametrize("override, message", [
    ("+budgets.max_stepz=5", "budgets.max_stepz: not a config key (did you mean budgets.max_steps?)"),
    ("+model.tempxrature=0.5", "model.tempxrature: not a config key (did you mean model.temperature?)"),
    ("+runner.max_concurency=4", "runner.max_concurency: not a config key (did you mean runner.max_concurrency?)"),
    ("+seeed=3", "seeed: not a config key (did you mean seed?)"),
    ("+zzz=1", "zzz: not a config key"),
])
def test_unknown_keys_are_refused_with_the_key_named(compose_cfg, tmp_path: Path, override: str, message: str):
    with pytest.raises(RunConfigError) as caught:
        build_run_settings(compose_cfg(override), tmp_path / "run")
    assert str(caught.value) == message


def test_open_sections_take_new_keys(compose_cfg, tmp_path: Path):
    s = build_run_settings(compose_cfg("model=gpt_5_4_none", "+model.extra_params.top_k=5"), tmp_path / "run")
    assert s.episode.agent_model.extra_params["top_k"] == 5


def test_the_command_exits_2_with_one_line(tmp_path: Path):
    code = ("import sys; sys.argv = ['mmtsb run', '+budgets.max_stepz=5', 'runner=inprocess', "
            f"'hydra.run.dir={tmp_path / 'run'}']; from mmtsb.config.app import main; sys.exit(main())")
    done = subprocess.run([sys.executable, "-c", code], cwd=find_project_root(), capture_output=True, text=True,
                          timeout=120, env={**os.environ, "HYDRA_FULL_ERROR": "0"})
    assert done.returncode == 2, done.stderr[-2000:]
    assert "budgets.max_stepz: not a config key" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "run" / "episodes.parquet").exists()
