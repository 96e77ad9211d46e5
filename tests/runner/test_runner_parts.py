"""The runner's parts without Ray: the provider gate's slot accounting, the results layout (atomic, typed,
resumable), pool shapes and the running statistics behind the progress display."""

from __future__ import annotations

import asyncio
import os

import pyarrow.parquet as pq
import pytest

from mmtsb.runner.backends import pool_shape
from mmtsb.runner.gate import ProviderGate
from mmtsb.runner.summary import summarize
from mmtsb.runner.progress import ProgressView, RunningStats
from mmtsb.runner.results import RunLayout, row_table
from mmtsb.runner.settings import RunnerSettings


# ---------------------------------------------------------------------------------------------- gate
def test_gate_caps_each_provider_and_serves_waiters_in_order():
    async def main():
        gate = ProviderGate({"openai": 2})
        order: list[str] = []

        async def user(token: str, hold: float) -> None:
            assert await gate.acquire("openai", token, "a1")
            order.append(token)
            await asyncio.sleep(hold)
            await gate.release(token)

        await asyncio.gather(*(user(f"t{i}", 0.02) for i in range(6)))
        stats = await gate.stats()
        return order, stats

    order, stats = asyncio.run(main())
    assert order == [f"t{i}" for i in range(6)]
    assert stats["peak"] == {"openai": 2} and stats["sizes"] == {"openai": 2} and stats["grants"] == 6
    assert stats["in_use"] == {} and stats["waiting"] == {}


def test_gate_size_comes_from_the_first_request_and_waiters_time_out():
    async def main():
        gate = ProviderGate(default=5)
        assert await gate.acquire("anthropic", "a", requested=1)
        assert gate.size("anthropic", 7) == 1                       # fixed by the first request
        assert not await gate.acquire("anthropic", "b", timeout_s=0.05)
        await gate.release("a")
        assert await gate.acquire("anthropic", "c", timeout_s=0.05)
        return await gate.stats()

    stats = asyncio.run(main())
    assert stats["timeouts"] == 1 and stats["in_use"] == {"anthropic": 1}


def test_gate_release_before_acquire_refuses_the_late_acquire_and_dead_holders_are_freed():
    async def main():
        gate = ProviderGate({"p": 1})
        await gate.release("late")                                   # the caller gave up first
        assert not await gate.acquire("p", "late", "x")
        assert await gate.acquire("p", "held", "dead-actor")
        waiter = asyncio.ensure_future(gate.acquire("p", "w", "dead-actor"))
        other = asyncio.ensure_future(gate.acquire("p", "o", "live-actor"))
        await asyncio.sleep(0.01)
        assert await gate.release_holder("dead-actor") == 1
        assert await waiter is False and await other is True      # the live actor's waiter gets the slot
        await gate.release("w")                                      # withdrawing a refused waiter is harmless
        return await gate.stats()

    stats = asyncio.run(main())
    assert stats["in_use"] == {"p": 1}


# ---------------------------------------------------------------------------------------------- results
def test_parts_share_one_schema_whatever_is_null(tmp_path):
    layout = RunLayout(tmp_path)
    layout.prepare()
    layout.write_row("a", {"episode_id": "a", "agent_pass": None, "entity_f1": 1, "error": None, "steps": 3,
                           "attempts": 1, "infra_failure": False, "extra": None})
    layout.write_row("b", {"episode_id": "b", "agent_pass": True, "entity_f1": 0.5, "error": "boom", "steps": 4,
                           "attempts": 2, "infra_failure": True, "extra": {"k": 1}})
    table = pq.read_table(tmp_path / "episodes.parquet")
    assert table.schema.field("agent_pass").type == "bool" and table.schema.field("entity_f1").type == "double"
    assert table.schema.field("error").type == "string"
    by_id = {r["episode_id"]: r for r in layout.read_rows()}
    assert by_id["a"]["entity_f1"] == 1.0 and by_id["b"]["extra"] == '{"k": 1}' and by_id["a"]["agent_pass"] is None
    assert layout.done_ids() == {"a", "b"}


def test_hidden_temp_files_are_invisible_to_readers_and_cleaned_on_prepare(tmp_path):
    layout = RunLayout(tmp_path)
    layout.prepare()
    layout.write_row("a", {"episode_id": "a", "steps": 1})
    pq.write_table(row_table({"episode_id": "half", "steps": 2}), layout.episodes_dir / ".tmp_123_x.parquet")
    (layout.trajectories_dir / ".tmp_9_y.json").write_text("{")
    assert layout.done_ids() == {"a"} and len(pq.read_table(layout.episodes_dir)) == 1
    layout.prepare()
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["a.parquet"]


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    layout = RunLayout(tmp_path)
    layout.prepare()
    with pytest.raises(ValueError):
        layout.write_row("bad", {"episode_id": "bad", "steps": "not a number"})
    assert list(layout.episodes_dir.iterdir()) == []


# ---------------------------------------------------------------------------------------------- shapes and stats
def test_pool_shape_follows_episodes_per_actor_or_the_actor_count():
    assert pool_shape(RunnerSettings(episodes_per_actor=32), 256) == (8, 32)
    assert pool_shape(RunnerSettings(episodes_per_actor=32), 5) == (1, 5)
    assert pool_shape(RunnerSettings(num_actors=3), 10) == (3, 4)
    assert pool_shape(RunnerSettings(num_actors=8), 2) == (2, 1)
    assert pool_shape(RunnerSettings(episodes_per_actor=32), 512, cpus=2) == (2, 256)   # <= 1 actor per CPU
    assert pool_shape(RunnerSettings(num_actors=16, episodes_per_actor=32), 512, cpus=2) == (16, 32)


def test_running_stats_and_summary_keep_infrastructure_failures_apart():
    rows = [{"agent_pass": True, "user_pass": True, "entity_f1": 1.0, "steps": 4, "agent_total_tokens": 1500,
             "agent_cost_usd": 0.01, "attempts": 1, "infra_failure": False},
            {"agent_pass": False, "user_pass": True, "entity_f1": 0.5, "steps": 6, "user_total_tokens": 500,
             "attempts": 1, "infra_failure": False},
            {"agent_pass": None, "entity_f1": None, "steps": 0, "end_reason": "error", "attempts": 3,
             "infra_failure": True, "agent_total_tokens": 10}]
    stats = RunningStats()
    for r in rows:
        stats.add(r)
    line = stats.line()
    assert "Agent SR 0.500" in line and "Entity F1 0.750" in line and "not evaluated 1" in line
    assert "2.0k tok" in line and "$0.0100" in line
    s = summarize(rows)
    assert (s.n_episodes, s.agent_sr, s.entity_f1, s.infra_failures, s.avg_steps) == (3, 0.5, 0.75, 1, 5.0)
    assert s.total_tokens == 2010 and s.tokens_by_role["user"] == 500 and s.retried_episodes == 1
    # rows written by the older runner have no infra_failure flag: end_reason decides
    assert summarize([{"end_reason": "error", "steps": 0}]).infra_failures == 1


def test_progress_view_disabled_prints_nothing(capsys):
    stats = RunningStats()
    with ProgressView(3, stats, enabled=False) as view:
        stats.add({"agent_pass": True, "entity_f1": 1.0})
        view.refresh()
    assert capsys.readouterr().out == ""


def test_init_ray_starts_a_small_quiet_local_ray_or_joins_a_cluster(monkeypatch):
    ray = pytest.importorskip("ray")
    from mmtsb.runner.backends import init_ray

    calls: list[dict] = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(kw))
    assert init_ray(RunnerSettings(kind="local", num_cpus=2, object_store_memory_mb=256)) is True
    assert init_ray(RunnerSettings(kind="cluster", address="ray://head:10001")) is True
    local, cluster = calls
    assert local["object_store_memory"] == 256 * 1024 * 1024 and local["num_cpus"] == 2
    assert local["include_dashboard"] is False and local["log_to_driver"] is False and "address" not in local
    assert cluster["address"] == "ray://head:10001" and "object_store_memory" not in cluster
    assert os.environ["RAY_USAGE_STATS_ENABLED"] == "0"
    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    assert init_ray(RunnerSettings(kind="local")) is False and len(calls) == 2   # an existing Ray is reused
