"""From a composed Hydra config to the runner's :class:`~mmtsb.runner.settings.RunSettings`.

``build_run_settings`` is the only place that knows both shapes: it checks what the schema cannot (an LLM
role without a model id, an open-weight model without a server, an empty scenario set), maps the groups to
an :class:`~mmtsb.protocol.episode_config.EpisodeConfig`, lists the scenario files, and records the resolved config
with secrets removed.

The config hash covers what changes an episode's outcome: the agent/user/judge model ids and sampling
settings, interface, toolbox, budgets, images mode, strict_reference, seed and the dataset's name.
Operational settings (runner, logging, serve, endpoints, keys, concurrency, timeouts, prices, dataset
filters, repeats, paths) are left out, so a killed run can be resumed on another cluster, with a vLLM server
on another port, with more scenarios or more repeats, and only the missing episodes are played.
"""

from __future__ import annotations

import difflib
import fnmatch
import typing
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from mmtsb.config.paths import resolve_project_path
from mmtsb.config.secrets import redact
from mmtsb.protocol.episode_config import ConfigError, EpisodeConfig
from mmtsb.protocol import registry
from mmtsb.protocol.model_settings import ModelSettings
from mmtsb.protocol.view import Budgets
from mmtsb.runner.settings import LoggingSettings, RunnerSettings, RunSettings, config_hash

#: the fields of a model entry that change what the model answers (part of the config hash)
HASHED_MODEL_FIELDS = ("kind", "model", "temperature", "max_tokens", "reasoning_effort", "extra_params")


class RunConfigError(ValueError):
    """A composed config that cannot run; the message names the config key and what to do."""


# ------------------------------------------------------------------------------------------ resolving
def resolve_config(cfg: DictConfig) -> dict[str, Any]:
    """The composed config as plain data, interpolations resolved, enums as strings, ``hydra`` left out."""
    keys = [k for k in cfg.keys() if k != "hydra"]
    try:
        data = OmegaConf.to_container(OmegaConf.masked_copy(cfg, keys), resolve=True, enum_to_str=True,
                                      throw_on_missing=True)
    except OmegaConfBaseException as e:
        raise RunConfigError(f"config cannot be resolved: {_omegaconf_message(e)}") from None
    assert isinstance(data, dict)
    return data


def _dataclass_of(hint: Any) -> type | None:
    """The dataclass a schema field holds (``X`` or ``X | None``), or None for open values (dicts, Any)."""
    if is_dataclass(hint):
        return hint  # type: ignore[return-value]
    for arg in typing.get_args(hint):
        if is_dataclass(arg):
            return arg  # type: ignore[return-value]
    return None


def unknown_keys(data: dict[str, Any], schema: type | None = None, prefix: str = "") -> list[str]:
    """Keys of a resolved config that the schema (:class:`~mmtsb.config.schema.RunConfig`) does not have, each
    with a close match when there is one. Only a ``+key=value`` override can add one; since nothing would read
    it, a misspelt key would silently change nothing."""
    from mmtsb.config.schema import RunConfig

    schema = schema or RunConfig
    hints = typing.get_type_hints(schema)
    out: list[str] = []
    for key, value in data.items():
        where = f"{prefix}{key}"
        if key not in hints:
            close = difflib.get_close_matches(str(key), list(hints), n=1)
            out.append(f"{where}: not a config key" + (f" (did you mean {prefix}{close[0]}?)" if close else ""))
        elif isinstance(value, dict) and (inner := _dataclass_of(hints[key])) is not None:
            out.extend(unknown_keys(value, inner, f"{where}."))
    return out


def resolve_in_place(cfg: DictConfig) -> None:
    """Resolve every interpolation of a job's config once, so that values computed when resolved (the free
    port of ``serve=vllm``) are the same for the episodes and for the server."""
    try:
        OmegaConf.resolve(cfg)
    except OmegaConfBaseException as e:
        raise RunConfigError(f"config cannot be resolved: {_omegaconf_message(e)}") from None


def _omegaconf_message(e: OmegaConfBaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    key = getattr(e, "full_key", None)
    return f"{key}: {text}" if key and key not in text else text


def public_config(data: dict[str, Any]) -> dict[str, Any]:
    """The resolved config with secrets removed: what is written to ``config.yaml`` and logged."""
    return redact(data)


def hash_view(data: dict[str, Any]) -> dict[str, Any]:
    """The part of a resolved config that decides an episode's outcome (see the module docstring)."""
    def model_part(entry: dict[str, Any] | None) -> dict[str, Any] | None:
        # secrets redacted: a rotated key (an Authorization header in extra_params) keeps a run resumable
        return None if entry is None else redact({k: entry.get(k) for k in HASHED_MODEL_FIELDS})

    return {
        "agent": model_part(data["model"]),
        "interface": data["interface"]["name"],
        "toolbox": data["toolbox"]["level"],
        "user": {"kind": data["user"]["kind"], "model": model_part(data["user"].get("model"))},
        "judge": {"kind": data["judge"]["kind"], "model": model_part(data["judge"].get("model"))},
        "budgets": data["budgets"],
        "images": data["images"],
        "strict_reference": data["strict_reference"],
        "seed": data["seed"],
        "dataset": data["dataset"]["name"],
        **({"ui": True} if ui_mode(data) else {}),   # only when on, so hashes of earlier runs stay valid
    }


def ui_mode(data: dict[str, Any]) -> bool:
    """UI mode of a resolved config: the top-level ``ui`` when set, else the dataset's ``enable_ui``."""
    ui = data.get("ui")
    return bool(data["dataset"].get("enable_ui", False)) if ui is None else bool(ui)


# ------------------------------------------------------------------------------------------ models
def model_settings(entry: dict[str, Any] | None, *, where: str) -> ModelSettings:
    """ModelSettings of an LLM role from its model entry; ``where`` names the config key in errors."""
    if entry is None:
        raise RunConfigError(f"{where} is not set: choose a model entry (an option of conf/model/)")
    name = entry.get("name", "?")
    kind = entry.get("kind")
    agent = registry.agents().get(str(kind))
    if kind != "llm" and not (agent is not None and agent.needs_model):
        raise RunConfigError(f"{where}={name} is the {kind}, not a model: an LLM role needs an llm entry of "
                             "conf/model/ (e.g. gpt_5_4_none)")
    model_id = entry.get("model")
    if not model_id:
        raise RunConfigError(f"{where}.model is empty for model entry {name!r}: set it to a litellm model id "
                             "(e.g. openai/gpt-5.4, or openai/<name the server knows> for openai_compatible)")
    if name == "openai_compatible" and not entry.get("api_base"):
        raise RunConfigError(f"{where}=openai_compatible needs the server's endpoint: set {where}.api_base="
                             "http://HOST:PORT/v1 (the OpenAI-compatible server to call)")
    if model_id.startswith("hosted_vllm/") and not entry.get("api_base"):
        raise RunConfigError(f"{where}={name} ({model_id}) is an open-weight model served by vLLM but has no "
                             f"endpoint: run with serve=vllm to start a server, or point at a running one with "
                             f"serve.api_base=http://HOST:PORT/v1 (or {where}.api_base=...)")
    known = {f.name for f in fields(ModelSettings)}
    values = {k: v for k, v in entry.items() if k in known and v is not None}
    values["extra_params"] = dict(entry.get("extra_params") or {})
    settings = ModelSettings(**values)
    problems = settings.problems()
    if problems:
        raise RunConfigError("; ".join(f"{where}.{problem}" for problem in problems) + f" (model entry {name!r})")
    return settings


def _role(data: dict[str, Any], role: str) -> tuple[str, ModelSettings]:
    """A user's or judge's kind and model settings (none for a kind that needs no model)."""
    section = data[role]
    kind = section["kind"]
    needs_model = (registry.user(kind) if role == "user" else registry.judge_backend(kind)).needs_model
    if not needs_model:
        return kind, ModelSettings()
    return kind, model_settings(section.get("model"), where=f"{role}.model")


# ------------------------------------------------------------------------------------------ dataset
def scenario_files(dataset: dict[str, Any], *, cwd: Path | None = None) -> tuple[Path, list[Path]]:
    """The dataset's folder and its scenario files: ``glob`` under ``path``, sorted, filtered by ``names``
    (stems or shell patterns), then cut to ``limit``. A missing folder or an empty result is an error."""
    name = dataset["name"]
    folder, tried = resolve_project_path(dataset["path"], cwd=cwd)
    if not folder.is_dir():
        looked = ", ".join(str(p) for p in tried)
        hint = (" (or the MMTSB_REFERENCE_DIR environment variable), or fetch the released files with "
                "`mmtsb data fetch reference`") if name.startswith("reference") else ""
        raise RunConfigError(f"dataset={name}: folder {dataset['path']!r} does not exist (looked in {looked}); "
                             f"set dataset.path=<folder of scenario files>{hint}")
    files = sorted(p for p in folder.glob(dataset["glob"]) if p.is_file())
    if not files:
        raise RunConfigError(f"dataset={name}: no scenario files match {dataset['glob']!r} in {folder}; add "
                             "scenario files there, or choose another dataset (e.g. dataset=nominal)")
    names = dataset.get("names")
    if names:
        unmatched = [n for n in names if not any(fnmatch.fnmatchcase(p.stem, str(n)) or p.name == n
                                                for p in files)]
        if unmatched:
            raise RunConfigError(f"dataset.names: no scenario file of dataset={name} matches "
                                 f"{', '.join(map(str, unmatched))} (files are named like {files[0].stem})")
        files = [p for p in files if any(fnmatch.fnmatchcase(p.stem, str(n)) or p.name == n for n in names)]
    limit = dataset.get("limit")
    if limit is not None:
        if limit < 1:
            raise RunConfigError(f"dataset.limit={limit}: must be at least 1 (or null for every file)")
        files = files[:limit]
    seen: dict[str, Path] = {}
    for p in files:
        if p.stem in seen:
            raise RunConfigError(f"dataset={name}: two scenario files share the name {p.stem!r} ({seen[p.stem]} and "
                                 f"{p}), and episode ids must be unique within a run; narrow dataset.glob to one "
                                 "folder (the released benchmark: dataset=reference for nominal/, "
                                 "dataset=reference_ui for ui/)")
        seen[p.stem] = p
    return folder, files


def check_playable(episode: EpisodeConfig, files: list[Path], dataset: str) -> None:
    """An agent kind that plays each scenario's reference solution (the oracle) refuses, before anything runs,
    a scenario set whose files have none (the released benchmark ships without), naming the fix."""
    if not registry.agent(episode.agent).needs_solution:
        return
    lacking = [p for p in files if not _has_solution(p)]
    if not lacking:
        return
    which = "none of the" if len(lacking) == len(files) else f"{len(lacking)} of the"
    raise RunConfigError(
        f"agent {episode.agent!r} (model={episode.agent}) plays each scenario's metadata.reference_solution, and "
        f"{which} {len(files)} file(s) of dataset={dataset} has one (e.g. {lacking[0]}). Play them with a model "
        "agent (model=<entry of conf/model/>, e.g. model=gpt_5_4_high, or model=openai_compatible "
        "model.model=openai/<name> model.api_base=http://HOST:PORT/v1), or leave these files out with "
        "dataset.names=[...]")


def _has_solution(path: Path) -> bool:
    """Whether a scenario file carries ``metadata.reference_solution`` (an unreadable file is left to the
    validation that follows, which names its problem)."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    metadata = data.get("metadata") if isinstance(data, dict) else None
    return not isinstance(metadata, dict) or bool(metadata.get("reference_solution"))


# ------------------------------------------------------------------------------------------ episode
def check_kinds(data: dict[str, Any]) -> None:
    """``interface.name``, ``user.kind`` and ``judge.kind`` name registered kinds (else the options are listed)."""
    for key, value, known in (("interface.name", data["interface"]["name"], registry.interfaces()),
                              ("user.kind", data["user"]["kind"], registry.users()),
                              ("judge.kind", data["judge"]["kind"], registry.judge_backends())):
        if value not in known:
            raise RunConfigError(f"{key}={value!r} is not a registered kind; choose one of {', '.join(known)}")


def model_agent(interface: str) -> str:
    """The agent kind a model plays through ``interface``: the registered model agent defining it."""
    for kind in registry.agents().values():
        if kind.interface == interface and kind.needs_model:
            return kind.name
    raise RunConfigError(f"interface.name={interface!r}: no model agent plays this interface; use model=oracle "
                         "or another interface")


def episode_config(data: dict[str, Any], *, cwd: Path | None = None) -> EpisodeConfig:
    """The EpisodeConfig of a resolved config (agent kind: oracle for model=oracle, else the model agent of the
    interface)."""
    check_kinds(data)
    interface = data["interface"]["name"]
    kind = data["model"]["kind"]
    if kind == "llm":
        agent, agent_model = model_agent(interface), model_settings(data["model"], where="model")
    elif kind in registry.agents():   # an agent kind of its own (the oracle, a plugin's agent)
        agent = kind
        agent_model = model_settings(data["model"], where="model") if registry.agent(kind).needs_model \
            else ModelSettings()
    else:
        raise RunConfigError(f"model.kind={kind!r} (model entry {data['model'].get('name', '?')!r}): use llm (a model "
                             f"playing interface.name) or a registered agent kind: {', '.join(registry.agents())}")
    user, user_model = _role(data, "user")
    judge, judge_model = _role(data, "judge")
    image_root = data["dataset"].get("image_root")
    if image_root:
        resolved, _ = resolve_project_path(image_root, cwd=cwd)
        if data["images"] == "require" and not resolved.is_dir():
            raise RunConfigError(f"dataset.image_root={image_root!r} does not exist ({resolved}); fix the path "
                                 "(MMTSB_IMAGE_ROOT for dataset=reference, whose images `mmtsb data fetch "
                                 "reference` downloads) or run with images=placeholder")
        image_root = str(resolved)
    cache = data.get("response_cache_dir")
    budgets = Budgets(**data["budgets"])
    if problems := budgets.problems():
        raise RunConfigError("; ".join(problems))
    try:
        return EpisodeConfig(
            agent=agent, interface=interface, user=user, judge=judge,
            agent_model=agent_model, user_model=user_model, judge_model=judge_model,
            toolbox=data["toolbox"]["level"], budgets=budgets, images=data["images"],
            image_root=image_root, strict_reference=bool(data["strict_reference"]), seed=int(data["seed"]),
            response_cache_dir=str(((cwd or Path.cwd()) / Path(cache).expanduser()).resolve()) if cache else None,
            ui=ui_mode(data), protocol=str((data.get("protocol") or {}).get("name") or "paper"),
        )
    except ConfigError as e:  # e.g. UI mode with the pure code-execution interface
        raise RunConfigError(str(e)) from None


# ------------------------------------------------------------------------------------------ run
def _known(cls: type, values: dict[str, Any]) -> dict[str, Any]:
    """The values a settings dataclass accepts (the schema mirrors it; a test checks they agree)."""
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in values.items() if k in names}


def build_run_settings(cfg: DictConfig, run_dir: Path, *, cwd: Path | None = None,
                       sweep_group: str | None = None) -> RunSettings:
    """RunSettings for a composed config. ``cwd`` is where relative paths start (default: the working
    directory); ``sweep_group`` names the W&B group of a sweep job when ``logging.group`` is null."""
    data = resolve_config(cfg)
    if unknown := unknown_keys(data):
        raise RunConfigError("; ".join(unknown))
    if int(data["repeats"]) < 1:
        raise RunConfigError(f"repeats={data['repeats']}: must be at least 1")
    episode = episode_config(data, cwd=cwd)
    _, files = scenario_files(data["dataset"], cwd=cwd)
    check_playable(episode, files, data["dataset"]["name"])
    runner = RunnerSettings(**_known(RunnerSettings, data["runner"]))
    if problems := runner.problems():
        raise RunConfigError("; ".join(problems))
    logging = LoggingSettings(**_known(LoggingSettings, data["logging"]))
    if logging.group is None and sweep_group:
        logging.group = sweep_group
    return RunSettings(run_dir=Path(run_dir), scenarios=files, episode=episode, repeats=int(data["repeats"]),
                       runner=runner, logging=logging, dataset=data["dataset"]["name"],
                       resolved_config=public_config(data), config_hash=config_hash(hash_view(data)))
