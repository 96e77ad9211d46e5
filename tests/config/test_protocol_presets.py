"""The Hydra group conf/protocol/ holds the same values as mmtsb.protocol.presets, and reaches the episodes."""

from __future__ import annotations

import pytest
from omegaconf import OmegaConf

from mmtsb.config.build import build_run_settings
from mmtsb.protocol.presets import PROTOCOLS


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
def test_the_protocol_group_sets_the_presets_budgets(compose_cfg, tmp_path, name):
    cfg = compose_cfg(f"protocol={name}")
    budgets = OmegaConf.to_container(cfg.budgets)
    assert cfg.protocol.name == name
    assert {k: budgets[k] for k in PROTOCOLS[name].budgets} == PROTOCOLS[name].budgets
    episode = build_run_settings(cfg, tmp_path / "run", cwd=tmp_path).episode
    assert episode.protocol == name
    assert {k: getattr(episode.budgets, k) for k in PROTOCOLS[name].budgets} == PROTOCOLS[name].budgets


def test_a_budget_override_beats_the_protocol(compose_cfg):
    cfg = compose_cfg("protocol=mmtsb", "budgets.max_steps=30", "budgets.max_interaction_steps=80")
    assert (cfg.budgets.max_steps, cfg.budgets.max_interaction_steps) == (30, 80)
