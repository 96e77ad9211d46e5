"""Helpers for the runner tests: run settings over the starter scenarios and readers of a run folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.runner.settings import RunnerSettings, RunSettings
from testkit import REPO

NOMINAL = REPO / "scenarios" / "nominal"
STARTERS = [NOMINAL / f"mmtsb_nominal_00{i}.json" for i in (1, 2, 3)]


def settings(run_dir: Path, *, scenarios: list[Path] | None = None, repeats: int = 1, kind: str = "inprocess",
             episode: EpisodeConfig | None = None, **runner: Any) -> RunSettings:
    return RunSettings(run_dir=run_dir, scenarios=list(scenarios or STARTERS), episode=episode or EpisodeConfig(),
                       repeats=repeats, runner=RunnerSettings(kind=kind, **runner),
                       resolved_config={"test": str(run_dir), "repeats": repeats})


def llm_agent(base_url: str, *, concurrency: int = 16, max_retries: int = 1) -> EpisodeConfig:
    """A tool-use LLM agent against the fake server; scripted user and static judges."""
    return apply_overrides(EpisodeConfig(), [
        "agent=tool_use", "agent_model.model=openai/fake-model", f"agent_model.api_base={base_url}",
        f"agent_model.max_retries={max_retries}", f"agent_model.concurrency={concurrency}"])


def rows(run_dir: Path) -> list[dict[str, Any]]:
    return pq.read_table(run_dir / "episodes.parquet").to_pylist()


def trajectory(run_dir: Path, row: dict[str, Any]) -> dict[str, Any]:
    return json.loads((run_dir / row["trajectory_path"]).read_text())


def temp_files(run_dir: Path) -> list[Path]:
    return [p for p in run_dir.rglob("*") if p.name.startswith(".tmp")]
