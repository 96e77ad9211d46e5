"""Provenance (issue 13): every run folder and every results row and trajectory records the git commit of the
code that produced it and whether the checkout had uncommitted changes."""

from __future__ import annotations

import json
import subprocess

from mmtsb.runner.execute import execute_run
from mmtsb.runner.provenance import PROVENANCE_FILE, code_provenance
from runkit import STARTERS, rows, settings, trajectory
from testkit import REPO


def test_the_commit_and_dirty_flag_reach_the_folder_rows_and_trajectories(tmp_path):
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True).stdout.strip())
    assert code_provenance()["code_commit"] == head and code_provenance()["code_dirty"] is dirty
    run_dir = tmp_path / "run"
    execute_run(settings(run_dir, scenarios=STARTERS[:1]), progress=False)
    execute_run(settings(run_dir, scenarios=STARTERS[:1]), progress=False)   # a resume adds an execution
    record = json.loads((run_dir / PROVENANCE_FILE).read_text())
    assert record["code_commit"] == head and record["code_dirty"] is dirty and len(record["executions"]) == 2
    summary = json.loads((run_dir / "summary.json").read_text())
    assert (summary["code_commit"], summary["code_dirty"], summary["protocol"]) == (head, dirty, "paper")
    [row] = rows(run_dir)
    assert (row["code_commit"], row["code_dirty"], row["protocol"]) == (head, dirty, "paper")
    assert trajectory(run_dir, row)["run"]["code_commit"] == head
