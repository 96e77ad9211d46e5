"""One local Ray instance shared by every Ray test of this folder (starting Ray costs seconds)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def ray_local():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    from mmtsb.runner.backends import init_ray
    from mmtsb.runner.settings import RunnerSettings

    started = init_ray(RunnerSettings(kind="local", num_cpus=2, object_store_memory_mb=128))
    yield ray
    if started:
        ray.shutdown()
