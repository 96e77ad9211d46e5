"""The config tree composes: offline defaults, every option of every group, fast failures on typos."""

from __future__ import annotations

import pytest
from hydra.core.config_store import ConfigStore
from hydra.errors import ConfigCompositionException, MissingConfigException
from omegaconf import OmegaConf

from mmtsb.config.build import RunConfigError, build_run_settings
from mmtsb.config.paths import conf_dir

GROUPS = ("model", "interface", "toolbox", "user", "judge", "dataset", "runner", "serve", "logging")
PAPER_MODELS = {"gpt_5_4_none", "gpt_5_4_medium", "gpt_5_4_high", "claude_4_5_opus", "claude_4_5_sonnet",
                "gemini_3_1_pro", "gemini_3_0_flash", "kimi_2_6", "glm_4_6v", "qwen3_5_4b", "qwen3_5_9b",
                "qwen3_5_27b", "qwen3_5_35b_a3b", "qwen3_5_397b_a17b"}


def options(group: str) -> list[str]:
    """A group's options: its files in conf/ and the nodes the registry put in the ConfigStore (interfaces)."""
    stored = {name.removesuffix(".yaml") for name in ConfigStore.instance().list(group)} \
        if ConfigStore.instance().repo.get(group) else set()
    return sorted({p.stem for p in (conf_dir() / group).glob("*.yaml")} | stored)


def all_options() -> list[tuple[str, str]]:
    return [(g, o) for g in GROUPS for o in options(g)]


def test_groups_hold_the_required_options():
    assert PAPER_MODELS | {"oracle"} <= set(options("model"))
    assert set(options("interface")) == {"code_exec", "tool_use", "hybrid"}
    assert set(options("toolbox")) == {"full", "medium", "compact", "mini"}
    assert {"scripted", "gpt_5_4", "claude_4_5_sonnet", "gemini_3_0_flash", "same_as_agent"} <= set(options("user"))
    assert {"static", "gpt_5_4", "claude_4_5_sonnet", "gemini_3_1_pro"} <= set(options("judge"))
    assert {"nominal", "ui", "reference"} <= set(options("dataset"))
    assert {"local", "cluster", "inprocess"} <= set(options("runner"))
    assert {"none", "wandb"} <= set(options("logging"))
    assert "none" in options("serve")


def test_defaults_are_the_offline_oracle_run(compose_cfg):
    cfg = compose_cfg()
    assert cfg.model.kind == "oracle" and cfg.model.model is None
    assert (cfg.interface.name, cfg.toolbox.level.value) == ("code_exec", "full")
    assert (cfg.user.kind, cfg.judge.kind) == ("scripted", "static")
    assert cfg.dataset.path == "scenarios/nominal" and cfg.runner.kind.value == "local"
    assert cfg.serve.kind == "none" and cfg.logging.wandb is False
    assert (cfg.repeats, cfg.seed, cfg.strict_reference, cfg.images.value) == (1, 0, False, "require")
    assert OmegaConf.to_container(cfg.budgets) == {"max_messages": None, "max_steps": None, "wall_clock_s": 900.0,
                                                   "max_tokens": None, "max_interaction_steps": 100}
    assert cfg.protocol.name == "paper"
    assert cfg.response_cache_dir is None


def test_hydra_run_and_sweep_dirs(compose_cfg):
    from hydra import compose

    hydra_cfg = compose(config_name="config", return_hydra_config=True).hydra
    raw = OmegaConf.to_container(hydra_cfg, resolve=False)
    assert raw["run"]["dir"] == "outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}"
    assert raw["sweep"]["subdir"].startswith("${hydra.job.num}_") and raw["job"]["chdir"] is False


@pytest.mark.parametrize(("group", "option"), all_options())
def test_every_option_composes(compose_cfg, group, option):
    cfg = compose_cfg(f"{group}={option}")
    node = cfg[group]
    if group == "serve":
        assert node.kind == option and "api_base" in node
    else:
        OmegaConf.to_container(node, resolve=group not in ("user", "model"), throw_on_missing=True)


@pytest.mark.parametrize("name", sorted(PAPER_MODELS))
def test_paper_models_are_complete(compose_cfg, name):
    cfg = compose_cfg(f"model={name}", "serve.api_base=http://127.0.0.1:9/v1")
    model = cfg.model
    assert model.name == name and model.kind == "llm" and "/" in model.model
    if model.model.startswith("hosted_vllm/"):
        assert model.model == f"hosted_vllm/{model.serve.hf_repo}"
        assert model.api_base == "http://127.0.0.1:9/v1" and model.api_key_env is None
        assert model.serve.tensor_parallel_size >= 1 and model.serve.tool_call_parser
        assert model.serve.limit_mm_per_prompt["image"] >= 1
    else:
        assert model.api_key_env and model.api_key_env.isupper()


def test_gpt_reasoning_efforts(compose_cfg):
    efforts = {e: compose_cfg(f"model=gpt_5_4_{e}").model.reasoning_effort for e in ("none", "medium", "high")}
    assert efforts == {"none": "none", "medium": "medium", "high": "high"}


def test_llm_user_and_judge_reuse_model_entries(compose_cfg):
    cfg = compose_cfg("model=gpt_5_4_high", "user=claude_4_5_sonnet", "judge=gemini_3_1_pro")
    assert cfg.user.model.model == "anthropic/claude-sonnet-4-5" and cfg.judge.model.name == "gemini_3_1_pro"
    assert cfg.model.name == "gpt_5_4_high"  # the agent keeps its own entry
    swapped = compose_cfg("user=gpt_5_4", "model@user.model=gemini_3_0_flash")
    assert swapped.user.model.name == "gemini_3_0_flash" and swapped.model.name == "oracle"
    same = compose_cfg("model=kimi_2_6", "user=same_as_agent")
    assert same.user.model.model == "moonshot/kimi-k2.6"


@pytest.mark.parametrize("override", ["budgets.max_stepz=3", "model.modle=x", "dataset.limt=2", "modle=oracle"])
def test_misspelled_keys_fail_fast(compose_cfg, override):
    with pytest.raises(ConfigCompositionException) as info:
        compose_cfg(override)
    text = f"{info.value} {info.value.__cause__}"
    bad_key = override.split("=")[0].split(".")[-1]
    assert f"Could not override '{override.split('=')[0]}'" in text and bad_key in text


def test_unknown_option_lists_the_available_ones(compose_cfg):
    with pytest.raises(MissingConfigException) as info:
        compose_cfg("model=gpt5")
    assert "model/gpt5" in str(info.value) and "gpt_5_4_high" in str(info.value)


def test_wrong_values_are_rejected_with_the_allowed_ones(compose_cfg, tmp_path):
    # the kinds are the registry's: a name nothing registered fails before any episode, listing the registered ones
    for override, key in (("interface.name=tooluse", "interface.name='tooluse'"), ("user.kind=robot", "user.kind"),
                          ("judge.kind=oracle", "judge.kind")):
        with pytest.raises(RunConfigError) as info:
            build_run_settings(compose_cfg(override), tmp_path)
        assert key in str(info.value) and "is not a registered kind" in str(info.value)
    assert "code_exec, tool_use, hybrid" in str(config_error_of(compose_cfg, tmp_path, "interface.name=tooluse"))
    with pytest.raises(MissingConfigException, match="tool_use"):   # an unknown option lists the registered ones
        compose_cfg("interface=tooluse")
    with pytest.raises(ConfigCompositionException):
        compose_cfg("budgets.max_steps=many")
    with pytest.raises(ConfigCompositionException):
        compose_cfg("images=maybe")


def config_error_of(compose_cfg, tmp_path, override: str) -> RunConfigError:
    try:
        build_run_settings(compose_cfg(override), tmp_path)
    except RunConfigError as e:
        return e
    raise AssertionError(f"{override} was accepted")


def test_every_registered_interface_is_an_option(compose_cfg):
    from mmtsb.protocol import registry

    for name in registry.interfaces():
        assert compose_cfg(f"interface={name}").interface.name == name


def test_cluster_address_comes_from_the_environment(compose_cfg, monkeypatch):
    assert compose_cfg("runner=cluster").runner.address == "auto"
    monkeypatch.setenv("RAY_ADDRESS", "ray://head:10001")
    assert compose_cfg("runner=cluster").runner.address == "ray://head:10001"


def test_sweep_subdir_slug_is_a_safe_folder_name():
    from mmtsb.config.schema import slug

    assert slug("model=oracle,interface=tool_use") == "model=oracle,interface=tool_use"
    assert "/" not in slug("dataset.path=/a/b c") and slug("") == "job" and len(slug("x" * 500)) == 100
