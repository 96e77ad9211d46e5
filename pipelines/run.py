"""The pipeline end to end: source -> six stages -> the final scenario set, funnel, report and review pages.

Every stage writes its table under ``<run>/stages/`` as it goes (see :mod:`pipelines.store`), so rerunning the
same command resumes: finished items of every stage are skipped, and with the LLM response cache
(``<run>/cache``) the model calls of a rerun cost nothing.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.tools.toolbox import full_registry
from pipelines.assemble import scenario_id_of
from pipelines.catalog import compact_catalog
from pipelines.config import MODEL_STAGES, BackendKind, GenerateConfig, SourceKind
from pipelines.items import Group, ImageVerdict, Outline, SourceImage
from pipelines.raystage import run_stage
from pipelines.stages import s1_associate, s2_cluster, s3_outline, s4_scenario, s5_entities
from pipelines.store import StageStore, write_atomic

__all__ = ["GenerationSummary", "generate"]

log = logging.getLogger("mmtsb.generate")


@dataclass
class GenerationSummary:
    run_dir: Path
    final: int
    funnel: dict[str, Any]
    scenarios_dir: Path
    timings_s: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"run_dir": str(self.run_dir), "final": self.final, "scenarios_dir": str(self.scenarios_dir),
                "timings_s": self.timings_s,
                "stages": {s["stage"]: f"{s['in']} -> {s['out']}" for s in self.funnel["stages"]}}


# ------------------------------------------------------------------------------------------ set-up
def _init_ray(cfg: GenerateConfig) -> bool:
    import ray

    if ray.is_initialized():
        return False
    ray.init(address=cfg.ray.address, num_cpus=cfg.ray.num_cpus if not cfg.ray.address else None,
             include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING, namespace="mmtsb-generate",
             object_store_memory=None if cfg.ray.address else 256 * 1024 * 1024)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False  # the pipeline shows its own progress per stage
    ctx.print_on_execution_start = False
    # after ray.data's own logging set-up: its per-dataset lines, and FAISS's loader lines, are noise here
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    logging.getLogger("faiss.loader").setLevel(logging.WARNING)
    return True


def make_backend(cfg: GenerateConfig, cache_dir: Path) -> Any:
    """The backend of the model-backed stages."""
    if cfg.backend is BackendKind.procedural:
        from pipelines.backends.procedural import ProceduralBackend

        return ProceduralBackend()
    from pipelines.backends.llm import LLMBackend

    models = {stage: cfg.stage_model(stage) for stage in MODEL_STAGES}
    return LLMBackend(models, cache_dir=str(cache_dir), max_repairs=cfg.max_repairs,
                      structured_outputs=cfg.structured_outputs)


def default_n_images(cfg: GenerateConfig) -> int:
    """Procedural source size: about 4.5 images per scenario, times 2.5 for the filters, balance and reserve."""
    return max(24, math.ceil(cfg.n_scenarios * 4.5 * 2.5))


def design_slots(cfg: GenerateConfig) -> list[Any]:
    """The slots a design-source run builds: the variant's whole set, or the ``design.only`` ones (an unknown
    name is a ValueError naming it)."""
    from pipelines.procedural.design import variant_slots

    d = cfg.design
    slots = list(variant_slots(d.base, d.n, cfg.seed, d.variant.value, d.n_ui))
    if d.only:
        names = {s.name for s in slots}
        unknown = [n for n in d.only if n not in names]
        if unknown:
            raise ValueError(f"design.only: {unknown} not in the {d.variant.value} set of {d.base} "
                             f"(names like {slots[0].name})")
        slots = [s for s in slots if s.name in set(d.only)]
    return slots


def load_source(cfg: GenerateConfig, run_dir: Path, cwd: Path) -> list[SourceImage]:
    from pipelines.source import read_folder, read_manifest

    if cfg.source.kind is SourceKind.design:
        from pipelines.procedural.design_source import draw_design_source

        manifest = run_dir / "source" / "manifest.jsonl"
        if not manifest.exists():
            import os

            manifest = draw_design_source(run_dir / "source", design_slots(cfg), cfg.design.variant.value,
                                          workers=min(4, os.cpu_count() or 1))
        return read_manifest(manifest)
    if cfg.source.kind is SourceKind.procedural:
        from pipelines.procedural.source import draw_source

        manifest = run_dir / "source" / "manifest.jsonl"
        if not manifest.exists():
            manifest = draw_source(run_dir / "source", cfg.source.n_images or default_n_images(cfg), cfg.seed,
                                   families=cfg.source.families)
        return read_manifest(manifest, limit=cfg.source.limit)
    path = Path(cfg.source.path or "")
    path = path if path.is_absolute() else cwd / path
    if cfg.source.kind is SourceKind.folder:
        return read_folder(path, limit=cfg.source.limit)
    return read_manifest(path, limit=cfg.source.limit)


class _Progress:
    """One progress line per stage (rich), or nothing."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(TextColumn("{task.description:<22}"), BarColumn(), MofNCompleteColumn(),
                                      TimeElapsedColumn(), transient=False)
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    @contextmanager
    def stage(self, label: str, total: int) -> Iterator[Any]:
        if self._progress is None:
            yield lambda n: None
            return
        task = self._progress.add_task(label, total=total)
        yield lambda n: self._progress.advance(task, n)
        self._progress.update(task, completed=total)


# ------------------------------------------------------------------------------------------ the stages
def rejection_kind(reason: str) -> str:
    """The funnel's bucket of a rejection reason: its leading ``kind: detail`` segments without the item's own
    specifics (``critic: visual_grounding_accuracy: values ...`` -> ``critic: visual_grounding_accuracy``)."""
    parts = [p.strip() for p in (reason or "rejected").split(": ")]
    return ": ".join(parts[:2]) if len(parts) > 2 else parts[0]


def _rejections(rows: list[dict[str, Any]], flag: str = "passed") -> dict[str, int]:
    return dict(Counter(rejection_kind(str(r.get("reason") or "")) for r in rows if not r.get(flag)))


def _stage_entry(stage: str, unit: str, n_in: int, rows: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    out = sum(1 for r in rows if r.get("passed"))
    return {"stage": stage, "unit": unit, "in": n_in, "out": out, "rejected": _rejections(rows), **extra}


def _error_row(key_name: str) -> Any:
    def make(key: str, payload: dict[str, Any], message: str) -> dict[str, Any]:
        return {key_name: key, "passed": False, "reason": f"stage error: {message}", "payload": ""}
    return make


def _embeddings(cfg: GenerateConfig, stages: Path, images: list[dict[str, Any]]) -> dict[str, list[float]]:
    """CLIP embeddings of the stage-1 survivors (cached in stages/2_embeddings.parquet)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import ray

    from pipelines.embed import ClipSettings, embed_with_ray

    path = stages / "2_embeddings.parquet"
    have: dict[str, list[float]] = {}
    if path.exists():
        have = {r["image_id"]: r["embedding"] for r in pq.read_table(path).to_pylist()}
    todo = [r for r in images if r["image_id"] not in have]
    if todo:
        c = cfg.clip
        settings = ClipSettings(model=c.model, pretrained=c.pretrained, checkpoint=c.checkpoint,
                                batch_size=c.batch_size, device=c.device, init_seed=c.init_seed,
                                image_size=c.image_size)
        gpus = 1.0 if ray.cluster_resources().get("GPU") else 0.0
        ds = ray.data.from_items([{"image_id": r["image_id"], "path": r["path"]} for r in todo])
        for row in embed_with_ray(ds, settings, concurrency=c.concurrency, num_gpus=gpus).take_all():
            have[str(row["image_id"])] = [float(x) for x in row["embedding"]]
        write_atomic(pa.table({"image_id": list(have), "embedding": list(have.values())}), path)
    return have


def _design_groups(images: list[SourceImage], passed: list[dict[str, Any]]) -> list[Group]:
    """A design's groups: each scenario's images in their designed order (no clustering)."""
    ok = {r["image_id"] for r in passed}
    by_slot: dict[str, list[SourceImage]] = {}
    for im in images:
        if im.image_id in ok and im.meta.get("slot"):
            by_slot.setdefault(str(im.meta["slot"]), []).append(im)
    from pipelines.procedural.families import FAMILIES

    out = []
    for name, ims in sorted(by_slot.items()):
        ims.sort(key=lambda im: int(im.meta.get("position", 0)))
        if [int(im.meta.get("position", 0)) for im in ims] != list(range(1, len(ims) + 1)):
            raise ValueError(f"design source: the images of {name} are not positions 1..{len(ims)} (an image "
                             "file shared with another scenario, or one that stage 1 rejected)")
        family = FAMILIES[ims[0].truth["family"]] if ims[0].truth else None
        out.append(Group(cluster_id=f"cl-{name}", domain=family.domains[0] if family else "unknown",
                         image_ids=[im.image_id for im in ims], mean_similarity=1.0))
    return out


def _design_outlines(cfg: GenerateConfig, viable: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stage 3 for a design: each viable group's outline is its slot's (a slot whose flow/arrival pair stage 2
    did not find viable is rejected with that reason)."""
    from pipelines.procedural.design import slot_outline

    slots = {f"cl-{s.name}": s for s in design_slots(cfg)}
    rows = []
    for r in viable:
        slot = slots.get(r["cluster_id"])
        if slot is None:
            continue
        pair = f"{slot.flow}/{slot.arrival}"
        if pair not in (r["viable_pairs"] or []):
            rows.append({**s3_outline.outline_row(None, r["cluster_id"]),
                         "reason": f"the design's pair {pair} is not viable for its group"})
            continue
        rows.append(s3_outline.outline_row(slot_outline(slot, list(r["image_ids"])), r["cluster_id"]))
    return rows


def _groups(cfg: GenerateConfig, passed: list[dict[str, Any]], emb: dict[str, list[float]]) -> tuple[list[Group], list[str]]:
    import numpy as np

    from pipelines.cluster import group_embeddings

    if not passed:
        return [], []
    matrix = np.array([emb[r["image_id"]] for r in passed], dtype=np.float32)
    return group_embeddings(matrix, [r["image_id"] for r in passed], [r["domain"] for r in passed],
                            min_size=cfg.cluster.min_size, max_size=cfg.cluster.max_size, seed=cfg.seed)


def generate(cfg: GenerateConfig, run_dir: Path, *, cwd: Path | None = None) -> GenerationSummary:
    """Run the pipeline into ``run_dir`` (resuming what an earlier run there finished)."""
    cwd = cwd or Path.cwd()
    run_dir.mkdir(parents=True, exist_ok=True)
    stages = run_dir / "stages"
    stages.mkdir(exist_ok=True)
    cache_dir = Path(cfg.response_cache_dir) if cfg.response_cache_dir else run_dir / "cache"
    timings: dict[str, float] = {}
    funnel: list[dict[str, Any]] = []
    images = load_source(cfg, run_dir, cwd)   # a source that cannot be read fails before Ray starts
    started_ray = _init_ray(cfg)
    try:
        backend = make_backend(cfg, cache_dir)
        by_id = {im.image_id: im for im in images}
        with _Progress(cfg.progress) as progress:
            # 1 -- image-tool association
            t0 = time.perf_counter()
            store = StageStore(stages, 1, s1_associate.NAME, "image_id")
            with progress.stage("1 associate", len(images)) as tick:
                rows1 = run_stage(store, [(im.image_id, im.model_dump()) for im in images],
                                  s1_associate.associate_task, backend, **cfg.stage_run(), on_rows=tick,
                                  error_row=_error_row("image_id"), warmup=compact_catalog)
            funnel.append(_stage_entry("1_associate", "image", len(images), rows1))
            timings["1_associate"] = time.perf_counter() - t0
            passed1 = [r for r in rows1 if r["passed"]]
            verdicts = {r["image_id"]: ImageVerdict.model_validate_json(r["payload"]) for r in passed1}

            # 2 -- CLIP embeddings, FAISS groups, viability
            t0 = time.perf_counter()
            store = StageStore(stages, 2, s2_cluster.NAME, "cluster_id")
            designed = cfg.source.kind is SourceKind.design
            with progress.stage("2 embed + cluster" if not designed else "2 design groups", len(passed1)) as tick:
                if store.complete:
                    groups = []
                elif designed:
                    groups = _design_groups(images, passed1)
                else:
                    groups = _groups(cfg, passed1, _embeddings(cfg, stages, passed1))[0]
                tick(len(passed1))
            items2 = []
            for g in groups:
                ctx = {"group": g.model_dump(), "images": [by_id[i].model_dump() for i in g.image_ids],
                       "verdicts": [verdicts[i].model_dump() for i in g.image_ids]}
                items2.append((g.cluster_id, ctx))
            with progress.stage("2 viability", len(items2) or len(store.rows())) as tick:
                rows2 = run_stage(store, items2, s2_cluster.viability_task, backend, **cfg.stage_run(),
                                  on_rows=tick, error_row=_error_row("cluster_id"))
            grouped = sum(len(r["image_ids"] or []) for r in rows2)
            funnel.append(_stage_entry("2_cluster", "group", len(rows2), rows2, images_in=len(passed1),
                                       images_grouped=grouped, images_unclustered=len(passed1) - grouped))
            timings["2_cluster"] = time.perf_counter() - t0

            # 3 -- outlines (deterministic, no model)
            t0 = time.perf_counter()
            store = StageStore(stages, 3, s3_outline.NAME, "outline_id")
            viable = sorted((r for r in rows2 if r["passed"]), key=lambda r: r["cluster_id"])
            if not store.complete and designed:
                store.append(_design_outlines(cfg, viable))
            elif not store.complete:
                shares = {axis: cfg.balance.shares(axis) for axis in ("flow", "arrival", "challenge")}
                sampler = s3_outline.OutlineSampler(shares, cfg.seed, (cfg.rounds_min, cfg.rounds_max))
                out_rows = []
                for r in viable:
                    tools = [t.tool for i in r["image_ids"] for t in verdicts[i].tools]
                    outline = sampler.draw(r["cluster_id"], r["domain"], r["image_ids"], r["viable_pairs"], tools)
                    out_rows.append(s3_outline.outline_row(outline, r["cluster_id"]))
                store.append(out_rows)
            rows3 = store.finish()
            funnel.append(_stage_entry("3_outline", "outline", len(viable), rows3))
            timings["3_outline"] = time.perf_counter() - t0
            outlines = {r["outline_id"]: Outline.model_validate_json(r["payload"]) for r in rows3 if r["passed"]}
            group_ctx = {g_id: ctx for g_id, ctx in items2} or _contexts_from_rows(rows2, by_id, verdicts)

            # 4 -- scenario drafts
            t0 = time.perf_counter()
            store = StageStore(stages, 4, s4_scenario.NAME, "scenario_id")
            items4 = [(scenario_id_of(o), {"outline": o.model_dump(), "context": group_ctx[o.cluster_id]})
                      for o in outlines.values()]
            with progress.stage("4 scenario", len(items4)) as tick:
                rows4 = run_stage(store, items4, s4_scenario.expand_task, backend, **cfg.stage_run(),
                                  on_rows=tick, error_row=_error_row("scenario_id"))
            funnel.append(_stage_entry("4_scenario", "scenario", len(items4), rows4))
            timings["4_scenario"] = time.perf_counter() - t0
            outline_of = {scenario_id_of(o): o for o in outlines.values()}

            # 5 -- entities, validated with the repair loop
            t0 = time.perf_counter()
            store = StageStore(stages, 5, s5_entities.NAME, "scenario_id")
            items5 = [(r["scenario_id"], {"outline": outline_of[r["scenario_id"]].model_dump(), "draft": r["payload"],
                                          "context": group_ctx[outline_of[r["scenario_id"]].cluster_id],
                                          "entity_repairs": cfg.entity_repairs})
                      for r in rows4 if r["passed"]]
            with progress.stage("5 entities", len(items5)) as tick:
                rows5 = run_stage(store, items5, s5_entities.entities_task, backend, **cfg.stage_run(),
                                  on_rows=tick, error_row=_error_row("scenario_id"), warmup=full_registry)
            funnel.append(_stage_entry("5_entities", "scenario", len(items5), rows5,
                                       schema_failures=sum(int(r.get("schema_failures") or 0) for r in rows5)))
            timings["5_entities"] = time.perf_counter() - t0

            # 6 -- critic, balanced downsampling, oracle solvability
            t0 = time.perf_counter()
            from pipelines.quality import run_quality

            qcfg = dataclasses.replace(cfg, n_scenarios=len(outlines)) if designed else cfg
            rows6, final = run_quality(qcfg, run_dir, backend, rows5, outline_of, group_ctx, progress)
            funnel.append(_stage_entry("6_quality", "scenario", len(rows5) - sum(1 for r in rows5 if not r["passed"]),
                                       [dict(r, passed=r.get("final")) for r in rows6],
                                       critic_passed=sum(1 for r in rows6 if r.get("critic_passed")),
                                       oracle_checked=sum(1 for r in rows6 if r.get("selected")),
                                       oracle_solved=sum(1 for r in rows6 if r.get("solvable"))))
            timings["6_quality"] = time.perf_counter() - t0
        summary = _write_funnel(run_dir, funnel, final, timings, [rows1, rows2, rows4, rows5, rows6])
    finally:
        if started_ray:
            import ray

            ray.shutdown()
    _write_outputs(run_dir)
    if cfg.source.kind is SourceKind.design:
        _publish(cfg, run_dir, cwd)
    return GenerationSummary(run_dir=run_dir, final=final, funnel=summary, scenarios_dir=run_dir / "scenarios",
                             timings_s={k: round(v, 2) for k, v in timings.items()})


def set_name(cfg: GenerateConfig) -> str:
    """The name of a designed set: the base design's, with the variant's suffix."""
    from pipelines.procedural.design import VARIANTS

    return cfg.design.base + VARIANTS[cfg.design.variant.value]


def _publish(cfg: GenerateConfig, run_dir: Path, cwd: Path) -> None:
    """Write the final set and its dataset card to ``design.publish`` (never for a ``design.only`` sample: it
    would replace a whole set with a part of it)."""
    if not cfg.design.publish:
        return
    if cfg.design.only:
        log.info("design.only: a sample is not published to %s (compare it with %s)", cfg.design.publish,
                 run_dir / "scenarios")
        return
    from pipelines.procedural.card import publish

    target = Path(cfg.design.publish)
    card = publish(run_dir, target if target.is_absolute() else cwd / target, set_name(cfg),
                   cfg.design.variant.value, cfg.seed, cfg.design.n)
    log.info("published %s with its card %s", set_name(cfg), card)


def _contexts_from_rows(rows2: list[dict[str, Any]], by_id: dict[str, SourceImage],
                        verdicts: dict[str, ImageVerdict]) -> dict[str, dict[str, Any]]:
    """Group contexts rebuilt from a finished stage-2 table (a resumed run that skipped clustering)."""
    out = {}
    for r in rows2:
        g = Group(cluster_id=r["cluster_id"], domain=r["domain"], image_ids=list(r["image_ids"] or []),
                  mean_similarity=float(r["mean_similarity"] or 0.0))
        out[g.cluster_id] = {"group": g.model_dump(), "images": [by_id[i].model_dump() for i in g.image_ids],
                             "verdicts": [verdicts[i].model_dump() for i in g.image_ids if i in verdicts]}
    return out


def _write_funnel(run_dir: Path, funnel: list[dict[str, Any]], final: int, timings: dict[str, float],
                  stage_rows: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """funnel.json, with the tokens and cost of every stage's rows (those in memory: no table is read again)."""
    rows = [r for stage in stage_rows for r in stage]
    prompt = sum(int(r.get("prompt_tokens") or 0) for r in rows)
    completion = sum(int(r.get("completion_tokens") or 0) for r in rows)
    cost = sum(float(r.get("cost") or 0.0) for r in rows)
    data = {"stages": funnel, "final": final, "cost": round(cost, 6),
            "tokens": {"prompt": prompt, "completion": completion},
            "timings_s": {k: round(v, 2) for k, v in timings.items()}}
    tmp = run_dir / ".funnel.json.tmp"
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(run_dir / "funnel.json")
    return data


def _write_outputs(run_dir: Path) -> None:
    """report.md with its figure, and the review pages (best effort: a failure here never loses the set)."""
    try:
        from pipelines.report import write_report

        write_report(run_dir)
    except Exception as exc:  # noqa: BLE001 - the scenarios are written; say what failed and go on
        log.warning("report.md not written: %s: %s", type(exc).__name__, exc)
    try:
        from pipelines.review import write_review

        write_review(run_dir)
    except Exception as exc:  # noqa: BLE001
        log.warning("review pages not written: %s: %s", type(exc).__name__, exc)
