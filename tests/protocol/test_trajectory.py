"""The typed, versioned trajectory: files carry schema_version, load through the model, and the previous format
(version 1) loads too; rows derive from the model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from mmtsb.episode.play import play_scenario
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.protocol.trajectory import SCHEMA_VERSION, Trajectory, TrajectoryFormatError, load_trajectory
from mmtsb.runner.rows import episode_row

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "scenarios" / "nominal" / "mmtsb_nominal_001.json"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("traj")
    asyncio.run(play_scenario(SCENARIO, EpisodeConfig(interface="tool_use"), trajectory_dir=out))
    return out / "mmtsb_nominal_001.json"


def test_a_written_file_carries_the_schema_version_and_loads_through_the_model(written: Path):
    data = json.loads(written.read_text())
    assert data["schema_version"] == SCHEMA_VERSION and "version" not in data
    record = load_trajectory(written)
    assert isinstance(record, Trajectory) and record.scenario == "mmtsb_nominal_001"
    assert record.agent_pass is True and record.passed("agent") is True and record.entity_f1 == 1.0
    assert record.messages[0].sender and record.tool_calls and record.judges["agent"].criteria
    assert record.to_dict() == data      # a lossless round trip


def test_a_version_1_file_loads_and_gives_the_same_row(written: Path, tmp_path: Path):
    current = json.loads(written.read_text())
    old = {k: v for k, v in current.items() if k not in ("schema_version", "agent_steps")}
    old["version"] = 1                    # what the loop wrote before the typed model
    old["steps"] = current["agent_steps"]  # until version 3, steps were the agent's actions
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    upgraded = load_trajectory(path)
    assert upgraded.schema_version == SCHEMA_VERSION
    assert episode_row(upgraded) == episode_row(load_trajectory(written)) == episode_row(old)


def test_a_failed_episodes_short_version_1_record_loads_with_defaults(tmp_path: Path):
    short = {"scenario": "s1", "scenario_file": "s1.json", "interface": "code_exec", "seed": 3, "steps": 0,
             "end_reason": "error", "error": "boom", "agent_pass": None, "user_pass": None, "entity_f1": None}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(short))
    record = load_trajectory(path)
    assert record.error == "boom" and record.messages == [] and record.timing.duration_s is None
    row = episode_row(record)
    assert row["end_reason"] == "error" and row["agent_total_tokens"] == 0


def test_unreadable_files_are_named(tmp_path: Path):
    for name, text, needle in (("future.json", json.dumps({"schema_version": 99, "scenario": "x"}), "99"),
                               ("torn.json", '{"scenario": ', "cannot read"),
                               ("typed.json", json.dumps({"schema_version": 2, "scenario": "x", "steps": "many"}),
                                "steps")):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(TrajectoryFormatError, match=needle) as info:
            load_trajectory(path)
        assert name in str(info.value)
