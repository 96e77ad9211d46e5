"""EpisodeWorker: plays many episodes concurrently (asyncio tasks) with ONE RoleFactory.

In a Ray run it is the body of an episode actor (``ray.remote(EpisodeWorker).options(max_concurrency=N)``:
its async methods run as tasks on the actor's event loop); in-process it is used directly. Either way an
episode comes back as plain data: the results row (without run fields) and the trajectory as a JSON string,
so the driver only writes files and never rebuilds big objects.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.gc_tuning import tune_gc_for_worker
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.episode.play import play_scenario
from mmtsb.protocol import registry
from mmtsb.protocol.failures import FailureClass, exception_class
from mmtsb.roles.factory import RoleFactory
from mmtsb.protocol.trajectory import Trajectory
from mmtsb.runner.rows import USAGE_FIELDS, episode_row, role_keys
from mmtsb.scenarios.loader import ScenarioError
from mmtsb.vision.store import StoredImage
from mmtsb.world.templates import WorldCache

#: the usage an episode's thrown-away attempts add to its row (``earlier_attempts_<field>``)
EARLIER_ATTEMPT_FIELDS = USAGE_FIELDS
#: scenarios whose worlds an episode process builds before its first episode (bounded: each costs ~0.1 s)
WARM_SCENARIOS = 32


@dataclass
class EpisodeTask:
    """One episode of a run: which scenario, which repeat, its seed and its (per-episode) config."""

    episode_id: str
    scenario: str
    path: str
    repeat: int
    seed: int
    cfg: EpisodeConfig
    attempts: int = 0
    run: dict[str, Any] = field(default_factory=dict)   # the run-level row fields (ids, seed, hash, labels)
    #: usage summed over the attempts retried and thrown away (tokens, calls, failed calls, cost), all roles
    earlier_attempts: dict[str, float] = field(default_factory=lambda: dict.fromkeys(EARLIER_ATTEMPT_FIELDS, 0))

    def add_earlier_attempt(self, row: dict[str, Any]) -> None:
        """Count the usage of an attempt about to be retried (its row and trajectory are not kept)."""
        for k in EARLIER_ATTEMPT_FIELDS:
            self.earlier_attempts[k] += sum((row.get(f"{role}_{k}") or 0) for role in role_keys())
        self.earlier_attempts["cost_usd"] = round(self.earlier_attempts["cost_usd"], 8)


@dataclass
class WarmUp:
    """What an episode process prepares before its first episode: the run's toolbox and the worlds of its first
    scenarios (their base-world templates are then cached), so the one-time costs land in start-up, not in
    the first episodes of a run (where, with hundreds starting at once, they would delay every other one)."""

    cfg: EpisodeConfig
    paths: list[str] = field(default_factory=list)

    @classmethod
    def for_tasks(cls, tasks: list[EpisodeTask], max_scenarios: int = WARM_SCENARIOS) -> WarmUp | None:
        if not tasks:
            return None
        paths = list(dict.fromkeys(t.path for t in tasks))[:max_scenarios]
        return cls(cfg=tasks[0].cfg, paths=paths)


async def warm_up_process(warm_up: WarmUp, factory: RoleFactory | None = None,
                          worlds: WorldCache | None = None) -> dict[str, Any]:
    """Import the episode stack (the configured roles are made and closed once: an LLM role pulls in litellm),
    build the toolbox, start the sandbox's template when the interface runs code (its protection layers are
    reported), and build (then drop) a world per listed scenario, which leaves its templates in ``worlds``; a
    scenario that fails to build is skipped here (its episode reports the error). Returns what was done."""
    if factory is None:
        own = RoleFactory()
        try:
            return await warm_up_process(warm_up, own, worlds)
        finally:
            await own.aclose()
    import mmtsb.episode.delivery  # noqa: F401  (pulls rouge-score, nltk and scipy: ~1 s of imports)
    from mmtsb.scenarios.build import build_world
    from mmtsb.scenarios.loader import load_scenario
    from mmtsb.tools.levels import registry_for_level

    started = time.process_time()
    done: dict[str, Any] = {}
    try:
        roles = [factory.agent(warm_up.cfg), factory.user(warm_up.cfg), *factory.judges(warm_up.cfg).values()]
    except Exception:  # noqa: BLE001 (a role that cannot be made fails its episodes, with their own report)
        roles = []
    for role in roles:
        await role.close()
    models = [warm_up.cfg.role_settings(r) for r, needed in warm_up.cfg.roles_needing_models().items() if needed]
    if models:
        from mmtsb.llm.client import prepare_for

        done["litellm"] = prepare_for(models)   # litellm loads on first use: ~2 s a process, not mid-run
    registry_for_level(warm_up.cfg.toolbox)
    if registry.interface(warm_up.cfg.interface).runs_code:
        try:
            done["sandbox_layers"] = await asyncio.to_thread(factory.sandbox.active_layers)
        except Exception as e:  # noqa: BLE001 (the episodes report a sandbox that cannot start)
            done["sandbox_error"] = f"{type(e).__name__}: {e}"
    built = 0
    for path in warm_up.paths:
        try:
            world = build_world(load_scenario(Path(path)), image_root=warm_up.cfg.image_root,
                                images=warm_up.cfg.images, file=path, seed=warm_up.cfg.seed, cache=worlds).world
        except Exception:  # noqa: BLE001 (reported by the episode itself)
            continue
        world.close()
        built += 1
    return {"worlds": built, **done, "cpu_s": round(time.process_time() - started, 3)}


def failure_trajectory(task: EpisodeTask, error: str, failure: FailureClass) -> Trajectory:
    """The record of an episode that raised instead of finishing (no world, no verdicts)."""
    return Trajectory(scenario=task.scenario, scenario_file=task.path, interface=task.cfg.interface, seed=task.seed,
                      end_reason="error", error=error, failure_class=failure.value)


def outcome_of(trajectory: Trajectory, images: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What travels back to the driver: the row, the trajectory JSON, how the episode failed, if it did
    (``failure_class``: see mmtsb.protocol.failures), and the bytes of images the driver may not have yet
    (``images``: ``{"sha256", "mime_type", "data"}`` each, saved by ``RunLayout.write_image``)."""
    return {"row": episode_row(trajectory), "trajectory_json": trajectory.to_json(),
            "failure_class": trajectory.failure_class, "error": trajectory.error, "images": images or []}


class SentImages:
    """The images one worker has already sent to its driver, by hash: each travels once per worker (a
    scenario's images are shared by all its episodes), and the driver writes only the files it lacks."""

    def __init__(self) -> None:
        self._sent: set[str] = set()

    def new(self, images: tuple[StoredImage, ...]) -> list[dict[str, Any]]:
        out = []
        for image in images:
            if image.sha256 not in self._sent:
                self._sent.add(image.sha256)
                out.append({"sha256": image.sha256, "mime_type": image.mime_type, "data": image.data})
        return out


class EpisodeWorker:
    """Owns one RoleFactory (shared limits, image cache, response caches, the sandbox server) and one WorldCache
    (kept world templates), and plays episodes on request."""

    def __init__(self, *, gate: Any = None, holder: str = "inprocess", provider_limits: dict[str, int] | None = None,
                 bypass_at: int | None = None, gate_timeout_s: float | None = None) -> None:
        self.factory = RoleFactory()
        self.worlds = WorldCache()      # the world templates this process keeps (see mmtsb.world.templates)
        self.sent_images = SentImages()
        self.holder = holder
        # imported only when needed: the LLM stack (litellm) costs ~140 MB per process
        if gate is not None:
            from mmtsb.roles.llm_common import LIMITS_KEY
            from mmtsb.runner.gated_limits import GatedLimits

            # the roles read their limits from the factory's shared dict (mmtsb.roles.llm_common)
            self.factory.shared[LIMITS_KEY] = GatedLimits(gate, holder, overrides=provider_limits,
                                                           bypass_at=bypass_at, timeout_s=gate_timeout_s)
        elif provider_limits:
            from mmtsb.llm.limits import ProviderLimits
            from mmtsb.roles.llm_common import LIMITS_KEY

            self.factory.shared[LIMITS_KEY] = ProviderLimits(provider_limits)

    async def ready(self) -> str:
        return self.holder

    async def warm(self, warm_up: WarmUp | None, *, own_process: bool = False) -> dict[str, Any]:
        """Pay this process's one-time costs before the first episode (see :func:`warm_up_process`).

        ``own_process`` (an episode actor, a process of its own): then also move everything imported and built
        so far out of the garbage collector's sight and collect young objects less often, since hundreds of
        concurrent episodes allocate fast and full collections would otherwise rescan the whole stack."""
        done = await warm_up_process(warm_up, self.factory, self.worlds) if warm_up is not None else {}
        if own_process:
            tune_gc_for_worker()
        return done

    async def play(self, task: EpisodeTask) -> dict[str, Any]:
        """Play one episode; never raises for episode-level problems (they come back classified)."""
        started = time.perf_counter()
        run = {**task.run, "attempt": task.attempts, "actor": self.holder}
        try:
            result = await play_scenario(Path(task.path), task.cfg, factory=self.factory, worlds=self.worlds)
        except ScenarioError as e:   # a broken scenario file fails the same way every time: not retried
            trajectory = failure_trajectory(task, f"ScenarioError: {e}", FailureClass.SCENARIO)
            trajectory.run = run
            return outcome_of(trajectory)
        except Exception as e:       # noqa: BLE001 (classified: a missing key is not retried, a crash is)
            trajectory = failure_trajectory(task, f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=6)}",
                                            exception_class(e))
            trajectory.timing.duration_s = round(time.perf_counter() - started, 4)
            trajectory.run = run
            return outcome_of(trajectory)
        result.record.run = run
        return outcome_of(result.record, self.sent_images.new(result.images))
