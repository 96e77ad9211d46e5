"""ProviderLimits: the per-provider cap holds at the server under concurrent load, across clients."""

from __future__ import annotations

import asyncio

from mmtsb.llm import LLMClient, ProviderLimits
from mmtsb.testing import FakeLLMServer

USER = [{"role": "user", "content": "hi"}]


def test_twenty_concurrent_calls_with_limit_three_never_exceed_three_in_flight(run, config_for):
    limits = ProviderLimits()
    with FakeLLMServer(default="ok", latency_s=0.05) as server:
        # several clients (episodes) share one ProviderLimits and one endpoint, hence one provider
        clients = [LLMClient(config_for(server, concurrency=3), limits=limits) for _ in range(4)]

        async def burst():
            return await asyncio.gather(*(clients[i % 4].complete(USER) for i in range(20)))

        responses = run(burst())
        assert [r.text for r in responses] == ["ok"] * 20
        assert server.request_count == 20
        assert server.max_in_flight == 3
        assert limits.peak[clients[0].provider] == 3


def test_providers_have_independent_caps(run, config_for):
    limits = ProviderLimits(overrides={"slow-provider": 1})
    with FakeLLMServer(default="a", latency_s=0.05) as one, FakeLLMServer(default="b", latency_s=0.05) as two:
        capped = LLMClient(config_for(one, provider="slow-provider", concurrency=8), limits=limits)
        free = LLMClient(config_for(two, concurrency=8), limits=limits)

        async def burst():
            await asyncio.gather(*(c.complete(USER) for c in [capped] * 5 + [free] * 5))

        run(burst())
        assert one.max_in_flight == 1  # the override wins over the config's 8
        assert two.max_in_flight == 5
        assert limits.size("slow-provider") == 1


def test_limits_survive_several_event_loops(run, config_for):
    limits = ProviderLimits()
    with FakeLLMServer(default="ok") as server:
        client = LLMClient(config_for(server, concurrency=2), limits=limits)

        async def burst():
            await asyncio.gather(*(client.complete(USER) for _ in range(4)))

        for _ in range(2):  # a semaphore bound to a closed loop must not be reused
            run(burst())
        assert server.request_count == 8
