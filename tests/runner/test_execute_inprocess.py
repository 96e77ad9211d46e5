"""execute_run without Ray (runner.kind=inprocess): the same planning, scheduling, streaming, retry and resume
code as the Ray runs, over the starter scenarios with the oracle agent, scripted user and static judges."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import mmtsb.runner.worker as worker
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.runner.execute import execute_run, plan_episodes
from mmtsb.runner.settings import episode_id, episode_seed
from mmtsb.testing import FakeLLMServer
from runkit import NOMINAL, STARTERS, llm_agent, rows, settings, temp_files, trajectory
from testkit import REPO

REQUIRED_SUMMARY = {"n_episodes", "agent_sr", "entity_f1", "user_sr", "avg_steps", "infra_failures",
                    "total_tokens", "cost_usd"}
RUN_FIELDS = {"episode_id", "repeat", "seed", "config_hash", "dataset", "toolbox", "agent_model", "user_model",
              "judge_model", "attempts", "infra_failure", "trajectory_path"}


@pytest.fixture
def count_plays(monkeypatch):
    """Counts play_scenario calls per scenario (the worker looks the function up at call time)."""
    calls: dict[str, int] = {}
    real = worker.play_scenario

    async def counting(path, cfg, **kw):
        calls[path.stem] = calls.get(path.stem, 0) + 1
        return await real(path, cfg, **kw)

    monkeypatch.setattr(worker, "play_scenario", counting)
    return calls


def test_inprocess_run_streams_rows_trajectories_and_summary(tmp_path):
    run_dir = tmp_path / "run"
    summary = execute_run(settings(run_dir), progress=False)
    assert summary.n_episodes == 3 and summary.agent_sr == 1.0 and summary.entity_f1 == 1.0
    assert summary.infra_failures == 0 and summary.user_sr == 1.0 and summary.avg_steps > 0
    recorded = rows(run_dir)
    assert sorted(r["scenario"] for r in recorded) == [p.stem for p in STARTERS]
    for row in recorded:
        assert RUN_FIELDS <= set(row)
        assert row["attempts"] == 1 and row["infra_failure"] is False and row["agent_pass"] is True
        assert row["agent_model"] == "oracle" and row["user_model"] == "scripted" and row["judge_model"] == "static"
        assert (run_dir / "episodes.parquet" / f"{row['episode_id']}.parquet").is_file()
        t = trajectory(run_dir, row)
        assert t["scenario"] == row["scenario"] and t["run"]["episode_id"] == row["episode_id"]
        assert t["seed"] == row["seed"]
    written = json.loads((run_dir / "summary.json").read_text())
    assert REQUIRED_SUMMARY <= set(written) and written["n_episodes"] == 3 and written["infra_failures"] == 0
    assert (run_dir / "config.yaml").is_file()
    assert not temp_files(run_dir)


def test_repeats_give_distinct_seeds_twice_the_rows_and_a_rerun_plays_nothing(tmp_path, count_plays):
    run_dir = tmp_path / "run"
    s = settings(run_dir, repeats=2)
    summary = execute_run(s, progress=False)
    recorded = rows(run_dir)
    assert summary.n_episodes == 6 and len(recorded) == 6
    assert len({r["seed"] for r in recorded}) == 6 and len({r["episode_id"] for r in recorded}) == 6
    for r in recorded:
        assert r["seed"] == episode_seed(r["scenario"], r["repeat"], s.config_hash, s.episode.seed)
        assert r["episode_id"] == episode_id(r["scenario"], r["repeat"], s.config_hash)
        assert trajectory(run_dir, r)["seed"] == r["seed"]   # the episode really ran with its seed
    assert sorted(r["repeat"] for r in recorded) == [0, 0, 0, 1, 1, 1]
    assert s.episode.seed == 0            # the run's config is copied per episode, never mutated
    mtimes = {p: p.stat().st_mtime_ns for p in (run_dir / "episodes.parquet").iterdir()}
    again = execute_run(s, progress=False)
    assert again.n_episodes == 6 and sum(count_plays.values()) == 6
    assert {p: p.stat().st_mtime_ns for p in (run_dir / "episodes.parquet").iterdir()} == mtimes


def test_plan_rejects_missing_files_and_name_clashes(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.json"):
        plan_episodes(settings(tmp_path, scenarios=[tmp_path / "nope.json"]))
    other = tmp_path / "mmtsb_nominal_001.json"
    other.write_text(STARTERS[0].read_text())
    with pytest.raises(ValueError, match="share the name 'mmtsb_nominal_001'"):
        plan_episodes(settings(tmp_path, scenarios=[STARTERS[0], other]))
    with pytest.raises(ValueError, match="repeats"):
        plan_episodes(settings(tmp_path, repeats=0))


def test_infrastructure_failure_is_retried_then_recorded_apart(tmp_path, monkeypatch):
    calls: list[int] = []

    async def broken(path, cfg, **kw):
        calls.append(cfg.seed)
        raise ConnectionError("sandbox host unreachable")

    monkeypatch.setattr(worker, "play_scenario", broken)
    run_dir = tmp_path / "run"
    summary = execute_run(settings(run_dir, scenarios=STARTERS[:2], max_infra_retries=2), progress=False)
    assert len(calls) == 2 * 3                      # first attempt + 2 retries, per episode
    recorded = rows(run_dir)
    assert len(recorded) == 2
    for r in recorded:
        assert r["infra_failure"] is True and r["attempts"] == 3 and r["end_reason"] == "error"
        assert "ConnectionError: sandbox host unreachable" in r["error"]
        assert trajectory(run_dir, r)["error"].startswith("ConnectionError")
    assert summary.infra_failures == 2 and summary.agent_sr is None and summary.retried_episodes == 2
    assert json.loads((run_dir / "summary.json").read_text())["infra_failures"] == 2


def test_a_transient_infrastructure_failure_succeeds_on_retry(tmp_path, monkeypatch):
    real = worker.play_scenario
    failed: set[str] = set()

    async def flaky(path, cfg, **kw):
        if path.stem not in failed:
            failed.add(path.stem)
            raise TimeoutError("provider gate timed out")
        return await real(path, cfg, **kw)

    monkeypatch.setattr(worker, "play_scenario", flaky)
    run_dir = tmp_path / "run"
    summary = execute_run(settings(run_dir, scenarios=STARTERS[:2]), progress=False)
    assert summary.infra_failures == 0 and summary.agent_sr == 1.0 and summary.retried_episodes == 2
    assert [(r["attempts"], r["infra_failure"], r["agent_pass"]) for r in rows(run_dir)] == [(2, False, True)] * 2


def test_an_agent_failure_is_recorded_and_never_retried(tmp_path, count_plays):
    scenario = json.loads(STARTERS[0].read_text())
    rounds = scenario["metadata"]["reference_solution"]["rounds"]
    dropped = rounds[-1]["steps"].pop()              # the oracle forgets to send the email
    assert dropped["tool"] == "gmail_send_email"
    broken = tmp_path / "scenarios" / "mmtsb_nominal_901.json"
    broken.parent.mkdir()
    broken.write_text(json.dumps({**scenario, "name": "mmtsb_nominal_901"}))
    run_dir = tmp_path / "run"
    s = settings(run_dir, scenarios=[broken, STARTERS[1]], episode=EpisodeConfig(image_root=str(NOMINAL)),
                 max_infra_retries=3)
    summary = execute_run(s, progress=False)
    assert count_plays == {"mmtsb_nominal_901": 1, "mmtsb_nominal_002": 1}
    by_name = {r["scenario"]: r for r in rows(run_dir)}
    bad = by_name["mmtsb_nominal_901"]
    assert bad["agent_pass"] is False and bad["entity_f1"] < 1.0 and bad["end_reason"] == "user_ended"
    assert bad["attempts"] == 1 and bad["infra_failure"] is False
    assert summary.agent_sr == 0.5 and summary.infra_failures == 0


def test_a_model_failing_every_call_is_an_infrastructure_failure(tmp_path):
    with FakeLLMServer(default={"status": 500, "error": "upstream exploded"}) as server:
        run_dir = tmp_path / "run"
        s = settings(run_dir, scenarios=STARTERS[:1], episode=llm_agent(server.base_url, max_retries=0),
                     max_infra_retries=1)
        summary = execute_run(s, progress=False)
        assert server.request_count == 2             # one call per attempt: the first and one retry
    (row,) = rows(run_dir)
    assert row["infra_failure"] is True and row["attempts"] == 2 and row["end_reason"] == "error"
    assert "500" in row["error"] or "Server" in row["error"]
    assert summary.infra_failures == 1 and summary.agent_sr is None


def test_both_routes_to_an_openai_compatible_server_play_the_same_episodes(tmp_path):
    """litellm ("fast") and the direct route send the same requests and record the same episodes."""
    replies = {"rules": [{"match": "Successfully registered|Found \\d+ tools", "reply": "Done."}],
               "default": {"tool_calls": [{"id": "s", "name": "api_docs_search_api_docs",
                                           "arguments": {"query": "note"}}]}}
    seen: dict[str, tuple[list[dict], list[tuple]]] = {}
    for route in ("fast", "direct"):
        with FakeLLMServer(**replies, usage={"prompt_tokens": 100, "completion_tokens": 10}) as server:
            episode = llm_agent(server.base_url)
            episode.agent_model.compat_route = route
            run_dir = tmp_path / route
            summary = execute_run(settings(run_dir, scenarios=STARTERS[:2], episode=episode), progress=False)
            requests = sorted(server.requests, key=lambda b: json.dumps(b["messages"]))
        assert summary.infra_failures == 0
        seen[route] = (requests, sorted((r["scenario"], r["agent_api_calls"], r["agent_prompt_tokens"],
                                         r["entity_f1"], r["end_reason"]) for r in rows(run_dir)))
    fast, direct = seen["fast"], seen["direct"]
    assert direct[1] == fast[1] and all(calls > 1 for _, calls, *_ in direct[1])
    assert [(b["model"], b["messages"], b.get("tools")) for b in direct[0]] == \
        [(b["model"], b["messages"], b.get("tools")) for b in fast[0]]


RUN_SCRIPT = """
import asyncio, sys
import mmtsb.runner.worker as worker
from mmtsb.protocol.episode_config import EpisodeConfig
from mmtsb.runner.execute import execute_run
from mmtsb.runner.settings import RunnerSettings, RunSettings

real = worker.play_scenario
async def slow(path, cfg, **kw):
    await asyncio.sleep(float(sys.argv[2]))
    return await real(path, cfg, **kw)
worker.play_scenario = slow
execute_run(RunSettings(run_dir=sys.argv[1], scenarios=sys.argv[3:], episode=EpisodeConfig(), repeats=3,
                        runner=RunnerSettings(kind="inprocess", max_concurrency=2)), progress=False)
"""


def test_a_run_killed_with_sigkill_resumes_with_every_episode_exactly_once(tmp_path):
    run_dir = tmp_path / "run"
    parts = run_dir / "episodes.parquet"
    proc = subprocess.Popen([sys.executable, "-c", RUN_SCRIPT, str(run_dir), "0.6", *map(str, STARTERS)],
                            cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if parts.is_dir() and len([p for p in parts.iterdir() if not p.name.startswith(".")]) >= 3:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(10)
    before = rows(run_dir)                             # readable as is: temp files are invisible to readers
    assert 3 <= len(before) < 9
    summary = execute_run(_same_settings(run_dir), progress=False)
    after = rows(run_dir)
    ids = [r["episode_id"] for r in after]
    assert len(ids) == len(set(ids)) == 9 and summary.n_episodes == 9
    assert {r["episode_id"] for r in before} <= set(ids)
    for r in after:
        assert (run_dir / r["trajectory_path"]).is_file() and trajectory(run_dir, r)["run"]["episode_id"] == \
            r["episode_id"]
    assert sorted(p.stem for p in (run_dir / "trajectories").iterdir()) == sorted(ids)
    assert not temp_files(run_dir)
    assert len(pq.read_table(parts)) == 9


def _same_settings(run_dir):
    """What RUN_SCRIPT configures (so the config hash, hence the episode ids, match)."""
    from mmtsb.runner.settings import RunnerSettings, RunSettings

    return RunSettings(run_dir=run_dir, scenarios=list(map(str, STARTERS)), episode=EpisodeConfig(), repeats=3,
                       runner=RunnerSettings(kind="inprocess", max_concurrency=2))


def test_execute_run_works_from_inside_an_event_loop(tmp_path):
    async def caller():
        return execute_run(settings(tmp_path / "run", scenarios=STARTERS[:1]), progress=False)

    assert asyncio.run(caller()).n_episodes == 1


def test_files_that_do_not_validate_are_reported_and_never_played(tmp_path, count_plays):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    bad_world = json.loads(STARTERS[0].read_text())
    bad_world["name"] = "mmtsb_nominal_902"
    bad_world["appworld_entities"]["no_such.table"] = [{"id": 1}]
    (folder / "mmtsb_nominal_902.json").write_text(json.dumps(bad_world))
    (folder / "mmtsb_nominal_903.json").write_text(json.dumps({"name": "mmtsb_nominal_903", "reference_time": 5}))
    run_dir = tmp_path / "run"
    s = settings(run_dir, scenarios=[folder / "mmtsb_nominal_902.json", folder / "mmtsb_nominal_903.json",
                                     STARTERS[1]], episode=EpisodeConfig(image_root=str(NOMINAL)))
    summary = execute_run(s, progress=False)
    assert count_plays == {"mmtsb_nominal_002": 1}     # the two broken files were never played
    assert summary.n_episodes == 1 and summary.agent_sr == 1.0 and summary.infra_failures == 0
    report = {Path(r["file"]).stem: r["errors"] for r in json.loads((run_dir / "invalid_scenarios.json").read_text())}
    assert set(report) == {"mmtsb_nominal_902", "mmtsb_nominal_903"}
    assert any("no_such.table" in e for e in report["mmtsb_nominal_902"])
    assert any(e.startswith("reference_time") for e in report["mmtsb_nominal_903"])
    written = json.loads((run_dir / "summary.json").read_text())
    assert sorted(Path(f).stem for f in written["invalid_scenarios"]) == ["mmtsb_nominal_902", "mmtsb_nominal_903"]
