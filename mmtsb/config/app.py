"""``mmtsb run``: the Hydra application. Composes ``conf/`` with the command-line overrides, writes the resolved
config (secrets removed) into the run folder, starts a model server when ``serve`` asks for one, runs the
episodes and prints the summary.

Call :func:`main` with the arguments that follow ``mmtsb run`` (Hydra syntax: ``group=option``,
``key=value``, ``--multirun``, ``--cfg job``, ``--help``). Each job (one in a run, one per combination in a
``--multirun`` sweep) gets its own run folder: ``hydra.run.dir`` / ``hydra.sweep.dir`` + ``subdir``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import yaml  # noqa: E402  (after the offline environment defaults)
from omegaconf import DictConfig  # noqa: E402

from mmtsb.config import schema  # noqa: E402,F401  (registers the structured configs)
from mmtsb.config.paths import ConfNotFoundError, conf_dir  # noqa: E402
from mmtsb.config.secrets import (  # noqa: E402
    MIN_SECRET_LEN, collect_secrets, install_log_filter, override_secrets, redact_override,
    remove_log_filter, scrub_data, scrub_text, scrubbed_log_records,
)

if TYPE_CHECKING:
    from mmtsb.runner.settings import RunSettings

PROG = "mmtsb run"
EXIT_CONFIG_ERROR = 2


@dataclasses.dataclass
class JobOutcome:
    """What one Hydra job left (the exit status of ``main`` is derived from these)."""

    run_dir: Path
    summary: dict[str, Any]


# ------------------------------------------------------------------------------------------ entry point
def unwritable_output_dir(argv: Sequence[str]) -> str | None:
    """Why the run folder an override names (``hydra.run.dir=``/``hydra.sweep.dir=``) cannot be made, or None:
    its nearest existing ancestor must be a writable folder. Checked before Hydra starts, so the answer is one
    line, not Hydra's traceback."""
    for item in argv:
        key, sep, value = item.partition("=")
        if not sep or key.lstrip("+~") not in ("hydra.run.dir", "hydra.sweep.dir") or "${" in value:
            continue
        path = Path(value).expanduser().absolute()
        probe = path
        while not probe.exists() and probe.parent != probe:
            probe = probe.parent
        if not probe.is_dir():
            return f"{key}={value}: cannot make the run folder there: {probe} is not a folder"
        if not os.access(probe, os.W_OK | os.X_OK):
            return f"{key}={value}: cannot make the run folder there: {probe} is not writable"
    return None


def group_options(folder: Path, group: str) -> list[str]:
    """The options of a config group: its YAML files in ``conf/`` and the structured configs stored for it."""
    from hydra.core.config_store import ConfigStore

    names = {p.stem for p in (folder / group).glob("*.yaml")}
    try:
        names |= {n.removesuffix(".yaml") for n in ConfigStore.instance().list(group) if n.endswith(".yaml")}
    except OSError:   # Hydra's store raises IOError for a group it has no entry for
        pass
    return sorted(names)


def unknown_group_option(argv: Sequence[str], folder: Path) -> str | None:
    """A ``group=option`` override naming no option of the group, as one line that lists the options (before
    Hydra starts: its own message buries them under the config search path). Sweeps (``a,b``) are checked item
    by item; values with interpolations or sweep functions are left to Hydra."""
    for item in argv:
        key, sep, value = item.partition("=")
        group = key.lstrip("+~").split("@", 1)[0]
        if not sep or item.startswith("-") or "." in group or not group or group == "hydra":
            continue
        if any(c in value for c in "${}()[]*") or value in ("", "null"):
            continue
        options = group_options(folder, group)
        if not options:   # not a config group (a plain key such as seed=3)
            continue
        for choice in (v.strip() for v in value.split(",")):
            if choice not in options:
                return (f"{group}={choice}: not an option of the config group {group!r}; options: "
                        f"{', '.join(options)}")
    return None


def chosen_options(argv: Sequence[str], folder: Path) -> dict[str, str]:
    """{group: option} as a run would compose them: ``conf/config.yaml``'s defaults, then ``group=option``."""
    try:
        defaults = (yaml.safe_load((folder / "config.yaml").read_text(encoding="utf-8")) or {}).get("defaults")
    except (OSError, yaml.YAMLError, AttributeError):
        defaults = None
    chosen = {k: str(v) for d in defaults or [] if isinstance(d, dict) for k, v in d.items()}
    for item in argv:
        key, sep, value = item.partition("=")
        if sep and not item.startswith(("-", "+", "~")) and "." not in key and "@" not in key:
            chosen[key] = value
    return chosen


def null_section(folder: Path, group: str, option: str, parts: Sequence[str]) -> str | None:
    """The section along the dotted key ``parts`` (``user``, ``model``, ``timeout_s``) that the option's YAML sets
    to null, or None (not null, or not found there)."""
    try:
        node = yaml.safe_load((folder / group / f"{option}.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
    for depth, part in enumerate(parts[1:-1], start=2):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
        if node is None:
            return ".".join(parts[:depth])
    return None


def override_under_null(argv: Sequence[str], folder: Path) -> str | None:
    """An override of a key inside a section the chosen group option leaves null (``user.model.timeout_s=60``
    under ``user=scripted``), as one line naming the option: Hydra itself fails there with an AssertionError
    traceback. Sweeps and interpolated choices are left to Hydra."""
    chosen = chosen_options(argv, folder)
    for item in argv:
        key, sep, value = item.partition("=")
        parts = key.split(".")
        if not sep or item.startswith(("-", "+", "~")) or "@" in key or len(parts) < 3:
            continue
        group, option = parts[0], chosen.get(parts[0], "")
        if not option or any(c in option for c in "${},"):
            continue
        if (section := null_section(folder, group, option, parts)) is not None:
            others = [o for o in group_options(folder, group) if o != option
                      and null_section(folder, group, o, parts) is None]
            return (f"{key}={value}: {group}={option} has no {section} (it is null there); choose a {group} option "
                    f"that has one ({', '.join(others)}) or leave this override out")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the Hydra application on ``argv`` (default: ``sys.argv[1:]``); returns the exit status (see
    :func:`exit_status`; 2 also for a config error found before the first episode)."""
    import hydra

    try:
        config_path = str(conf_dir())
    except ConfNotFoundError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    args = list(sys.argv[1:] if argv is None else argv)
    for problem in (unwritable_output_dir(args), unknown_group_option(args, Path(config_path)),
                    override_under_null(args, Path(config_path))):
        if problem is not None:
            print(f"{PROG}: {problem}", file=sys.stderr)
            return EXIT_CONFIG_ERROR
    outcomes: list[JobOutcome] = []

    def task(cfg: DictConfig) -> float | None:
        outcome = run_job(cfg)
        outcomes.append(outcome)
        return outcome.summary.get("agent_sr")

    app = hydra.main(config_path=config_path, config_name="config", version_base="1.3")(task)
    saved = sys.argv
    if argv is not None:
        sys.argv = [PROG, *argv]
    try:
        with scrubbed_log_records(override_secrets(sys.argv[1:])):   # Hydra logs a sweep's overrides
            app()
    finally:
        sys.argv = saved
    return exit_status(outcomes)


def exit_status(outcomes: Sequence[JobOutcome]) -> int:
    """2 when a job stopped on a configuration failure, 1 when a job has episodes it could not evaluate
    (infrastructure or scenario failures, selected files that failed validation included), else 0."""
    if any(o.summary.get("stopped") for o in outcomes):
        return EXIT_CONFIG_ERROR
    return 0 if all(not (o.summary.get("not_evaluated") or o.summary.get("infra_failures")
                         or o.summary.get("invalid_scenarios")) for o in outcomes) else 1


# ------------------------------------------------------------------------------------------ one job
def run_job(cfg: DictConfig) -> JobOutcome:
    """One Hydra job: settings, resolved config, server, episodes, summary. A config error ends the
    process with status 2 and a message naming the key. Secrets given in the config or on the command line
    are never written down (:func:`protected_job`; ``config.yaml`` is the redacted resolved config)."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    from mmtsb.config.build import RunConfigError, build_run_settings, resolve_in_place
    from mmtsb.config.preflight import run_problems

    hc = HydraConfig.get()
    run_dir = Path(hc.runtime.output_dir).resolve()
    sweep_group = Path(hc.sweep.dir).name if hc.mode == RunMode.MULTIRUN else None
    with protected_job(cfg) as secrets:
        try:
            resolve_in_place(cfg)
            settings = build_run_settings(cfg, run_dir, cwd=Path(hc.runtime.cwd), sweep_group=sweep_group)
            if problems := run_problems(settings):   # a missing key, a missing sink: before any episode
                raise RunConfigError("; ".join(problems))
        except RunConfigError as e:
            print(f"{PROG}: {scrub_text(str(e), secrets)}", file=sys.stderr)
            sys.exit(EXIT_CONFIG_ERROR)
        write_resolved_config(settings, run_dir)
        print(f"{PROG}: {len(settings.scenarios)} scenario(s) x {settings.repeats} repeat(s) of "
              f"dataset={settings.dataset}, agent={_agent_label(settings)}, config hash {settings.config_hash} "
              f"-> {run_dir}", flush=True)
        from mmtsb.runner.leftovers import RunFolderBusy

        try:
            with serving(cfg, run_dir):
                summary = summary_dict(execute(settings))
        except RunFolderBusy as e:   # another live driver plays this folder: never two at once
            print(f"{PROG}: {e}", file=sys.stderr)
            sys.exit(EXIT_CONFIG_ERROR)
        print(f"{PROG}: {scrub_text(json.dumps(summary, default=str), secrets)}", flush=True)
    return JobOutcome(run_dir=run_dir, summary=summary)


def _agent_label(settings: RunSettings) -> str:
    ep = settings.episode
    return f"{ep.agent_model.model} ({ep.interface})" if ep.agent_model.model else f"{ep.agent} ({ep.interface})"


def write_resolved_config(settings: RunSettings, run_dir: Path) -> Path:
    """``config.yaml`` in the run folder: the resolved config, secrets removed, and the config hash."""
    run_dir.mkdir(parents=True, exist_ok=True)
    target = run_dir / "config.yaml"
    body = yaml.safe_dump(settings.resolved_config, sort_keys=False, allow_unicode=True)
    tmp = target.with_suffix(".yaml.tmp")
    tmp.write_text(f"# resolved config of this run (secrets removed); config hash {settings.config_hash}\n"
                   + body, encoding="utf-8")
    os.replace(tmp, target)
    return target


def secret_override_values(overrides: Sequence[str]) -> list[str]:
    """The secret values given on the command line: values of keys that name secrets
    (``+model.extra_params.api_key=...``, quotes removed) and passwords in URLs (``api_base=http://u:p@h``)."""
    return override_secrets(overrides)


def job_secrets(cfg: DictConfig, overrides: Sequence[str] = ()) -> list[str]:
    """Every secret value a job knows of: those of its config (secret keys, URL passwords, the values of the
    variables ``api_key_env`` names; resolved when it resolves) and of its command-line overrides."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    found: list[str] = list(override_secrets(overrides))
    for resolve in (False, True):
        try:
            data = OmegaConf.to_container(cfg, resolve=resolve, enum_to_str=True)
        except (OmegaConfBaseException, ValueError):
            continue
        found += collect_secrets(data)
    return sorted(set(found), key=lambda v: (-len(v), v))


@contextlib.contextmanager
def protected_job(cfg: DictConfig) -> Iterator[list[str]]:
    """Around one Hydra job (``mmtsb run`` and ``mmtsb generate``): first hide its secrets in the records Hydra
    wrote before the job started (``.hydra/*.yaml``, a sweep's ``multirun.yaml``), then keep them out of every
    log line (a :class:`~mmtsb.config.secrets.SecretFilter` on the configured handlers: the console and the
    job's log file) until the job ends. Yields the secret values (for messages the job prints itself)."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    hc = HydraConfig.get()
    secrets = job_secrets(cfg, [*hc.overrides.task, *hc.overrides.hydra])
    run_dir = Path(hc.runtime.output_dir)
    if hc.output_subdir:
        scrub_hydra_files(run_dir / hc.output_subdir, ("overrides.yaml", "config.yaml", "hydra.yaml"), secrets)
    if hc.mode == RunMode.MULTIRUN:
        scrub_hydra_files(Path(hc.sweep.dir), ("multirun.yaml",), secrets)
    filt = install_log_filter(secrets)
    try:
        yield secrets
    finally:
        remove_log_filter(filt)


def scrub_hydra_files(folder: Path, names: Sequence[str], secrets: Sequence[str] = ()) -> None:
    """Hide secrets in Hydra's own records (``.hydra/*.yaml``, ``multirun.yaml``), which hold the overrides as
    typed, the unresolved config and the job's folder names: values of secret keys, URL userinfo anywhere,
    overrides of secret keys, and the given secret values wherever they occur. A file that holds none is left
    as Hydra wrote it; one that does is rewritten (still YAML)."""
    for name in names:
        path = folder / name
        if not path.is_file():
            continue
        original = path.read_text(encoding="utf-8")
        text = _scrubbed_yaml(original, secrets)
        if text != original:
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)


def _scrubbed_yaml(text: str, secrets: Sequence[str]) -> str:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return scrub_text(text, secrets)
    clean = scrub_data(_redact_overrides(data), secrets)
    if clean == data:
        return text
    body = yaml.safe_dump(clean, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return scrub_text(body, [s for s in secrets if len(s) >= MIN_SECRET_LEN])


def _redact_overrides(data: Any) -> Any:
    """Override strings (``overrides.yaml``'s list, ``hydra.overrides.*``, ``override_dirname``) with the
    values of secret keys hidden."""
    if isinstance(data, list) and all(isinstance(x, str) for x in data):
        return [redact_override(x) for x in data]
    if not isinstance(data, dict):
        return data
    out = dict(data)
    hydra = out.get("hydra")
    if isinstance(hydra, dict):
        hydra = out["hydra"] = dict(hydra)
        if isinstance(hydra.get("overrides"), dict):
            hydra["overrides"] = {k: _redact_overrides(v) for k, v in hydra["overrides"].items()}
        job = hydra.get("job")
        if isinstance(job, dict) and isinstance(job.get("override_dirname"), str):
            hydra["job"] = {**job, "override_dirname": ",".join(
                redact_override(x) for x in job["override_dirname"].split(","))}
    return out


# ------------------------------------------------------------------------------------------ serving
@contextlib.contextmanager
def serving(cfg: DictConfig, run_dir: Path) -> Iterator[None]:
    """Keep the configured model server (``serve.kind`` other than ``none``) up around the run, through
    ``mmtsb.serve.serving``; the agent model's ``serve:`` block says what to serve."""
    kind = str(cfg.serve.get("kind", "none")) if cfg.get("serve") is not None else "none"
    if kind == "none":
        yield
        return
    from mmtsb.serve import ServeConfigError, ServeSettings
    from mmtsb.serve import serving as serve_model

    try:
        settings = ServeSettings.from_config(cfg.serve, cfg.model.get("serve"), run_dir)
    except ServeConfigError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(EXIT_CONFIG_ERROR)
    with serve_model(settings):
        yield


# ------------------------------------------------------------------------------------------ execution
def execute(settings: RunSettings) -> Any:
    """Run the episodes with the platform runner."""
    from mmtsb.runner.execute import execute_run

    return execute_run(settings)


def summary_dict(summary: Any) -> dict[str, Any]:
    """A run summary (RunSummary dataclass, object with to_dict(), or dict) as a dict."""
    if isinstance(summary, dict):
        return summary
    if hasattr(summary, "to_dict"):
        return dict(summary.to_dict())
    if dataclasses.is_dataclass(summary) and not isinstance(summary, type):
        return dataclasses.asdict(summary)
    return {"summary": repr(summary)}


if __name__ == "__main__":
    sys.exit(main())
