"""Stage 6's driver-side work around the critic: balanced downsampling, the oracle run and the final set."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa

from mmtsb.protocol.model_settings import ModelSettings
from pipelines.config import BackendKind, DesignVariant, GenerateConfig, SourceKind
from pipelines.items import Outline
from pipelines.raystage import run_stage
from pipelines.stages import s6_quality
from pipelines.store import StageStore, rows_table, write_atomic

__all__ = ["oracle_check_files", "oracle_episode_config", "run_quality", "write_scenario_files"]


def plain_settings(model: Any) -> ModelSettings:
    """The ModelSettings part of a config model entry (its name, kind and serve hints dropped)."""
    names = {f.name for f in dataclasses.fields(ModelSettings)}
    return ModelSettings(**{k: v for k, v in dataclasses.asdict(model).items() if k in names})


def oracle_episode_config(cfg: GenerateConfig) -> Any:
    """How the oracle plays: the reference-solution oracle and the static judge for the procedural backend;
    the ``informed`` LLM agent (told the expected changes, criteria and tools) and the LLM agent judge, both
    on the critique stage's model, for the llm backend. ``oracle.agent``/``oracle.judge`` override."""
    from mmtsb.protocol.episode_config import EpisodeConfig

    procedural = cfg.backend is BackendKind.procedural
    agent = cfg.oracle.agent if cfg.oracle.agent != "auto" else ("oracle" if procedural else "informed")
    judge = cfg.oracle.judge if cfg.oracle.judge != "auto" else ("static" if procedural else "llm")
    model = cfg.stage_model("critique")
    settings = plain_settings(model) if model is not None else ModelSettings()
    return EpisodeConfig(agent=agent, interface=cfg.oracle.interface, user="scripted", judge=judge,
                         agent_model=settings if agent != "oracle" else ModelSettings(),
                         judge_model=settings if judge == "llm" else ModelSettings(), seed=cfg.seed)


def write_scenario_files(folder: Path, data: dict[str, Any], sources: list[str]) -> Path:
    """Write one scenario file and copy its images (``sources``, in the file's image order) next to it."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    for rel, src in zip(data["image_paths"], sources):
        target = folder / rel
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
    path = folder / f"{data['name']}.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _oracle(cfg: GenerateConfig, run_dir: Path, files: list[Path], oracle_run: Path | None = None,
            image_root: Path | None = None) -> dict[str, dict[str, Any]]:
    """Play ``files`` with the oracle through the runner (into ``oracle_run``, default <run>/oracle/run: a normal,
    resumable run folder) and return each scenario's verdict."""
    from mmtsb.runner.execute import execute_run
    from mmtsb.runner.settings import RunnerSettings, RunSettings

    if not files:
        return {}
    oracle_run = oracle_run or run_dir / "oracle" / "run"
    episode = oracle_episode_config(cfg)
    if cfg.source.kind is SourceKind.design and cfg.design.variant is DesignVariant.ui:
        episode.ui = True  # UI twins are played in UI mode
    if image_root is not None:
        episode.image_root = str(image_root)
    settings = RunSettings(run_dir=oracle_run, scenarios=files, episode=episode, dataset="generated",
                           runner=RunnerSettings(kind="cluster" if cfg.ray.address else "local",
                                                 address=cfg.ray.address, max_concurrency=max(1, len(files))),
                           resolved_config={"generate_oracle": {"agent": episode.agent, "judge": episode.judge,
                                                                "interface": episode.interface,
                                                                "model": episode.agent_model.model}})
    execute_run(settings, progress=False)
    return s6_quality.oracle_results(oracle_run, cfg.oracle.min_f1)


def oracle_check_files(cfg: GenerateConfig, run_dir: Path, files: list[Path]) -> dict[str, dict[str, Any]]:
    """The oracle verdicts of reviewed files (``mmtsb generate import``), in a fresh folder under <run>/oracle/."""
    import time

    return _oracle(cfg, run_dir, [Path(f) for f in files], run_dir / "oracle" / f"import-{time.strftime('%Y%m%d-%H%M%S')}",
                   image_root=run_dir / "scenarios")


def run_quality(cfg: GenerateConfig, run_dir: Path, backend: Any, rows5: list[dict[str, Any]],
                outline_of: dict[str, Outline], group_ctx: dict[str, dict[str, Any]],
                progress: Any) -> tuple[list[dict[str, Any]], int]:
    """Critic, downsampling, oracle and final selection; writes stages/6_quality.parquet and scenarios/."""
    valid = [r for r in rows5 if r["passed"]]
    scenario_of = {r["scenario_id"]: json.loads(r["scenario"]) for r in valid}
    store = StageStore(run_dir / "stages" / ".work", 6, "critique", "scenario_id")
    items = [(r["scenario_id"], {"scenario_id": r["scenario_id"], "outline": outline_of[r["scenario_id"]].model_dump(),
                                 "scenario": r["scenario"],
                                 "context": group_ctx[outline_of[r["scenario_id"]].cluster_id]}) for r in valid]
    with progress.stage("6 critic", len(items)) as tick:
        critic = run_stage(store, items, s6_quality.critique_task, backend, **cfg.stage_run(),
                           on_rows=tick, error_row=lambda k, p, m: {"scenario_id": k, "critic_passed": False,
                                                                    "passed": False, "reason": f"stage error: {m}"})
    shares = {axis: cfg.balance.shares(axis) for axis in ("flow", "arrival", "challenge")}
    passed = [r for r in critic if r.get("critic_passed")]
    if cfg.source.kind is SourceKind.design:  # the design balanced the set already: keep all, in name order
        order = sorted(r["scenario_id"] for r in passed)
        selected = order
    else:
        order = s6_quality.balanced_order(passed, shares)
        selected = order[:math.ceil(cfg.n_scenarios * (1 + cfg.oracle.reserve))]
    oracle_dir = run_dir / "oracle" / "scenarios"
    sources = {sid: [group_image_path(group_ctx[outline_of[sid].cluster_id], i) for i in outline_of[sid].image_ids]
               for sid in selected}
    files = [write_scenario_files(oracle_dir, scenario_of[sid], sources[sid]) for sid in selected]
    with progress.stage("6 oracle", len(files)) as tick:
        verdicts = _oracle(cfg, run_dir, files)
        tick(len(files))
    final = [sid for sid in selected if verdicts.get(sid, {}).get("solvable")][:cfg.n_scenarios]
    _write_final(run_dir / "scenarios", final, scenario_of, sources)
    rank = {sid: i for i, sid in enumerate(order)}
    rows = []
    for r in critic:
        sid = r["scenario_id"]
        v = verdicts.get(sid, {})
        if not r.get("critic_passed"):
            reason = r.get("reason") or "critic"
        elif sid not in selected:
            reason = "downsampled: beyond the oracle's share of the balanced order"
        elif not v.get("solvable"):
            reason = f"oracle: {v.get('oracle_reason') or 'no result'}"
        elif sid not in final:
            reason = "downsampled: n_scenarios already reached"
        else:
            reason = ""
        rows.append({**r, "balance_rank": rank.get(sid), "selected": sid in selected,
                     "oracle_f1": v.get("oracle_f1"), "oracle_judge_pass": v.get("oracle_judge_pass"),
                     "oracle_episode_id": v.get("oracle_episode_id", ""), "oracle_reason": v.get("oracle_reason", ""),
                     "solvable": v.get("solvable"), "final": sid in final, "reason": reason})
    path = run_dir / "stages" / "6_quality.parquet"
    write_atomic(rows_table(rows) if rows else pa.table({"scenario_id": pa.array([], pa.string())}), path)
    return rows, len(final)


def group_image_path(ctx: dict[str, Any], image_id: str) -> str:
    return next(im["path"] for im in ctx["images"] if im["image_id"] == image_id)


def _write_final(folder: Path, final: list[str], scenario_of: dict[str, dict[str, Any]],
                 sources: dict[str, list[str]]) -> None:
    """Make ``folder`` hold exactly the final set (a rerun with another n_scenarios leaves no stale file)."""
    folder.mkdir(parents=True, exist_ok=True)
    keep = set(final)
    for old in folder.glob("*.json"):
        if old.stem not in keep:
            old.unlink()
    for sid in final:
        write_scenario_files(folder, scenario_of[sid], sources[sid])
    wanted = {rel for sid in final for rel in scenario_of[sid]["image_paths"]}
    for img in sorted((folder / "images").rglob("*"), reverse=True):
        rel = img.relative_to(folder).as_posix()
        if img.is_file() and rel not in wanted:
            img.unlink()
        elif img.is_dir() and not any(img.iterdir()):
            img.rmdir()
