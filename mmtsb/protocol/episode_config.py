"""Configuration of one episode: which agent, user and judges, on which interface and toolbox, with which
models and budgets. Plain data, from Hydra (``mmtsb run``, see :mod:`mmtsb.config.build`) or from
``key=value`` overrides (``mmtsb episode``, :func:`apply_overrides`, parsed by OmegaConf's dotlist against this
dataclass, so types and unknown keys are checked the same way as in ``mmtsb run``).

The choices of ``agent``, ``interface``, ``user`` and ``judge`` are the kinds declared in the registry
(:mod:`mmtsb.protocol.registry`); nothing here lists them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from omegaconf import OmegaConf
from omegaconf.errors import ConfigKeyError, OmegaConfBaseException

from mmtsb.protocol import registry
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.presets import DEFAULT_PROTOCOL, PROTOCOLS
from mmtsb.protocol.view import Budgets

#: toolbox levels that offer the A2UI tools (MINI has none)
UI_TOOLBOXES = ("full", "medium", "compact")
IMAGE_MODES = ("require", "placeholder")
TOOLBOXES = ("full", "medium", "compact", "mini")


class ConfigError(ValueError):
    """An override that names no setting or has a wrong value, or settings that cannot run together."""


@dataclass
class EpisodeConfig:
    """Everything that decides how one scenario is played."""

    agent: str = "oracle"                 # a registered agent kind (model agents define their interface)
    interface: str = "code_exec"          # a registered interface (what the oracle plays through)
    user: str = "scripted"                # a registered user kind
    judge: str = "static"                 # a registered judge kind (static, llm, none)
    agent_model: ModelSettings = field(default_factory=ModelSettings)
    user_model: ModelSettings = field(default_factory=ModelSettings)
    judge_model: ModelSettings = field(default_factory=ModelSettings)
    toolbox: str = "full"
    budgets: Budgets = field(default_factory=Budgets)
    images: str = "require"               # require | placeholder (draw a stand-in for a missing image file)
    image_root: str | None = None
    strict_reference: bool = False
    seed: int = 0
    response_cache_dir: str | None = None
    #: UI mode (A2UI): the UI tools for agent and user, the UI-first agent prompt, the UI judge
    ui: bool = False
    #: the protocol preset the budgets came from (mmtsb.protocol.presets): paper (default) or mmtsb
    protocol: str = DEFAULT_PROTOCOL

    def __post_init__(self) -> None:
        kind = registry.agents().get(self.agent)
        if kind is not None and kind.interface is not None:
            self.interface = kind.interface   # a model agent defines its interface
        check_ui_mode(self)

    def role_settings(self, role: str) -> ModelSettings:
        """The model settings of ``role`` (agent, user, judge)."""
        return getattr(self, f"{role}_model")

    def roles_needing_models(self) -> dict[str, bool]:
        """Whether the configured agent, user and judge kinds call a model (from the registry)."""
        return {"agent": registry.agent(self.agent).needs_model, "user": registry.user(self.user).needs_model,
                "judge": registry.judge_backend(self.judge).needs_model}


def check_ui_mode(cfg: EpisodeConfig) -> None:
    """UI mode needs tool calls (as in the reference, it cannot run with a pure code-execution agent) and a
    toolbox that has the UI tools. Raises ConfigError naming the keys to change."""
    if not cfg.ui:
        return
    kind = registry.agents().get(cfg.agent)
    spec = registry.interfaces().get(cfg.interface)
    if kind is not None and kind.interface is not None and spec is not None and not spec.supports_ui:
        usable = [name for name, s in registry.interfaces().items() if s.supports_ui]
        raise ConfigError(f"UI mode (ui=true, or dataset.enable_ui=true / dataset=ui in `mmtsb run`) cannot be "
                          f"combined with the pure code-execution agent (agent={cfg.agent}, interface={cfg.interface}): "
                          f"the UI tools are called as tools. Use {' or '.join(f'interface={n}' for n in usable)}, or "
                          "turn UI mode off (ui=false)")
    if cfg.toolbox not in UI_TOOLBOXES:
        raise ConfigError(f"UI mode (ui=true) needs a toolbox with the UI tools; toolbox={cfg.toolbox!r} has none. "
                          f"Use toolbox={' / '.join(UI_TOOLBOXES)}, or turn UI mode off (ui=false)")


def check_choices(cfg: EpisodeConfig) -> None:
    """Every kind is registered, every role kind that needs a model has one, and the budgets can be played
    under. Raises ConfigError."""
    if problems := cfg.budgets.problems():
        raise ConfigError("; ".join(problems))
    choices = {"agent": registry.agents(), "user": registry.users(), "judge": registry.judge_backends(),
               "interface": registry.interfaces(), "images": IMAGE_MODES, "toolbox": TOOLBOXES,
               "protocol": PROTOCOLS}
    for key, allowed in choices.items():
        if getattr(cfg, key) not in allowed:
            raise ConfigError(f"{key}={getattr(cfg, key)!r} is not one of {', '.join(allowed)}")
    needs = {"agent": registry.agent(cfg.agent).needs_model, "user": registry.user(cfg.user).needs_model,
             "judge": registry.judge_backend(cfg.judge).needs_model}
    for role, needs_model in needs.items():
        if needs_model and not cfg.role_settings(role).model:
            raise ConfigError(f"{role}={getattr(cfg, role)} needs a model: set {role}_model.model=<litellm model id>")


# ---------------------------------------------------------------------------------------------- overrides
def apply_overrides(cfg: EpisodeConfig, overrides: list[str]) -> EpisodeConfig:
    """``cfg`` with ``key=value`` overrides applied (``agent=tool_use``, ``agent_model.model=openai/gpt-5.4``,
    ``budgets.max_steps=30``), parsed by OmegaConf's dotlist against the dataclass: unknown keys fail with the
    list of valid ones, wrong values with the key and the expected type. ``protocol=<name>`` applies that
    preset's budgets first, so explicit ``budgets.*`` overrides still win. Returns a new, checked config."""
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"override {item!r} must look like key=value")
    base = OmegaConf.structured(cfg)
    chosen = [item.split("=", 1)[1] for item in overrides if item.split("=", 1)[0] == "protocol"]
    if chosen:
        if chosen[-1] not in PROTOCOLS:
            raise ConfigError(f"protocol={chosen[-1]!r} is not one of {', '.join(PROTOCOLS)}")
        base = OmegaConf.merge(base, {"protocol": chosen[-1], "budgets": PROTOCOLS[chosen[-1]].budgets})
    try:
        merged = OmegaConf.merge(base, OmegaConf.from_dotlist(list(overrides)))
        out = OmegaConf.to_object(merged)   # the dataclasses again (their __post_init__ checks run)
    except ConfigKeyError as e:
        raise ConfigError(_unknown_key_message(e)) from None
    except OmegaConfBaseException as e:
        key = getattr(e, "full_key", None) or "?"
        value = next((item.split("=", 1)[1] for item in overrides if item.split("=", 1)[0] == key), None)
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ConfigError(f"bad value for {key!r}: {value!r} ({reason})") from None
    assert isinstance(out, EpisodeConfig)
    check_choices(out)
    return out


def _unknown_key_message(e: ConfigKeyError) -> str:
    key = str(getattr(e, "full_key", "") or "")
    parent, _, name = key.rpartition(".")
    target: Any = EpisodeConfig
    for part in filter(None, parent.split(".")):
        sub = next((f for f in fields(target) if f.name == part), None)
        if sub is None or not (isinstance(sub.default_factory, type) and is_dataclass(sub.default_factory)):
            sections = [f.name for f in fields(EpisodeConfig) if f.name.endswith("_model") or f.name == "budgets"]
            return f"unknown config section {part!r}; sections: {', '.join(sections)}"
        target = sub.default_factory
    valid = [f.name for f in fields(target)]
    return f"unknown setting {key or name!r}; valid settings here: {', '.join(valid)}"
