"""Smaller config checks of issue 13: nonsense budgets and runner sizes are refused naming the key, an unknown
group option lists the options in one line (no Hydra search-path noise), and `tools list` never cuts a name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from mmtsb.config.build import RunConfigError, build_run_settings
from test_config_app import ROOT, run_app


@pytest.mark.parametrize("override, message", [
    ("budgets.max_steps=-5", "budgets.max_steps=-5: must be at least 1"),
    ("budgets.max_interaction_steps=0", "budgets.max_interaction_steps=0: must be at least 1"),
    ("runner.num_actors=0", "runner.num_actors=0: must be at least 1"),
    ("runner.episodes_per_actor=0", "runner.episodes_per_actor=0: must be at least 1"),
    ("runner.max_concurrency=-1", "runner.max_concurrency=-1: must be at least 1"),
    ("runner.max_infra_retries=-1", "runner.max_infra_retries=-1: must be 0 or more"),
])
def test_nonsense_is_refused_naming_the_key(compose_cfg, tmp_path, override, message):
    with pytest.raises(RunConfigError, match=re.escape(message)):
        build_run_settings(compose_cfg(override), tmp_path / "run", cwd=tmp_path)


def test_an_unknown_option_lists_the_options_first(tmp_path):
    proc = run_app(["model=gpt5", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    first = proc.stderr.strip().splitlines()[0]
    assert first.startswith("mmtsb run: model=gpt5: not an option of the config group 'model'; options: ")
    assert "gpt_5_4_high" in first and "openai_compatible" in first
    assert "Config search path" not in proc.stderr and "HYDRA_FULL_ERROR" not in proc.stderr
    proc = run_app(["--multirun", "interface=code_exec,tooluse", f"hydra.sweep.dir={tmp_path / 's'}"], cwd=ROOT,
                   timeout=120)
    assert proc.returncode == 2 and "interface=tooluse: not an option" in proc.stderr
    assert not (tmp_path / "s").exists()


def test_tools_list_never_cuts_a_name():
    listed = subprocess.run([sys.executable, "-m", "mmtsb.cli", "tools", "list", "--json"], capture_output=True,
                            text=True, check=True, timeout=120).stdout
    names = [t["name"] for t in json.loads(listed)]
    table = subprocess.run([sys.executable, "-m", "mmtsb.cli", "tools", "list"], capture_output=True, text=True,
                           check=True, env={**os.environ, "COLUMNS": "80"}, timeout=120).stdout
    cells = {c.strip() for line in table.splitlines() for c in line.split("│")}
    assert [n for n in names if n not in cells] == []
