"""Budgets no episode can be played under are config errors naming the key (``mmtsb episode`` exits 2)."""

from __future__ import annotations

import pytest

from mmtsb.cli import main
from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig, check_choices
from mmtsb.protocol.view import Budgets


def test_budget_problems_name_their_keys():
    assert Budgets().problems() == []
    problems = Budgets(max_steps=0, wall_clock_s=0, max_messages=-1, max_tokens=0).problems()
    assert [p.split("=")[0] for p in problems] == ["budgets.max_steps", "budgets.wall_clock_s",
                                                   "budgets.max_messages", "budgets.max_tokens"]
    with pytest.raises(ConfigError, match="budgets.max_steps=0"):
        check_choices(EpisodeConfig(budgets=Budgets(max_steps=0)))


def test_the_episode_command_refuses_them(capsys):
    code = main(["episode", "scenarios/nominal/mmtsb_nominal_001.json", "budgets.wall_clock_s=-5"])
    assert code == 2 and "budgets.wall_clock_s=-5.0: must be greater than 0 seconds" in capsys.readouterr().err
