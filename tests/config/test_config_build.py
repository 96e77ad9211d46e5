"""build_run_settings: composed config -> RunSettings (episode config, scenario files, redacted config, hash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mmtsb.config.build import RunConfigError, build_run_settings, hash_view, resolve_config
from mmtsb.config.paths import find_project_root
from mmtsb.config.secrets import REDACTED, is_secret_key, redact, redact_override
from mmtsb.runner.settings import config_hash

ROOT = find_project_root()
NOMINAL = sorted((ROOT / "scenarios" / "nominal").glob("*.json"))


def build(compose_cfg, *overrides, tmp_path: Path | None = None, **kw):
    return build_run_settings(compose_cfg(*overrides), (tmp_path or Path("/tmp")) / "run", **kw)


def test_defaults_build_the_offline_oracle_run(compose_cfg, tmp_path):
    s = build(compose_cfg, tmp_path=tmp_path)
    ep = s.episode
    assert (ep.agent, ep.interface, ep.user, ep.judge, ep.toolbox) == ("oracle", "code_exec", "scripted", "static",
                                                                       "full")
    assert ep.agent_model.model is None and ep.images == "require" and ep.protocol == "paper"
    assert (ep.budgets.max_steps, ep.budgets.max_interaction_steps) == (None, 100)   # protocol=paper
    assert s.scenarios == NOMINAL and s.dataset == "nominal" and s.repeats == 1
    assert s.runner.kind == "local" and s.runner.object_store_memory_mb == 512 and s.logging.wandb is False
    assert s.run_dir == tmp_path / "run" and len(s.config_hash) == 12
    assert s.resolved_config["model"]["name"] == "oracle" and "hydra" not in s.resolved_config


def test_llm_roles_map_to_model_settings(compose_cfg):
    s = build(compose_cfg, "model=gpt_5_4_high", "interface=tool_use", "toolbox=mini", "user=claude_4_5_sonnet",
              "judge=gemini_3_1_pro", "budgets.max_steps=30", "repeats=3", "seed=7", "strict_reference=true",
              "images=placeholder", "runner=cluster", "logging=wandb")
    ep = s.episode
    assert (ep.agent, ep.interface, ep.toolbox, ep.user, ep.judge) == ("tool_use", "tool_use", "mini", "llm", "llm")
    assert ep.agent_model.model == "openai/gpt-5.4" and ep.agent_model.reasoning_effort == "high"
    assert ep.agent_model.api_key_env == "OPENAI_API_KEY" and ep.agent_model.concurrency == 32
    assert ep.user_model.model == "anthropic/claude-sonnet-4-5" and ep.user_model.max_tokens == 8192
    assert ep.judge_model.model == "gemini/gemini-3.1-pro-preview"
    assert (ep.budgets.max_steps, ep.seed, ep.strict_reference, ep.images) == (30, 7, True, "placeholder")
    assert s.repeats == 3 and s.runner.kind == "cluster" and s.runner.address == "auto"
    assert s.logging.wandb is True and s.logging.project == "mmtsb"


def test_open_weight_models_need_an_endpoint(compose_cfg):
    with pytest.raises(RunConfigError, match=r"serve=vllm.*serve\.api_base"):
        build(compose_cfg, "model=qwen3_5_9b")
    s = build(compose_cfg, "model=qwen3_5_9b", "serve.api_base=http://gpu-node:8000/v1", "interface=hybrid")
    assert s.episode.agent_model.model == "hosted_vllm/Qwen/Qwen3.5-9B"
    assert s.episode.agent_model.api_base == "http://gpu-node:8000/v1" and s.episode.agent == "hybrid"


def test_the_direct_route_is_config_and_checked(compose_cfg):
    s = build(compose_cfg, "model=qwen3_5_9b", "serve.api_base=http://gpu-node:8000/v1")
    assert s.episode.agent_model.compat_route == "direct"   # the served open-weight models skip litellm
    s = build(compose_cfg, "model=qwen3_5_9b", "serve.api_base=http://h:1/v1", "model.compat_route=fast")
    assert s.episode.agent_model.compat_route == "fast"
    assert build(compose_cfg, "model=gpt_5_4_none").episode.agent_model.compat_route == "fast"
    with pytest.raises(RunConfigError, match=r"model.compat_route='sideways'.*fast, openai_sdk, direct"):
        build(compose_cfg, "model=qwen3_5_9b", "serve.api_base=http://h:1/v1", "model.compat_route=sideways")
    with pytest.raises(RunConfigError, match="model.compat_route=direct .* needs an api_base"):
        build(compose_cfg, "model=gpt_5_4_none", "model.compat_route=direct")


def test_serve_vllm_routes_the_model_and_feeds_the_serve_settings(compose_cfg, tmp_path):
    cfg = compose_cfg("model=qwen3_5_27b", "serve=vllm")
    s = build_run_settings(cfg, tmp_path / "run")
    api_base = s.episode.agent_model.api_base
    assert api_base.startswith("http://127.0.0.1:") and api_base.endswith("/v1")
    from mmtsb.serve import ServeSettings

    serve = ServeSettings.from_config(cfg.serve, cfg.model.serve, tmp_path / "run")
    assert serve.model.hf_repo == "Qwen/Qwen3.5-27B" and serve.model.tensor_parallel_size == 2
    assert serve.model.litellm_model == s.episode.agent_model.model


def test_user_same_as_agent_needs_an_llm_agent(compose_cfg):
    s = build(compose_cfg, "model=claude_4_5_opus", "user=same_as_agent")
    assert s.episode.user_model.model == s.episode.agent_model.model == "anthropic/claude-opus-4-5"
    with pytest.raises(RunConfigError, match="user.model=oracle is the oracle"):
        build(compose_cfg, "user=same_as_agent")


def test_dataset_filters(compose_cfg):
    s = build(compose_cfg, "dataset.names=[mmtsb_nominal_003,mmtsb_nominal_01*]")
    tens = [p.stem for p in NOMINAL if p.stem >= "mmtsb_nominal_010"]
    assert [p.stem for p in s.scenarios] == ["mmtsb_nominal_003", *tens]
    assert build(compose_cfg, "dataset.limit=2").scenarios == NOMINAL[:2]
    with pytest.raises(RunConfigError, match="dataset.names: no scenario file .* matches nope"):
        build(compose_cfg, "dataset.names=[nope]")
    with pytest.raises(RunConfigError, match="dataset.limit=0"):
        build(compose_cfg, "dataset.limit=0")


def test_empty_or_missing_dataset_is_a_clear_error(compose_cfg, tmp_path):
    with pytest.raises(RunConfigError, match=r"no scenario files match '\*\.json'"):
        build(compose_cfg, f"dataset.path={tmp_path}")
    with pytest.raises(RunConfigError, match="dataset=ui: folder 'scenarios/nowhere' does not exist"):
        build(compose_cfg, "dataset=ui", "dataset.path=scenarios/nowhere")


def test_reference_dataset_reads_its_folders_from_the_environment(compose_cfg, tmp_path, monkeypatch):
    (tmp_path / "nominal").mkdir()
    for name in ("scenario_0002", "scenario_0001"):
        (tmp_path / "nominal" / f"{name}.json").write_text("{}")
    monkeypatch.setenv("MMTSB_REFERENCE_DIR", str(tmp_path))
    monkeypatch.setenv("MMTSB_IMAGE_ROOT", str(tmp_path / "images"))
    s = build(compose_cfg, "dataset=reference", "images=placeholder")
    assert [p.name for p in s.scenarios] == ["scenario_0001.json", "scenario_0002.json"]
    assert s.episode.image_root == str(tmp_path / "images") and s.dataset == "reference"
    with pytest.raises(RunConfigError, match="image_root.*images=placeholder"):
        build(compose_cfg, "dataset=reference")   # images=require and the image folder is missing
    monkeypatch.delenv("MMTSB_REFERENCE_DIR")
    with pytest.raises(RunConfigError, match="MMTSB_REFERENCE_DIR"):
        build(compose_cfg, "dataset=reference", "images=placeholder")


def test_relative_paths_resolve_from_the_project_root_outside_it(compose_cfg, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = build(compose_cfg, "response_cache_dir=cache")
    assert s.scenarios == NOMINAL and s.episode.response_cache_dir == str(tmp_path / "cache")


def test_secrets_are_removed_from_the_resolved_config(compose_cfg, monkeypatch):
    monkeypatch.setenv("MY_SECRET_TOKEN", "tok-from-env")
    s = build(compose_cfg, "model=gpt_5_4_none", "+model.extra_params.api_key=sk-live-123",
              "+model.extra_params.auth_token=${oc.env:MY_SECRET_TOKEN}", "+model.extra_params.top_p=0.9",
              "model.max_tokens=4096")
    extra = s.resolved_config["model"]["extra_params"]
    assert extra == {"api_key": REDACTED, "auth_token": REDACTED, "top_p": 0.9}
    assert s.resolved_config["model"]["api_key_env"] == "OPENAI_API_KEY"    # a variable NAME stays
    assert s.resolved_config["model"]["max_tokens"] == 4096
    assert "sk-live-123" not in repr(s.resolved_config) and "tok-from-env" not in repr(s.resolved_config)
    assert s.episode.agent_model.extra_params["api_key"] == "sk-live-123"  # the episode still gets it


def test_secret_key_rules():
    assert all(map(is_secret_key, ["api_key", "apiKey", "hf_token", "client_secret", "password", "APIKEY", "key"]))
    assert not any(map(is_secret_key, ["max_tokens", "tokenizer", "monkey",
                                       "keyboard", "name"]))
    data = {"api_key_env": "OPENAI_API_KEY", "api_key": "abc", "nested": [{"password": "hunter2"}],
            "token": None, "secret_count": 3}
    assert redact(data) == {"api_key_env": "OPENAI_API_KEY", "api_key": REDACTED,
                            "nested": [{"password": REDACTED}], "token": None, "secret_count": 3}
    assert redact_override("+model.extra_params.api_key=sk-1") == f"+model.extra_params.api_key={REDACTED}"
    assert redact_override("model.api_key_env=OPENAI_API_KEY") == "model.api_key_env=OPENAI_API_KEY"
    assert redact_override("dataset.limit=3") == "dataset.limit=3"
    assert redact_override("+model.extra_params.api_key=${oc.env:K}") == "+model.extra_params.api_key=${oc.env:K}"


def test_config_hash_covers_what_changes_an_episode(compose_cfg):
    base = build(compose_cfg).config_hash
    same = [build(compose_cfg, o).config_hash for o in ("runner=inprocess", "dataset.limit=3", "repeats=4",
                                                         "logging=wandb", "model.concurrency=2")]
    assert same == [base] * len(same)
    differ = [build(compose_cfg, o).config_hash for o in ("interface=tool_use", "toolbox=mini", "seed=1",
                                                           "budgets.max_steps=10", "images=placeholder")]
    assert base not in differ and len(set(differ)) == len(differ)
    data = resolve_config(compose_cfg())
    assert base == config_hash(hash_view(data))


def test_a_rotated_key_keeps_the_config_hash_so_the_run_resumes(compose_cfg):
    """Secret values are not part of the hash: a new Authorization header resumes the same run folder, while a
    non-secret extra parameter still changes the hash."""
    old = build(compose_cfg, '+model.extra_params.extra_headers.Authorization="Bearer sk-old-123456"').config_hash
    new = build(compose_cfg, '+model.extra_params.extra_headers.Authorization="Bearer sk-new-654321"').config_hash
    other = build(compose_cfg, "+model.extra_params.top_p=0.5").config_hash
    assert old == new and other not in (old, build(compose_cfg).config_hash)


def test_sweep_jobs_share_a_wandb_group(compose_cfg):
    assert build(compose_cfg, "logging=wandb", sweep_group="12-00-00").logging.group == "12-00-00"
    assert build(compose_cfg, "logging=wandb", "logging.group=mine", sweep_group="x").logging.group == "mine"


def test_repeats_must_be_positive(compose_cfg):
    with pytest.raises(RunConfigError, match="repeats=0"):
        build(compose_cfg, "repeats=0")


def test_schema_mirrors_the_runner_settings():
    from dataclasses import fields

    from mmtsb.config.schema import BudgetsConf, LoggingConf, ModelConf, RunnerConf
    from mmtsb.protocol.model_settings import ModelSettings
    from mmtsb.protocol.view import Budgets
    from mmtsb.runner.settings import LoggingSettings, RunnerSettings

    def names(cls):
        return {f.name for f in fields(cls)}

    assert names(RunnerConf) == names(RunnerSettings)
    assert names(LoggingConf) == names(LoggingSettings)
    assert names(BudgetsConf) == names(Budgets)
    assert names(ModelSettings) <= names(ModelConf)


def test_serve_hints_mirror_the_serving_spec():
    from dataclasses import fields

    from mmtsb.config.schema import ServeHints
    from mmtsb.serve.settings import ModelServeSpec

    assert {f.name for f in fields(ServeHints)} == {f.name for f in fields(ModelServeSpec)}
