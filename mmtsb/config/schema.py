"""Structured configs behind the Hydra tree in ``conf/``: one dataclass per config group, all typed under
:class:`RunConfig`, registered in Hydra's ConfigStore as ``mmtsb_schema``.

Why: ``conf/config.yaml`` lists ``mmtsb_schema`` first in its defaults, so every group file and every
command-line override is merged INTO these typed nodes. A misspelled key (``budgets.max_stepz=3``), an unknown
group (``modle=...``) or a wrong value (``interface.name=tooluse``) fails at composition with a message that
names the key and the type, before any episode starts.

The dataclasses here are the config's *shape*; :mod:`mmtsb.config.build` turns a composed config into the
runner's :class:`~mmtsb.runner.settings.RunSettings`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, OmegaConf

from mmtsb.protocol.model_settings import ModelSettings

SCHEMA_NAME = "mmtsb_schema"


class ToolboxLevel(Enum):
    full = "full"
    medium = "medium"
    compact = "compact"
    mini = "mini"


class ImagesMode(Enum):
    """``require``: every image file must exist; ``placeholder``: draw a labelled stand-in for a missing one
    (the released benchmark ships without its images)."""

    require = "require"
    placeholder = "placeholder"


class RunnerKind(Enum):
    local = "local"
    cluster = "cluster"
    inprocess = "inprocess"


class WandbMode(Enum):
    auto = "auto"
    online = "online"
    offline = "offline"


@dataclass
class ServeHints:
    """How to serve an open-weight model with vLLM: the fields of ``mmtsb.serve.settings.ModelServeSpec``,
    which ``serve=vllm`` reads. The model entry's litellm id must be ``hosted_vllm/<served name>``."""

    hf_repo: str = MISSING                       # Hugging Face repo id (or a local path) given to `vllm serve`
    served_model_name: str | None = None      # null: hf_repo
    tensor_parallel_size: int = 1
    data_parallel_size: int = 1
    tool_call_parser: str | None = None       # vllm --tool-call-parser (with --enable-auto-tool-choice)
    reasoning_parser: str | None = None       # vllm --reasoning-parser, for thinking models
    max_model_len: int | None = None          # vllm --max-model-len
    limit_mm_per_prompt: dict[str, int] = field(default_factory=lambda: {"image": 16})
    gpu_memory_utilization: float | None = None
    chat_template: str | None = None          # path or inline Jinja template (vllm --chat-template)
    extra_args: list[str] = field(default_factory=list)   # appended to the `vllm serve` command line


@dataclass
class ModelConf(ModelSettings):
    """One model entry (``conf/model/<name>.yaml``); also the ``model`` of an LLM user or judge: the fields of
    :class:`~mmtsb.protocol.model_settings.ModelSettings` (the one definition of how a model is called) plus
    the entry's short name, its kind and, for open-weight models, how ``serve=vllm`` starts them.

    ``model`` is a litellm id. The key is never configured: ``api_key_env`` names the variable holding it.
    Prices (USD per 1M tokens) are for models litellm's price map does not know; null uses the map."""

    name: str = MISSING                          # short name, as in results and reports (e.g. gpt_5_4_high)
    kind: str = "llm"      # llm: a model playing the interface's model agent; else a registered agent kind (oracle)
    serve: ServeHints | None = None           # open-weight models: how `serve=vllm` starts them


@dataclass
class InterfaceConf:
    """How the agent acts: a registered interface (built in: code_exec, tool_use, hybrid; see
    :mod:`mmtsb.protocol.registry`). Its options in the ``interface`` group come from the registry."""

    name: str = "code_exec"


@dataclass
class ToolboxConf:
    """Which toolbox level the agent sees (the reduced levels dispatch to the same tool functions)."""

    level: ToolboxLevel = ToolboxLevel.full


@dataclass
class UserConf:
    """The simulated user: the scenario's scripted user, or an LLM playing it (``model`` required)."""

    name: str = "scripted"
    kind: str = "scripted"                      # a registered user kind (scripted, llm)
    model: ModelConf | None = None


@dataclass
class JudgeConf:
    """How completion is judged: static checks only, LLM rubric judges (``model`` required), or none."""

    name: str = "static"
    kind: str = "static"                        # a registered judge kind (static, llm, none)
    model: ModelConf | None = None


@dataclass
class DatasetConf:
    """A scenario set: the files matching ``glob`` under ``path``, sorted, then filtered.

    A relative ``path`` (or ``image_root``) is looked up in the working directory first, then in the project
    root (the folder holding ``conf/``). ``names`` keeps the files whose stem matches one of the names or
    shell patterns (``mmtsb_nominal_00*``); ``limit`` keeps the first N after that."""

    name: str = MISSING
    path: str = MISSING
    glob: str = "*.json"
    image_root: str | None = None             # folder image_paths are relative to (default: each file's folder)
    names: list[str] | None = None
    limit: int | None = None
    enable_ui: bool = False                   # UI mode (A2UI) for this set's episodes (dataset=ui sets it)


@dataclass
class RunnerConf:
    """Mirrors :class:`mmtsb.runner.settings.RunnerSettings` (see there for the meaning of each field)."""

    kind: RunnerKind = RunnerKind.local
    address: str | None = None
    num_actors: int | None = None
    episodes_per_actor: int = 32
    max_concurrency: int = 256
    max_infra_retries: int = 2
    object_store_memory_mb: int | None = 512
    num_cpus: int | None = None
    provider_limits: dict[str, int] = field(default_factory=dict)   # provider -> in-flight cap, whole run
    gate_timeout_s: float = 1800.0
    progress_interval_s: float = 30.0


@dataclass
class LoggingConf:
    """Mirrors :class:`mmtsb.runner.settings.LoggingSettings`. ``group`` null: sweep jobs are grouped by
    their sweep folder."""

    wandb: bool = False
    project: str = "mmtsb"
    entity: str | None = None
    group: str | None = None
    mode: WandbMode = WandbMode.auto


@dataclass
class BudgetsConf:
    """Mirrors :class:`mmtsb.episode.context.Budgets`: limits of one episode."""

    max_messages: int | None = None           # null: the scenario's own max_messages
    max_steps: int | None = None              # agent actions (null: no cap; protocol=mmtsb: 60)
    wall_clock_s: float = 900.0
    max_tokens: int | None = None             # all roles together
    max_interaction_steps: int | None = 100   # agent + user messages (the paper's cap; protocol=mmtsb: null)


@dataclass
class ProtocolConf:
    """Which protocol preset set the budgets (``conf/protocol/``, :mod:`mmtsb.protocol.presets`)."""

    name: str = "paper"


@dataclass
class RunConfig:
    """The whole run. ``serve`` is left untyped: its group (``conf/serve/``) belongs to the serving module;
    this package relies only on ``serve.kind`` and ``serve.api_base``."""

    model: ModelConf = MISSING
    interface: InterfaceConf = MISSING
    toolbox: ToolboxConf = MISSING
    user: UserConf = MISSING
    judge: JudgeConf = MISSING
    dataset: DatasetConf = MISSING
    runner: RunnerConf = MISSING
    logging: LoggingConf = MISSING
    serve: Any = field(default_factory=lambda: {"kind": "none", "api_base": None})
    repeats: int = 1
    seed: int = 0
    strict_reference: bool = False
    budgets: BudgetsConf = field(default_factory=BudgetsConf)
    protocol: ProtocolConf = field(default_factory=ProtocolConf)
    images: ImagesMode = ImagesMode.require
    response_cache_dir: str | None = None
    ui: bool | None = None                    # UI mode on/off; null: the dataset's enable_ui


_SLUG_BAD = re.compile(r"[^A-Za-z0-9._=,+-]+")


def slug(text: Any, max_len: int = 100) -> str:
    """A folder-name-safe form of a sweep job's overrides (``hydra.sweep.subdir`` uses it); values of
    secret keys are hidden."""
    from mmtsb.config.secrets import redact_override

    text = ",".join(redact_override(item) for item in str(text or "").split(","))
    out = _SLUG_BAD.sub("-", text).strip("-.")
    return out[:max_len] or "job"


def register_configs() -> None:
    """Register the schema, one ``interface`` option per registered interface (unless ``conf/interface/`` has a
    file of that name), the ``mmtsb.slug`` resolver and the serving module's resolvers (``serve=vllm`` uses
    ``mmtsb_free_port``). Idempotent; safe in every process."""
    from mmtsb.config.paths import ConfNotFoundError, conf_dir
    from mmtsb.protocol import registry

    store = ConfigStore.instance()
    store.store(name=SCHEMA_NAME, node=RunConfig)
    try:
        files = {p.stem for p in (conf_dir() / "interface").glob("*.yaml")}
    except ConfNotFoundError:
        files = set()
    for name in registry.interfaces():
        if name not in files:
            store.store(group="interface", name=name, node=InterfaceConf(name=name))
    if not OmegaConf.has_resolver("mmtsb.slug"):
        OmegaConf.register_new_resolver("mmtsb.slug", slug)
    try:
        from mmtsb.serve.resolvers import register_resolvers
    except ImportError:  # the serving module is optional for composing configs
        return
    register_resolvers()


register_configs()
