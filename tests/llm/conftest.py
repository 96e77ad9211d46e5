"""Fixtures for the LLM client tests: a fresh event loop per call, a fake server, fast-retry configs."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from mmtsb.llm import ModelSettings
from mmtsb.testing import FakeLLMServer
from testkit import run_async


@pytest.fixture
def run() -> Callable[[Coroutine[Any, Any, Any]], Any]:
    return run_async


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """A running fake server with an empty script (tests load one with ``server.reset(script=...)``)."""
    with FakeLLMServer() as srv:
        yield srv


def fast_config(server: FakeLLMServer, **overrides: Any) -> ModelSettings:
    """An OpenAI-compatible config pointed at ``server`` with millisecond backoff."""
    fields: dict[str, Any] = {"model": "openai/fake-model", "api_base": server.base_url, "timeout_s": 5.0,
                              "max_retries": 3, "retry_base_s": 0.01, "retry_max_wait_s": 2.0}
    fields.update(overrides)
    return ModelSettings(**fields)


@pytest.fixture(name="fast_config")
def fast_config_fixture() -> Callable[..., ModelSettings]:
    """``fast_config`` itself, for tests that pick one route with ``compat_route=``."""
    return fast_config


@pytest.fixture(params=["fast", "direct"])
def config_for(request: pytest.FixtureRequest) -> Callable[..., ModelSettings]:
    """``fast_config`` on each route to an OpenAI-compatible server: through litellm ("fast") and litellm
    skipped ("direct"); both must behave alike (retries, errors, parsing, accounting)."""
    route = request.param

    def make(server: Any, **overrides: Any) -> ModelSettings:
        return fast_config(server, **{"compat_route": route, **overrides})

    return make


@dataclass
class RetryLog:
    """What the retry policy decided during a test: the wait before each retry and why each attempt failed."""

    waits: list[float] = field(default_factory=list)
    failures: list[type[BaseException]] = field(default_factory=list)


@pytest.fixture
def retries(monkeypatch: pytest.MonkeyPatch) -> RetryLog:
    """Records the backoff waits and failed attempts of every LLMClient call, and does not sleep them: tests
    assert the computed waits, never the wall clock."""
    from mmtsb.llm import client, retry

    log = RetryLog()

    def recording(config: ModelSettings) -> Any:
        controller = retry.retry_controller(config)
        announce = controller.before_sleep

        def before_sleep(state: Any) -> None:
            log.failures.append(type(state.outcome.exception()))
            if announce is not None:
                announce(state)

        controller.before_sleep = before_sleep
        return controller

    async def no_sleep(seconds: float) -> None:
        log.waits.append(float(seconds))
        await asyncio.sleep(0)

    monkeypatch.setattr(client, "retry_controller", recording)
    monkeypatch.setattr(client, "call_with_retries", functools.partial(retry.call_with_retries, sleep=no_sleep))
    return log


@pytest.fixture
def restore_litellm_callbacks() -> Iterator[None]:
    """Put litellm's callback lists back as they were after the test: litellm copies a callback added to
    ``litellm.callbacks`` into its success/failure/input lists, where it would outlive the test."""
    import litellm

    from mmtsb.llm.runtime import _CALLBACK_FLAGS

    saved = {name: list(getattr(litellm, name)) for name in _CALLBACK_FLAGS if isinstance(getattr(litellm, name, None), list)}
    try:
        yield
    finally:
        for name, value in saved.items():
            getattr(litellm, name)[:] = value
