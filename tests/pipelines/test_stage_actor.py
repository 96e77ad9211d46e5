"""A model-backed stage's actor, run through ``run_stage`` on a local Ray: rows come back in order, a failing
item becomes its error row, and the actor process keeps the garbage collector off its warmed-up stack and runs
its items on uvloop."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from typing import Any

from mmtsb.gc_tuning import WORKER_GC_THRESHOLD
from pipelines.raystage import auto_actors, item_blocks, run_stage
from pipelines.store import StageStore


def test_stage_actor_rows_and_its_process_gc_settings_and_event_loop(tmp_path, ray_local):
    # defined here so that Ray ships them by value (its workers cannot import this test module)
    async def report_process(backend: Any, payload: dict[str, Any]) -> dict[str, Any]:
        if payload.get("fail"):
            raise ValueError("this item cannot be done")
        return {"key": payload["key"], "pid": os.getpid(), "frozen": gc.get_freeze_count(),
                "young_threshold": gc.get_threshold()[0], "loop": type(asyncio.get_running_loop()).__module__,
                "error": ""}

    def error_row(key: str, payload: dict[str, Any], message: str) -> dict[str, Any]:
        return {"key": key, "pid": 0, "frozen": 0, "young_threshold": 0, "loop": "", "error": message}

    items = [(f"k{i}", {"key": f"k{i}", "fail": i == 2}) for i in range(6)]
    store = StageStore(tmp_path, 1, "probe", "key")
    rows = run_stage(store, items, report_process, backend=None, concurrency=3, error_row=error_row)
    assert [r["key"] for r in rows] == [k for k, _ in items]
    failed = rows[2]
    assert "ValueError: this item cannot be done" in failed["error"]
    done = [r for r in rows if r["key"] != "k2"]
    # the actors are processes of their own (this test's process is left as it was) ...
    assert all(r["pid"] != os.getpid() for r in done)
    # ... whose warmed-up objects are frozen, and whose young generation is collected less often
    assert all(r["frozen"] > 10_000 for r in done)
    assert all(r["young_threshold"] == WORKER_GC_THRESHOLD for r in done)
    assert gc.get_threshold()[0] != WORKER_GC_THRESHOLD or gc.get_freeze_count() == 0
    # Ray runs a worker's event loop on uvloop when it is installed (a dependency but on Windows)
    if sys.platform != "win32":
        assert {r["loop"] for r in done} == {"uvloop"}


def test_stage_actors_share_the_items_and_none_starts_before_the_whole_pool_is_up(tmp_path, ray_local):
    # the second actor to start warms up 3 s longer: were the first one handed its batch as soon as it was ready,
    # its items would start before the second one's warm-up ended
    marks = str(tmp_path / "marks")
    os.makedirs(marks)

    def slow_second_warmup() -> None:
        import time

        try:
            os.close(os.open(os.path.join(marks, "first"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            time.sleep(3)
        with open(os.path.join(marks, f"ready-{os.getpid()}"), "w") as f:
            f.write(repr(time.time()))

    async def note_start(backend: Any, payload: dict[str, Any]) -> dict[str, Any]:
        import time

        return {"key": payload["key"], "pid": os.getpid(), "started": time.time()}

    import ray

    context_before = ray.data.DataContext.get_current().wait_for_min_actors_s
    items = [(f"k{i}", {"key": f"k{i}"}) for i in range(8)]
    rows = run_stage(StageStore(tmp_path, 1, "pool", "key"), items, note_start, backend=None, concurrency=8, actors=2,
                     warmup=slow_second_warmup)
    assert [r["key"] for r in rows] == [k for k, _ in items]
    pids = {r["pid"] for r in rows}
    assert len(pids) == 2 and all(sum(r["pid"] == p for r in rows) == 4 for p in pids)  # 4 in flight in each
    ready = [float((tmp_path / "marks" / f"ready-{p}").read_text()) for p in pids]
    assert min(r["started"] for r in rows) >= max(ready)
    # the setting was made on the stage's dataset only: the process's own Ray Data context is as it was
    assert ray.data.DataContext.get_current().wait_for_min_actors_s == context_before


def test_a_slow_item_holds_its_slot_only_and_the_in_flight_bound_holds(tmp_path, ray_local):
    # 2 in flight; the first item takes 2 s, the others 0.05 s: the others flow through the second slot while the
    # slow one runs (batches of all the items in flight, run one after another, made them wait for it), and no
    # more than 2 items ever run at once
    async def sleep_for(backend: Any, payload: dict[str, Any]) -> dict[str, Any]:
        import asyncio
        import time

        start = time.time()
        await asyncio.sleep(payload["seconds"])
        return {"key": payload["key"], "start": start, "end": time.time()}

    items = [(f"k{i}", {"key": f"k{i}", "seconds": 2.0 if i == 0 else 0.05}) for i in range(12)]
    rows = run_stage(StageStore(tmp_path, 1, "flow", "key"), items, sleep_for, backend=None, concurrency=2)
    assert [r["key"] for r in rows] == [k for k, _ in items]
    spans = [(r["start"], r["end"]) for r in rows]
    slow_end = spans[0][1]
    assert all(end < slow_end for _, end in spans[1:]), spans
    edges = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])  # an end before a start
    running = peak = 0
    for _, step in edges:
        running += step
        peak = max(peak, running)
    assert peak == 2


def test_by_default_a_stage_has_an_actor_per_cpu_each_with_at_least_32_items_in_flight(tmp_path, ray_local):
    # the local Ray of these tests has 2 CPUs
    assert [auto_actors(c) for c in (1, 31, 32, 63, 64, 256)] == [1, 1, 1, 1, 2, 2]

    async def note_pid(backend: Any, payload: dict[str, Any]) -> dict[str, Any]:
        return {"key": payload["key"], "pid": os.getpid()}

    for concurrency, pids in ((64, 2), (63, 1)):
        items = [(f"k{i}", {"key": f"k{i}"}) for i in range(64)]
        rows = run_stage(StageStore(tmp_path / str(concurrency), 1, "auto", "key"), items, note_pid, backend=None,
                         concurrency=concurrency)
        assert [r["key"] for r in rows] == [k for k, _ in items]
        assert len({r["pid"] for r in rows}) == pids


def test_items_that_do_not_split_evenly_still_run_all_at_once(tmp_path, ray_local):
    # 7 items, 9 in flight over 3 actors (3 each): blocks of 3, 3 and 1, each one batch of an actor. Split evenly
    # (3, 2 and 2) the two short blocks were bundled into one task that ran a batch of 3 and then a batch of 1,
    # so one item started only after the others had ended
    async def sleep_a_second(backend: Any, payload: dict[str, Any]) -> dict[str, Any]:
        import asyncio
        import time

        start = time.time()
        await asyncio.sleep(1.0)
        return {"key": payload["key"], "pid": os.getpid(), "start": start, "end": time.time()}

    items = [(f"k{i}", {"key": f"k{i}"}) for i in range(7)]
    rows = run_stage(StageStore(tmp_path, 1, "uneven", "key"), items, sleep_a_second, backend=None, concurrency=9,
                     actors=3)
    assert [r["key"] for r in rows] == [k for k, _ in items]
    assert max(r["start"] for r in rows) < min(r["end"] for r in rows), rows
    assert len({r["pid"] for r in rows}) == 3


def test_item_blocks_hold_one_batch_each():
    items = [(f"k{i}", {"n": i}) for i in range(256)]
    blocks = item_blocks(items, 86)
    assert [b.num_rows for b in blocks] == [86, 86, 84]
    assert [k for b in blocks for k in b.column("key").to_pylist()] == [k for k, _ in items]
    assert blocks[2].column("payload")[0].as_py() == '{"n": 172}'
    assert item_blocks([], 4) == []
