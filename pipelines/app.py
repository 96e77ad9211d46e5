"""``mmtsb generate``: the Hydra application of the generation pipeline (config ``conf/generate.yaml``).

``mmtsb generate [overrides]`` runs the pipeline into the Hydra run folder (``--multirun`` sweeps work as for
``mmtsb run``); ``mmtsb generate review RUN_DIR`` writes the review pages; ``mmtsb generate import RUN_DIR
FILE...`` re-validates edited scenario files and re-runs the oracle on them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from omegaconf import DictConfig, OmegaConf  # noqa: E402

from mmtsb.config.app import protected_job, serving, unwritable_output_dir  # noqa: E402
from mmtsb.config.secrets import override_secrets, scrub_text, scrubbed_log_records  # noqa: E402
from mmtsb.config.paths import ConfNotFoundError, conf_dir  # noqa: E402
from pipelines.config import GenerateConfig, register_generate_configs  # noqa: E402
from pipelines.source import SourceError  # noqa: E402

PROG = "mmtsb generate"
EXIT_CONFIG_ERROR = 2

__all__ = ["main", "settings_from"]


def settings_from(cfg: DictConfig) -> GenerateConfig:
    """The typed config of a composed one; impossible settings raise ValueError naming their keys."""
    settings = OmegaConf.to_object(cfg)
    assert isinstance(settings, GenerateConfig)
    problems = settings.problems()
    if problems:
        raise ValueError("; ".join(problems))
    return settings


def _resolved(cfg: DictConfig) -> dict[str, Any]:
    from mmtsb.report.wandb_log import scrub

    return scrub(OmegaConf.to_container(cfg, resolve=True, enum_to_str=True))


#: settings that may change between a run and its resumption (they do not change what is generated)
RESUMABLE_KEYS = frozenset({"progress", "logging", "serve", "ray", "concurrency", "stage_actors",
                             "response_cache_dir"})


def holds_work(run_dir: Path) -> bool:
    """Whether a run folder holds anything a run made (a stage's rows or parts, drawn source images, scenarios):
    a run that failed before making any (a source path that does not exist) leaves only its settings record."""
    stages = run_dir / "stages"
    if stages.is_dir() and any(p.name != "config.json" for p in stages.iterdir()):
        return True
    return any((run_dir / sub).is_dir() and any((run_dir / sub).iterdir()) for sub in ("source", "scenarios"))


def check_same_run(run_dir: Path, resolved: dict[str, Any]) -> None:
    """Record what a run folder generates (``stages/config.json``) and refuse to resume it with other settings:
    its stage tables would mix two configs. Raises ValueError naming the keys that differ. A folder whose
    earlier run made nothing (see :func:`holds_work`) takes the new settings."""
    wanted = {k: v for k, v in resolved.items() if k not in RESUMABLE_KEYS and k != "hydra"}
    record = run_dir / "stages" / "config.json"
    if record.is_file():
        held = json.loads(record.read_text(encoding="utf-8"))
        changed = sorted(k for k in set(held) | set(wanted) if held.get(k) != wanted.get(k))
        if changed and holds_work(run_dir):
            raise ValueError(f"{run_dir} holds a generation run with other settings ({', '.join(changed)} differ): "
                             f"resume it with the same settings, or choose a new hydra.run.dir")
        return
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(wanted, indent=1, sort_keys=True, default=str), encoding="utf-8")


def run_job(cfg: DictConfig) -> dict[str, Any]:
    from hydra.core.hydra_config import HydraConfig

    import yaml

    from pipelines.run import generate

    hc = HydraConfig.get()
    run_dir = Path(hc.runtime.output_dir).resolve()
    with protected_job(cfg) as secrets:
        try:
            settings = settings_from(cfg)
        except ValueError as e:
            print(f"{PROG}: config error: {scrub_text(str(e), secrets)}", file=sys.stderr)
            sys.exit(EXIT_CONFIG_ERROR)
        resolved = _resolved(cfg)
        try:
            if settings.source.kind.value == "design":
                from pipelines.run import design_slots

                design_slots(settings)  # an unknown design.only name is a config error (the design is cached)
        except ValueError as e:
            print(f"{PROG}: config error: {e}", file=sys.stderr)
            sys.exit(EXIT_CONFIG_ERROR)
        try:
            check_same_run(run_dir, resolved)
        except ValueError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            sys.exit(EXIT_CONFIG_ERROR)
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.yaml").write_text(
            "# resolved config of this generation run (secrets removed)\n"
            + yaml.safe_dump(resolved, sort_keys=False, allow_unicode=True), encoding="utf-8")
        size = (f"design={settings.design.base}/{settings.design.variant.value}"
                if settings.source.kind.value == "design" else f"n_scenarios={settings.n_scenarios}")
        print(f"{PROG}: backend={settings.backend.value}, source={settings.source.kind.value}, {size}, "
              f"seed={settings.seed} -> {run_dir}", flush=True)
        try:
            with serving(cfg, run_dir):
                summary = generate(settings, run_dir, cwd=Path(hc.runtime.cwd))
        except SourceError as e:   # names the folder, file or line; raised before Ray starts or any stage runs
            print(f"{PROG}: source error: {e}", file=sys.stderr)
            sys.exit(EXIT_CONFIG_ERROR)
        if settings.logging.wandb:
            from pipelines.wandb_log import log_generation

            log_generation(run_dir, resolved, settings.logging)
        out = summary.to_dict()
        print(f"{PROG}: {scrub_text(json.dumps(out), secrets)}", flush=True)
    return out


def hydra_main(argv: Sequence[str]) -> int:
    import hydra

    if (problem := unwritable_output_dir(argv)) is not None:
        print(f"{PROG}: {problem}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    register_generate_configs()
    try:
        config_path = str(conf_dir())
    except ConfNotFoundError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_CONFIG_ERROR
    results: list[dict[str, Any]] = []

    def task(cfg: DictConfig) -> int:
        out = run_job(cfg)
        results.append(out)
        return int(out["final"])

    app = hydra.main(config_path=config_path, config_name="generate", version_base="1.3")(task)
    saved = sys.argv
    sys.argv = [PROG, *argv]
    try:
        with scrubbed_log_records(override_secrets(argv)):   # Hydra logs a sweep's overrides
            app()
    finally:
        sys.argv = saved
    # no job ran: --cfg/--help/--info only printed; a job that ran and kept nothing is a failure
    return 0 if all(r["final"] > 0 for r in results) else 1


def review_main(argv: Sequence[str]) -> int:
    from pipelines.review import write_review

    parser = argparse.ArgumentParser(prog=f"{PROG} review", description="write the review pages of a run")
    parser.add_argument("run_dir", type=Path)
    args = parser.parse_args(argv)
    if not (args.run_dir / "stages").is_dir():
        parser.error(f"{args.run_dir} is not a generation run folder (no stages/)")
    pages = write_review(args.run_dir)
    print(f"{PROG} review: {len(pages)} page(s) under {args.run_dir / 'review'}")
    return 0


def import_main(argv: Sequence[str]) -> int:
    from pipelines.review import import_reviewed

    parser = argparse.ArgumentParser(prog=f"{PROG} import",
                                     description="re-validate edited scenario files and re-run the oracle on them")
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if not (args.run_dir / "stages").is_dir():
        parser.error(f"{args.run_dir} is not a generation run folder (no stages/)")
    results = import_reviewed(args.run_dir, list(args.files), check=_oracle_check(args.run_dir))
    for r in results:
        state = "accepted" if r.get("accepted") else "rejected"
        print(f"{r.get('file')}: {state}" + (f" ({'; '.join(r.get('errors') or [])})" if r.get("errors") else ""))
    return 0 if all(r.get("accepted") for r in results) else 1


def _oracle_check(run_dir: Path) -> Any:
    """The run's own oracle, from its recorded config, as a check for imported files."""
    import yaml

    from pipelines.quality import oracle_check_files

    raw = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8")) if (run_dir / "config.yaml").exists() else {}
    register_generate_configs()
    base = OmegaConf.structured(GenerateConfig)
    cfg = OmegaConf.to_object(OmegaConf.merge(base, {k: v for k, v in (raw or {}).items() if k in base}))
    return lambda paths: oracle_check_files(cfg, run_dir, paths)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["review"]:
        return review_main(argv[1:])
    if argv[:1] == ["import"]:
        return import_main(argv[1:])
    return hydra_main(argv)


if __name__ == "__main__":
    sys.exit(main())
