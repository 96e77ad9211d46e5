"""Helpers of the re-judging tests (imported as `judgekit`): a run through the real `mmtsb run`, a scripted rubric
judge for the fake OpenAI-compatible server, and `mmtsb rejudge` against it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from mmtsb.cli import main
from mmtsb.protocol.judges import AGENT_CRITERIA, USER_CRITERIA
from mmtsb.testing import FakeLLMServer
from mmtsb.testing.fake_replies import last_prompt_text
from testkit import REPO

NOMINAL = REPO / "scenarios" / "nominal"
CRITERIA = {p.stem: json.loads(p.read_text())["task_completion_criteria"][:60]
            for p in sorted(NOMINAL.glob("mmtsb_nominal_00[1-4].json"))}


def mmtsb_run(run_dir: Path, names: list[str], repeats: int = 1, dataset_path: Path | None = None,
              extra: tuple[str, ...] = ()) -> None:
    args = [sys.executable, "-m", "mmtsb.cli", "run", "runner=inprocess", f"repeats={repeats}", *extra,
            f"dataset.names=[{','.join(names)}]", f"hydra.run.dir={run_dir}"]
    if dataset_path is not None:
        args.append(f"dataset.path={dataset_path}")
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MMTSB_KEEP_SCRATCH": "0"})
    assert proc.returncode == 0, proc.stderr[-3000:]


def scenario_of(text: str) -> str | None:
    return next((name for name, criteria in CRITERIA.items() if criteria in text), None)


def judge(failing_scenarios: set[str]):
    """A scripted rubric judge: the agent fails task_completion on the given scenarios; all else passes."""
    def respond(body: dict[str, Any]) -> str:
        text = last_prompt_text(body)
        agent = "Evaluate the agent on every criterion" in text
        failing = {"task_completion"} if agent and scenario_of(text) in failing_scenarios else set()
        criteria = AGENT_CRITERIA if agent else USER_CRITERIA
        return json.dumps({"criteria_evaluation": [
            {"criterion": c, "analysis": f"checked {c}", "pass": c not in failing, "evidence": ""} for c in criteria],
            "reasoning": "scripted"})
    return respond


def judge_args(server: FakeLLMServer, *extra: str) -> list[str]:
    return ["judge=gpt_5_4", "judge.model.model=openai/fake-model", f"judge.model.api_base={server.base_url}",
            "judge.model.api_key_env=null", "judge.model.max_retries=0", *extra]


def rejudge(run_dir: Path, server: FakeLLMServer, *extra: str) -> tuple[int, int]:
    """Exit status and the number of model calls of one `mmtsb rejudge`."""
    before = server.request_count
    rc = main(["rejudge", str(run_dir), *judge_args(server, *extra)])
    return rc, server.request_count - before
