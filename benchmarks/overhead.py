"""Harness overhead: CPU per agent step and per episode, sandbox included, with a zero-latency fake LLM
replaying the oracle's actions through the code-exec interface (LLM client, sandbox, tools, scoring, judging).

A FakeLLMServer (real HTTP on 127.0.0.1, no latency) answers the code-exec agent with each round's reference
solution as one python block, then the round's reply; the scripted user and the static judges complete the
episode. The fake server runs in its own process (``python -m mmtsb.testing.fake_llm``) and is not counted.

What is counted, measured around the episodes (:class:`CPU`):
- harness: this process (user + system);
- sandbox: the interpreter processes and the template that forks them. With a shared SandboxServer (the
  factory's ``sandbox``), its template's own CPU (forks, reaping) and that of the interpreters it reaped
  (each episode's interpreter is closed, hence reaped, before the episode returns); with none, every
  interpreter starts and stops a private template, which this process waits for: then the sandbox is this
  process's waited-for children (template start-up included, since that is what each episode pays).

Also measures the per-step cost at message ~100 vs ~10 in one long episode (target <= 1.5x): the agent keeps
calling a cheap tool for 120 steps; the loop's step times (this process's CPU) at steps 5-15 and 95-105 are
compared. The marginal CPU of a step (harness + sandbox) is the difference between a 120-step and a 40-step
episode, over 80.

Usage: python benchmarks/overhead.py [--episodes N]   (``--json`` is accepted; the JSON line is always printed)
Targets: <= 10 ms CPU per step and <= 200 ms CPU per episode (sandbox included), step cost ratio <= 1.5.
Last line: {"ms_per_step", "ms_per_episode", "step_cost_ratio_100_vs_10", "ms_per_step_harness",
"ms_per_step_sandbox", "ms_per_episode_harness", "ms_per_episode_sandbox", "sandbox"}.
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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides  # noqa: E402
from mmtsb.episode.play import play_scenario  # noqa: E402
from mmtsb.roles.factory import RoleFactory  # noqa: E402
from mmtsb.sandbox import SandboxServer  # noqa: E402
from mmtsb.scenarios.loader import load_scenario  # noqa: E402
from mmtsb.scenarios.solution import ReferenceSolution, SolutionRunner  # noqa: E402

SCENARIOS = sorted((REPO / "scenarios" / "nominal").glob("*.json"))


@dataclass(frozen=True)
class CPU:
    """CPU seconds (user + system) spent so far by the harness and by the sandbox (see the module docstring)."""

    harness: float
    sandbox: float

    @property
    def total(self) -> float:
        return self.harness + self.sandbox

    def __sub__(self, other: CPU) -> CPU:
        return CPU(self.harness - other.harness, self.sandbox - other.sandbox)

    @classmethod
    def now(cls, server: SandboxServer | None) -> CPU:
        me = resource.getrusage(resource.RUSAGE_SELF)
        waited = resource.getrusage(resource.RUSAGE_CHILDREN)  # private templates (the fake LLM is not waited yet)
        sandbox = waited.ru_utime + waited.ru_stime + (server.cpu().total_s if server is not None else 0.0)
        return cls(me.ru_utime + me.ru_stime, sandbox)


def shared_sandbox(factory: RoleFactory) -> SandboxServer | None:
    """The sandbox server the factory shares between its episodes' interpreters, if it keeps one."""
    server = getattr(factory, "sandbox", None)
    return server if isinstance(server, SandboxServer) else None


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


async def play_all(paths: list[Path], base_url: str) -> tuple[list[Any], CPU, str]:
    factory = RoleFactory()
    cfg = apply_overrides(EpisodeConfig(), overrides(base_url))
    results = []
    try:
        # warm up: the sandbox template, imports and the registry are one-time costs, not per episode
        await play_scenario(paths[0], cfg, factory=factory)
        server = shared_sandbox(factory)
        start = CPU.now(server)
        for p in paths:
            results.append(await play_scenario(p, cfg, factory=factory))
        cpu = CPU.now(server) - start
    finally:
        await factory.aclose()
    return results, cpu, "shared server" if server is not None else "private template per interpreter"


def long_scenario() -> Path:
    """The first scenario with no step limit to speak of and no reference solution."""
    scenario = json.loads(SCENARIOS[0].read_text())
    scenario["name"] = "overhead_long"
    scenario["max_messages"] = 10_000
    scenario["metadata"].pop("reference_solution", None)
    tmp = Path(tempfile.mkdtemp()) / "overhead_long.json"
    tmp.write_text(json.dumps(scenario))
    return tmp


async def long_episodes(step_counts: list[int]) -> list[tuple[list[float], CPU]]:
    """Step times and CPU of long episodes (one per count, one factory) in which the agent calls a cheap tool
    every step."""
    path = long_scenario()
    factory = RoleFactory()
    out = []
    try:
        for steps in step_counts:
            with fake_server(["```python\nsupervisor_show_profile()\n```"] * steps) as base_url:
                cfg = apply_overrides(EpisodeConfig(), [*overrides(base_url), f"budgets.max_steps={steps}",
                                                        "budgets.max_interaction_steps=null",
                                                        f"image_root={SCENARIOS[0].parent}"])
                server = shared_sandbox(factory)
                start = CPU.now(server)
                result = await play_scenario(path, cfg, factory=factory)
                out.append((result.trajectory["timing"]["agent_step_cpu_s"], CPU.now(server) - start))
    finally:
        await factory.aclose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=len(SCENARIOS))
    ap.add_argument("--json", action="store_true", help="accepted for compatibility; the JSON line is always printed")
    args = ap.parse_args()
    paths = (SCENARIOS * 10)[: args.episodes]
    replies = [r for p in [paths[0], *paths] for r in oracle_replies(p)]  # warm-up episode first
    with fake_server(replies) as base_url:
        t0 = time.perf_counter()
        results, cpu, sandbox = asyncio.run(play_all(paths, base_url))
        wall = time.perf_counter() - t0
    steps = sum(r.steps for r in results)
    passed = sum(bool(r.agent_pass) for r in results)
    per_episode = CPU(cpu.harness / len(results), cpu.sandbox / len(results))
    # the marginal CPU of one agent step: two long episodes that differ only in their number of steps
    (_, _), (_, cpu_short), (step_times, cpu_long) = asyncio.run(long_episodes([20, 40, 120]))  # 20: warm-up
    per_step = CPU((cpu_long.harness - cpu_short.harness) / 80, (cpu_long.sandbox - cpu_short.sandbox) / 80)
    ms = 1000.0
    print(f"{len(results)} episodes ({passed} passed), {steps} agent steps, CPU {cpu.total:.2f} s "
          f"(harness {cpu.harness:.2f} + sandbox {cpu.sandbox:.2f}), wall {wall:.2f} s; sandbox: {sandbox}")
    print(f"  CPU per episode {ms * per_episode.total:7.2f} ms (target <= 200) = harness "
          f"{ms * per_episode.harness:.2f} (world, steps, scoring, judging) + sandbox {ms * per_episode.sandbox:.2f} "
          "(interpreter processes, template forks)")
    print(f"  CPU per step    {ms * per_step.total:7.2f} ms (target <= 10) = harness {ms * per_step.harness:.2f} "
          f"(LLM client, tool call) + sandbox {ms * per_step.sandbox:.2f} (the interpreter running the step's code); "
          "marginal cost of one code-exec step")

    early = statistics.median(step_times[5:15])
    late = statistics.median(step_times[95:105])
    ratio = late / early if early else float("nan")
    print(f"  step CPU (harness) at agent step ~10 (message ~20): {ms * early:.2f} ms, at step ~100 "
          f"(message ~200): {ms * late:.2f} ms, ratio {ratio:.2f} (target <= 1.5)")
    print(json.dumps({"ms_per_step": round(ms * per_step.total, 3), "ms_per_episode": round(ms * per_episode.total, 3),
                      "step_cost_ratio_100_vs_10": round(ratio, 3),
                      "ms_per_step_harness": round(ms * per_step.harness, 3),
                      "ms_per_step_sandbox": round(ms * per_step.sandbox, 3),
                      "ms_per_episode_harness": round(ms * per_episode.harness, 3),
                      "ms_per_episode_sandbox": round(ms * per_episode.sandbox, 3), "sandbox": sandbox}))


if __name__ == "__main__":
    main()
