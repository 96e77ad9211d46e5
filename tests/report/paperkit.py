"""Runs for the paper-report tests (imported as `paperkit`), made by the real runner in-process: the oracle in
three settings, a model agent against the fake OpenAI-compatible server that never acts (every episode fails),
and the oracle in UI mode."""

from __future__ import annotations

import sys
from pathlib import Path

from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.runner.execute import execute_run
from mmtsb.testing import FakeLLMServer
from testkit import REPO

sys.path.insert(0, str(REPO / "tests" / "runner"))
from runkit import STARTERS, llm_agent, settings  # noqa: E402

UI_SCENARIOS = sorted((REPO / "scenarios" / "ui").glob("*.json"))[:2]


def oracle(root: Path, name: str, *overrides: str) -> Path:
    execute_run(settings(root / name, episode=apply_overrides(EpisodeConfig(), list(overrides))), progress=False)
    return root / name


def make_runs(root: Path) -> dict[str, Path]:
    runs = {"oracle_ce_full": oracle(root, "oracle_ce_full"),
            "oracle_tu_full": oracle(root, "oracle_tu_full", "interface=tool_use"),
            "oracle_ce_mini": oracle(root, "oracle_ce_mini", "toolbox=mini")}
    with FakeLLMServer(default="Done.") as server:
        execute_run(settings(root / "fake_tu_full", episode=llm_agent(server.base_url)), progress=False)
    runs["fake_tu_full"] = root / "fake_tu_full"
    ui = apply_overrides(EpisodeConfig(), ["interface=tool_use", "ui=true"])
    execute_run(settings(root / "oracle_ui", scenarios=UI_SCENARIOS, episode=ui), progress=False)
    runs["oracle_ui"] = root / "oracle_ui"
    return runs


__all__ = ["STARTERS", "make_runs"]
