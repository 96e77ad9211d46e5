"""Fixtures of the serving tests (helpers live in serve_fakes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from serve_fakes import FakeVLLM


@pytest.fixture
def fake_vllm(tmp_path: Path) -> FakeVLLM:
    return FakeVLLM(tmp_path)
