"""Pooled episode actors vs one actor per episode, measured on a local Ray (not the benchmark proper:
``benchmarks/concurrency.py`` measures the 512-episode target; this answers "why a pool").

    python -m mmtsb.runner.scaling_probe --episodes 16 --latency 1.0 --json

Both modes run the same episodes through :func:`mmtsb.runner.execute.execute_run` (tool-use agent against
the fake LLM server answering "Done." after ``--latency`` seconds, scripted user, static judges) on one Ray
instance. Per mode it prints the wall time, the time until the first episode started (actor startup), the
efficiency (ideal wall time, the longest episode's model latency, over the measured one), the peak resident
memory of the whole process tree (driver, Ray, actors) and the actor count. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.runner.settings import RunnerSettings, RunSettings

STARTERS = [f"mmtsb_nominal_00{i}.json" for i in (1, 2, 3, 4)]


def process_tree(root: int) -> set[int]:
    """``root`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    keep, frontier = {root}, [root]
    while frontier:
        for child in children.get(frontier.pop(), []):
            if child not in keep:
                keep.add(child)
                frontier.append(child)
    return keep


def tree_rss_bytes(root: int) -> int:
    """Resident memory of ``root`` and all its descendants (from /proc)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


class PeakRss:
    """Samples the process tree's resident memory in a thread; ``peak`` in bytes."""

    def __init__(self, interval_s: float = 0.25) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(interval_s,), daemon=True)

    def _run(self, interval_s: float) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss_bytes(os.getpid()))
            self._stop.wait(interval_s)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, tree_rss_bytes(os.getpid()))


def measure(mode: str, episodes: int, base_url: str, latency: float, scenario_dir: Path) -> dict[str, Any]:
    from mmtsb.runner.execute import execute_run
    from mmtsb.runner.results import RunLayout

    files = [scenario_dir / f for f in STARTERS]
    repeats = -(-episodes // len(files))
    cfg = apply_overrides(EpisodeConfig(), ["agent=tool_use", "agent_model.model=openai/fake-model",
                                            f"agent_model.api_base={base_url}", "agent_model.max_retries=1",
                                            f"agent_model.concurrency={episodes * 2}"])
    n = len(files) * repeats
    if mode == "per_episode":
        runner = RunnerSettings(kind="local", num_actors=n, episodes_per_actor=1, max_concurrency=n)
    else:
        runner = RunnerSettings(kind="local", episodes_per_actor=max(1, -(-n // 2)), max_concurrency=n)
    run_dir = Path(tempfile.mkdtemp(prefix=f"mmtsb_probe_{mode}_"))
    settings = RunSettings(run_dir=run_dir, scenarios=files, episode=cfg, repeats=repeats, runner=runner,
                           resolved_config={"probe": mode})
    with PeakRss() as rss:
        t0, started = time.perf_counter(), time.time()
        summary = execute_run(settings, progress=False)
        wall = time.perf_counter() - t0
    layout = RunLayout(run_dir)
    rows = layout.read_rows()
    ideal = max(int(r.get("agent_api_calls") or 0) for r in rows) * latency
    first_start = min(json.loads(layout.trajectory_path(r["episode_id"]).read_text())["timing"]["started_at"]
                      for r in rows)
    startup = first_start - started
    actors = n if mode == "per_episode" else -(-n // runner.episodes_per_actor)
    return {"mode": mode, "episodes": summary.n_episodes, "actors": actors, "wall_s": round(wall, 2),
            "startup_s": round(startup, 2),
            "ideal_s": round(ideal, 2), "efficiency": round(ideal / wall, 3) if wall else None,
            "peak_rss_gib": round(rss.peak / 2**30, 3), "infra_failures": summary.infra_failures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=16)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--modes", default="pooled,per_episode")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    from mmtsb.runner.backends import init_ray
    from mmtsb.testing import FakeLLMServer

    scenario_dir = Path(__file__).resolve().parents[2] / "scenarios" / "nominal"
    init_ray(RunnerSettings(kind="local", object_store_memory_mb=256))
    results = []
    try:
        with FakeLLMServer(default="Done.", latency_s=args.latency) as server:
            for mode in args.modes.split(","):
                result = measure(mode, args.episodes, server.base_url, args.latency, scenario_dir)
                results.append(result)
                print(f"{mode:12s} episodes={result['episodes']} actors={result['actors']} "
                      f"wall={result['wall_s']}s (startup {result['startup_s']}s) ideal={result['ideal_s']}s "
                      f"efficiency={result['efficiency']} peak_rss={result['peak_rss_gib']} GiB", flush=True)
    finally:
        ray.shutdown()
    if args.json:
        print(json.dumps({r["mode"]: r for r in results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
