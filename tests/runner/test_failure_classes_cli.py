"""The failure classes through the real ``mmtsb run`` command against the fake OpenAI-compatible server: the
exit status says which class stopped a run, and the same command again resumes it (issue 11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from mmtsb.config.paths import find_project_root
from mmtsb.testing import FakeLLMServer

ROOT = find_project_root()


class Switch:
    """A responder a test changes between two runs of the same command."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply

    def __call__(self, body: dict) -> dict:
        return self.reply


def mmtsb_run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = f"import sys; sys.argv = ['mmtsb run', *{args!r}]; from mmtsb.config.app import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "HYDRA_FULL_ERROR": "0", "RAY_USAGE_STATS_ENABLED": "0", **(env or {})})


def model_args(base_url: str, run_dir: Path) -> list[str]:
    return ["model=gpt_5_4_none", "model.model=openai/fake-model", f"model.api_base={base_url}",
            "model.api_key_env=null", "model.max_retries=1", "interface=tool_use", "runner=inprocess",
            "runner.max_concurrency=1", "dataset.limit=3", f"hydra.run.dir={run_dir}"]


def test_a_revoked_key_stops_the_run_with_exit_2_and_the_same_command_resumes(tmp_path):
    switch = Switch({"status": 401, "error": "invalid api key"})
    run_dir = tmp_path / "run"
    with FakeLLMServer(responder=switch) as server:
        args = model_args(server.base_url, run_dir)
        first = mmtsb_run(args)
        assert first.returncode == 2, first.stderr[-3000:]
        assert server.request_count == 1
        summary = json.loads((run_dir / "summary.json").read_text())
        assert summary["failures"]["configuration"] == 1 and summary["not_played"] == 2
        assert "401" in summary["stopped"]
        assert "stopping the run" in (first.stdout + first.stderr + (run_dir / "mmtsb.log").read_text())

        switch.reply = {"text": "Done."}
        second = mmtsb_run(args)
    assert second.returncode == 0, second.stderr[-3000:]
    rows = pq.read_table(run_dir / "episodes.parquet").to_pylist()
    assert len(rows) == 3 and {r["failure_class"] for r in rows} == {None}
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["stopped"] is None and summary["not_evaluated"] == 0


def test_a_missing_key_is_one_line_and_exit_2_before_any_episode(tmp_path):
    run_dir = tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if k != "MMTSB_TEST_UNSET_KEY"}
    args = [*model_args("http://127.0.0.1:9/v1", run_dir), "model.api_key_env=MMTSB_TEST_UNSET_KEY"]
    code = f"import sys; sys.argv = ['mmtsb run', *{args!r}]; from mmtsb.config.app import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**env, "HYDRA_FULL_ERROR": "0"})
    assert done.returncode == 2, done.stderr[-3000:]
    assert "model.api_key_env=MMTSB_TEST_UNSET_KEY: the environment variable MMTSB_TEST_UNSET_KEY is not set" \
        in done.stderr
    assert "Traceback" not in done.stderr and not (run_dir / "episodes.parquet").exists()


def test_an_infrastructure_failure_exits_1_and_the_rerun_replays_it(tmp_path):
    switch = Switch({"status": 503, "error": "overloaded"})
    run_dir = tmp_path / "run"
    with FakeLLMServer(responder=switch) as server:
        args = [*model_args(server.base_url, run_dir), "dataset.limit=1", "runner.max_infra_retries=0"]
        first = mmtsb_run(args)
        assert first.returncode == 1, first.stderr[-3000:]
        (row,) = pq.read_table(run_dir / "episodes.parquet").to_pylist()
        assert row["failure_class"] == "infrastructure" and row["agent_failed_calls"] == 2
        switch.reply = {"text": "Done."}
        second = mmtsb_run(args)
    assert second.returncode == 0, second.stderr[-3000:]
    (row,) = pq.read_table(run_dir / "episodes.parquet").to_pylist()
    assert row["failure_class"] is None and row["infra_failure"] is False


class BrokenEveryOther:
    """Answers every other request with a broken body (each kind in turn), the others with a final answer."""

    FAULTS = ("connection_reset", "cut_body", "truncated_body", "html_body", "empty_body", "not_json_body",
              "non_utf8_body")

    def __init__(self) -> None:
        self.seen = self.faulted = 0

    def __call__(self, body: dict) -> dict:
        self.seen += 1
        if self.seen % 2:
            self.faulted += 1
            return {"fault": self.FAULTS[(self.faulted - 1) % len(self.FAULTS)]}
        return {"text": "Done."}


def test_broken_answer_bodies_are_retried_at_the_call_on_both_routes(tmp_path):
    """Reset connections, cut, truncated, HTML, empty, plain-text and non-UTF-8 bodies: every one is retried at
    the call, the episodes end normally (no infrastructure failure, nothing replayed) and each failed attempt is
    counted in the rows and the summary."""
    for route in ("fast", "direct"):
        responder, run_dir = BrokenEveryOther(), tmp_path / route
        with FakeLLMServer(responder=responder) as server:
            done = mmtsb_run([*model_args(server.base_url, run_dir), f"model.compat_route={route}",
                              "model.max_retries=2"])
        assert done.returncode == 0, done.stderr[-3000:]
        rows = pq.read_table(run_dir / "episodes.parquet").to_pylist()
        assert len(rows) == 3 and {r["failure_class"] for r in rows} == {None}
        assert responder.faulted >= 3 and server.request_count == responder.seen
        assert sum(r["agent_failed_calls"] for r in rows) == responder.faulted
        summary = json.loads((run_dir / "summary.json").read_text())
        assert summary["not_evaluated"] == 0 and summary["failed_calls"] == responder.faulted


def test_an_invalid_file_and_an_agent_context_overflow_through_the_real_command(tmp_path):
    """A selected folder holding a file `validate` rejects and a good one, the agent's model refusing its prompt as
    too long: the bad file is reported against its field (log, invalid_scenarios.json, summary, report) and never
    played; the good one is an agent failure scored into Agent SR; the command exits 1 (a file was not played)."""
    good = ROOT / "scenarios" / "nominal" / "mmtsb_nominal_001.json"
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / good.name).write_text(good.read_text())
    (folder / "images").symlink_to(good.parent / "images")
    (folder / "bad.json").write_text(json.dumps({**json.loads(good.read_text()), "reference_time": 12345}))
    run_dir = tmp_path / "run"
    overflow = {"status": 400, "error": "This model's maximum context length is 8192 tokens"}
    with FakeLLMServer(default=overflow) as server:
        done = mmtsb_run([*model_args(server.base_url, run_dir), f"dataset.path={folder}"])
        assert server.request_count == 1                      # the overflow is never retried
    assert done.returncode == 1, done.stderr[-3000:]
    assert f"not played: {folder / 'bad.json'} is not a valid scenario: reference_time" in \
        (run_dir / "mmtsb.log").read_text()
    (row,) = pq.read_table(run_dir / "episodes.parquet").to_pylist()
    assert row["scenario"] == good.stem and row["failure_class"] == "agent"
    assert row["end_reason"] == "context_overflow" and row["agent_pass"] is False
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["invalid_scenarios"] == [str(folder / "bad.json")]
    assert summary["agent_sr"] == 0.0 and summary["failures"]["agent"] == 1 and summary["not_evaluated"] == 0
    (invalid,) = json.loads((run_dir / "invalid_scenarios.json").read_text())
    assert any(e.startswith("reference_time") for e in invalid["errors"])
    report = (run_dir / "report.md").read_text()
    assert "## Scenario files not played" in report and f"`{folder / 'bad.json'}` | reference_time" in report
