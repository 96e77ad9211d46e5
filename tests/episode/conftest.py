"""Fixtures of the episode tests: the small scenario of test_oracle_episode written to a file."""

from __future__ import annotations

import json

import pytest

from test_oracle_episode import SCENARIO


@pytest.fixture
def scenario_file(tmp_path):
    p = tmp_path / "episode_test_001.json"
    p.write_text(json.dumps(SCENARIO))
    return p
