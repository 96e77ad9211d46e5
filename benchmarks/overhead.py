"""Harness overhead: CPU per agent step and per episode, with a zero-latency fake LLM replaying the oracle's
actions through the code-exec interface (LLM client, sandbox, tools, scoring and judging included).

A FakeLLMServer (real HTTP on 127.0.0.1, no latency) answers the code-exec agent with each round's reference
solution as one python block, then the round's reply; the scripted user and the static judges complete the
episode. CPU is this process's user+system time plus its sandbox children's, measured around the episodes; the fake
server runs in its own process (``python -m mmtsb.testing.fake_llm``) so its CPU is not counted.

Also measures the per-step cost at message ~100 vs ~10 in one long episode (target <= 1.5x): the agent keeps
calling a cheap tool for 120 steps; the loop's step times at steps 5-15 and 95-105 are compared.

Usage: python benchmarks/overhead.py [--episodes N] [--json]
Targets: <= 10 ms CPU per step, <= 200 ms CPU per episode, per-step cost ratio at 100 vs 10 <= 1.5.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from collections.abc import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mmtsb.episode.config import EpisodeConfig, apply_overrides  # noqa: E402
from mmtsb.episode.play import play_scenario  # noqa: E402
from mmtsb.roles.factory import RoleFactory  # noqa: E402
from mmtsb.scenarios.loader import load_scenario  # noqa: E402
from mmtsb.scenarios.solution import ReferenceSolution, SolutionRunner  # noqa: E402

SCENARIOS = sorted((REPO / "scenarios" / "nominal").glob("*.json"))


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def oracle_replies(path: Path) -> list[str]:
    """The code-exec agent's replies that replay the oracle: each round's code block, then its reply."""
    solution = ReferenceSolution.from_scenario(load_scenario(path))
    runner = SolutionRunner(solution)
    replies = []
    for n in solution.round_numbers:
        if runner.steps(n):
            replies.append(f"Working on it.\n```python\n{runner.to_python(n)}\n```")
        replies.append(runner.reply(n))
    return replies


@contextlib.contextmanager
def fake_server(replies: list[str]) -> Iterator[str]:
    """The fake OpenAI server in its own process, serving ``replies`` in order; yields its base URL."""
    script = Path(tempfile.mkdtemp()) / "script.json"
    script.write_text(json.dumps(replies))
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.testing.fake_llm", "--port", "0", "--script",
                             str(script), "--default", "Done."], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        if not line.startswith("FAKE_LLM_READY"):
            raise RuntimeError(f"fake LLM server did not start: {line!r}")
        yield line.split()[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def overrides(base_url: str) -> list[str]:
    return ["agent=code_exec", "agent_model.model=openai/fake", f"agent_model.api_base={base_url}",
            "agent_model.max_retries=0"]


async def play_all(paths: list[Path], base_url: str) -> tuple[list[Any], float]:
    factory = RoleFactory()
    cfg = apply_overrides(EpisodeConfig(), overrides(base_url))
    results = []
    # warm up: the sandbox template, imports and the registry are one-time costs, not per episode
    await play_scenario(paths[0], cfg, factory=factory)
    start = cpu_seconds()
    for p in paths:
        results.append(await play_scenario(p, cfg, factory=factory))
    return results, cpu_seconds() - start


def long_episode(steps: int = 120) -> tuple[list[float], float]:
    """Step times and total CPU of one long episode in which the agent calls a cheap tool every step."""
    scenario = json.loads(SCENARIOS[0].read_text())
    scenario["name"] = "overhead_long"
    scenario["max_messages"] = 10_000
    scenario["metadata"].pop("reference_solution", None)
    tmp = Path(tempfile.mkdtemp()) / "overhead_long.json"
    tmp.write_text(json.dumps(scenario))
    replies = ["```python\nsupervisor_show_profile()\n```"] * steps
    with fake_server(replies) as base_url:
        cfg = apply_overrides(EpisodeConfig(), [*overrides(base_url), f"budgets.max_steps={steps}",
                                                f"image_root={SCENARIOS[0].parent}"])
        start = cpu_seconds()
        result = asyncio.run(play_scenario(tmp, cfg))
        cpu = cpu_seconds() - start
    return result.trajectory["timing"]["agent_step_cpu_s"], cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=len(SCENARIOS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    paths = (SCENARIOS * 10)[: args.episodes]
    replies = [r for p in [paths[0], *paths] for r in oracle_replies(p)]  # warm-up episode first
    with fake_server(replies) as base_url:
        t0 = time.perf_counter()
        results, cpu = asyncio.run(play_all(paths, base_url))
        wall = time.perf_counter() - t0
    steps = sum(r.steps for r in results)
    passed = sum(bool(r.agent_pass) for r in results)
    ms_per_episode = 1000 * cpu / len(results)
    # the marginal CPU of one agent step: two long episodes that differ only in their number of steps
    long_episode(20)  # warm-up
    _, cpu_short = long_episode(40)
    step_times, cpu_long = long_episode(120)
    ms_per_step = 1000 * (cpu_long - cpu_short) / 80
    print(f"{len(results)} episodes ({passed} passed), {steps} agent steps, CPU {cpu:.2f} s, wall {wall:.2f} s")
    print(f"  CPU per episode {ms_per_episode:7.2f} ms (target <= 200; whole episodes: world, steps, scoring, judging)")
    print(f"  CPU per step    {ms_per_step:7.2f} ms (target <= 10; marginal cost of one code-exec step: "
          "LLM client, sandbox, tool call)")

    early = statistics.median(step_times[5:15])
    late = statistics.median(step_times[95:105])
    ratio = late / early if early else float("nan")
    print(f"  step CPU at agent step ~10 (message ~20): {1000 * early:.2f} ms, at step ~100 (message ~200): {1000 * late:.2f} ms, ratio {ratio:.2f} "
          "(target <= 1.5)")
    if args.json:
        print(json.dumps({"ms_per_step": round(ms_per_step, 3), "ms_per_episode": round(ms_per_episode, 3),
                          "step_cost_ratio_100_vs_10": round(ratio, 3)}))


if __name__ == "__main__":
    main()
