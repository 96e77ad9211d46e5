"""protocol=paper (issue 13): the presets, the paper's step count (agent and user messages, capped at 100) and
the interaction-step cap, and the wall clock enforced while a model call or a code run is in flight."""

from __future__ import annotations

import asyncio
import time

import pytest
from mmtsb.episode.play import play_scenario
from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig, apply_overrides
from mmtsb.protocol.steps import PAPER_STEP_CAP, count_interaction_steps
from mmtsb.protocol.trajectory import parse_trajectory
from mmtsb.runner.rows import episode_row
from mmtsb.testing import FakeLLMServer

from test_llm_episode import played
from test_oracle_episode import SCENARIO  # noqa: E402  (same folder)


def agent_model(base_url: str) -> list[str]:
    return [f"agent_model.{k}={v}" for k, v in (("model", "openai/fake-model"), ("api_base", base_url),
                                                 ("max_retries", "0"), ("timeout_s", "60"))]


# ---------------------------------------------------------------------------------------------- presets
def test_paper_is_the_default_and_a_budget_override_beats_the_preset():
    paper = EpisodeConfig()
    assert (paper.protocol, paper.budgets.max_steps, paper.budgets.max_interaction_steps) == ("paper", None, 100)
    ours = apply_overrides(EpisodeConfig(), ["protocol=mmtsb"])
    assert (ours.budgets.max_steps, ours.budgets.max_interaction_steps) == (60, None)
    mixed = apply_overrides(EpisodeConfig(), ["budgets.max_steps=30", "protocol=mmtsb"])
    assert mixed.budgets.max_steps == 30 and mixed.protocol == "mmtsb"
    with pytest.raises(ConfigError, match="protocol='papr' is not one of paper, mmtsb"):
        apply_overrides(EpisodeConfig(), ["protocol=papr"])


@pytest.mark.parametrize("override, key", [("budgets.max_steps=-5", "budgets.max_steps=-5"),
                                           ("budgets.max_interaction_steps=0", "budgets.max_interaction_steps=0")])
def test_budgets_no_episode_can_play_under_are_refused(override, key):
    with pytest.raises(ConfigError, match=key):
        apply_overrides(EpisodeConfig(), [override])


# ---------------------------------------------------------------------------------------------- steps
def test_steps_count_agent_and_user_messages_and_agent_steps_are_kept(scenario_file):
    result = asyncio.run(play_scenario(scenario_file, apply_overrides(EpisodeConfig(), ["images=placeholder"])))
    t = result.record
    played_rows = t.messages[len(SCENARIO["messages"]):]
    by_roles = [m for m in played_rows if m.sender in ("AGENT", "USER") and not m.meta.get("shown_by_tool")]
    assert result.steps == len(by_roles) == count_interaction_steps(t.messages)
    assert {m.sender for m in by_roles} == {"AGENT", "USER"}
    assert result.agent_steps == sum(1 for m in by_roles if m.sender == "AGENT") < result.steps
    row = episode_row(t)
    assert (row["steps"], row["agent_steps"]) == (result.steps, result.agent_steps)


def test_the_reported_step_count_is_capped_at_100(scenario_file):
    result = asyncio.run(play_scenario(scenario_file, apply_overrides(EpisodeConfig(), ["images=placeholder"])))
    data = result.record.to_dict()
    data["steps"] = 150
    assert episode_row(parse_trajectory(data))["steps"] == PAPER_STEP_CAP


def test_the_interaction_step_cap_ends_the_episode(scenario_file):
    cfg = apply_overrides(EpisodeConfig(), ["images=placeholder", "budgets.max_interaction_steps=3"])
    result = asyncio.run(play_scenario(scenario_file, cfg))
    assert result.end_reason == "max_interaction_steps" and result.steps == 3


def test_protocol_mmtsb_caps_agent_actions_instead(scenario_file):
    cfg = apply_overrides(EpisodeConfig(), ["images=placeholder", "protocol=mmtsb", "budgets.max_steps=2"])
    result = asyncio.run(play_scenario(scenario_file, cfg))
    assert result.end_reason == "max_steps" and result.agent_steps == 2


def test_older_trajectories_read_their_steps_as_agent_steps(scenario_file):
    result = asyncio.run(play_scenario(scenario_file, apply_overrides(EpisodeConfig(), ["images=placeholder"])))
    old = result.record.to_dict()
    old.update(schema_version=3, steps=result.agent_steps)
    old.pop("agent_steps")
    upgraded = parse_trajectory(old)
    assert (upgraded.steps, upgraded.agent_steps) == (result.steps, result.agent_steps)


# ---------------------------------------------------------------------------------------------- wall clock
def test_the_wall_clock_stops_a_hanging_model_call(scenario_file):
    with FakeLLMServer(default="Done.", latency_s=30) as server:
        cfg = apply_overrides(EpisodeConfig(), ["agent=code_exec", "images=placeholder", "budgets.wall_clock_s=2",
                                                *agent_model(server.base_url)])
        t0 = time.monotonic()
        result = asyncio.run(played(play_scenario(scenario_file, cfg)))
        took = time.monotonic() - t0
    assert result.end_reason == "wall_clock", result.error
    assert result.error is None and result.record.failure_class is None   # a budget end, judged as usual
    assert took < 15, f"the episode took {took:.1f} s with a 2 s wall clock"


def test_the_wall_clock_stops_a_code_run(scenario_file):
    hang = "```python\nwhile True:\n    pass\n```"
    with FakeLLMServer(default=hang) as server:
        cfg = apply_overrides(EpisodeConfig(), ["agent=code_exec", "images=placeholder", "budgets.wall_clock_s=3",
                                                *agent_model(server.base_url)])
        t0 = time.monotonic()
        result = asyncio.run(played(play_scenario(scenario_file, cfg)))
        took = time.monotonic() - t0
    assert result.end_reason == "wall_clock", result.error
    run = result.record.code_runs[0]
    assert run["timed_out"] and "wall-clock budget ran out" in run["error"]
    assert took < 20, f"the episode took {took:.1f} s with a 3 s wall clock (a run may take 30 s)"


# ---------------------------------------------------------------------------------------------- sandbox clock
def test_agent_code_reads_the_scenario_time(scenario_file):
    code = ("```python\nimport datetime, time\nprint(datetime.datetime.now().isoformat(), datetime.date.today(), "
            "int(time.time()))\n```")
    with FakeLLMServer(script=[code], default="Done.") as server:
        cfg = apply_overrides(EpisodeConfig(), ["agent=code_exec", "images=placeholder", *agent_model(server.base_url)])
        result = asyncio.run(played(play_scenario(scenario_file, cfg)))
    printed = result.record.code_runs[0]["stdout"].split()
    assert printed == ["2026-04-16T23:51:15", "2026-04-16", "1776383475"], printed   # SCENARIO's reference_time
