"""Failures told apart (issue 11): each class is recorded, retried, stopped on or replayed as documented, through
execute_run against the fake OpenAI-compatible server, and the classes reach the summary and the report."""

from __future__ import annotations

import json

import pytest

from mmtsb.config.build import RunConfigError
from mmtsb.config.preflight import run_problems
from mmtsb.llm.errors import LLMAuthError, LLMContextWindowError, LLMServerError
from mmtsb.protocol.episode_config import EpisodeConfig, apply_overrides
from mmtsb.protocol.failures import FailureClass, count_by_class, exception_class, is_excluded, row_failure_class
from mmtsb.runner import worker
from mmtsb.runner.execute import execute_run
from mmtsb.scenarios.loader import ScenarioError
from mmtsb.testing import FakeLLMServer
from runkit import NOMINAL, STARTERS, llm_agent, rows, settings

WORKING = {"text": "Done."}


class Switch:
    """A responder whose answer a test changes between runs (the same server, the same config hash)."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply

    def __call__(self, body: dict) -> dict:
        return self.reply


# ------------------------------------------------------------------------------------------ mapping
def test_exceptions_map_to_their_classes():
    auth = LLMAuthError("bad key", model="m", provider="p", status_code=401)
    server = LLMServerError("boom", model="m", provider="p", status_code=503)
    overflow = LLMContextWindowError("too long", model="m", provider="p", status_code=400)
    assert exception_class(auth) == FailureClass.CONFIGURATION
    assert exception_class(server) == FailureClass.INFRASTRUCTURE
    assert exception_class(overflow, role="agent") == FailureClass.AGENT
    assert exception_class(overflow, role="judge") == FailureClass.CONFIGURATION   # the judge model is too small
    assert exception_class(ScenarioError("x.json", ["bad"])) == FailureClass.SCENARIO
    assert exception_class(RuntimeError("crash")) == FailureClass.INFRASTRUCTURE


def test_rows_written_before_the_column_are_classified_from_their_flags():
    assert row_failure_class({"end_reason": "user_ended", "infra_failure": False}) is None
    assert row_failure_class({"infra_failure": True, "error": "ScenarioError: x"}) == FailureClass.SCENARIO
    assert row_failure_class({"end_reason": "error", "error": "ConnectionError"}) == FailureClass.INFRASTRUCTURE
    assert row_failure_class({"infra_failure": False, "agent_judge_error": "no verdict"}) == \
        FailureClass.INFRASTRUCTURE
    agent = {"failure_class": "agent", "infra_failure": False, "end_reason": "context_overflow"}
    assert row_failure_class(agent) == FailureClass.AGENT and not is_excluded(agent)
    assert count_by_class([agent, {"failure_class": "configuration"}]) == \
        {"infrastructure": 0, "configuration": 1, "scenario": 0, "agent": 1}


# ------------------------------------------------------------------------------------------ the run
def test_a_401_stops_the_run_and_a_resume_plays_what_was_left(tmp_path):
    switch = Switch({"status": 401, "error": "invalid api key"})
    with FakeLLMServer(responder=switch) as server:
        run_dir = tmp_path / "run"
        s = settings(run_dir, episode=llm_agent(server.base_url, max_retries=2), max_concurrency=1,
                     max_infra_retries=2)
        summary = execute_run(s, progress=False)
        assert server.request_count == 1                  # never retried: not at the call, not by the driver
        (row,) = rows(run_dir)
        assert row["failure_class"] == "configuration" and row["infra_failure"] is True and row["attempts"] == 1
        assert "401" in row["error"]
        assert summary.stopped and "401" in summary.stopped and summary.not_played == 2
        assert summary.failures["configuration"] == 1 and summary.agent_sr is None
        written = json.loads((run_dir / "summary.json").read_text())
        assert written["failures"]["configuration"] == 1 and written["not_evaluated"] == 1
        report = (run_dir / "report.md").read_text()
        assert "## Episodes not evaluated" in report and "configuration" in report

        switch.reply = WORKING                           # the key is fixed: the same command again
        summary = execute_run(s, progress=False)
    recorded = rows(run_dir)
    assert len(recorded) == 3 and all(r["failure_class"] is None for r in recorded)
    assert summary.stopped is None and summary.not_played == 0 and summary.failures["configuration"] == 0
    assert summary.agent_sr is not None


def test_an_infrastructure_failure_counts_every_attempt_and_a_resume_replays_it(tmp_path):
    switch = Switch({"status": 500, "error": "upstream exploded"})
    with FakeLLMServer(responder=switch) as server:
        run_dir = tmp_path / "run"
        s = settings(run_dir, scenarios=STARTERS[:1], episode=llm_agent(server.base_url, max_retries=1),
                     max_infra_retries=1)
        summary = execute_run(s, progress=False)
        assert server.request_count == 4                 # 2 episode attempts x (1 call + 1 call-level retry)
        (row,) = rows(run_dir)
        assert row["failure_class"] == "infrastructure" and row["attempts"] == 2
        assert row["agent_failed_calls"] == 2            # the kept attempt's two failed calls
        assert row["earlier_attempts_failed_calls"] == 2  # and the thrown-away attempt's two
        assert summary.failed_calls == 4 and summary.infra_failures == 1 and summary.stopped is None
        report = (run_dir / "report.md").read_text()       # the report's usage table counts them too
        assert "| agent | 0 | 2 |" in report and "| earlier_attempts | 0 | 2 |" in report, report

        switch.reply = WORKING
        summary = execute_run(s, progress=False)
    (row,) = rows(run_dir)
    assert row["failure_class"] is None and row["infra_failure"] is False and row["agent_failed_calls"] == 0
    assert summary.infra_failures == 0 and summary.n_episodes == 1


def test_tokens_of_retried_episode_attempts_stay_in_the_totals(tmp_path):
    """Attempt 1 is served one completion, then a 500 ends it; attempt 2 plays to the end: the summary's
    tokens are what the server served, both attempts together."""
    served: list[int] = []

    def responder(body: dict) -> dict:
        served.append(1)
        if len(served) == 2:
            return {"status": 500, "error": "transient"}
        return WORKING

    with FakeLLMServer(responder=responder, usage={"prompt_tokens": 100, "completion_tokens": 10}) as server:
        run_dir = tmp_path / "run"
        s = settings(run_dir, scenarios=STARTERS[:1], episode=llm_agent(server.base_url, max_retries=0),
                     max_infra_retries=1)
        summary = execute_run(s, progress=False)
        completions = server.request_count - 1
    (row,) = rows(run_dir)
    assert row["attempts"] == 2 and row["failure_class"] is None
    assert row["earlier_attempts_total_tokens"] == 110 and row["earlier_attempts_api_calls"] == 1
    assert row["earlier_attempts_failed_calls"] == 1
    assert summary.total_tokens == 110 * completions and summary.earlier_attempts_tokens == 110


def test_an_agent_context_overflow_is_an_agent_failure(tmp_path):
    overflow = {"status": 400, "error": "This model's maximum context length is 8192 tokens"}
    with FakeLLMServer(default=overflow) as server:
        run_dir = tmp_path / "run"
        s = settings(run_dir, scenarios=STARTERS[:1], episode=llm_agent(server.base_url), max_infra_retries=2)
        summary = execute_run(s, progress=False)
        assert server.request_count == 1
    (row,) = rows(run_dir)
    assert row["failure_class"] == "agent" and row["end_reason"] == "context_overflow"
    assert row["infra_failure"] is False and row["agent_pass"] is False and row["attempts"] == 1
    assert summary.agent_sr == 0.0 and summary.not_evaluated == 0 and summary.failures["agent"] == 1


def test_a_file_broken_after_validation_is_a_scenario_failure_never_retried_or_replayed(tmp_path, monkeypatch):
    """The file passes the run's validation, then is edited while the run plays (a case validation cannot catch):
    the row names the file and the field, the episode is played once despite max_infra_retries, and a resumed
    run does not play it again."""
    target = tmp_path / "scenarios" / STARTERS[0].name
    target.parent.mkdir()
    target.write_text(STARTERS[0].read_text())
    real, plays = worker.play_scenario, []

    async def edited_meanwhile(path, cfg, **kw):
        plays.append(path.stem)
        path.write_text(json.dumps({**json.loads(path.read_text()), "reference_time": 12345}))
        return await real(path, cfg, **kw)

    monkeypatch.setattr(worker, "play_scenario", edited_meanwhile)
    run_dir = tmp_path / "run"
    s = settings(run_dir, scenarios=[target], episode=EpisodeConfig(image_root=str(NOMINAL)), max_infra_retries=2)
    summary = execute_run(s, progress=False)
    (row,) = rows(run_dir)
    assert row["failure_class"] == "scenario" and row["attempts"] == 1 and plays == [target.stem]
    assert row["error"].startswith(f"ScenarioError: {target}") and "reference_time" in row["error"]
    assert summary.failures["scenario"] == 1 and summary.not_evaluated == 1 and summary.agent_sr is None
    assert summary.stopped is None and summary.retried_episodes == 0
    assert "scenario" in (run_dir / "report.md").read_text().split("## Episodes not evaluated")[1]

    execute_run(s, progress=False)                      # resumed: a scenario failure is kept, not replayed
    assert plays == [target.stem] and len(rows(run_dir)) == 1


def test_a_judge_refused_for_its_credentials_is_a_configuration_failure(tmp_path):
    with FakeLLMServer(default={"status": 403, "error": "forbidden"}) as server:
        episode = apply_overrides(llm_agent("http://127.0.0.1:9/v1"), [
            "agent=oracle", "judge=llm", "judge_model.model=openai/fake-judge",
            f"judge_model.api_base={server.base_url}", "judge_model.max_retries=0"])
        run_dir = tmp_path / "run"
        summary = execute_run(settings(run_dir, episode=episode, max_concurrency=1), progress=False)
    (row,) = rows(run_dir)
    assert row["failure_class"] == "configuration" and row["agent_judge_error"]
    assert summary.stopped and summary.not_played == 2


# ------------------------------------------------------------------------------------------ preflight
def test_a_missing_key_stops_the_run_before_its_first_episode(tmp_path, monkeypatch):
    monkeypatch.delenv("MMTSB_TEST_UNSET_KEY", raising=False)
    episode = apply_overrides(llm_agent("http://127.0.0.1:9/v1"), ["agent_model.api_key_env=MMTSB_TEST_UNSET_KEY"])
    s = settings(tmp_path / "run", episode=episode)
    with pytest.raises(RunConfigError, match="MMTSB_TEST_UNSET_KEY.*not set"):
        execute_run(s, progress=False)
    assert not (tmp_path / "run" / "episodes.parquet").exists()
    monkeypatch.setenv("MMTSB_TEST_UNSET_KEY", "sk-test")
    assert run_problems(s) == []


def test_a_hosted_model_without_its_providers_key_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    episode = apply_overrides(llm_agent("http://127.0.0.1:9/v1"), [
        "agent_model.model=anthropic/claude-x", "agent_model.api_base=null"])
    (problem,) = run_problems(settings(tmp_path / "run", episode=episode))
    assert problem.startswith("model.model=anthropic/claude-x") and "ANTHROPIC_API_KEY" in problem


def test_wandb_logging_without_wandb_is_refused(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wandb" else real(name, *a))
    s = settings(tmp_path / "run")
    s.logging.wandb = True
    (problem,) = run_problems(s)
    assert problem.startswith("logging=wandb") and "logging=none" in problem
