"""Configuration of one episode: which agent, user and judges, on which interface and toolbox, with which
models and budgets. Plain data: it comes from the command line (``key=value`` overrides) or from Hydra."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.view import Budgets, Interface

AgentKind = Literal["oracle", "code_exec", "tool_use", "hybrid"]
UserKind = Literal["scripted", "llm"]
JudgeKindName = Literal["static", "llm", "none"]


@dataclass
class EpisodeConfig:
    """Everything that decides how one scenario is played."""

    agent: AgentKind = "oracle"
    interface: Interface = "code_exec"
    user: UserKind = "scripted"
    judge: JudgeKindName = "static"
    agent_model: ModelSettings = field(default_factory=ModelSettings)
    user_model: ModelSettings = field(default_factory=ModelSettings)
    judge_model: ModelSettings = field(default_factory=ModelSettings)
    toolbox: str = "full"
    budgets: Budgets = field(default_factory=Budgets)
    images: Literal["require", "placeholder"] = "require"
    image_root: str | None = None
    strict_reference: bool = False
    seed: int = 0
    response_cache_dir: str | None = None
    #: UI mode (A2UI): the UI tools for agent and user, the UI-first agent prompt, the UI judge
    ui: bool = False

    def __post_init__(self) -> None:
        if self.agent in ("code_exec", "tool_use", "hybrid"):
            self.interface = self.agent  # the LLM agents define their interface
        check_ui_mode(self)


#: toolbox levels that offer the A2UI tools (MINI has none)
UI_TOOLBOXES = ("full", "medium", "compact")


def check_ui_mode(cfg: EpisodeConfig) -> None:
    """UI mode needs tool calls (as in the reference, it cannot run with a pure code-execution agent) and a
    toolbox that has the UI tools. Raises ConfigError naming the keys to change."""
    if not cfg.ui:
        return
    if cfg.agent == "code_exec":
        raise ConfigError("UI mode (ui=true, or dataset.enable_ui=true / dataset=ui in `mmtsb run`) cannot be "
                          "combined with the pure code-execution agent (agent=code_exec, interface=code_exec): the "
                          "UI tools are called as tools. Use interface=tool_use or interface=hybrid, or turn UI "
                          "mode off (ui=false)")
    if cfg.toolbox not in UI_TOOLBOXES:
        raise ConfigError(f"UI mode (ui=true) needs a toolbox with the UI tools; toolbox={cfg.toolbox!r} has none. "
                          f"Use toolbox={' / '.join(UI_TOOLBOXES)}, or turn UI mode off (ui=false)")


_SECTIONS = {"agent_model": ModelSettings, "user_model": ModelSettings, "judge_model": ModelSettings,
             "budgets": Budgets}


class ConfigError(ValueError):
    """An override that names no setting or has a wrong value."""


def _coerce(value: str, current: Any) -> Any:
    if isinstance(current, bool):
        if value.lower() in ("true", "1", "yes", "on"):
            return True
        if value.lower() in ("false", "0", "no", "off"):
            return False
        raise ValueError("expected true or false")
    if isinstance(current, int) and not isinstance(current, bool):
        return int(value)
    if isinstance(current, float):
        return float(value)
    if value.lower() in ("null", "none") and current is None:
        return None
    if current is None:
        for cast in (int, float):
            try:
                return cast(value)
            except ValueError:
                pass
    return value


def apply_overrides(cfg: EpisodeConfig, overrides: list[str]) -> EpisodeConfig:
    """Apply ``key=value`` overrides (``agent=tool_use``, ``agent_model.model=openai/gpt-5.4``,
    ``budgets.max_steps=30``); unknown keys fail with the list of valid ones."""
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"override {item!r} must look like key=value")
        key, value = item.split("=", 1)
        target: Any = cfg
        parts = key.split(".")
        for part in parts[:-1]:
            if part not in _SECTIONS:
                raise ConfigError(f"unknown config section {part!r}; sections: {', '.join(_SECTIONS)}")
            target = getattr(target, part)
        name = parts[-1]
        valid = [f.name for f in fields(target)]
        if name not in valid:
            raise ConfigError(f"unknown setting {key!r}; valid settings here: {', '.join(valid)}")
        try:
            setattr(target, name, _coerce(value, getattr(target, name)))
        except ValueError as e:
            raise ConfigError(f"bad value for {key!r}: {value!r} ({e})") from None
    cfg.__post_init__()
    _check_choices(cfg)
    return cfg


def _check_choices(cfg: EpisodeConfig) -> None:
    choices = {"agent": ("oracle", "code_exec", "tool_use", "hybrid"), "user": ("scripted", "llm"),
               "judge": ("static", "llm", "none"), "interface": ("code_exec", "tool_use", "hybrid"),
               "images": ("require", "placeholder")}
    for key, allowed in choices.items():
        if getattr(cfg, key) not in allowed:
            raise ConfigError(f"{key}={getattr(cfg, key)!r} is not one of {', '.join(allowed)}")
    for role in ("agent", "user", "judge"):
        kind = getattr(cfg, role)
        if kind not in ("oracle", "scripted", "static", "none") and not getattr(cfg, f"{role}_model").model:
            raise ConfigError(f"{role}={kind} needs a model: set {role}_model.model=<litellm model id>")
