"""Where episodes are played: a pool of Ray actors (``local``/``cluster``) or this process (``inprocess``).

A backend offers numbered slots (one per actor), ``submit(slot, task)`` returning an asyncio future of the
episode's outcome, and ``replace(slot)`` for a dead actor. The scheduler in :mod:`mmtsb.runner.execute` is
the same for every backend.

A Ray backend given its run folder owns the local Ray it starts: it first ends what a killed earlier driver of
the same folder left running, then records the session in ``ray_session.json`` (removed at a normal end), see
:mod:`mmtsb.runner.leftovers`. The provider gate is restarted by Ray if it dies (``max_restarts=-1``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import uuid
from pathlib import Path
from typing import Any, Protocol

from mmtsb.runner.settings import RunnerSettings
from mmtsb.runner.worker import EpisodeTask, EpisodeWorker, WarmUp

log = logging.getLogger("mmtsb.runner")

GATE_MAX_CONCURRENCY = 100_000    # every waiting acquire holds one call on the gate actor


class Backend(Protocol):
    slots: int
    per_slot: int

    async def start(self, warm_up: WarmUp | None = None) -> None: ...
    def submit(self, slot: int, task: EpisodeTask) -> tuple[asyncio.Future[dict[str, Any]], int]: ...
    def is_actor_death(self, exc: BaseException) -> bool: ...
    async def replace(self, slot: int, generation: int) -> None: ...
    async def stop(self) -> None: ...


class InProcessBackend:
    """Every episode is an asyncio task of this process, over one EpisodeWorker (one RoleFactory)."""

    def __init__(self, runner: RunnerSettings, concurrency: int) -> None:
        self.slots, self.per_slot = 1, max(1, concurrency)
        self.worker = EpisodeWorker(provider_limits=dict(runner.provider_limits))

    async def start(self, warm_up: WarmUp | None = None) -> None:
        if warm_up is not None:
            log.info("warm-up: %s", await self.worker.warm(warm_up))

    def submit(self, slot: int, task: EpisodeTask) -> tuple[asyncio.Future[dict[str, Any]], int]:
        return asyncio.ensure_future(self.worker.play(task)), 0

    def is_actor_death(self, exc: BaseException) -> bool:
        return False

    async def replace(self, slot: int, generation: int) -> None:
        return None

    async def stop(self) -> None:
        await self.worker.factory.aclose()
        if "mmtsb.llm.runtime" in sys.modules:   # litellm queued logging work on this loop: drain it
            from mmtsb.llm.runtime import flush_litellm_logging

            await flush_litellm_logging()


#: without an explicit ``num_actors``, at most this many episode actors per CPU: one asyncio loop per core
#: keeps the cores busy; more actors only add startup time, ~300 MB each (the LLM stack) and contention
#: (benchmarks/concurrency.py, 512 episodes on 2 CPUs: 2 actors 0.76 efficiency, 4 actors 0.73, 1 actor 0.58)
ACTORS_PER_CPU = 1


def pool_shape(runner: RunnerSettings, concurrency: int, cpus: float | None = None) -> tuple[int, int]:
    """(actors, concurrent episodes per actor) for ``concurrency`` episodes in flight.

    ``num_actors`` if set, else ``concurrency / episodes_per_actor`` actors, capped at ``ACTORS_PER_CPU``
    per CPU of the cluster (the episodes per actor grow instead)."""
    concurrency = max(1, concurrency)
    if runner.num_actors:
        actors = runner.num_actors
    else:
        actors = math.ceil(concurrency / max(1, runner.episodes_per_actor))
        if cpus:
            actors = min(actors, max(1, int(ACTORS_PER_CPU * cpus)))
    actors = max(1, min(actors, concurrency))
    return actors, math.ceil(concurrency / actors)


def init_ray(runner: RunnerSettings) -> bool:
    """Start (``local``) or join (``cluster``) Ray unless it is already up; True if this call started it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    if ray.is_initialized():
        return False
    common: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "logging_level": logging.WARNING, "namespace": "mmtsb"}
    if runner.kind == "cluster":
        ray.init(address=runner.address or "auto", **common)
    else:
        mb = runner.object_store_memory_mb
        ray.init(num_cpus=runner.num_cpus, object_store_memory=mb * 1024 * 1024 if mb else None, **common)
    return True


class RayBackend:
    """A pool of episode actors (each an EpisodeWorker with ``max_concurrency`` = episodes per actor) and,
    when a role calls a model, one ProviderGate actor that enforces the per-provider caps across them."""

    def __init__(self, runner: RunnerSettings, concurrency: int, *, uses_models: bool,
                 run_dir: Path | str | None = None) -> None:
        self.runner = runner
        self.run_dir = Path(run_dir) if run_dir is not None else None
        self.claimed = False      # this backend wrote the run folder's ray_session.json
        self.concurrency = max(1, concurrency)
        self.slots, self.per_slot = pool_shape(runner, self.concurrency)   # final shape: see start()
        self.uses_models = uses_models
        self.run_token = uuid.uuid4().hex[:8]
        self.started_ray = False
        self.gate: Any = None
        self.actors: list[Any] = []
        self.generations: list[int] = []
        self._actor_cls: Any = None
        self._cpus = 0.0
        self._warm_up: WarmUp | None = None

    def _actor_name(self, slot: int, generation: int) -> str:
        return f"mmtsb-episodes-{self.run_token}-{slot}-g{generation}"

    def _cpus_per_actor(self, total: float) -> float:
        return 0.0 if total <= 0 else math.floor(min(1.0, total / self.slots) * 1000) / 1000

    async def start(self, warm_up: WarmUp | None = None) -> None:
        import ray

        from mmtsb.runner.gate import ProviderGate

        if self.run_dir is not None:
            from mmtsb.runner.leftovers import end_previous_run

            end_previous_run(self.run_dir)   # RunFolderBusy if a live driver still plays the folder
        self.started_ray = init_ray(self.runner)
        self._claim()
        limits = dict(self.runner.provider_limits)
        if self.uses_models:   # restarted by Ray if it dies; it starts empty and callers ask again
            self.gate = ray.remote(ProviderGate).options(
                name=f"mmtsb-gate-{self.run_token}", max_concurrency=GATE_MAX_CONCURRENCY, num_cpus=0,
                max_restarts=-1, max_task_retries=0,
            ).remote(limits)
        self._actor_cls = ray.remote(EpisodeWorker)
        total_cpus = float(ray.cluster_resources().get("CPU", 0.0))
        self.slots, self.per_slot = pool_shape(self.runner, self.concurrency, total_cpus)
        cpus = self._cpus = self._cpus_per_actor(total_cpus)
        for slot in range(self.slots):
            self.actors.append(self._spawn(slot, 0, limits))
            self.generations.append(0)
        await asyncio.gather(*(a.ready.remote() for a in self.actors))
        self._warm_up = warm_up
        if warm_up is not None:   # every actor pays its one-time costs before the first episode is submitted
            done = await asyncio.gather(*(a.warm.remote(warm_up, own_process=True) for a in self.actors))
            log.info("warm-up: %s", done)
        self._claim()   # again, now that the actors' worker processes exist
        log.info("ray pool: %d actors x %d episodes (%.3f CPU each)", self.slots, self.per_slot, cpus)

    def _claim(self) -> None:
        """Record the Ray this run started (``local``) or joined (``cluster``) in the run folder."""
        if self.run_dir is None or not (self.started_ray or self.claimed):
            return   # a Ray that was up before the run (a test's, a notebook's) is not the run's to end
        from mmtsb.runner.leftovers import claim_run_ray

        try:
            claim_run_ray(self.run_dir, self.runner.kind, address=self.runner.address)
            self.claimed = True
        except Exception:  # noqa: BLE001 (the run goes on; only `mmtsb stop` loses its record)
            log.exception("could not record the Ray session in %s", self.run_dir)

    def _spawn(self, slot: int, generation: int, limits: dict[str, int]) -> Any:
        name = self._actor_name(slot, generation)
        return self._actor_cls.options(name=name, max_concurrency=self.per_slot, num_cpus=self._cpus,
                                       max_restarts=0).remote(
            gate=self.gate, holder=name, provider_limits=limits, bypass_at=self.concurrency,
            gate_timeout_s=self.runner.gate_timeout_s)

    def submit(self, slot: int, task: EpisodeTask) -> tuple[asyncio.Future[dict[str, Any]], int]:
        ref = self.actors[slot].play.remote(task)
        return asyncio.wrap_future(ref.future()), self.generations[slot]

    def is_actor_death(self, exc: BaseException) -> bool:
        from ray.exceptions import RayActorError

        return isinstance(exc, RayActorError)

    async def replace(self, slot: int, generation: int) -> None:
        """Start a fresh actor for ``slot`` (once per death) and free the dead one's provider slots."""
        if self.generations[slot] != generation:
            return
        import ray

        old = self._actor_name(slot, generation)
        try:
            ray.kill(self.actors[slot], no_restart=True)
        except Exception:  # noqa: BLE001 (already gone)
            pass
        if self.gate is not None:
            self.gate.release_holder.remote(old)
        self.generations[slot] = generation + 1
        self.actors[slot] = self._spawn(slot, generation + 1, dict(self.runner.provider_limits))
        if self._warm_up is not None:   # queued before the episodes resubmitted to it
            self.actors[slot].warm.remote(self._warm_up, own_process=True)
        log.warning("episode actor %s died; replaced by %s", old, self._actor_name(slot, generation + 1))

    async def gate_stats(self) -> dict[str, Any] | None:
        return await self.gate.stats.remote() if self.gate is not None else None

    async def stop(self) -> None:
        import ray

        if self.gate is not None:
            try:
                log.info("provider gate: %s", await asyncio.wait_for(self.gate_stats(), 5))
            except Exception:  # noqa: BLE001 (statistics only)
                pass
        for actor in [*self.actors, self.gate]:
            if actor is not None:
                try:
                    ray.kill(actor, no_restart=True)
                except Exception:  # noqa: BLE001
                    pass
        self.actors = []
        if self.started_ray:
            ray.shutdown()
        if self.claimed and self.run_dir is not None:
            from mmtsb.runner.leftovers import release_run_ray

            release_run_ray(self.run_dir)
            self.claimed = False


def make_backend(runner: RunnerSettings, concurrency: int, *, uses_models: bool,
                 run_dir: Path | str | None = None) -> Backend:
    """The backend of ``runner.kind``; a Ray backend given ``run_dir`` owns (records, and later ends the
    leftovers of) the local Ray it starts for that run folder."""
    if runner.kind == "inprocess":
        return InProcessBackend(runner, concurrency)
    if runner.kind in ("local", "cluster"):
        return RayBackend(runner, concurrency, uses_models=uses_models, run_dir=run_dir)
    raise ValueError(f"runner.kind={runner.kind!r} is not one of local, cluster, inprocess")
