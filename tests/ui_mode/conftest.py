"""Fixtures of the UI-mode tests: Hydra composition of the real config tree (no app, no Ray)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import DictConfig

import mmtsb.config.schema  # noqa: F401  (registers the structured configs)
from mmtsb.config.paths import conf_dir


@pytest.fixture
def compose_cfg() -> Iterator[Callable[..., DictConfig]]:
    """``compose_cfg("dataset=ui", ...)`` -> the composed config (Hydra's state is cleared after)."""
    with initialize_config_dir(config_dir=str(conf_dir()), version_base="1.3"):
        yield lambda *overrides: compose(config_name="config", overrides=list(overrides))
