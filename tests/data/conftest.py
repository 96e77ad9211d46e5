"""Fixtures: the fake hub and file server holding the tiny sources of ``fetchkit`` (one pair per module)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fetchkit import serve_sources

from mmtsb.testing.fake_hub import FakeFileServer, FakeHub


@pytest.fixture(scope="module")
def sources() -> Iterator[tuple[FakeHub, FakeFileServer]]:
    with FakeHub() as hub, FakeFileServer() as files:
        serve_sources(hub, files)
        yield hub, files
