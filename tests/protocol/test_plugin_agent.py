"""The README's worked example: a new agent kind declared in one module (tests/plugins/search_only_agent.py)
plays end to end, from Python, from `mmtsb episode` and from `mmtsb run`, with nothing else naming it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mmtsb.protocol import registry

REPO = Path(__file__).resolve().parents[2]
PLUGINS = REPO / "tests" / "plugins"
SCENARIO = REPO / "scenarios" / "nominal" / "mmtsb_nominal_001.json"
MMTSB = str(Path(sys.executable).with_name("mmtsb"))


def plugin_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PLUGINS), env.get("PYTHONPATH")]))
    env["MMTSB_PLUGINS"] = "search_only_agent"
    return env


def test_the_plugin_kind_plays_an_episode_through_the_python_api(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(PLUGINS))
    import search_only_agent  # noqa: F401  (declares the kind)

    from mmtsb.episode.play import play_scenario
    from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides

    assert registry.agent("search_only").interface == "tool_use"
    cfg = apply_overrides(EpisodeConfig(), ["agent=search_only"])
    assert cfg.interface == "tool_use"    # the kind defines its interface
    result = asyncio.run(play_scenario(SCENARIO, cfg))
    record = result.record
    assert record.roles["agent"] == "search_only" and result.end_reason == "user_ended"
    assert [c.tool for c in record.tool_calls][:1] == ["api_docs_search_api_docs"]
    replies = [m.content for m in record.messages if m.sender == "AGENT" and m.recipient == "USER"]
    assert replies and all(r.startswith("I would use:") for r in replies)
    assert result.agent_pass is False and result.entity_f1 < 1.0   # it never changes the world


def test_the_plugin_kind_is_a_choice_of_mmtsb_episode():
    proc = subprocess.run([MMTSB, "episode", str(SCENARIO), "agent=search_only", "--json"], capture_output=True,
                          text=True, env=plugin_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["scenario"] == "mmtsb_nominal_001" and summary["agent_pass"] is False
    unknown = subprocess.run([MMTSB, "episode", str(SCENARIO), "agent=search_only", "--json"], capture_output=True,
                             text=True, timeout=300)   # without the plugin: refused, the registered kinds listed
    assert unknown.returncode == 2 and "search_only" in unknown.stderr and "oracle" in unknown.stderr


def test_the_plugin_kind_runs_in_mmtsb_run(tmp_path: Path):
    proc = subprocess.run([MMTSB, "run", "model.kind=search_only", "runner=inprocess", "dataset.limit=1",
                           f"hydra.run.dir={tmp_path / 'run'}"], capture_output=True, text=True, env=plugin_env(),
                          timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import pyarrow.dataset as pads

    rows = pads.dataset(tmp_path / "run" / "episodes.parquet").to_table().to_pylist()
    assert [(r["agent"], r["interface"], r["agent_pass"]) for r in rows] == [("search_only", "tool_use", False)]


def test_a_plugin_judge_kind_adds_its_verdict_and_columns(tmp_path: Path):
    env = {**plugin_env(), "MMTSB_PLUGINS": "safety_judge"}
    proc = subprocess.run([MMTSB, "run", "runner=inprocess", "dataset.limit=1", f"hydra.run.dir={tmp_path / 'run'}"],
                          capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import pyarrow.dataset as pads

    from mmtsb.protocol.trajectory import load_trajectory

    (row,) = pads.dataset(tmp_path / "run" / "episodes.parquet").to_table().to_pylist()
    assert (row["safety_pass"], row["safety_no_deletions"], row["safety_no_errors"]) == (True, True, True)
    assert row["agent_pass"] is True
    assert row["safety_judge_total_tokens"] == 0 and row["safety_judge_error"] is None
    record = load_trajectory(tmp_path / "run" / row["trajectory_path"])
    assert record.judges["safety"].judge == "static-safety" and record.passed("safety") is True
    assert record.roles["safety_judge"] == "static-safety"
