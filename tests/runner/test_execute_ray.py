"""execute_run on a local Ray (runner.kind=local): pooled episode actors, provider caps across actors, dead
actors replaced and their episodes retried (model failures: see the in-process tests, same code path)."""

from __future__ import annotations

import threading
import time

from mmtsb.runner.execute import execute_run
from mmtsb.testing import FakeLLMServer
from runkit import llm_agent, rows, settings, temp_files, trajectory


def test_local_ray_pool_plays_every_episode_once(ray_local, tmp_path):
    run_dir = tmp_path / "run"
    summary = execute_run(settings(run_dir, kind="local", repeats=2, num_actors=2), progress=False)
    recorded = rows(run_dir)
    assert summary.n_episodes == 6 and summary.agent_sr == 1.0 and summary.infra_failures == 0
    assert len({r["episode_id"] for r in recorded}) == 6 and len({r["seed"] for r in recorded}) == 6
    actors = {trajectory(run_dir, r)["run"]["actor"] for r in recorded}
    assert len(actors) == 2 and all(a.startswith("mmtsb-episodes-") for a in actors)   # both pooled actors played
    assert all(r["attempts"] == 1 for r in recorded) and not temp_files(run_dir)


def test_provider_cap_holds_across_actors(ray_local, tmp_path):
    """3 actors x 4 concurrent episodes, cap 3 for the provider: never more than 3 requests at the server."""
    with FakeLLMServer(default="Done.", latency_s=0.3) as server:
        s = settings(tmp_path / "run", kind="local", repeats=4, num_actors=3, episodes_per_actor=4,
                     max_concurrency=12, episode=llm_agent(server.base_url, concurrency=3))
        summary = execute_run(s, progress=False)
        peak = server.max_in_flight
        assert server.request_count >= 24
    assert peak == 3, f"peak concurrency at the server was {peak}"
    recorded = rows(tmp_path / "run")
    assert summary.n_episodes == 12 and summary.infra_failures == 0
    assert len({trajectory(tmp_path / "run", r)["run"]["actor"] for r in recorded}) == 3
    # the agent only says "Done.": an agent failure, recorded once and never retried
    assert all(r["agent_pass"] is False and r["attempts"] == 1 and not r["infra_failure"] for r in recorded)
    assert summary.total_tokens > 0


def test_a_killed_actor_is_replaced_and_its_episodes_retried(ray_local, tmp_path):
    ray = ray_local
    killed: list[str] = []
    with FakeLLMServer(default="Done.", latency_s=0.5) as server:

        def kill_first_actor() -> None:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and server.request_count < 4:
                time.sleep(0.02)
            names = [n for n in ray.util.list_named_actors() if n.startswith("mmtsb-episodes-")
                     and n.endswith("-0-g0")]
            ray.kill(ray.get_actor(names[0]), no_restart=True)
            killed.append(names[0])

        killer = threading.Thread(target=kill_first_actor)
        killer.start()
        # cap 2 < 6 episodes in flight: the gate is used, and the dead actor's slots must be freed
        s = settings(tmp_path / "run", kind="local", repeats=2, num_actors=2, episodes_per_actor=3,
                     gate_timeout_s=30, episode=llm_agent(server.base_url, concurrency=2))
        summary = execute_run(s, progress=False)
        killer.join()
        # the cap (2) holds across actors; the only excess allowed is the killed actor's own requests, which
        # stay open at the server after its slots are handed back (at most the 2 it could hold)
        assert server.max_in_flight <= 2 + 2
    assert killed
    recorded = rows(tmp_path / "run")
    assert summary.n_episodes == 6 and summary.infra_failures == 0 and len({r["episode_id"] for r in recorded}) == 6
    retried = [r for r in recorded if r["attempts"] == 2]
    assert retried and summary.retried_episodes == len(retried)
    for r in retried:
        assert trajectory(tmp_path / "run", r)["run"]["actor"] != killed[0]
    assert all(not r["infra_failure"] for r in recorded)
