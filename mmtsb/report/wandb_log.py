"""Optional Weights & Biases logging of a finished run.

Logs the resolved config (secrets removed), the summary metrics (flattened), a per-episode table, the
figures and the trajectories as an artifact; sweep jobs share ``settings.logging.group``. ``mode="auto"``
is online only with ``WANDB_API_KEY`` set (or ``WANDB_MODE`` if the environment sets one), else offline:
an offline run is written under ``$WANDB_DIR`` (default: the run folder) and can be synced later with
``wandb sync``. ``wandb`` is an optional dependency, imported only here and only when logging.

The caller decides whether to log (``settings.logging.wandb``); this function always logs.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from mmtsb.config.secrets import redact, redact_userinfo
from mmtsb.report.build import build_report
from mmtsb.report.data import RunData
from mmtsb.report.taxonomy import classify

SECRET_KEY = re.compile(r"(api[_-]?key|secret|password|passwd|authori[sz]ation|bearer|credential|"
                        r"access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key|^token$|_token$)",
                        re.IGNORECASE)
#: keys ending in "_token" that are counts, not secrets
_NOT_SECRET = re.compile(r"(max|num|n|total|prompt|completion)_tokens?$", re.IGNORECASE)
REDACTED = "***"
INSTALL_HINT = ("W&B logging needs the optional 'wandb' package: pip install 'mmtsb[wandb]' "
                "(or pip install 'wandb<0.27', the releases that agree with litellm's click pin)")


class WandbUnavailable(RuntimeError):
    """wandb is not installed."""


def import_wandb() -> Any:
    try:
        import wandb
    except ImportError as e:  # optional dependency
        raise WandbUnavailable(INSTALL_HINT) from e
    return wandb


def scrub(config: Any) -> Any:
    """A copy of a config with every secret-looking key's value replaced (keys like api_key, token, password,
    Authorization; :func:`mmtsb.config.secrets.redact`'s rules too) and URL userinfo (``http://u:p@host``)
    hidden in every string."""
    if isinstance(config, dict):
        out = {}
        for k, v in config.items():
            key = str(k)
            secret = SECRET_KEY.search(key) and not _NOT_SECRET.search(key)
            out[k] = REDACTED if secret and v not in (None, "") else scrub(v)
        return redact(out)
    if isinstance(config, (list, tuple)):
        return [scrub(v) for v in config]
    return redact(config)


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested metrics as "a/b/c" keys; lists of two numbers (intervals) become ``_lo``/``_hi``."""
    out: dict[str, Any] = {}
    if isinstance(data, dict):
        for k, v in data.items():
            out.update(flatten(v, f"{prefix}/{k}" if prefix else str(k)))
    elif isinstance(data, (list, tuple)) and len(data) == 2 and all(isinstance(x, (int, float)) for x in data):
        out[f"{prefix}_lo"], out[f"{prefix}_hi"] = float(data[0]), float(data[1])
    elif isinstance(data, bool) or data is None or isinstance(data, (int, float, str)):
        if data is not None:
            out[prefix] = data
    return out


def resolve_mode(mode: str | None) -> str:
    if mode in ("online", "offline", "disabled"):
        return mode
    env = os.environ.get("WANDB_MODE")
    if env:
        return env
    return "online" if os.environ.get("WANDB_API_KEY") else "offline"


def _settings_or_default(run_dir: Path, settings: Any) -> Any:
    """Use the given RunSettings-like object, else defaults and the run folder's config.yaml."""
    if settings is not None:
        return settings
    from mmtsb.runner.settings import LoggingSettings

    config: dict[str, Any] = {}
    path = run_dir / "config.yaml"
    if path.is_file():
        import yaml

        config = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return SimpleNamespace(logging=LoggingSettings(wandb=True), resolved_config=config)


def _cell(v: Any) -> Any:
    if isinstance(v, str):
        return redact_userinfo(v)   # rows are scrubbed when written; rows of older runs may not be
    if v is None or isinstance(v, (bool, int, float)):
        return v
    return redact_userinfo(json.dumps(v, default=str))


def episode_table(data: RunData) -> tuple[list[str], list[list[Any]]]:
    """Columns and rows of the per-episode table (every row column, plus the failure category)."""
    columns: list[str] = []
    for r in data.rows:
        columns += [k for k in r if k not in columns]
    columns += ["failure_category", "failure_method"]
    rows = []
    for r in data.rows:
        c = classify(r, data.trajectory(r) if r.get("agent_pass") is False else None)
        rows.append([_cell(r.get(k)) for k in columns[:-2]] + [c.category, c.method])
    return columns, rows


def _quiet_settings(wandb: Any) -> dict[str, Any]:
    """No console capture, git, code, system stats or machine info: only what is logged explicitly (the
    options this wandb release knows)."""
    wanted = {"console": "off", "disable_git": True, "save_code": False, "silent": True,
              "x_disable_stats": True, "x_disable_machine_info": True}
    fields = getattr(wandb.Settings, "model_fields", None)
    return {k: v for k, v in wanted.items() if k in fields} if fields else {}


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:100] or "run"


@contextlib.contextmanager
def wandb_run(wandb: Any, run_dir: Path, logging: Any, *, job_type: str, config: dict[str, Any]) -> Iterator[Any]:
    """One quiet W&B run named after ``run_dir`` (config scrubbed of secrets; offline without a key), finished
    and torn down on exit: ``finish()`` returns before wandb's service has written everything (offline: the
    .wandb file), ``teardown()`` waits for it, so the folder is complete when the block ends."""
    wb_dir = Path(os.environ.get("WANDB_DIR") or run_dir)
    wb_dir.mkdir(parents=True, exist_ok=True)
    mode = getattr(logging, "mode", "auto")
    run = wandb.init(project=logging.project, entity=logging.entity, group=logging.group, name=run_dir.name,
                     job_type=job_type, config=scrub(config), dir=str(wb_dir),
                     mode=resolve_mode(getattr(mode, "value", mode)), settings=wandb.Settings(**_quiet_settings(wandb)))
    try:
        yield run
    finally:
        run.finish()
        wandb.teardown()


def run_location(run: Any) -> str:
    """Where a W&B run went: its local folder offline, else its URL."""
    return str(run.dir if run.settings.mode == "offline" else (run.url or run.dir))


def log_wandb(run_dir: Path, settings: Any = None) -> str:
    """Log a run folder to W&B and return the local run folder wandb wrote (offline) or the run URL.
    ``settings`` is a RunSettings (``.logging``, ``.resolved_config``); None: defaults + config.yaml."""
    wandb = import_wandb()
    run_dir = Path(run_dir)
    settings = _settings_or_default(run_dir, settings)
    log = settings.logging
    summary_path = run_dir / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.is_file() else {}
    if "breakdowns" not in summary:
        summary = build_report(run_dir)
    data = RunData.load(run_dir)
    config = dict(getattr(settings, "resolved_config", None) or {})
    with wandb_run(wandb, run_dir, log, job_type="eval", config=config) as run:
        metrics = {k: v for k, v in flatten(summary).items() if not k.startswith(("run_dir", "figures"))}
        run.summary.update(metrics)
        columns, rows = episode_table(data)
        images = {}
        for rel in (summary.get("figures") or {}).values():
            p = run_dir / rel
            if p.is_file():
                images[f"figures/{p.stem}"] = wandb.Image(str(p))
        run.log({"episodes": wandb.Table(columns=columns, data=rows, allow_mixed_types=True), **images})
        traj_dir = run_dir / "trajectories"
        if traj_dir.is_dir() and any(traj_dir.iterdir()):
            cfg_hash = summary.get("config", {}).get("config_hash", "")
            artifact = wandb.Artifact(_slug(f"trajectories-{run_dir.name}-{cfg_hash}"), type="trajectories",
                                      metadata={"episodes": len(data.rows)})
            artifact.add_dir(str(traj_dir))
            run.log_artifact(artifact)
        return run_location(run)

