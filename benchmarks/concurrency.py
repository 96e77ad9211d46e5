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

Efficiency = ideal wall time / measured wall time, where the ideal is the longest episode's model latency (its
number of agent calls x latency): what an infinitely fast harness would take with every episode in flight at
once. The measured wall time is END TO END: from the moment the first episode is submitted to the moment the
last result row is durable in ``episodes.parquet`` (the runner's ``play_s``), so world building, role set-up,
scoring, judges and result writing are all inside it. The one-time start-up of Ray and the actors (their
warm-up included: seconds, whatever the number of episodes) is printed apart, with the efficiency it would give
if counted too. The figure earlier versions printed, from the first episode loop's start to the last loop's
end (world building, scoring, judging and writing left out), is printed beside it as ``loop-only``.

Peak memory covers every process of the run: this driver, Ray and its actors, the sandboxes, AND the fake LLM
server (a child of this process), sampled every 0.5 s, as PSS (proportional set size: a page shared by N
processes counts 1/N in each), since sandboxes are forked from one warm template and share most of their pages
copy-on-write; summing plain RSS would count those shared pages hundreds of times (it is printed too).

Usage: python benchmarks/concurrency.py [--episodes 512] [--code-episodes 256] [--latency 3] [--routes direct,fast] [--json]
Targets (2-core machine, fake server after 3 s): end-to-end efficiency >= 0.9 on the direct route and >= 0.85
through litellm (tool-use, 512 episodes), >= 0.85 for 256 code-exec episodes, peak memory <= 8 GiB.
The JSON last line: {"concurrency", "efficiency" (end to end, tool-use, direct), "peak_rss_gib",
"efficiency_loop_only", "efficiency_litellm", "codeexec_efficiency", "startup_s", "runs": [...]}.
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
from mmtsb.protocol.trajectory import load_trajectory  # noqa: E402
from mmtsb.runner.scaling_probe import PeakRss, process_tree, tree_rss_bytes  # noqa: E402
from mmtsb.runner.settings import RunnerSettings, RunSettings  # noqa: E402

#: end-to-end efficiency targets per (interface, route)
TARGETS = {("tool_use", "direct"): 0.9, ("tool_use", "fast"): 0.85, ("code_exec", "direct"): 0.85,
           ("code_exec", "fast"): 0.85}
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
    timings = [load_trajectory(layout.trajectory_path(r["episode_id"])).timing for r in rows]
    loops = max(t.started_at + t.duration_s for t in timings) - min(t.started_at for t in timings)
    play, startup = summary.play_s, summary.startup_s
    return {"interface": interface, "route": route, "concurrency": n, "episodes": summary.n_episodes,
            "agent_sr": summary.agent_sr, "infra_failures": summary.infra_failures, "wall_s": round(play, 2),
            "startup_s": round(startup, 2), "total_s": round(wall, 2), "ideal_s": round(ideal, 2),
            "loops_s": round(loops, 2), "efficiency": round(ideal / play, 3) if play else None,
            "efficiency_loop_only": round(ideal / loops, 3) if loops else None,
            "efficiency_with_startup": round(ideal / (play + startup), 3) if play else None,
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
                target = TARGETS[(interface, route)]
                print(f"{interface:9s} route {route:6s} {r['concurrency']} concurrent episodes: end to end {r['wall_s']} s "
                      f"(first submitted -> last row durable; +{r['startup_s']} s Ray/actor start-up), ideal {r['ideal_s']} s, "
                      f"efficiency {r['efficiency']} (target >= {target}; {r['efficiency_with_startup']} counting start-up; "
                      f"loop-only {r['efficiency_loop_only']} over {r['loops_s']} s of episode loops, world building, "
                      f"scoring, judging and writing left out), peak memory {r['peak_rss_gib']} GiB PSS, fake server "
                      f"included (target <= 8; plain RSS summed {r['peak_rss_sum_gib']} GiB), Agent SR {r['agent_sr']}, "
                      f"infra failures {r['infra_failures']}", flush=True)
                ray.shutdown()
    finally:
        ray.shutdown()
    if args.json:
        print(json.dumps(summary_line(results, routes[0])))


def summary_line(results: list[dict[str, Any]], main_route: str) -> dict[str, Any]:
    """The JSON last line (see the module docstring): the main route's tool-use figures, then the others."""
    by = {(r["interface"], r["route"]): r for r in results}
    main = by.get(("tool_use", main_route), {})
    code = by.get(("code_exec", main_route), {})
    litellm = by.get(("tool_use", "fast"), {})
    return {"route": main_route, "concurrency": main.get("concurrency"), "efficiency": main.get("efficiency"),
            "peak_rss_gib": max((r["peak_rss_gib"] for r in results), default=None),
            "efficiency_loop_only": main.get("efficiency_loop_only"),
            "efficiency_litellm": litellm.get("efficiency"), "codeexec_efficiency": code.get("efficiency"),
            "codeexec_concurrency": code.get("concurrency"), "startup_s": main.get("startup_s"),
            "runs": [{k: r[k] for k in ("interface", "route", "concurrency", "efficiency", "efficiency_loop_only",
                                        "efficiency_with_startup", "startup_s", "peak_rss_gib")} for r in results]}


if __name__ == "__main__":
    main()
