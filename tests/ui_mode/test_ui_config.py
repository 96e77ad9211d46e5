"""The UI-mode switch: the episode flag (``ui=true``), the dataset's ``enable_ui``, the top-level ``ui`` of
``mmtsb run``, and the combinations rejected at config time (pure code execution, a toolbox without UI tools)."""

from __future__ import annotations

import pytest

from mmtsb.config.build import RunConfigError, build_run_settings, hash_view, resolve_config
from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig, apply_overrides
from mmtsb.roles.factory import RoleFactory
from mmtsb.roles.judges.llm import LLMUIJudge, LLMUserJudge
from mmtsb.roles.judges.static import StaticUIJudge
from uikit import UI_FILES


def test_the_episode_flag_is_off_by_default_and_set_by_an_override():
    assert EpisodeConfig().ui is False
    cfg = apply_overrides(EpisodeConfig(), ["ui=true", "interface=tool_use"])
    assert cfg.ui is True and cfg.interface == "tool_use"
    assert apply_overrides(EpisodeConfig(), ["ui=false"]).ui is False
    with pytest.raises(ConfigError, match="bad value for 'ui'"):
        apply_overrides(EpisodeConfig(), ["ui=maybe"])


def test_ui_mode_with_the_pure_code_execution_agent_is_rejected_naming_the_keys():
    with pytest.raises(ConfigError) as e:
        apply_overrides(EpisodeConfig(), ["ui=true", "agent=code_exec", "agent_model.model=openai/x"])
    for key in ("ui=true", "interface=code_exec", "interface=tool_use", "interface=hybrid"):
        assert key in str(e.value)
    with pytest.raises(ConfigError, match="pure code-execution"):
        EpisodeConfig(agent="code_exec", ui=True)
    # tool calls (tool_use, hybrid) are fine, and so is the oracle replaying its solution in the sandbox
    for agent in ("tool_use", "hybrid"):
        assert EpisodeConfig(agent=agent, ui=True, agent_model=EpisodeConfig().agent_model).interface == agent
    assert EpisodeConfig(agent="oracle", interface="code_exec", ui=True).ui is True


def test_ui_mode_needs_a_toolbox_with_the_ui_tools():
    with pytest.raises(ConfigError, match="toolbox='mini' has none"):
        apply_overrides(EpisodeConfig(), ["ui=true", "toolbox=mini"])
    for level in ("full", "medium", "compact"):
        assert apply_overrides(EpisodeConfig(), ["ui=true", f"toolbox={level}"]).toolbox == level


def test_dataset_ui_turns_ui_mode_on_and_lists_the_shipped_set(compose_cfg, tmp_path):
    s = build_run_settings(compose_cfg("dataset=ui"), tmp_path / "run")
    assert s.episode.ui is True and s.dataset == "ui" and s.scenarios == UI_FILES
    assert (s.episode.agent, s.episode.interface, s.episode.judge) == ("oracle", "code_exec", "static")
    assert s.resolved_config["dataset"]["enable_ui"] is True
    off = build_run_settings(compose_cfg("dataset=ui", "ui=false"), tmp_path / "run")
    assert off.episode.ui is False


def test_the_top_level_flag_turns_ui_mode_on_for_any_dataset(compose_cfg, tmp_path):
    s = build_run_settings(compose_cfg("dataset=nominal", "ui=true", "model=gpt_5_4_none", "interface=tool_use"),
                           tmp_path / "run")
    assert s.episode.ui is True and s.episode.agent == "tool_use"
    released = compose_cfg("dataset=reference", f"dataset.path={UI_FILES[0].parents[1]}", "dataset.glob=ui/*.json",
                           "dataset.enable_ui=true", "images=placeholder")   # the released files ship no images
    s = build_run_settings(released, tmp_path / "run")
    assert s.episode.ui is True and s.scenarios == UI_FILES


def test_ui_mode_with_code_exec_fails_at_config_time_naming_the_keys(compose_cfg, tmp_path):
    with pytest.raises(RunConfigError) as e:
        build_run_settings(compose_cfg("dataset=ui", "model=gpt_5_4_none"), tmp_path / "run")
    assert "interface=code_exec" in str(e.value) and "dataset=ui" in str(e.value)
    with pytest.raises(RunConfigError, match="toolbox='mini'"):
        build_run_settings(compose_cfg("dataset=ui", "toolbox=mini"), tmp_path / "run")


def test_the_config_hash_changes_with_ui_mode_and_earlier_hashes_stay_valid(compose_cfg):
    plain = hash_view(resolve_config(compose_cfg()))
    assert "ui" not in plain  # runs recorded before UI mode existed keep their hash
    on = hash_view(resolve_config(compose_cfg("ui=true")))
    assert on["ui"] is True and {k: v for k, v in on.items() if k != "ui"} == plain


def test_the_factory_adds_the_ui_judge_in_ui_mode_only():
    factory = RoleFactory()
    assert "ui" not in factory.judges(EpisodeConfig())
    assert isinstance(factory.judges(EpisodeConfig(ui=True))["ui"], StaticUIJudge)
    assert factory.judges(EpisodeConfig(ui=True, judge="none")) == {}
    llm = apply_overrides(EpisodeConfig(), ["ui=true", "judge=llm", "judge_model.model=openai/x",
                                            "judge_model.api_base=http://127.0.0.1:9/v1"])
    judge = factory.judges(llm)["ui"]
    assert isinstance(judge, LLMUIJudge) and judge.kind == "ui" and judge.max_images == 10
    user_judge = factory.judges(llm)["user"]
    assert isinstance(user_judge, LLMUserJudge) and user_judge.ui is True
    assert "UI mode" in user_judge.system_prompt() and "+user-judge-ui/v1#" in user_judge.prompt_version
