"""A local-Ray run killed with SIGKILL leaves its Ray processes running (calling the model); ``mmtsb stop``
ends every one of them from the run folder's record, and a new start of the folder does the same by itself."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from mmtsb.runner.backends import RayBackend
from mmtsb.runner.leftovers import RECORD_NAME, identify, is_same_process, read_record
from mmtsb.runner.settings import RunnerSettings
from mmtsb.testing import FakeLLMServer
from runkit import STARTERS
from test_leftovers_stop import grandchild_of, spawn, wait_gone, write_record
from testkit import REPO

# execute_run over a local Ray that this process starts, with the run folder handed to its backend
RAY_RUN = """
import sys
import mmtsb.runner.execute as execute
from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.runner.settings import RunnerSettings, RunSettings

make_backend = execute.make_backend
def with_run_dir(runner, concurrency, **kw):
    kw.setdefault("run_dir", sys.argv[1])
    return make_backend(runner, concurrency, **kw)
execute.make_backend = with_run_dir

episode = apply_overrides(EpisodeConfig(), ["agent=tool_use", "agent_model.model=openai/fake-model",
                                            f"agent_model.api_base={sys.argv[2]}", "agent_model.compat_route=direct",
                                            "agent_model.concurrency=1"])
execute.execute_run(RunSettings(run_dir=sys.argv[1], scenarios=sys.argv[3:], episode=episode, repeats=20,
                                runner=RunnerSettings(kind="local", num_actors=2, max_concurrency=2, num_cpus=2,
                                                      object_store_memory_mb=128)), progress=False)
"""
LOOP = {"default": {"tool_calls": [{"id": "s", "name": "api_docs_search_api_docs", "arguments": {"query": "note"}}]}}


def session_pids(session_dir: str) -> set[int]:
    """Live processes whose command line names the session's folder (for this check only)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if session_dir.encode() in Path(f"/proc/{entry}/cmdline").read_bytes() and identify(int(entry)):
                    found.add(int(entry))
            except OSError:
                continue
    return found


def test_a_sigkilled_run_leaves_ray_running_and_mmtsb_stop_ends_all_of_it(tmp_path):
    run_dir = tmp_path / "run"
    record_file = run_dir / RECORD_NAME
    driver, record, leftovers = None, None, []
    with FakeLLMServer(**LOOP, latency_s=0.2) as server:
        try:
            driver = subprocess.Popen([sys.executable, "-c", RAY_RUN, str(run_dir), server.base_url, *map(str, STARTERS)],
                                      cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline and driver.poll() is None:   # actors up and playing
                record = read_record(run_dir)
                if record and server.request_count >= 4 and len(record["processes"]) > 5:
                    break
                time.sleep(0.1)
            assert driver.poll() is None and record, driver.stderr.read().decode()[-2000:]
            assert record["driver"]["pid"] == driver.pid and record["kind"] == "local"
            os.kill(driver.pid, signal.SIGKILL)
            driver.wait(10)
            time.sleep(1.0)
            leftovers = [e for e in record["processes"] if is_same_process(e)]
            assert len(leftovers) >= 5, leftovers                      # the leftovers the issue is about
            calls = server.request_count
            done = subprocess.run([sys.executable, "-m", "mmtsb.cli", "stop", str(run_dir)], cwd=REPO,
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stdout + done.stderr
            assert done.stdout.startswith("ended "), done.stdout
            assert not [e for e in record["processes"] if is_same_process(e)]
            assert not session_pids(record["session_dir"])
            assert not record_file.exists()
            time.sleep(1.0)
            settled = server.request_count
            time.sleep(1.5)
            assert server.request_count == settled >= calls           # nobody calls the model any more
        finally:
            if driver is not None and driver.poll() is None:
                driver.kill()
            for e in leftovers:
                if is_same_process(e):
                    os.kill(e["pid"], signal.SIGKILL)


def test_a_new_start_of_the_folder_ends_the_previous_drivers_leftovers(ray_local, tmp_path):
    leftover = spawn("sh", "-c", "sleep 300 & wait")
    try:
        worker = identify(grandchild_of(leftover.pid))
        write_record(tmp_path, [identify(leftover.pid)])
        backend = RayBackend(RunnerSettings(kind="local", num_actors=1), 1, uses_models=False, run_dir=tmp_path)

        async def start_stop() -> None:
            await backend.start()
            await backend.stop()

        asyncio.run(start_stop())
        assert wait_gone(leftover) is not None
        assert not is_same_process(worker)
        # the test's Ray was up before the run: it is not the run's, so nothing of it is recorded
        assert not (tmp_path / RECORD_NAME).exists() and not backend.claimed
    finally:
        leftover.kill()
        leftover.wait()
