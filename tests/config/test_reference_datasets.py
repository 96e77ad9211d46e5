"""dataset=reference (the release's nominal/) and dataset=reference_ui (its ui/, UI mode) as the README prints
them (issue 13): the right files, no name clash between the two folders, an immediate clear refusal from the
oracle (the release has no reference solutions), and a model agent on the fake server playing them; the generic
model=openai_compatible entry and the Claude entries' native thinking."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from testkit import REFERENCE

from mmtsb.config.build import RunConfigError, build_run_settings, model_settings, resolve_config
from mmtsb.testing import FakeLLMServer
from litellm.llms.anthropic.chat.transformation import AnthropicConfig
from test_config_app import ROOT, run_app

SCENARIOS = REFERENCE / "scenarios"
needs_reference = pytest.mark.skipif(not (SCENARIOS / "nominal").is_dir(), reason="../shared/reference is absent")


@pytest.fixture
def reference_env(monkeypatch):
    monkeypatch.setenv("MMTSB_REFERENCE_DIR", str(SCENARIOS))


@needs_reference
@pytest.mark.parametrize("dataset, folder, ui", [("reference", "nominal", False), ("reference_ui", "ui", True)])
def test_each_part_of_the_release_is_its_own_dataset(compose_cfg, tmp_path, reference_env, dataset, folder, ui):
    cfg = compose_cfg(f"dataset={dataset}", "images=placeholder", "model=openai_compatible",
                      "model.model=openai/m", "model.api_base=http://127.0.0.1:9/v1", "interface=tool_use")
    settings = build_run_settings(cfg, tmp_path / "run", cwd=tmp_path)
    assert sorted(p.name for p in settings.scenarios) == sorted(p.name for p in (SCENARIOS / folder).glob("*.json"))
    assert {p.parent.name for p in settings.scenarios} == {folder} and settings.episode.ui is ui


@needs_reference
def test_both_folders_at_once_name_the_clash(compose_cfg, tmp_path, reference_env):
    cfg = compose_cfg("dataset=reference", "dataset.glob=**/*.json", "images=placeholder", "model=openai_compatible",
                      "model.model=openai/m", "model.api_base=http://127.0.0.1:9/v1")
    with pytest.raises(RunConfigError, match="two scenario files share the name .*dataset=reference_ui"):
        build_run_settings(cfg, tmp_path / "run", cwd=tmp_path)


@needs_reference
@pytest.mark.parametrize("dataset", ["reference", "reference_ui"])
def test_the_oracle_stops_at_once_with_a_clear_message(tmp_path, dataset):
    env_dir = {"MMTSB_REFERENCE_DIR": str(SCENARIOS)}
    old = {k: os.environ.get(k) for k in env_dir}
    os.environ.update(env_dir)
    try:
        proc = run_app([f"dataset={dataset}", "images=placeholder", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT,
                       timeout=120)
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "plays each scenario's metadata.reference_solution" in proc.stderr
    assert "model=openai_compatible" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "run" / "episodes.parquet").exists()


@needs_reference
@pytest.mark.parametrize("dataset, extra", [("reference", []), ("reference_ui", ["interface=tool_use"])])
def test_a_model_agent_plays_the_release_as_the_readme_prints(tmp_path, dataset, extra):
    """README: MMTSB_REFERENCE_DIR=... mmtsb run dataset=reference images=placeholder model=openai_compatible
    model.model=openai/fake-model model.api_base=http://127.0.0.1:PORT/v1 (reference_ui: interface=tool_use)."""
    copy = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS, copy)
    with FakeLLMServer(default="All done.") as server:
        os.environ["MMTSB_REFERENCE_DIR"] = str(copy)
        try:
            proc = run_app([f"dataset={dataset}", "images=placeholder", "model=openai_compatible",
                            "model.model=openai/fake-model", f"model.api_base={server.base_url}", *extra,
                            "dataset.limit=2", "runner=inprocess", f"hydra.run.dir={tmp_path / 'run'}"], cwd=ROOT)
        finally:
            os.environ.pop("MMTSB_REFERENCE_DIR")
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["n_episodes"] == 2 and summary["not_evaluated"] == 0 and summary["avg_steps"] > 0
    assert server.request_count > 0


def test_openai_compatible_needs_a_model_name_and_an_endpoint(compose_cfg):
    data = resolve_config(compose_cfg("model=openai_compatible"))
    with pytest.raises(RunConfigError, match="model.model is empty"):
        model_settings(data["model"], where="model")
    data = resolve_config(compose_cfg("model=openai_compatible", "model.model=openai/m"))
    with pytest.raises(RunConfigError, match="needs the server's endpoint: set model.api_base"):
        model_settings(data["model"], where="model")
    data = resolve_config(compose_cfg("model=openai_compatible", "model.model=openai/m",
                                      "model.api_base=http://127.0.0.1:8000/v1", "model.api_key_env=MY_KEY"))
    s = model_settings(data["model"], where="model")
    assert (s.model, s.api_base, s.api_key_env) == ("openai/m", "http://127.0.0.1:8000/v1", "MY_KEY")


@pytest.mark.parametrize("entry", ["claude_4_5_opus", "claude_4_5_sonnet"])
def test_the_claude_agents_think_natively_and_the_judge_does_not(compose_cfg, entry):
    data = resolve_config(compose_cfg(f"model={entry}", "judge=claude_4_5_sonnet", "user=claude_4_5_sonnet"))
    agent = model_settings(data["model"], where="model")
    thinking = AnthropicConfig._map_reasoning_effort(agent.reasoning_effort, agent.model)   # what litellm sends
    assert thinking["type"] == "enabled" and agent.max_tokens > thinking["budget_tokens"] >= 1024
    judge = model_settings(data["judge"]["model"], where="judge.model")
    assert judge.reasoning_effort is None and "thinking" not in judge.extra_params and judge.temperature == 0.0
    assert model_settings(data["user"]["model"], where="user.model").reasoning_effort is None
