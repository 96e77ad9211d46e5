"""Fixtures of the pipeline tests."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def ray_local():
    """A local two-CPU Ray for the tests of one module (stage actors, Ray Data embedding)."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
