"""A run owns the local Ray it started: ``ray_session.json`` in the run folder says which processes those are,
so that a driver killed with SIGKILL leaves nothing behind that outlives the next start (or ``mmtsb stop``).

The record (written once Ray is up, refreshed once the episode actors exist, removed at a normal end) holds the
driver and every process Ray started for the session (GCS, raylet, monitors, and the raylet's workers), each as
its PID *and* its start time (``/proc/PID/stat``, clock ticks since boot), with the machine's boot id and host
name. A process is ended only when its PID still has that start time on that boot, or when it descends, right
now, from a process so verified (a worker Ray started after the record was written). A process that merely
reused a recorded PID, or one on another machine, is never touched; no process is ever chosen by its name.

A run on an existing cluster (``runner.kind=cluster``) is recorded too, so that ``mmtsb stop`` can say that it
never stops a cluster it did not start; only that run's own driver is ended there.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("mmtsb.runner")

RECORD_NAME = "ray_session.json"
TERM_GRACE_S = 5.0       # after SIGTERM, how long a process may take to exit before SIGKILL


class RunFolderBusy(RuntimeError):
    """Another live driver is playing this run folder."""


# ---------------------------------------------------------------------------------------------- processes
def boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (field 3 on), or None if there is no such PID."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    return raw.rsplit(")", 1)[1].split()


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot): with the PID, what identifies a process for good."""
    fields = _stat(pid)
    if not fields or len(fields) < 20 or fields[0] == "Z":   # a zombie has ended already
        return None
    return int(fields[19])


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def is_same_process(entry: dict[str, Any]) -> bool:
    """The recorded process (``pid`` + ``start``) is alive and is still that process."""
    pid, start = entry.get("pid"), entry.get("start")
    return isinstance(pid, int) and pid > 0 and start is not None and start_time(pid) == start


def identify(pid: int) -> dict[str, Any] | None:
    start = start_time(pid)
    return None if start is None else {"pid": pid, "start": start, "name": _name(pid)}


def descendants(roots: set[int]) -> set[int]:
    """Every live process below ``roots`` (from the parent links in /proc), roots excluded."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:   # no /proc (not Linux): no process can be verified, so none is ended
        return set()
    for entry in entries:
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and len(fields) > 1 and fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry))
    found: set[int] = set()
    frontier = list(roots)
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in found and child not in roots:
                found.add(child)
                frontier.append(child)
    return found


# ---------------------------------------------------------------------------------------------- the record
def record_path(run_dir: Path | str) -> Path:
    return Path(run_dir) / RECORD_NAME


def read_record(run_dir: Path | str) -> dict[str, Any] | None:
    path = record_path(run_dir)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        log.warning("ignoring an unreadable %s (%s)", path, e)
        return None
    return data if isinstance(data, dict) else None


def _write_record(run_dir: Path | str, record: dict[str, Any]) -> None:
    path = record_path(run_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".tmp-{os.getpid()}-{path.name}")
    tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _ray_node() -> Any:
    import ray

    return ray._private.worker._global_node   # the node this driver started (None when it only connected)


def session_processes() -> tuple[list[dict[str, Any]], str | None, str | None]:
    """(the processes of the local Ray session this driver started, its session dir, its GCS address)."""
    node = _ray_node()
    if node is None:
        return [], None, None
    roots: list[int] = []
    for infos in getattr(node, "all_processes", {}).values():
        for info in infos:
            process = getattr(info, "process", None)
            if process is not None and process.poll() is None:
                roots.append(process.pid)
    pids = set(roots) | descendants(set(roots))
    entries = [e for e in (identify(pid) for pid in sorted(pids)) if e is not None]
    return entries, node.get_session_dir_path(), getattr(node, "gcs_address", None)


def claim_run_ray(run_dir: Path | str, kind: str, *, address: str | None = None) -> None:
    """Record that this driver plays ``run_dir`` on the Ray it just started (``kind=local``) or joined
    (``kind=cluster``). Call again to refresh the list (the workers Ray started since)."""
    me = identify(os.getpid()) or {"pid": os.getpid(), "start": None, "name": "python"}
    record: dict[str, Any] = {"kind": kind, "host": socket.gethostname(), "boot_id": boot_id(), "driver": me,
                              "recorded_at": time.time()}
    if kind == "local":
        processes, session_dir, gcs = session_processes()
        record.update(session_dir=session_dir, gcs_address=gcs, processes=processes)
    else:
        record.update(address=address, processes=[])
    _write_record(run_dir, record)


def _is_ours(record: dict[str, Any]) -> bool:
    driver = record.get("driver") or {}
    return record.get("boot_id") == boot_id() and driver.get("pid") == os.getpid() and is_same_process(driver)


def release_run_ray(run_dir: Path | str) -> None:
    """A normal end: forget the record, if it is this driver's (Ray has shut its processes down itself)."""
    record = read_record(run_dir)
    if record is not None and _is_ours(record):
        record_path(run_dir).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------- ending
@dataclass
class StopReport:
    """What :func:`end_leftovers` found and did; ``lines`` say it in words."""

    record: dict[str, Any] | None = None
    ended: list[dict[str, Any]] = field(default_factory=list)       # processes signalled and gone
    survivors: list[dict[str, Any]] = field(default_factory=list)   # still alive after SIGKILL (should not be)
    driver_ended: bool = False
    elsewhere: bool = False      # recorded on another machine (or boot): nothing here could be checked
    lines: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.survivors and not self.elsewhere


def _signal(entry: dict[str, Any], sig: int) -> bool:
    if not is_same_process(entry):
        return False
    try:
        os.kill(entry["pid"], sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _end(entries: list[dict[str, Any]], grace_s: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """SIGTERM, up to ``grace_s`` to exit, then SIGKILL; (ended, survivors). Identity is checked at every step."""
    targets = [e for e in entries if _signal(e, signal.SIGTERM)]
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and any(is_same_process(e) for e in targets):
        time.sleep(0.05)
    for e in targets:
        _signal(e, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline and any(is_same_process(e) for e in targets):
        time.sleep(0.05)
    survivors = [e for e in targets if is_same_process(e)]
    return [e for e in targets if e not in survivors], survivors


def _describe(entries: list[dict[str, Any]]) -> str:
    return ", ".join(f"{e.get('name', '?')} (pid {e['pid']})" for e in entries)


def end_leftovers(run_dir: Path | str, *, stop_live_driver: bool = False,
                  grace_s: float = TERM_GRACE_S) -> StopReport:
    """End what the previous driver of ``run_dir`` left running, then remove its record.

    A driver that still runs (another live process playing this folder) is ended only with
    ``stop_live_driver`` (``mmtsb stop``); otherwise :class:`RunFolderBusy` is raised and nothing is touched.
    A cluster run's record ends at most its driver, never the cluster. This process's own record (a run
    started earlier in the same process) is simply dropped."""
    report = StopReport(record=read_record(run_dir))
    record = report.record
    path = record_path(run_dir)
    if record is None:
        report.lines.append(f"nothing to stop: {path} does not exist (no run is recorded as using this folder)")
        return report
    driver = record.get("driver") or {}
    if record.get("boot_id") != boot_id():
        if record.get("host") and record.get("host") != socket.gethostname():
            report.elsewhere = True
            report.lines.append(f"{path} was written on host {record.get('host')}: its processes can only be "
                                f"checked there; run `mmtsb stop {run_dir}` on that host")
            return report
        report.lines.append(f"{path} is from before this machine last booted: nothing of it can be alive")
        path.unlink(missing_ok=True)
        return report
    if _is_ours(record):
        path.unlink(missing_ok=True)
        return report
    if is_same_process(driver):
        if not stop_live_driver:
            raise RunFolderBusy(f"run folder {run_dir} is being played by a live driver (pid {driver.get('pid')}, "
                                f"recorded in {path}); wait for it, or end it with `mmtsb stop {run_dir}`")
        ended, survivors = _end([driver], grace_s)
        report.driver_ended = bool(ended)
        report.ended += ended
        report.survivors += survivors
    if record.get("kind") != "local":
        report.lines.append(f"{run_dir} ran on an existing Ray cluster ({record.get('address') or 'auto'}): "
                            "mmtsb never stops a cluster it did not start; that run's actors end with its driver")
    else:
        recorded = [e for e in record.get("processes") or [] if isinstance(e, dict)]
        alive = [e for e in recorded if is_same_process(e)]
        below = descendants({e["pid"] for e in alive}) - {e["pid"] for e in alive}
        extra = [e for e in (identify(pid) for pid in sorted(below)) if e is not None]
        ended, survivors = _end(alive + extra, grace_s)
        report.ended += ended
        report.survivors += survivors
        stale = len(recorded) - len(alive)
        if stale:
            report.lines.append(f"{stale} recorded process(es) had ended already or their PID now belongs to "
                                "another process (left alone)")
    if report.ended:
        report.lines.insert(0, f"ended {len(report.ended)} process(es) of the run in {run_dir} "
                               f"(Ray session {record.get('session_dir') or '-'}): {_describe(report.ended)}")
    else:
        report.lines.insert(0, f"nothing to stop: no process of the run recorded in {path} is still alive")
    if report.survivors:
        report.lines.append(f"still alive after SIGKILL: {_describe(report.survivors)}; {path} is kept")
    else:
        path.unlink(missing_ok=True)
    return report


def end_previous_run(run_dir: Path | str) -> StopReport:
    """At the start (or resume) of a run: :func:`end_leftovers` of the folder's previous driver, said in the log.
    Raises :class:`RunFolderBusy` when a live driver still plays the folder."""
    report = end_leftovers(run_dir)
    if report.ended or report.survivors or report.elsewhere:
        for line in report.lines:
            log.warning("previous run of %s: %s", run_dir, line)
    return report
