"""The platform runner: ``execute_run(settings)`` plays every (scenario, repeat) of a run on Ray actors (or in
this process), streams each finished episode to the run folder the moment it comes back, and summarizes.

Scheduling (the same for ``local``, ``cluster`` and ``inprocess``): at most ``runner.max_concurrency``
episodes are in flight, each submitted to the least loaded actor (an actor plays up to its
``max_concurrency`` episodes as asyncio tasks over one RoleFactory). Results are awaited as they complete
(``asyncio.wait`` over the actors' object refs) and written from the driver: trajectory first, then the row's
part file, both atomically, so an episode is recorded exactly when its part file exists.

Failures (classes: mmtsb.protocol.failures): an infrastructure failure (a provider error that outlived the
call's own retries, a crash, a dead actor) is retried with a fresh attempt up to ``runner.max_infra_retries``
times (a dead actor is replaced); the usage of the attempts thrown away is added to the row that is kept
(``earlier_attempts_*``), so totals are true. A configuration failure (credentials, a refused request) is
recorded and stops the run: no new episode starts (``summary.stopped``), since every other one would fail the
same way. A scenario failure is recorded against its file, never retried. Rows of these classes carry
``infra_failure=True`` (left out of agent metrics) and their ``failure_class``. An episode that ran and simply
failed is an agent failure: recorded as is, never retried.

Resume: starting the same run again (same config, same run folder) skips every episode whose row is recorded,
except rows of an infrastructure or configuration failure, which are played again (the new row replaces the
old one); a run killed at any point (even ``kill -9``) finishes with each episode exactly once.
"""

from __future__ import annotations

import asyncio
import json
import copy
import logging
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from mmtsb.protocol.failures import EXCLUDED, RETRIED, FailureClass, replayed_on_resume
from mmtsb.config.secrets import collect_secrets
from mmtsb.runner.backends import Backend, make_backend
from mmtsb.runner.leftovers import end_previous_run
from mmtsb.runner.provenance import code_provenance, record_provenance
from mmtsb.runner.summary import RunSummary, summarize
from mmtsb.runner.progress import ProgressView, RunningStats
from mmtsb.runner.results import RunLayout
from mmtsb.runner.settings import RunSettings, episode_id, episode_seed
from mmtsb.runner.worker import EpisodeTask, WarmUp, failure_trajectory, outcome_of
from mmtsb.report.data import INVALID_SCENARIOS
from mmtsb.text import error_headline
from mmtsb.scenarios.loader import expand_paths
from mmtsb.view.rowcache import prime_rows_cache

log = logging.getLogger("mmtsb.runner")


# ---------------------------------------------------------------------------------------------- planning
def scenario_files(settings: RunSettings) -> dict[str, Path]:
    """Scenario name (file stem) -> file, in order; directories expand to their ``*.json`` files."""
    files: dict[str, Path] = {}
    missing = []
    for path in expand_paths(settings.scenarios):
        if not path.is_file():
            missing.append(str(path))
            continue
        name, path = path.stem, path.resolve()   # absolute: actors may run elsewhere (cluster, shared FS)
        if name in files and files[name] != path:
            raise ValueError(f"two scenario files share the name {name!r}: {files[name]} and {path}; "
                             "episode ids must be unique within a run")
        files.setdefault(name, path)
    if missing:
        raise FileNotFoundError(f"scenario files not found: {', '.join(missing)}")
    if not files:
        raise ValueError(f"no scenario files in {[str(p) for p in settings.scenarios]}")
    return files


def _model_label(kind: str, model: str, uses_model: bool) -> str:
    return model if uses_model and model else kind


def plan_episodes(settings: RunSettings) -> list[EpisodeTask]:
    """Every (scenario, repeat) of the run, each with its own seed and a copy of the episode config."""
    if settings.repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {settings.repeats}")
    base = copy.deepcopy(settings.episode)
    for key in ("image_root", "response_cache_dir"):   # relative to the driver's folder, not the actors'
        if getattr(base, key):
            setattr(base, key, str(Path(getattr(base, key)).resolve()))
    needs = base.roles_needing_models()
    labels = {f"{role}_model": _model_label(getattr(base, role), base.role_settings(role).model, needs[role])
              for role in ("agent", "user", "judge")}
    tasks = []
    files = scenario_files(settings)
    code = code_provenance()
    provenance = {"code_commit": code["code_commit"], "code_dirty": code["code_dirty"], "protocol": base.protocol}
    for repeat in range(settings.repeats):
        for name, path in files.items():
            seed = episode_seed(name, repeat, settings.config_hash, base.seed)
            cfg = copy.deepcopy(base)
            cfg.seed = seed
            eid = episode_id(name, repeat, settings.config_hash)
            task = EpisodeTask(episode_id=eid, scenario=name, path=str(path), repeat=repeat, seed=seed, cfg=cfg)
            task.run = {"episode_id": eid, "repeat": repeat, "seed": seed, "config_hash": settings.config_hash,
                        "dataset": settings.dataset, "toolbox": cfg.toolbox, **labels, **provenance}
            tasks.append(task)
    return tasks


def uses_models(settings: RunSettings) -> bool:
    return any(settings.episode.roles_needing_models().values())


# ---------------------------------------------------------------------------------------------- the run
class _Run:
    """One execution of a run: schedules episodes on a backend and records them as they finish."""

    def __init__(self, settings: RunSettings, layout: RunLayout, stats: RunningStats) -> None:
        self.settings = settings
        self.layout = layout
        self.stats = stats
        self.max_retries = max(0, settings.runner.max_infra_retries)
        self.stopped: str | None = None               # why no new episode starts (a configuration failure)
        self.not_played = 0                           # episodes left unplayed when the run stopped
        self.first_submitted: float | None = None     # perf_counter of the first submission
        self.last_durable: float | None = None        # perf_counter right after the last part file was written

    def record(self, task: EpisodeTask, outcome: dict[str, Any]) -> dict[str, Any]:
        """Trajectory file, then the part file (both atomic): from now on the episode counts as done."""
        self.layout.write_trajectory(task.episode_id, outcome["trajectory_json"])
        failure = outcome["failure_class"]
        row = {**outcome["row"], **task.run, "attempts": task.attempts,
               "infra_failure": failure is not None and FailureClass(failure) in EXCLUDED,
               **{f"earlier_attempts_{k}": v for k, v in task.earlier_attempts.items()},
               "trajectory_path": self.layout.trajectory_relpath(task.episode_id), "finished_at": time.time()}
        self.layout.write_row(task.episode_id, row)
        self.last_durable = time.perf_counter()
        return row

    @property
    def play_s(self) -> float | None:
        """From the first episode submitted to the last result row durable (None before any)."""
        if self.first_submitted is None or self.last_durable is None:
            return None
        return round(self.last_durable - self.first_submitted, 4)

    async def schedule(self, backend: Backend, tasks: list[EpisodeTask], concurrency: int,
                       view: ProgressView) -> None:
        pending = deque(tasks)
        inflight: dict[asyncio.Future[dict[str, Any]], tuple[EpisodeTask, int, int]] = {}
        load = [0] * backend.slots
        while pending or inflight:
            while pending and len(inflight) < concurrency and self.stopped is None:
                task = pending.popleft()
                slot = min(range(backend.slots), key=load.__getitem__)
                task.attempts += 1
                if self.first_submitted is None:
                    self.first_submitted = time.perf_counter()
                fut, generation = backend.submit(slot, task)
                inflight[fut] = (task, slot, generation)
                load[slot] += 1
            if not inflight:   # stopped with episodes left: they stay unrecorded (a resume plays them)
                self.not_played = len(pending)
                return
            done, _ = await asyncio.wait(inflight, return_when=asyncio.FIRST_COMPLETED)
            for fut in done:
                task, slot, generation = inflight.pop(fut)
                load[slot] -= 1
                outcome = await self._outcome(backend, fut, task, slot, generation)
                self.layout.write_images(outcome.get("images") or [])   # sent once per worker: never dropped
                failure = FailureClass(outcome["failure_class"]) if outcome["failure_class"] else None
                if failure in RETRIED and task.attempts <= self.max_retries:
                    self.stats.retries += 1
                    task.add_earlier_attempt(outcome["row"])
                    log.warning("episode %s: infrastructure failure on attempt %d, retrying: %s", task.episode_id,
                                task.attempts, error_headline(outcome["error"])[:300])
                    pending.appendleft(task)
                    continue
                if failure == FailureClass.CONFIGURATION and self.stopped is None:
                    self.stopped = error_headline(outcome["error"] or "configuration error")[:500]
                    log.error("stopping the run: episode %s failed on the run's configuration, which every other "
                              "episode shares: %s. Fix it and run the same command again: the episodes not "
                              "played, and this one, are played then.", task.episode_id, self.stopped)
                row = self.record(task, outcome)
                self.stats.add(row)
                view.refresh()
                log.info("episode %s done: agent_pass=%s entity_f1=%s end=%s attempts=%d", task.episode_id,
                         row.get("agent_pass"), row.get("entity_f1"), row.get("end_reason"), task.attempts)

    async def _outcome(self, backend: Backend, fut: asyncio.Future[dict[str, Any]], task: EpisodeTask, slot: int,
                       generation: int) -> dict[str, Any]:
        exc = fut.exception()
        if exc is None:
            return fut.result()
        if backend.is_actor_death(exc):
            await backend.replace(slot, generation)
            error = f"episode actor died: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        else:
            error = f"{type(exc).__name__}: {exc}"
        trajectory = failure_trajectory(task, error, FailureClass.INFRASTRUCTURE)
        trajectory.run = {**task.run, "attempt": task.attempts}
        return outcome_of(trajectory)


def _write_config(settings: RunSettings, layout: RunLayout) -> None:
    """``config.yaml`` (the resolved config, secrets already removed) unless the launcher wrote one."""
    target = layout.run_dir / "config.yaml"
    if target.exists() or not settings.resolved_config:
        return
    import yaml

    target.write_text(yaml.safe_dump(settings.resolved_config, sort_keys=False, default_flow_style=False))


def _finish(settings: RunSettings, layout: RunLayout, duration_s: float, planned: int,
            phases: dict[str, Any] | None = None, invalid: list[str] | None = None) -> RunSummary:
    rows = layout.read_rows()
    prime_rows_cache(layout.run_dir, rows)   # `mmtsb view` opens the finished run without reading every part
    hashes = {r.get("config_hash") for r in rows} - {settings.config_hash}
    if hashes:
        log.warning("run folder %s also holds episodes of other configs (%s); the summary covers all of them",
                    layout.run_dir, ", ".join(sorted(str(h) for h in hashes)))
    summary = summarize(rows, duration_s)
    for key, value in (phases or {}).items():
        setattr(summary, key, value)
    summary.invalid_scenarios = list(invalid or [])
    layout.write_summary({**summary.to_dict(), "planned_episodes": planned, "config_hash": settings.config_hash,
                          "dataset": settings.dataset, "repeats": settings.repeats, "protocol": settings.episode.protocol,
                          **code_provenance()})
    try:
        from mmtsb.report import build_report
    except ImportError as e:
        log.info("report builder not available (%s); summary.json only", e)
    else:
        try:
            build_report(layout.run_dir)
        except Exception:  # noqa: BLE001 (the results are safe on disk; a report can be rebuilt later)
            log.exception("building the report of %s failed; rebuild it with `mmtsb report`", layout.run_dir)
    if settings.logging.wandb:
        try:
            from mmtsb.report import log_wandb

            log_wandb(layout.run_dir, settings)
        except Exception:  # noqa: BLE001 (optional sink)
            log.exception("logging %s to W&B failed", layout.run_dir)
    return summary


def invalid_scenarios(tasks: list[EpisodeTask], settings: RunSettings) -> dict[str, list[str]]:
    """The files among ``tasks`` that ``mmtsb scenarios validate`` rejects (schema, world, specs, messages),
    with their errors: they are reported, never played (an unplayable file must not count as an agent failure).
    Tools a file expects that are not implemented are not a reason to refuse it."""
    from mmtsb.scenarios.validate import validate_file
    from mmtsb.tools.toolbox import full_registry

    out: dict[str, list[str]] = {}
    registry = full_registry()
    cfg = settings.episode
    for path in dict.fromkeys(t.path for t in tasks):
        report = validate_file(path, registry, image_root=cfg.image_root, images=cfg.images)  # type: ignore[arg-type]
        if report.errors:
            out[path] = list(report.errors)
    return out


def _write_invalid(layout: RunLayout, invalid: dict[str, list[str]]) -> None:
    target = layout.run_dir / INVALID_SCENARIOS
    if not invalid:
        target.unlink(missing_ok=True)
        return
    target.write_text(json.dumps([{"file": f, "errors": e} for f, e in invalid.items()], indent=2) + "\n",
                      encoding="utf-8")
    for file, errors in invalid.items():
        log.warning("not played: %s is not a valid scenario: %s", file, "; ".join(errors[:3]))


async def execute_run_async(settings: RunSettings, *, progress: bool = True) -> RunSummary:
    """:func:`execute_run` for callers already inside an event loop. A missing key or sink stops the run before
    its first episode (RunConfigError naming the fix: mmtsb.config.preflight). Files that do not validate are
    reported (``invalid_scenarios.json``, the summary's ``invalid_scenarios``) and not played."""
    t0 = time.perf_counter()
    from mmtsb.config.build import RunConfigError
    from mmtsb.config.preflight import run_problems

    if problems := run_problems(settings):   # what would fail every episode the same way: stop now
        raise RunConfigError("; ".join(problems))
    layout = RunLayout(settings.run_dir, secrets=collect_secrets(settings))
    layout.prepare()
    end_previous_run(layout.run_dir)   # a killed driver's Ray processes must not keep calling the model
    _write_config(settings, layout)
    record_provenance(layout.run_dir, settings.config_hash)
    tasks = plan_episodes(settings)
    done = layout.done_ids()
    replay = {r.get("episode_id") for r in layout.read_rows() if replayed_on_resume(r)} if done else set()
    if replay:
        log.info("resuming %s: %d recorded episode(s) ended in an infrastructure or configuration failure and "
                 "are played again", layout.run_dir, len(replay & done))
        done -= replay
    invalid = invalid_scenarios([t for t in tasks if t.episode_id not in done], settings)
    _write_invalid(layout, invalid)
    tasks = [t for t in tasks if t.path not in invalid]
    todo = [t for t in tasks if t.episode_id not in done]
    stats = RunningStats()
    planned_ids = {t.episode_id for t in tasks}
    if done & planned_ids:
        for row in layout.read_rows():
            if row.get("episode_id") in planned_ids & done:
                stats.add(row)
        log.info("resuming %s: %d of %d episodes already recorded", layout.run_dir, len(tasks) - len(todo),
                 len(tasks))
    phases: dict[str, Any] = {}
    if todo:
        concurrency = max(1, min(settings.runner.max_concurrency, len(todo)))
        backend = make_backend(settings.runner, concurrency, uses_models=uses_models(settings),
                               run_dir=layout.run_dir)
        run = _Run(settings, layout, stats)
        try:
            started = time.perf_counter()
            await backend.start(WarmUp.for_tasks(todo))
            phases["startup_s"] = round(time.perf_counter() - started, 4)
            with ProgressView(len(tasks), stats, enabled=progress,
                              interval_s=settings.runner.progress_interval_s) as view:
                await run.schedule(backend, todo, concurrency, view)
            phases["play_s"] = run.play_s
            phases["stopped"], phases["not_played"] = run.stopped, run.not_played
        finally:
            await backend.stop()
    return _finish(settings, layout, time.perf_counter() - t0, len(tasks), phases, invalid=sorted(invalid))


def execute_run(settings: RunSettings, *, progress: bool = True) -> RunSummary:
    """Run every episode of ``settings`` not yet recorded in its run folder; returns the run's summary."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(execute_run_async(settings, progress=progress))
    box: dict[str, Any] = {}

    def target() -> None:   # called from inside a running loop: run ours on a thread of its own
        try:
            box["value"] = asyncio.run(execute_run_async(settings, progress=progress))
        except BaseException as e:  # noqa: BLE001 (re-raised in the caller)
            box["error"] = e

    thread = threading.Thread(target=target, name="mmtsb-run")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
