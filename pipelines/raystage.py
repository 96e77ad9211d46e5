"""Run one model-backed stage over its items on Ray Data, streaming finished rows to the stage's table.

Each stage is ``map_batches`` with an actor class (:class:`StageActor`): the actor holds the backend (its model
clients live as long as the actor) and runs items on its event loop, at most its share of ``concurrency`` at
once (a semaphore of slots). Ray Data hands each actor several batches at a time (``BATCHES_PER_ACTOR``, each
of its share of items), so an item that finishes frees its slot for a waiting item at once: the stage keeps
``concurrency`` items in flight until the queue runs dry, however unequal the model's latencies. (Batches of
all the items in flight, run one after another, made every batch wait for its slowest item: 320 items at 64 in
flight, one in ten answered in 8 s and the others in 1-2 s, took 40.5 s; now 16.3 s, where an ideal scheduler
keeping 64 in flight in the same order needs 16.0 s.) A stage has one actor per CPU of the Ray cluster unless told
otherwise, each with at least :data:`ITEMS_PER_AUTO_ACTOR` of its items in flight. The driver consumes the output
stream and writes every batch as a durable part as soon as it arrives (see :mod:`pipelines.store`; the batch
that completes the stage goes straight into the stage's table instead): a killed
run loses at most the batches in flight (up to ``BATCHES_PER_ACTOR`` an actor; the pipeline's response cache
already holds the answers their finished items got, so redoing them costs no model call), and the rerun skips
what is written.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from mmtsb.gc_tuning import tune_gc_for_worker
from pipelines.store import StageStore

__all__ = ["ITEMS_PER_AUTO_ACTOR", "StageActor", "StageTask", "auto_actors", "item_blocks", "run_stage", "stage_pool"]

#: an async task of a stage: (backend, item payload) -> the item's row
StageTask = Callable[[Any, dict[str, Any]], Awaitable[dict[str, Any]]]

#: how long a stage waits for its actors to start (imports and warm-up) before it fails with Ray's timeout
ACTOR_START_TIMEOUT_S = 600

#: batches an actor holds at once (running, or waiting for its slots), each of its share of items. A batch goes
#: back to Ray only when its slowest item ends, so the held batches must outnumber those a straggler keeps open:
#: with latencies of 1, 2 and 8 s (one item in ten at 8 s), 2 left the slots a third full between batches, 8 kept
#: them full until the queue ran dry. (Quarter-share batches kept them as full, but each Ray task costs ~0.1 s of
#: a 2-core machine: the offline default run took ≈ 3 s longer.)
BATCHES_PER_ACTOR = 8

#: ``actors=0`` (the default) gives a stage one actor per CPU of the Ray cluster, but never fewer than this many
#: of its items in flight per actor: an actor's event loop is CPU-bound while it sends (≈ 0.5 ms an item), so
#: 256 items in flight took 0.05-0.1 s longer to send from one actor than from two on a 2-core machine, while a few
#: items an actor would only multiply the actors' start-up (imports, the backend's clients)
ITEMS_PER_AUTO_ACTOR = 32


def auto_actors(concurrency: int) -> int:
    """The actors of a stage keeping ``concurrency`` items in flight when none are configured: one per CPU of
    the Ray cluster, each with at least :data:`ITEMS_PER_AUTO_ACTOR` items (at least one actor)."""
    import ray

    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(cpus, concurrency // ITEMS_PER_AUTO_ACTOR))


def stage_pool(concurrency: int, n_items: int, actors: int = 0) -> tuple[int, int]:
    """(items in flight per actor, actors started) of a stage running ``n_items`` with ``concurrency`` in flight
    over ``actors`` (0: :func:`auto_actors`): no actor is started (and waited for) that would get no batch."""
    actors = actors if actors > 0 else auto_actors(concurrency)
    share = max(1, math.ceil(concurrency / actors))
    return share, min(actors, max(1, math.ceil(n_items / share)))


def item_blocks(items: Sequence[tuple[str, dict[str, Any]]], share: int) -> list[pa.Table]:
    """The stage's input blocks: ``share`` items each (the last one the rest), so that every block is exactly one
    batch of an actor. (Ray Data's ``from_items`` splits items evenly instead: 256 items in 3 blocks of 86, 85 and
    85 with batches of 86 bundled the two short blocks into one task that ran a batch of 86 and then one of 84 on
    one actor, while the third actor stayed idle: the stage took two model latencies instead of one.)"""
    return [pa.table({"key": [k for k, _ in chunk], "payload": [json.dumps(p, default=str) for _, p in chunk]})
            for chunk in (items[i:i + share] for i in range(0, len(items), share))]


def _warm_block_conversion() -> None:
    """Turn a one-row batch of the actor's output format into a Ray Data block, as Ray Data does with every
    batch the actor returns: the first conversion of a process pays one-time imports and set-up (measured 7-42 ms
    in a fresh stage actor), which would otherwise delay the hand-off of the actor's first batch."""
    from ray.data.block import BlockAccessor

    block = BlockAccessor.batch_to_block({"key": np.array(["k"], dtype=object), "row": np.array(["{}"], dtype=object)})
    accessor = BlockAccessor.for_block(block)
    accessor.get_metadata()
    accessor.schema()


class StageActor:
    """The actor of one stage: ``task(backend, payload)`` for every row of a batch, at most ``slots`` items of
    all its batches running at once."""

    def __init__(self, backend: Any, task: StageTask, slots: int, warmup: Callable[[], Any] | None = None) -> None:
        self.backend = backend
        self.task = task
        # Ray Data runs every batch of an async actor on one event loop, so one semaphore bounds them all
        self._slots = asyncio.Semaphore(slots)
        # one-time per-process set-up (the backend's clients and imports, what the task builds once such as
        # the tool catalog) happens as the actor starts, not while its first items wait
        prepare = getattr(backend, "prepare", None)
        if prepare is not None:
            prepare()
        if warmup is not None:
            warmup()
        _warm_block_conversion()
        tune_gc_for_worker()   # an actor is a process of its own: keep the collector off the warmed-up stack

    async def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        payloads = [json.loads(p) for p in batch["payload"]]
        rows = await asyncio.gather(*(self._one(p) for p in payloads))
        return {"key": batch["key"], "row": np.array([json.dumps(r, default=str) for r in rows], dtype=object)}

    async def _one(self, payload: dict[str, Any]) -> dict[str, Any]:
        async with self._slots:
            started = time.time()
            try:
                row = await self.task(self.backend, payload)
            except Exception as exc:  # a bug or an unexpected failure: recorded against the item, never lost work
                return {"__error__": f"{type(exc).__name__}: {exc}"}
        # when the item's work began and how long it took (wall clock, model latency included)
        return {**row, "item_started_at": started, "item_s": round(time.time() - started, 4)}


def run_stage(store: StageStore, items: Sequence[tuple[str, dict[str, Any]]], task: StageTask, backend: Any, *,
              concurrency: int, actors: int = 0, on_rows: Callable[[int], None] | None = None,
              error_row: Callable[[str, dict[str, Any], str], dict[str, Any]] | None = None,
              warmup: Callable[[], Any] | None = None) -> list[dict[str, Any]]:
    """Run ``task`` for each (key, payload) of ``items`` not yet in ``store``; returns every row of the stage,
    in the order of ``items``. A task that raises gives ``error_row(key, payload, message)`` (a rejected row).
    ``actors`` share the items in flight (0: :func:`auto_actors`). ``warmup`` runs once in each stage actor as
    it starts."""
    import ray

    if store.complete:
        return store.rows()
    done = store.done_keys()
    todo = [(k, p) for k, p in items if k not in done]
    if on_rows is not None and done:
        on_rows(len(done))
    if todo:
        # each actor runs its share of the items in flight (its slots) and holds BATCHES_PER_ACTOR batches of that
        # many items, all running at once on its event loop (max_concurrency tasks of the actor, Ray's threads
        # handing them to that loop): whenever an item ends, a waiting one takes its slot
        share, pool = stage_pool(concurrency, len(todo), actors)
        ds = ray.data.from_arrow(item_blocks(todo, share))
        ds = ds.map_batches(StageActor, fn_constructor_kwargs={"backend": backend, "task": task, "slots": share,
                                                               "warmup": warmup},
                            batch_size=share, batch_format="numpy", num_cpus=0, max_concurrency=BATCHES_PER_ACTOR,
                            compute=ray.data.ActorPoolStrategy(size=pool,
                                                               max_tasks_in_flight_per_actor=BATCHES_PER_ACTOR))
        # every actor of the pool is started before the first batch is handed out: otherwise the first actor up
        # takes its batch while the others still import, their shares start seconds apart, and the stage lasts as
        # long as the latest (two actors measured 0.45 efficiency that way, 0.87 started together); set on this
        # dataset's own copy of Ray Data's context, so nothing else in the process is changed
        ds.context.wait_for_min_actors_s = ACTOR_START_TIMEOUT_S
        payload_of = dict(todo)
        pending = set(payload_of)      # the items whose rows have not arrived
        finished: list[dict[str, Any]] | None = None
        # no prefetching: a batch is written the moment it arrives, and the prefetch thread's hand-over added
        # ~10 ms between an actor's return and the driver seeing the batch
        for batch in ds.iter_batches(batch_size=None, batch_format="numpy", prefetch_batches=0):
            if finished is not None:   # a retried task's batch after every item had its row: nothing new
                continue
            rows = []
            for key, raw in zip(batch["key"], batch["row"]):
                row = json.loads(raw)
                if "__error__" in row:
                    if error_row is None:
                        raise RuntimeError(f"stage {store.name}: item {key}: {row['__error__']}")
                    row = error_row(str(key), payload_of[str(key)], row["__error__"])
                rows.append(row)
                pending.discard(str(key))
            if pending:
                store.append(rows)
            else:
                # the batch that completes the stage goes straight into the stage file, written once rather than
                # as a part and again by the merge; the dataset's end of stream, still to come, brings nothing
                finished = store.finish(order=[k for k, _ in items], last=rows)
            if on_rows is not None:
                on_rows(len(rows))
        if finished is not None:
            return finished
    return store.finish(order=[k for k, _ in items])
