"""kill -9 of a run on a local Ray (its driver), then the same run again: every episode exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from mmtsb.runner.scaling_probe import process_tree
from mmtsb.testing import FakeLLMServer
from runkit import STARTERS, rows, temp_files, trajectory
from testkit import REPO

RAY_RUN = """
import sys
from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.runner.execute import execute_run
from mmtsb.runner.settings import RunnerSettings, RunSettings

episode = apply_overrides(EpisodeConfig(), ["agent=tool_use", "agent_model.model=openai/fake-model",
                                            f"agent_model.api_base={sys.argv[2]}", "agent_model.compat_route=direct"])
execute_run(RunSettings(run_dir=sys.argv[1], scenarios=sys.argv[3:], episode=episode, repeats=3,
                        runner=RunnerSettings(kind="local", num_actors=2, max_concurrency=2, num_cpus=2,
                                              object_store_memory_mb=128)), progress=False)
"""
REPLIES = {"rules": [{"match": "Successfully registered|Found \\\\d+ tools", "reply": "Done."}],
           "default": {"tool_calls": [{"id": "s", "name": "api_docs_search_api_docs", "arguments": {"query": "note"}}]}}


def start(run_dir: Path, base_url: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", RAY_RUN, str(run_dir), base_url, *map(str, STARTERS)],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})


def test_a_ray_run_killed_with_sigkill_resumes_with_every_episode_exactly_once(tmp_path):
    run_dir, orphans = tmp_path / "run", set()
    parts = run_dir / "episodes.parquet"
    with FakeLLMServer(**REPLIES, latency_s=0.4) as server:
        first = start(run_dir, server.base_url)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and first.poll() is None:
                if parts.is_dir() and len([p for p in parts.iterdir() if not p.name.startswith(".")]) >= 3:
                    break
                time.sleep(0.05)
            assert first.poll() is None, first.stderr.read().decode()[-2000:]
            orphans = process_tree(first.pid) - {first.pid}   # Ray's processes: a killed driver leaves them
            os.kill(first.pid, signal.SIGKILL)
            first.wait(10)
            before = rows(run_dir)
            assert 3 <= len(before) < 9
            second = start(run_dir, server.base_url)
            _, err = second.communicate(timeout=300)
            assert second.returncode == 0, err.decode()[-2000:]
        finally:
            for pid in orphans:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    after = rows(run_dir)
    ids = [r["episode_id"] for r in after]
    assert len(ids) == len(set(ids)) == 9 and {r["episode_id"] for r in before} <= set(ids)
    assert all(trajectory(run_dir, r)["run"]["episode_id"] == r["episode_id"] for r in after)
    assert sorted(p.stem for p in (run_dir / "trajectories").iterdir()) == sorted(ids)
    assert not temp_files(run_dir)
    assert all(r["infra_failure"] is False and r["agent_api_calls"] >= 2 for r in after)
