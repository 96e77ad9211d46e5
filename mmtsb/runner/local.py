"""A local run: play every scenario of a set concurrently in this process (asyncio), stream each finished
episode to ``episodes.jsonl`` and its trajectory file at once, and write ``summary.json`` at the end.

A run folder that already holds results is resumed: scenarios with a recorded episode are skipped.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from mmtsb.episode.config import EpisodeConfig
from mmtsb.episode.play import play_scenario
from mmtsb.roles.factory import RoleFactory
from mmtsb.runner.progress import is_infra_failure
from mmtsb.runner.rows import ROLES
from mmtsb.scenarios.loader import ScenarioError, expand_paths


@dataclass
class RunSummary:
    n_episodes: int
    agent_sr: float | None
    user_sr: float | None
    entity_f1: float | None
    avg_steps: float | None
    infra_failures: int
    duration_s: float
    total_tokens: int = 0
    cost_usd: float = 0.0
    tokens_by_role: dict[str, int] = field(default_factory=dict)
    cost_by_role: dict[str, float] = field(default_factory=dict)
    retried_episodes: int = 0                  # episodes that needed more than one attempt (infra retries)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(rows: list[dict[str, Any]], duration_s: float = 0.0) -> RunSummary:
    """Paper metrics over episode rows; infrastructure failures are counted apart, never as agent failures."""
    ok = [r for r in rows if not is_infra_failure(r)]
    tokens = {role: sum(int(r.get(f"{role}_total_tokens") or 0) for r in rows) for role in ROLES}
    cost = {role: round(sum(float(r.get(f"{role}_cost_usd") or 0.0) for r in rows), 6) for role in ROLES}
    return RunSummary(
        n_episodes=len(rows),
        agent_sr=_mean([float(r["agent_pass"]) for r in ok if r.get("agent_pass") is not None]),
        user_sr=_mean([float(r["user_pass"]) for r in ok if r.get("user_pass") is not None]),
        entity_f1=_mean([r["entity_f1"] for r in ok if r.get("entity_f1") is not None]),
        avg_steps=_mean([r["steps"] for r in ok if r.get("steps") is not None]),
        infra_failures=len(rows) - len(ok),
        duration_s=round(duration_s, 3),
        total_tokens=sum(tokens.values()),
        cost_usd=round(sum(cost.values()), 6),
        tokens_by_role=tokens,
        cost_by_role=cost,
        retried_episodes=sum(1 for r in rows if int(r.get("attempts") or 1) > 1),
    )


def _append_jsonl(path: Path, row: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row, default=str) + "\n")
        f.flush()
        os.fsync(f.fileno())


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Recorded episodes (a torn last line from a killed run is ignored)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


async def run_set(scenario_paths: list[str | Path], cfg: EpisodeConfig, run_dir: Path, *, concurrency: int = 8,
                  on_episode: Callable[[dict[str, Any]], None] | None = None) -> RunSummary:
    """Play every scenario (skipping those already recorded in ``run_dir``) and summarize."""
    run_dir.mkdir(parents=True, exist_ok=True)
    results_path = run_dir / "episodes.jsonl"
    done = {r["scenario_file"] for r in read_rows(results_path)}
    files = [p for p in expand_paths(scenario_paths) if str(p) not in done]
    factory = RoleFactory()
    sem = asyncio.Semaphore(concurrency)
    t0 = time.perf_counter()

    async def one(path: Path) -> None:
        async with sem:
            started = time.perf_counter()
            try:
                result = await play_scenario(path, cfg, factory=factory, trajectory_dir=run_dir / "trajectories")
                row = {**result.summary(), "user_pass": result.user_pass, "error": result.error}
            except ScenarioError as e:
                row = {"scenario": path.stem, "agent_pass": None, "user_pass": None, "entity_f1": None, "steps": 0,
                       "end_reason": "error", "error": str(e)}
            row.update({"scenario_file": str(path), "duration_s": round(time.perf_counter() - started, 3)})
            _append_jsonl(results_path, row)
            if on_episode is not None:
                on_episode(row)

    await asyncio.gather(*(one(Path(p)) for p in files))
    summary = summarize(read_rows(results_path), time.perf_counter() - t0)
    (run_dir / "summary.json").write_text(json.dumps(summary.to_dict(), indent=2))
    return summary
