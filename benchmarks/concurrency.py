"""Concurrency: many episodes at once on this machine, against a fake LLM with a realistic 3 s latency.

Runs the platform as a user would (``execute_run`` on a local Ray, pooled episode actors, streamed results),
with the fake OpenAI server in its own process answering every call after ``--latency`` seconds:
- tool-use interface, 512 concurrent episodes: each agent turn first calls the discovery tool, then replies;
- code-exec interface, 256 concurrent episodes (a sandbox interpreter per episode): each turn runs one
  python block calling an app tool, then replies.
The scripted user and static judges complete the episodes (8 starter scenarios x repeats).
Each figure is measured for both routes to an OpenAI-compatible server, side by side in one run: ``direct``
(mmtsb's own pooled HTTP call, ``compat_route=direct``: the route for local vLLM servers at scale) and
``fast`` (through litellm, the default for a model on an api_base); the JSON reports the direct route and
adds the litellm figures under ``litellm``.

Efficiency = achieved throughput / ideal throughput = ideal wall time / measured wall time, where the ideal
is the longest episode's model latency (its number of agent calls x latency): what an infinitely fast harness
would take with every episode in flight at once. The measured wall time runs from the first episode's start
to the last episode's end (steady state); the one-time start-up of Ray and the actors (seconds, whatever
the number of episodes) is printed separately, with the efficiency it would give if counted too. Peak memory is the resident memory of the whole process tree
(driver, Ray, actors, sandboxes; the fake server excluded), sampled every 0.25 s, as PSS (proportional set
size: a page shared by N processes counts 1/N in each), since sandboxes are forked from one warm template and
share most of their pages copy-on-write; summing plain RSS would count those shared pages hundreds of times
(it is printed too).

Usage: python benchmarks/concurrency.py [--episodes 512] [--code-episodes 256] [--latency 3] [--routes direct,fast] [--json]
Targets: efficiency >= 0.9 and peak memory <= 8 GiB (tool-use, 512 episodes).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from collections.abc import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides  # noqa: E402
from mmtsb.runner.scaling_probe import PeakRss, process_tree, tree_rss_bytes  # noqa: E402
from mmtsb.runner.settings import RunnerSettings, RunSettings  # noqa: E402

SCENARIOS = [REPO / "scenarios" / "nominal" / f"mmtsb_nominal_{i:03d}.json" for i in range(1, 9)]
TOOL_USE_REPLIES = {
    "rules": [{"match": "Successfully registered|Found \\d+ tools", "reply": "Done."}],
    "default": {"tool_calls": [{"id": "s", "name": "api_docs_search_api_docs", "arguments": {"query": "note"}}]},
}
CODE_REPLIES = {
    "rules": [{"match": "<execution_results>", "reply": "Done."}],
    "default": "```python\nsupervisor_show_profile()\n```",
}


def tree_pss_bytes(root: int) -> int:
    """Proportional set size of ``root`` and its descendants (from /proc/<pid>/smaps_rollup)."""
    total = 0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            continue
    return total


class PeakPss(PeakRss):
    """Samples the process tree's PSS (and RSS) in a thread."""

    def __init__(self, interval_s: float = 0.5) -> None:
        super().__init__(interval_s)
        self.peak_rss = 0

    def _run(self, interval_s: float) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_pss_bytes(os.getpid()))
            self.peak_rss = max(self.peak_rss, tree_rss_bytes(os.getpid()))
            self._stop.wait(interval_s)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@contextlib.contextmanager
def fake_server(replies: dict[str, Any], latency: float) -> Iterator[str]:
    script = Path(tempfile.mkdtemp()) / "replies.json"
    script.write_text(json.dumps({**replies, "latency_s": latency}))
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.testing.fake_llm", "--port", "0", "--script", str(script)],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        line = proc.stdout.readline()
        if not line.startswith("FAKE_LLM_READY"):
            raise RuntimeError(f"fake LLM server did not start: {line!r}")
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def measure(interface: str, episodes: int, latency: float, replies: dict[str, Any], route: str = "direct") -> dict[str, Any]:
    from mmtsb.runner.execute import execute_run
    from mmtsb.runner.results import RunLayout

    repeats = -(-episodes // len(SCENARIOS))
    with fake_server(replies, latency) as base_url:
        cfg = apply_overrides(EpisodeConfig(), [f"agent={interface}", "agent_model.model=openai/fake-model",
                                                f"agent_model.api_base={base_url}", "agent_model.max_retries=2", f"agent_model.compat_route={route}",
                                                "agent_model.timeout_s=120", f"agent_model.concurrency={episodes * 2}"])
        n = len(SCENARIOS) * repeats
        runner = RunnerSettings(kind="local", max_concurrency=n, object_store_memory_mb=256)
        run_dir = Path(tempfile.mkdtemp(prefix=f"mmtsb_concurrency_{interface}_"))
        settings = RunSettings(run_dir=run_dir, scenarios=SCENARIOS, episode=cfg, repeats=repeats, runner=runner,
                               resolved_config={"benchmark": interface})
        with PeakPss() as rss:
            t0 = time.perf_counter()
            summary = execute_run(settings, progress=False)
            wall = time.perf_counter() - t0
    layout = RunLayout(run_dir)
    rows = layout.read_rows()
    ideal = max(int(r.get("agent_api_calls") or 0) for r in rows) * latency
    timings = [json.loads(layout.trajectory_path(r["episode_id"]).read_text())["timing"] for r in rows]
    first_start = min(t["started_at"] for t in timings)
    last_end = max(t["started_at"] + t["duration_s"] for t in timings)
    steady = last_end - first_start
    return {"interface": interface, "route": route, "concurrency": n, "episodes": summary.n_episodes,
            "agent_sr": summary.agent_sr, "infra_failures": summary.infra_failures, "wall_s": round(steady, 2),
            "startup_s": round(wall - steady, 2), "ideal_s": round(ideal, 2),
            "efficiency": round(ideal / steady, 3) if steady else None,
            "efficiency_with_startup": round(ideal / wall, 3) if wall else None,
            "peak_rss_gib": round(rss.peak / 2**30, 3), "peak_rss_sum_gib": round(rss.peak_rss / 2**30, 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=512)
    ap.add_argument("--code-episodes", type=int, default=256)
    ap.add_argument("--latency", type=float, default=3.0)
    ap.add_argument("--routes", default="direct,fast", help="routes to the server, comma-separated (direct, fast)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    import ray

    routes = [r.strip() for r in args.routes.split(",") if r.strip()]
    results = []
    try:
        for interface, n, replies in (("tool_use", args.episodes, TOOL_USE_REPLIES),
                                      ("code_exec", args.code_episodes, CODE_REPLIES)):
            for route in routes if n > 0 else []:
                r = measure(interface, n, args.latency, replies, route)
                results.append(r)
                print(f"{interface:9s} route {route:6s} {r['concurrency']} concurrent episodes: wall {r['wall_s']} s (+{r['startup_s']} s "
                  f"start-up), ideal {r['ideal_s']} s, efficiency {r['efficiency']} (target >= 0.9; "
                  f"{r['efficiency_with_startup']} counting start-up), peak memory {r['peak_rss_gib']} GiB PSS "
                      f"(target <= 8; plain RSS summed {r['peak_rss_sum_gib']} GiB), Agent SR {r['agent_sr']}, infra failures {r['infra_failures']}", flush=True)
                ray.shutdown()
    finally:
        ray.shutdown()
    if args.json:
        keys = ("concurrency", "efficiency", "efficiency_with_startup", "peak_rss_gib")
        pick = {(r["interface"], r["route"]): {k: r[k] for k in keys} for r in results}
        main_route = routes[0]
        out: dict[str, Any] = {"route": main_route, **pick.get(("tool_use", main_route), {})}
        if ("code_exec", main_route) in pick:
            out["code_exec"] = pick[("code_exec", main_route)]
        if main_route != "fast" and ("tool_use", "fast") in pick:
            out["litellm"] = {"tool_use": pick[("tool_use", "fast")],
                              **({"code_exec": pick[("code_exec", "fast")]} if ("code_exec", "fast") in pick else {})}
        print(json.dumps(out))


if __name__ == "__main__":
    main()
