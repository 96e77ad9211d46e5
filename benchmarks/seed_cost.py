"""What seeding the base world costs, measured side by side in one run.

Prints three figures (median wall time over ``--repeat`` runs):

1. a base world built cold (every app seeded, then kept as the process's template) vs one copied from that
   template (what every later episode with the same main user and reference time pays);
2. each app's seed on its own, in seeding order (where the cold build's time goes);
3. the Spotify catalogue (30 artists, 60 albums, 192 songs) written with the seed's fast path
   (:func:`mmtsb.apps.spotify.seed.bulk_insert`, one ``executemany`` per table) vs row by row through
   ``World.insert``. This used to be a timed unit test (< 100 ms); ``tests/apps/test_spotify_catalog.py``
   now checks the work instead (one statement per table).

Usage: python benchmarks/seed_cost.py [--repeat N]   (``--json`` is accepted; the JSON line is always printed)
Last line: {"cold_build_ms", "template_copy_ms", "cold_vs_copy", "seed_ms_by_app", "seed_ms_total",
"catalogue_bulk_ms", "catalogue_row_by_row_ms", "row_by_row_vs_bulk", "catalogue_rows"}.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import datetime, timedelta
from random import Random

from mmtsb.apps import all_apps
from mmtsb.apps.base import BaseContext
from mmtsb.apps.base_world import build_base_world, world_tables
from mmtsb.world.templates import WorldCache
from mmtsb.apps.spotify.catalogue import catalogue
from mmtsb.apps.spotify.seed import bulk_insert
from mmtsb.world.clock import Clock
from mmtsb.world.people import base_people
from mmtsb.world.world import World

MAIN_EMAIL, MAIN_ID = "brenda.webe@gmail.com", 50
REFERENCE_TIME = datetime.fromisoformat("2026-04-16T23:51:15+00:00")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def build_costs(repeat: int) -> tuple[float, float]:
    """Cold builds (a reference time never seen before, so no template exists) vs template copies (the second
    build, from the WorldCache the first one filled, as an episode worker's)."""
    cold, copy = [], []
    cache = WorldCache()
    for i in range(repeat):
        when = REFERENCE_TIME + timedelta(minutes=i + 1)
        t0 = time.perf_counter()
        build_base_world(MAIN_EMAIL, MAIN_ID, when, cache=cache).close()
        t1 = time.perf_counter()
        build_base_world(MAIN_EMAIL, MAIN_ID, when, cache=cache).close()
        t2 = time.perf_counter()
        cold.append(t1 - t0)
        copy.append(t2 - t1)
    return median_ms(cold), median_ms(copy)


def seed_costs(repeat: int) -> dict[str, float]:
    """Each app's seed into a fresh World, in seeding order (later seeds may read earlier ones' rows)."""
    people = base_people(MAIN_EMAIL, MAIN_ID)
    main = next(p for p in people if p.id == MAIN_ID)
    samples: dict[str, list[float]] = {a.name: [] for a in all_apps() if a.seed is not None}
    for _ in range(repeat):
        world = World(world_tables(), Clock.at(REFERENCE_TIME))
        ctx = BaseContext(people=people, main_user=main, reference_time=REFERENCE_TIME, rng=Random(0))
        try:
            with world.untracked_writes():
                for app in all_apps():
                    if app.seed is not None:
                        t0 = time.perf_counter()
                        app.seed(world, ctx)
                        samples[app.name].append(time.perf_counter() - t0)
        finally:
            world.close()
    return {name: median_ms(s) for name, s in samples.items()}


def catalogue_costs(repeat: int) -> tuple[float, float, int]:
    """The Spotify catalogue written with bulk_insert vs one World.insert per row, into emptied tables."""
    rows = catalogue().rows
    world = build_base_world(MAIN_EMAIL, MAIN_ID, REFERENCE_TIME)

    def empty() -> None:
        for key in rows:
            world.db.execute(f"DELETE FROM {world.table(key).qualified}")

    def bulk() -> None:
        for key, table_rows in rows.items():
            bulk_insert(world, key, table_rows)

    def row_by_row() -> None:
        for key, table_rows in rows.items():
            for row in table_rows:
                world.insert(key, row)

    samples: dict[str, list[float]] = {"bulk": [], "row_by_row": []}
    try:
        with world.untracked_writes():
            for _ in range(repeat):
                for name, fill in (("bulk", bulk), ("row_by_row", row_by_row)):
                    empty()
                    t0 = time.perf_counter()
                    fill()
                    samples[name].append(time.perf_counter() - t0)
    finally:
        world.close()
    return median_ms(samples["bulk"]), median_ms(samples["row_by_row"]), sum(len(r) for r in rows.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20, help="runs per figure (median reported)")
    ap.add_argument("--json", action="store_true", help="accepted for symmetry; the JSON line is always printed")
    args = ap.parse_args()

    cold_ms, copy_ms = build_costs(args.repeat)
    print(f"base world: cold build {cold_ms:.1f} ms | template copy {copy_ms:.2f} ms "
          f"(cold / copy = {cold_ms / copy_ms:.1f}x)")

    by_app = seed_costs(args.repeat)
    print("seed per app (ms):")
    for name, ms in by_app.items():
        print(f"  {name:<12} {ms:8.2f}")
    total = sum(by_app.values())
    print(f"  {'total':<12} {total:8.2f}")

    bulk_ms, slow_ms, n_rows = catalogue_costs(args.repeat)
    print(f"spotify catalogue ({n_rows} rows): bulk_insert {bulk_ms:.2f} ms | row by row {slow_ms:.2f} ms "
          f"(row by row / bulk = {slow_ms / bulk_ms:.1f}x)")

    print(json.dumps({"cold_build_ms": round(cold_ms, 3), "template_copy_ms": round(copy_ms, 3),
                      "cold_vs_copy": round(cold_ms / copy_ms, 2),
                      "seed_ms_by_app": {k: round(v, 3) for k, v in by_app.items()},
                      "seed_ms_total": round(total, 3), "catalogue_bulk_ms": round(bulk_ms, 3),
                      "catalogue_row_by_row_ms": round(slow_ms, 3), "row_by_row_vs_bulk": round(slow_ms / bulk_ms, 2),
                      "catalogue_rows": n_rows}))


if __name__ == "__main__":
    main()
