"""Sandbox start-up: how long an interpreter takes to start from a warm template, and the CPU of one
interpreter's whole life (start, one trivial run, close) split between this process, the template (its fork)
and the interpreter process itself; then the same with no server given, where each interpreter starts (and
stops) a private template.

Why a benchmark and not a test: start-up time depends on the machine and its load; a timed assertion in the
test suite only flakes. The test suite checks what cannot flake (a start forks the running template).

Usage: python benchmarks/sandbox_start.py [--starts N] [--private N]
Prints its figures, then a JSON line: {"warm_start_ms_median", "warm_start_ms_p90", "cycle_wall_ms",
"cycle_cpu_ms": {"parent", "template", "interpreter", "total"}, "cold_start_ms", "template_start_cpu_ms",
"private_cycle_wall_ms", "private_cycle_cpu_ms"}.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mmtsb.sandbox import Interpreter, SandboxServer  # noqa: E402


def children_cpu() -> float:
    """CPU of this process's waited-for children (a private template lands here once it is stopped)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--starts", type=int, default=40, help="interpreter lives on one warm server")
    ap.add_argument("--private", type=int, default=3, help="interpreter lives with a private server each")
    args = ap.parse_args()

    with SandboxServer() as server:
        t0 = time.perf_counter()
        with Interpreter(server=server) as first:  # starts the template
            cold = time.perf_counter() - t0
            first.run("1 + 1")
        template_start_cpu = server.cpu().template_s
        starts, walls = [], []
        cpu0, sandbox0 = time.process_time(), server.cpu()
        for _ in range(args.starts):
            t0 = time.perf_counter()
            with Interpreter(server=server) as it:
                assert it.run("1 + 1").value == "2"
                starts.append(it.start_seconds)
            walls.append(time.perf_counter() - t0)
        parent = (time.process_time() - cpu0) / args.starts
        sandbox = server.cpu()
        template = (sandbox.template_s - sandbox0.template_s) / args.starts
        interpreter = (sandbox.interpreters_s - sandbox0.interpreters_s) / args.starts

    private_walls, private_cpu = [], []
    for _ in range(args.private):
        cpu0, kids0, t0 = time.process_time(), children_cpu(), time.perf_counter()
        with Interpreter() as it:
            assert it.run("1 + 1").value == "2"
        private_walls.append(time.perf_counter() - t0)
        private_cpu.append(time.process_time() - cpu0 + children_cpu() - kids0)

    ms = 1000.0
    figures = {
        "warm_start_ms_median": round(ms * statistics.median(starts), 2),
        "warm_start_ms_p90": round(ms * quantile(starts, 0.9), 2),
        "cycle_wall_ms": round(ms * statistics.median(walls), 2),
        "cycle_cpu_ms": {"parent": round(ms * parent, 2), "template": round(ms * template, 2),
                         "interpreter": round(ms * interpreter, 2),
                         "total": round(ms * (parent + template + interpreter), 2)},
        "cold_start_ms": round(ms * cold, 1),
        "template_start_cpu_ms": round(ms * template_start_cpu, 1),
        "private_cycle_wall_ms": round(ms * statistics.median(private_walls), 1) if private_walls else None,
        "private_cycle_cpu_ms": round(ms * statistics.median(private_cpu), 1) if private_cpu else None,
    }
    cyc = figures["cycle_cpu_ms"]
    print(f"warm start (fork of the running template, until its greeting): median "
          f"{figures['warm_start_ms_median']} ms, p90 {figures['warm_start_ms_p90']} ms over {args.starts}")
    print(f"one interpreter's life on a shared server (start, run '1 + 1', close): wall "
          f"{figures['cycle_wall_ms']} ms, CPU {cyc['total']} ms = this process {cyc['parent']} + template "
          f"(fork, reaping) {cyc['template']} + interpreter process {cyc['interpreter']}")
    print(f"cold start (a new server's first interpreter, template imports included): "
          f"{figures['cold_start_ms']} ms wall, template start CPU {figures['template_start_cpu_ms']} ms")
    if private_walls:
        print(f"no server given (a private template per interpreter, stopped with it): wall "
              f"{figures['private_cycle_wall_ms']} ms, CPU {figures['private_cycle_cpu_ms']} ms per interpreter")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
