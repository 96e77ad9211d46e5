"""The provider gate survives its own death: Ray restarts it (empty), GatedLimits waits for it and asks again,
and a gate gone for good leaves each actor its own caps; no episode fails for it."""

from __future__ import annotations

import asyncio
import threading
import time

from ray.exceptions import ActorDiedError, RayActorError

from mmtsb.runner.execute import execute_run
from mmtsb.runner.gate import ProviderGate
from mmtsb.runner.gated_limits import GatedLimits
from mmtsb.testing import FakeLLMServer
from runkit import llm_agent, rows, settings
from testkit import run_async


class _Method:
    def __init__(self, fn) -> None:
        self.fn = fn

    def remote(self, *args):
        return self.fn(*args)


class FlakyGate:
    """A ProviderGate behind a handle whose calls fail while ``down`` (as calls to a dead actor do)."""

    def __init__(self, gate: ProviderGate, down: int) -> None:
        self.gate, self.down = gate, down
        self.acquire, self.release = _Method(self._acquire), _Method(self._release)

    async def _acquire(self, *args):
        if self.down:
            self.down -= 1
            raise RayActorError()
        return await self.gate.acquire(*args)

    def _release(self, token):
        if self.down:
            raise ActorDiedError()
        return asyncio.ensure_future(self.gate.release(token))


def test_gated_limits_wait_for_a_restarting_gate_and_leak_no_slot():
    async def main():
        gate = FlakyGate(ProviderGate({"p": 1}), down=3)
        limits = GatedLimits(gate, "a1", overrides={"p": 1}, bypass_at=8, timeout_s=30)
        async with limits.slot("p"):
            assert (await gate.gate.stats())["in_use"] == {"p": 1}
        await asyncio.sleep(0.05)
        async with limits.slot("p"):   # the first slot was given back: the cap of 1 is free again
            pass
        await asyncio.sleep(0.05)
        return limits, await gate.gate.stats()

    limits, stats = run_async(main())
    assert limits.gate_outages == 3 and limits.local_fallbacks == 0
    assert stats["in_use"] == {} and stats["grants"] == 2


def test_a_gate_gone_for_good_leaves_each_actor_its_own_caps():
    async def main():
        gate = FlakyGate(ProviderGate(), down=10**9)
        limits = GatedLimits(gate, "a1", overrides={"p": 1}, bypass_at=8, timeout_s=30, fallback_after_s=0.3)
        t0 = time.monotonic()
        async with limits.slot("p"):
            first = time.monotonic() - t0
            assert limits.in_flight("p") == 1
        t0 = time.monotonic()
        async with limits.slot("p"):   # the outage is old now: no more waiting
            second = time.monotonic() - t0
        return limits, first, second

    limits, first, second = run_async(main())
    assert 0.3 <= first < 5 and second < 0.2
    assert limits.local_fallbacks == 2


def test_a_gate_killed_mid_run_is_restarted_and_no_episode_fails(ray_local, tmp_path):
    """model.concurrency=1 across 2 actors (so every call goes through the gate); the gate is killed twice."""
    ray = ray_local
    pids: list[int] = []
    with FakeLLMServer(default="Done.", latency_s=0.15) as server:

        def kill_the_gate() -> None:
            deadline = time.monotonic() + 120
            for after in (2, 4):
                while time.monotonic() < deadline and server.request_count < after:
                    time.sleep(0.01)
                names = [n for n in ray.util.list_named_actors() if n.startswith("mmtsb-gate-")]
                if not names:
                    return
                gate = ray.get_actor(names[0])
                pids.append(ray.get(gate.stats.remote())["pid"])
                ray.kill(gate, no_restart=False)   # as a crash would: Ray restarts it
                while time.monotonic() < deadline:   # the kill is asynchronous: wait for the new process
                    try:
                        pid = ray.get(gate.stats.remote(), timeout=30)["pid"]
                    except ray.exceptions.RayError:
                        continue
                    if pid != pids[-1]:
                        break
                    time.sleep(0.01)
                pids.append(pid)

        killer = threading.Thread(target=kill_the_gate)
        killer.start()
        s = settings(tmp_path / "run", kind="local", repeats=2, num_actors=2, max_infra_retries=0,
                     gate_timeout_s=60, episode=llm_agent(server.base_url, concurrency=1))
        summary = execute_run(s, progress=False)
        killer.join()
        peak, served = server.max_in_flight, server.request_count
        resumed = execute_run(s, progress=False)   # the same run again: nothing was lost, nothing is replayed
        assert server.request_count == served
    assert len(pids) == 4 and len(set(pids)) == 3, pids      # killed twice, restarted twice
    recorded = rows(tmp_path / "run")
    assert summary.n_episodes == 6 and summary.infra_failures == 0
    assert all(r["attempts"] == 1 and not r["infra_failure"] for r in recorded)
    assert resumed.n_episodes == 6 and len({r["episode_id"] for r in rows(tmp_path / "run")}) == 6
    # the cap of 1 holds, but for the call in flight at each death (the restarted gate starts empty)
    assert peak <= 2, peak
