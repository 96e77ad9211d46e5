"""One sandbox server (a warm template process) shared by the sandbox tests of a test process, so that each
interpreter starts by a fork instead of a fresh template. Tests that stop, kill or close a server make their
own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mmtsb.sandbox import SandboxServer


@pytest.fixture(scope="session")
def sandbox_server() -> Iterator[SandboxServer]:
    with SandboxServer() as server:
        yield server
