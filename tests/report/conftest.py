"""Fixtures: the synthetic run folders of ``reportkit`` (built once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportkit import column, matched, run_a_trajectories, static_agent, trajectory, write_run


@pytest.fixture(scope="session")
def run_a(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("run_a"), run_a_trajectories())


@pytest.fixture(scope="session")
def run_b(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second configuration: 2 episodes, one pass, one factual failure."""
    wrong = [{"table_key": "gmail.emails", "operation": "create", "unmatched_actual_keys": [],
              "entities": [matched([column("body", "$52.85", "$25.85", 0.4)], score=0.4)]}]
    episodes = [
        ("s1", 0, trajectory("s1", agent_pass=True, user_pass=True, micro=1.0, ref=1.0, steps=3), {}),
        ("s2", 0, trajectory("s2", agent_pass=False, user_pass=True, micro=0.4, ref=0.4, steps=5, groups=wrong,
                             agent_judge=static_agent(if_=False)), {}),
    ]
    return write_run(tmp_path_factory.mktemp("run_b"), episodes, agent_model="gpt-5.4", toolbox="mini", cfg="cfgB")
