"""One episode through the code interface (code-exec agent served by the fake LLM server, scripted user,
static judges): the agent's code writes past the disk quota, sees the error, and the episode goes on to
its end; afterwards no ``mmtsb_*`` scratch folder remains, also when an episode fails, unless kept."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import tempfile
from pathlib import Path

import pytest

import mmtsb.sandbox.interpreter as interpreter_module
from mmtsb.episode import play
from mmtsb.episode.play import play_scenario
from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.sandbox import SandboxLimits
from mmtsb.sandbox.scratch import KEEP_ENV
from mmtsb.testing import FakeLLMServer

MiB = 1 << 20
SCRIPT = ("{{USER_INSTRUCTION}}ROUND 1\nQuery: Remove my plant reminder.\nInstructions: Ask to remove it, then "
          "end.\n")
SCENARIO = {
    "name": "scratch_test_001", "base_scenario": "base", "description": "A reminder.",
    "device_state_id": "brenda.webe@gmail.com", "reference_time": "2026-04-16T23:51:15+00:00",
    "agentsandbox_entities": {"reminder": [{"reminder_id": "reminder_1", "content": "water plants",
                                            "creation_datetime": "2026-04-15T09:00:00+00:00",
                                            "reminder_datetime": "2026-04-18T09:00:00+00:00"}]},
    "messages": [{"sender": "SYSTEM", "recipient": "USER", "content": SCRIPT},
                 {"sender": "USER", "recipient": "AGENT", "content": "Remove my plant reminder."}],
    "entity_diff_specs": [
        {"operation": "delete", "source": "agentsandbox", "namespace": "REMINDER",
         "entity_id_column": "reminder_id", "entity_id_value": "reminder_1",
         "column_similarity_measure": {"reminder_id": "column_exact_match_similarity"}}],
    "task_completion_criteria": "The reminder is gone.",
    "categories": ["AGENTSANDBOX"], "max_messages": 40,
    "metadata": {"expected_tools": ["remove_reminder"],
                 "scenario_metadata": {"num_images": 0, "num_user_rounds": 1, "challenge_type": "none"},
                 "reference_solution": {"version": 1, "rounds": [
                     {"round": 1, "steps": [{"tool": "remove_reminder", "arguments": {"reminder_id": "reminder_1"}}],
                      "reply": "The plant reminder is removed."}]}},
}
#: past the static checks (as in the abuse corpus): a small file, then 2 MB against a 1 MiB quota
FLOOD = ("```python\nimport pathlib\n[pathlib.Path('small.bin')][0].write_bytes(b'x' * 100_000)\n"
         "[pathlib.Path('big.bin')][0].write_bytes(b'x' * 2_000_000)\n```")
AGENT_SCRIPT = [FLOOD, "```python\nremove_reminder(reminder_id='reminder_1')\n```", "The plant reminder is removed."]


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    p = tmp_path / "scratch_test_001.json"
    p.write_text(json.dumps(SCENARIO))
    return p


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private temporary folder, so that other tests' ``mmtsb_*`` folders never count."""
    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    monkeypatch.delenv(KEEP_ENV, raising=False)
    return root


def test_code_over_the_quota_fails_in_the_episode_and_its_folder_is_removed(scenario_file: Path, temp_root: Path,
                                                                              tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interpreter_module, "SandboxLimits", functools.partial(SandboxLimits,
                                                                               disk_quota_bytes=1 * MiB))
    with FakeLLMServer(script=AGENT_SCRIPT) as server:
        cfg = apply_overrides(EpisodeConfig(), ["agent=code_exec", "judge=static", "images=placeholder",
                                                "agent_model.model=openai/fake-model",
                                                f"agent_model.api_base={server.base_url}",
                                                "agent_model.max_retries=1"])
        result = asyncio.run(play_scenario(scenario_file, cfg, trajectory_dir=tmp_path / "traj"))
    assert result.end_reason == "user_ended", result.error
    assert result.entity_f1 == 1.0
    t = json.loads((tmp_path / "traj" / "scratch_test_001.json").read_text())
    seen = "\n".join(m["content"] for m in t["messages"] if isinstance(m["content"], str))
    assert "File too large" in seen and "Disk quota" in seen and "disk quota" in seen
    assert list(temp_root.glob("mmtsb_*")) == []


def test_no_scratch_folder_remains_after_episodes_unless_kept(scenario_file: Path, temp_root: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    cfg = apply_overrides(EpisodeConfig(), ["interface=code_exec", "images=placeholder"])  # the oracle
    for _ in range(3):
        assert asyncio.run(play_scenario(scenario_file, cfg)).entity_f1 == 1.0

    async def fails(self: object) -> None:
        raise RuntimeError("the episode broke")

    with monkeypatch.context() as m:
        m.setattr(play.EpisodeRunner, "run", fails)
        with pytest.raises(RuntimeError, match="the episode broke"):
            asyncio.run(play_scenario(scenario_file, cfg))
    assert list(temp_root.glob("mmtsb_*")) == []

    monkeypatch.setenv(KEEP_ENV, "1")
    with caplog.at_level(logging.WARNING, logger="mmtsb.sandbox"):
        asyncio.run(play_scenario(scenario_file, cfg))
    kept = list(temp_root.glob("mmtsb_scratch_test_001_*"))
    assert len(kept) == 1 and str(kept[0]) in caplog.text
