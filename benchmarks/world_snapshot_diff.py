"""Snapshot + diff cost of a World, measured side by side with a full table comparison.

Prints, for a scenario-sized world (the base world of every app plus a scenario's entities), the time of
``snapshot()`` and of ``diff()`` after a typical episode's writes (target: snapshot + diff <= 2 ms), then two
sweeps that show what the cost grows with: changed rows (fixed table size) and table size (fixed changes),
for the change-log diff and for the full comparison (``diff_full``).

Usage: python benchmarks/world_snapshot_diff.py [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from mmtsb.world.clock import Clock
from mmtsb.world.schema import table
from mmtsb.world.world import World

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "scenarios" / "nominal"


def timed(fn, repeat: int = 50) -> float:
    """Median wall time of fn() in milliseconds."""
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


def scenario_world() -> World:
    """A real scenario's initial world when the reference files are present, else a base world."""
    from mmtsb.apps.base_world import build_base_world

    sample = REFERENCE / "scenario_0019.json"
    if sample.exists():
        from mmtsb.scenarios.build import build_world
        from mmtsb.scenarios.loader import load_scenario

        return build_world(load_scenario(sample), images="placeholder", file=sample).world
    return build_base_world("brenda.webe@gmail.com", 50, "2026-04-16T23:51:15+00:00")


def episode_writes(world: World, n: int) -> None:
    """n writes like an episode's tool calls: notes created and edited."""
    for i in range(n):
        pk = world.insert("simple_note.notes", {"user_id": 50, "title": f"bench {i}", "content": "x" * 200,
                                                "tags": ["bench"], "pinned": False})
        world.update("simple_note.notes", pk, {"content": "y" * 200})


def synthetic(rows: int) -> World:
    w = World([table("app", "items", {"id": "int", "title": "str", "body": "str", "n": "int"})],
              Clock.at("2026-01-01T00:00:00+00:00"))
    w.db.executemany('INSERT INTO "app"."items" (title, body, n) VALUES (?, ?, ?)',
                     [(f"t{i}", "lorem ipsum " * 8, i) for i in range(rows)])
    return w


def change(world: World, k: int, offset: int) -> None:
    world.db.executemany('UPDATE "app"."items" SET n = n + 1 WHERE id = ?', [(offset + i + 1,) for i in range(k)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    w = scenario_world()
    start = w.snapshot()
    episode_writes(w, 20)
    snap_ms = timed(w.snapshot)
    end = w.snapshot()
    diff_ms = timed(lambda: w.diff(start, end))
    full_ms = timed(lambda: w.diff_full(start, end), repeat=5)
    size_kib = end.size_bytes / 1024
    print(f"scenario world: {len(w.tables)} tables, {size_kib:.0f} KiB serialized, 40 row writes")
    print(f"  snapshot {snap_ms:.3f} ms + diff {diff_ms:.3f} ms = {snap_ms + diff_ms:.3f} ms (target <= 2 ms)")
    print(f"  full table comparison instead: {full_ms:.3f} ms ({full_ms / max(diff_ms, 1e-9):.0f}x the change-log diff)")

    print("\nchanged rows sweep (table of 20,000 rows): diff ms | full ms")
    sweep_changes = {}
    big = synthetic(20_000)
    for k in (1, 10, 100, 1000):
        a = big.snapshot()
        change(big, k, 0)
        b = big.snapshot()
        d, f = timed(lambda: big.diff(a, b), 20), timed(lambda: big.diff_full(a, b), 3)
        sweep_changes[k] = {"diff_ms": d, "full_ms": f}
        print(f"  {k:>6} changed: {d:8.3f} | {f:8.2f}")

    print("\ntable size sweep (10 changed rows): snapshot ms | diff ms | full ms")
    sweep_sizes = {}
    for n in (1_000, 10_000, 100_000):
        sw = synthetic(n)
        a = sw.snapshot()
        change(sw, 10, n // 2)
        b = sw.snapshot()
        s, d, f = timed(sw.snapshot, 20), timed(lambda: sw.diff(a, b), 20), timed(lambda: sw.diff_full(a, b), 3)
        sweep_sizes[n] = {"snapshot_ms": s, "diff_ms": d, "full_ms": f}
        print(f"  {n:>7} rows: {s:8.3f} | {d:8.3f} | {f:8.2f}")

    if args.json:
        print(json.dumps({"snapshot_ms": snap_ms, "diff_ms": diff_ms, "snapshot_plus_diff_ms": snap_ms + diff_ms,
                          "full_diff_ms": full_ms, "changed_rows_sweep": sweep_changes,
                          "table_size_sweep": sweep_sizes}))


if __name__ == "__main__":
    main()
