"""A run owns its local Ray: ``ray_session.json`` names the processes (PID + start time), and the next start or
``mmtsb stop RUN_DIR`` ends the ones a killed driver left, never a process that only reused a recorded PID."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mmtsb.runner.leftovers import (RECORD_NAME, RunFolderBusy, boot_id, claim_run_ray, end_leftovers, identify,
                                    is_same_process, read_record, release_run_ray)
from testkit import REPO

DEAD_DRIVER = {"pid": 2**22 + 17, "start": 1, "name": "python"}   # above pid_max: never a live process


def spawn(*argv: str) -> subprocess.Popen:
    return subprocess.Popen(list(argv), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def write_record(run_dir: Path, processes: list[dict], *, driver: dict | None = None, **extra) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    record = {"kind": "local", "host": socket.gethostname(), "boot_id": boot_id(), "driver": driver or DEAD_DRIVER,
              "session_dir": "/tmp/ray/session_test", "processes": processes, **extra}
    (run_dir / RECORD_NAME).write_text(json.dumps(record))


def mmtsb_stop(run_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mmtsb.cli", "stop", str(run_dir)], cwd=REPO, capture_output=True,
                          text=True, timeout=60)


def wait_gone(proc: subprocess.Popen, timeout: float = 10) -> int | None:
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        return None


def grandchild_of(parent: int, timeout: float = 10) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(parent)], capture_output=True, text=True).stdout.split()
        if out:
            return int(out[0])
        time.sleep(0.05)
    raise AssertionError(f"no child of {parent}")


def test_mmtsb_stop_ends_recorded_leftovers_and_their_children_but_not_a_reused_pid(tmp_path):
    run_dir = tmp_path / "run"
    leftover = spawn("sh", "-c", "sleep 300 & wait")          # a 'raylet' with a 'worker' started after the record
    bystander = spawn("sleep", "300")                         # its PID is recorded, with another start time
    try:
        worker = grandchild_of(leftover.pid)
        worker_id = identify(worker)
        reused = {**identify(bystander.pid), "start": identify(bystander.pid)["start"] - 1}
        write_record(run_dir, [identify(leftover.pid), reused])
        done = mmtsb_stop(run_dir)
        assert done.returncode == 0, done.stderr
        assert "ended 2 process(es)" in done.stdout and f"pid {leftover.pid}" in done.stdout, done.stdout
        assert f"pid {worker}" in done.stdout and "PID now belongs to another process" in done.stdout
        assert wait_gone(leftover) is not None and not is_same_process(worker_id)
        assert bystander.poll() is None                        # never touched
        assert not (run_dir / RECORD_NAME).exists()
        again = mmtsb_stop(run_dir)                            # nothing left: says so, exit 0
        assert again.returncode == 0 and again.stdout.startswith("nothing to stop"), again.stdout
    finally:
        for p in (leftover, bystander):
            p.kill()
            p.wait()


def test_a_live_driver_blocks_the_next_start_and_mmtsb_stop_ends_it(tmp_path):
    run_dir = tmp_path / "run"
    driver, raylet = spawn("sleep", "300"), spawn("sleep", "300")
    try:
        write_record(run_dir, [identify(raylet.pid)], driver=identify(driver.pid))
        with pytest.raises(RunFolderBusy, match="live driver"):
            end_leftovers(run_dir)                             # what a second start of the folder gets
        assert driver.poll() is None and raylet.poll() is None
        done = mmtsb_stop(run_dir)
        assert done.returncode == 0, done.stderr
        assert wait_gone(driver) == -signal.SIGTERM and wait_gone(raylet) == -signal.SIGTERM
        assert not (run_dir / RECORD_NAME).exists()
    finally:
        for p in (driver, raylet):
            p.kill()
            p.wait()


def test_cluster_runs_and_other_hosts_are_never_stopped(tmp_path):
    bystander = spawn("sleep", "300")
    try:
        cluster = tmp_path / "cluster"
        write_record(cluster, [identify(bystander.pid)], kind="cluster", address="auto")
        done = mmtsb_stop(cluster)
        assert done.returncode == 0 and "never stops a cluster" in done.stdout, done.stdout
        other = tmp_path / "other"
        write_record(other, [identify(bystander.pid)], host="another-node", boot_id="not-this-boot")
        done = mmtsb_stop(other)
        assert done.returncode == 1 and "another-node" in done.stdout, done.stdout
        assert (other / RECORD_NAME).exists()                  # kept for a stop on that host
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


def test_this_drivers_own_record_is_released_and_dropped(tmp_path):
    claim_run_ray(tmp_path, "cluster", address="auto")         # cluster: no Ray needed to write it
    record = read_record(tmp_path)
    assert record["driver"]["pid"] == os.getpid() and record["kind"] == "cluster"
    assert end_leftovers(tmp_path).ended == [] and not (tmp_path / RECORD_NAME).exists()
    claim_run_ray(tmp_path, "cluster")
    release_run_ray(tmp_path)
    assert not (tmp_path / RECORD_NAME).exists()
