"""What the generation pipeline's non-LLM stages cost on this machine: CLIP embedding and stage-2 grouping.

Figures (each a function in ``FIGURES``; their dicts are merged into the JSON line):

1. ``clip``: CLIP image-embedding throughput (images/s) of ``ClipEmbedder.embed``, on CPU, for the default
   ViT-B-32 (randomly initialised: same cost as trained weights) at batch 32 over ``--images`` drawn 224x224 PNGs,
   and for the tiny test config (``pipelines/clip_configs/tiny-vit.json``). Included: PNG decode, RGB conversion,
   open_clip preprocessing, the forward pass, normalisation. Left out: drawing and writing the images, building the
   model (``*_load_s`` reports it) and a warm-up batch; Ray (no actor start-up, no data transfer).
2. ``clustering``: wall time of ``group_embeddings`` (FAISS tree + greedy) beside ``brute_force_groups`` (exact
   all-pairs) on synthetic unit embeddings (dim 512, ``--centres`` Gaussian blobs, one domain), for each
   ``--sizes`` n, and the cost growth per 10x n. Brute force is run only up to ``--brute-max`` (its n x n float32
   matrix is 1.6 GB at 20k). Left out: generating the embeddings, importing FAISS (an untimed warm-up call). ``same_groups`` is the fraction of the brute-force
   groups the FAISS path found identically.

3. ``llm_stage``: concurrency efficiency of a model-backed stage (stage 1, image-tool association, through the
   real ``run_stage`` on Ray Data with the ``llm`` backend) against the fake OpenAI server in its own process
   answering every call after ``--latency`` seconds (2 s), for each of ``--llm-items`` image counts (64x64 PNGs),
   all in flight (``concurrency`` = the item count), per route to the server (``direct`` and litellm, ``fast``),
   and once more on ``--photo-items`` photo-sized JPEGs (``--photo-size``, direct route), where reading, decoding
   and shrinking each picture is part of the item's work. Same definition as the runner's end-to-end figure:
   ideal = the longest item's model calls x latency; measured = from the first item's work starting in the stage
   actor to the last row durable in the stage's Parquet table (``StageStore.finished_at``: the stage file written
   and renamed into place; ``return_s``, from then until ``run_stage`` returns after Ray Data's end of stream, is
   reported apart, as the runner's figure ends at its last row durable). Each configuration runs
   ``--repeat`` times; the median is the figure, min and max are printed beside it. The stage's start-up before
   the first item (Ray Data planning, the actor's start and its imports) is printed apart with the efficiency it
   would give if counted. Left out: starting Ray (with the system actors Ray Data starts for the first dataset of
   a process: an untimed 8-item stage runs first), the fake server, drawing the images.

4. ``llm_stage_mixed``: the same stage (direct route) over ``--mixed-items`` images (320) at
   ``--mixed-concurrency`` in flight (64), the fake server answering after unequal latencies
   (``--mixed-latencies`` 0.5,1,4: items whose number ends in 0-4, 5-8, 9), as real models do. Ideal: the
   makespan of a scheduler that starts the next item (in item order) the moment one of the 64 slots frees;
   measured as in ``llm_stage``; each run ``--repeat`` times, the median reported. This is the figure that tells
   whether a slow answer holds up other items (a stage that ran its items in batches one after another, each
   waiting for its slowest item, measured 0.39 here).

The figures run one after another in one process (the clustering one after torch has run, with its threads);
``--figures clustering`` measures one alone. On a shared machine the times follow its load (``machine.load_avg_1m``).

To add a figure, write ``def figure(args) -> dict`` and add it to ``FIGURES``.

Usage: python benchmarks/pipeline.py [--images 96] [--sizes 1000,10000,100000]
       [--figures clip,clustering,llm_stage,llm_stage_mixed] [--llm-items 64,256] [--latency 2]
       [--routes direct,fast] [--stage-actors 0] [--repeat 3] [--photo-items 64] [--photo-size 2048x1536]
       [--mixed-items 320] [--mixed-concurrency 64] [--mixed-latencies 0.5,1,4] [--json]
(``--stage-actors N``: the stage's items in flight shared by N actors, all started before the first batch; 0, the
default, as ``mmtsb generate`` does: one per CPU, each with at least 32 items in flight; rows name the count)
Last line (with ``--json``): {"clip_images_per_s", "clip_load_s", "clip_tiny_images_per_s", "clip_tiny_load_s",
"clustering": [{"n", "faiss_s", "brute_s", "same_groups", "groups", "left_out"}], "clustering_growth_per_10x",
"llm_stage_efficiency" (direct route, PNGs, the largest item count), "llm_stage": [{"route", "images", "items",
"actors", "ideal_s", "measured_s", "startup_s", "return_s", "efficiency", "efficiency_min", "efficiency_max", "efficiency_runs",
"efficiency_with_startup", "passed"}], "llm_stage_mixed": {"items", "concurrency", "actors", "latencies_s", "ideal_s",
"measured_s", "efficiency", "efficiency_runs", "passed"}, "machine"}. Target: llm_stage efficiency >= 0.9.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipelines.cluster import brute_force_groups, group_embeddings  # noqa: E402
from pipelines.embed import TINY_CONFIG, ClipEmbedder, ClipSettings  # noqa: E402


def draw_images(folder: Path, n: int, size: int = 224, seed: int = 0) -> list[str]:
    """``n`` PNGs of random rectangles and ellipses on a random background (varied, so decode cost is real)."""
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(seed)
    paths = []
    for i in range(n):
        im = Image.new("RGB", (size, size), tuple(int(c) for c in rng.integers(0, 256, 3)))
        draw = ImageDraw.Draw(im)
        for _ in range(8):
            x0, y0 = (int(v) for v in rng.integers(0, size - 20, 2))
            box = (x0, y0, x0 + int(rng.integers(10, size // 2)), y0 + int(rng.integers(10, size // 2)))
            fill = tuple(int(c) for c in rng.integers(0, 256, 3))
            (draw.rectangle if rng.random() < 0.5 else draw.ellipse)(box, fill=fill)
        path = folder / f"bench_{i:04d}.png"
        im.save(path)
        paths.append(str(path))
    return paths


def draw_photos(folder: Path, n: int, width: int, height: int, seed: int = 0) -> list[str]:
    """``n`` photo-sized JPEGs (quality 90): smooth gradients under grain, so they compress and decode like
    camera pictures rather than like flat drawings."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width]
    paths = []
    for i in range(n):
        phase = rng.uniform(0, 2 * np.pi, 3)
        base = np.stack([127 + 100 * np.sin(x / (37 + 11 * k) + y / (53 + 7 * k) + phase[k]) for k in range(3)], -1)
        grain = rng.normal(0, 12, base.shape)
        pixels = np.clip(base + grain, 0, 255).astype(np.uint8)
        path = folder / f"photo_{i:04d}.jpg"
        Image.fromarray(pixels).save(path, quality=90)
        paths.append(str(path))
    return paths


def clip_rate(settings: ClipSettings, paths: list[str]) -> tuple[float, float]:
    """(images/s over ``paths`` after one warm-up batch, seconds to build the model)."""
    t0 = time.perf_counter()
    embedder = ClipEmbedder(settings)
    load_s = time.perf_counter() - t0
    embedder.embed(paths[:settings.batch_size])  # warm-up: first-call allocations, lazy init
    t0 = time.perf_counter()
    embedder.embed(paths)
    return len(paths) / (time.perf_counter() - t0), load_s


def clip_figure(args: argparse.Namespace) -> dict[str, Any]:
    """CLIP throughput, default ViT-B-32 and the tiny config, on CPU."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = draw_images(Path(tmp), args.images)
        rate, load_s = clip_rate(ClipSettings(batch_size=32, device="cpu"), paths)
        print(f"clip ViT-B-32 (random init, batch 32, {len(paths)} 224x224 PNGs): {rate:.1f} images/s "
              f"(model built in {load_s:.1f} s)")
        tiny_rate, tiny_load_s = clip_rate(ClipSettings(model=TINY_CONFIG, batch_size=32, device="cpu"), paths)
        print(f"clip tiny-vit (32x32 input, batch 32): {tiny_rate:.1f} images/s (built in {tiny_load_s:.2f} s)")
    return {"clip_images_per_s": round(rate, 1), "clip_load_s": round(load_s, 2),
            "clip_tiny_images_per_s": round(tiny_rate, 1), "clip_tiny_load_s": round(tiny_load_s, 3)}


def blob_embeddings(n: int, centres: int, d: int = 512, noise: float = 0.5, seed: int = 0) -> np.ndarray:
    """``n`` unit vectors around ``centres`` random unit centres (intra-blob cosine ~0.8, across ~0)."""
    rng = np.random.default_rng(seed)
    c = rng.standard_normal((centres, d)).astype(np.float32)
    c /= np.linalg.norm(c, axis=1, keepdims=True)
    x = c[rng.integers(0, centres, n)] + (noise / np.sqrt(d)) * rng.standard_normal((n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def clustering_figure(args: argparse.Namespace) -> dict[str, Any]:
    """Grouping wall time, FAISS path vs brute force, per n; growth per 10x n."""
    warm = blob_embeddings(64, 4)
    group_embeddings(warm, [str(i) for i in range(64)], ["d"] * 64)  # untimed: imports FAISS
    rows: list[dict[str, Any]] = []
    for n in args.sizes:
        x = blob_embeddings(n, args.centres)
        ids, domains = [f"img-{i:06d}" for i in range(n)], ["shopping"] * n
        t0 = time.perf_counter()
        groups, left = group_embeddings(x, ids, domains)
        row: dict[str, Any] = {"n": n, "faiss_s": round(time.perf_counter() - t0, 3), "brute_s": None,
                               "same_groups": None, "groups": len(groups), "left_out": len(left)}
        if n <= args.brute_max:
            t0 = time.perf_counter()
            slow, _ = brute_force_groups(x, ids, domains)
            row["brute_s"] = round(time.perf_counter() - t0, 3)
            same = {frozenset(g.image_ids) for g in groups} & {frozenset(g.image_ids) for g in slow}
            row["same_groups"] = round(len(same) / max(len(slow), 1), 3)
            print(f"clustering n={n}: faiss {row['faiss_s']:.2f} s, brute force {row['brute_s']:.2f} s, "
                  f"{len(groups)} groups, {len(left)} left out, {row['same_groups']:.1%} groups identical")
        else:
            print(f"clustering n={n}: faiss {row['faiss_s']:.2f} s, {len(groups)} groups, {len(left)} left out; "
                  f"brute force not run (n > --brute-max {args.brute_max}: its n x n float32 similarity matrix "
                  f"alone would take {4 * n * n / 2**30:.0f} GiB)")
        rows.append(row)
    growth = _growth(rows)
    for key, steps in growth.items():
        print(f"cost growth per 10x n ({key}): " + ", ".join(f"{a}->{b}: x{g}" for a, b, g in steps))
    return {"clustering": rows, "clustering_growth_per_10x": growth}


def _growth(rows: list[dict[str, Any]]) -> dict[str, list[tuple[int, int, float]]]:
    """For each timing key, (n, 10n, time ratio) for consecutive sizes that differ by 10x."""
    out: dict[str, list[tuple[int, int, float]]] = {"faiss_s": [], "brute_s": []}
    for a, b in zip(rows, rows[1:]):
        if b["n"] != 10 * a["n"]:
            continue
        for key in out:
            if a[key] and b[key]:
                out[key].append((a["n"], b["n"], round(b[key] / a[key], 1)))
    return out


VERDICT_REPLY = json.dumps({"actionable": True, "needs_visual_extraction": True, "needs_tool_call": True,
                            "domains": ["simple_note"], "tools": [{"tool": "simple_note_create_note", "reason": "r"}],
                            "facts": ["a fact"], "reason": "benchmark"})


#: the mixed-latency run: an item's latency by the last digit of its number (0-4, 5-8, 9): one in ten is slow
MIXED_DIGITS = (range(0, 5), range(5, 9), range(9, 10))


def mixed_latency(index: int, latencies: tuple[float, float, float]) -> float:
    """The fake server's latency for image number ``index`` of the mixed-latency run."""
    return next(lat for digits, lat in zip(MIXED_DIGITS, latencies, strict=True) if index % 10 in digits)


def greedy_makespan(latencies: list[float], slots: int) -> float:
    """How long ``latencies`` take, taken in order, when a free slot always starts the next one at once (the
    best a stage keeping ``slots`` items in flight can do in that order)."""
    import heapq

    free_at = [0.0] * slots
    for lat in latencies:
        heapq.heappush(free_at, heapq.heappop(free_at) + lat)
    return max(free_at)


def _fake_server(latency: float, folder: Path, mixed: tuple[float, float, float] | None = None) -> tuple[Any, str]:
    """The fake server in a process of its own: every answer after ``latency`` s, or, with ``mixed``, after the
    latency of the image number the question names (see :func:`mixed_latency`)."""
    import subprocess

    script = folder / "replies.json"
    rules = [] if mixed is None else [
        {"match": rf"img-\d{{4}}[{digits.start}-{digits.stop - 1}]\b", "reply": {"text": VERDICT_REPLY, "latency_s": lat}}
        for digits, lat in zip(MIXED_DIGITS, mixed, strict=True)]
    script.write_text(json.dumps({"default": VERDICT_REPLY, "latency_s": latency, "rules": rules}))
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb.testing.fake_llm", "--port", "0", "--script", str(script)],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("FAKE_LLM_READY"):
        proc.terminate()
        raise RuntimeError(f"fake LLM server did not start: {line!r}")
    return proc, line.split()[1]


@contextlib.contextmanager
def _stage_bench(folder: Path, paths: list[str], args: argparse.Namespace,
                 mixed: tuple[float, float, float] | None = None) -> Iterator[str]:
    """The fake server and a local Ray for the LLM-stage figures, with an untimed 8-item stage already run;
    yields the server's base URL. The first dataset of a process starts Ray Data's own system actors (its stats
    actor and autoscaling coordinator), whose start-up would otherwise compete for the CPU with the first
    measured stage: counted as starting Ray, which these figures leave out."""
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    server, base_url = _fake_server(args.latency, folder, mixed)
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        _stage_once(folder, paths, base_url, "direct", 8, args, "warmup")
        yield base_url
    finally:
        ray.shutdown()
        server.terminate()
        server.wait(timeout=10)


def _stage_once(folder: Path, paths: list[str], base_url: str, route: str, n_items: int, args: argparse.Namespace,
                label: str, concurrency: int | None = None) -> dict[str, Any]:
    """One stage-1 run over ``n_items`` images, ``concurrency`` in flight (default all): its timings from the
    stage's own table (the ideal assumes every item waits one latency per call, all at once)."""
    import pyarrow.parquet as pq

    from mmtsb.protocol.model_settings import ModelSettings
    from pipelines.backends.llm import LLMBackend
    from pipelines.catalog import compact_catalog
    from pipelines.items import SourceImage
    from pipelines.raystage import run_stage, stage_pool
    from pipelines.stages.s1_associate import associate_task
    from pipelines.store import StageStore

    images = [SourceImage(image_id=f"img-{i:05d}", path=p, dataset_type="bench") for i, p in enumerate(paths[:n_items])]
    model = ModelSettings(model="openai/fake-model", api_base=base_url, compat_route=route, max_retries=2,
                          timeout_s=120, concurrency=n_items * 2)
    backend = LLMBackend({s: model for s in ("associate", "viability", "expand", "entities", "critique")})
    store = StageStore(folder / f"stages-{label}", 1, "associate", "image_id")
    in_flight = concurrency or n_items
    _, actors = stage_pool(in_flight, n_items, args.stage_actors)   # the actors run_stage starts
    t0 = time.time()
    run_stage(store, [(im.image_id, im.model_dump()) for im in images], associate_task, backend,
              concurrency=in_flight, actors=args.stage_actors, warmup=compact_catalog)
    returned = time.time()
    end = store.finished_at   # the moment the stage's table (every row) became durable
    assert end is not None, "run_stage returned without writing the stage table"
    table = pq.read_table(store.path).to_pylist()
    first = min(r["item_started_at"] for r in table)
    ideal = max(int(r["calls"]) for r in table) * args.latency
    return {"items": len(table), "actors": actors, "ideal_s": ideal, "measured_s": end - first, "startup_s": first - t0,
            "return_s": returned - end, "efficiency": ideal / (end - first), "efficiency_with_startup": ideal / (end - t0),
            "passed": sum(bool(r["passed"]) for r in table)}


def llm_stage_figure(args: argparse.Namespace) -> dict[str, Any]:
    """Stage-1 concurrency efficiency on Ray Data against the fake server, per route and item count, each
    configuration run ``--repeat`` times (the median is the figure; min and max show the spread)."""
    rows_out = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = draw_images(folder, max(args.llm_items), size=64)
        with _stage_bench(folder, paths, args) as base_url:
            configs = [(n, r, "png64", paths) for n in args.llm_items for r in args.routes.split(",")]
            if args.photo_items:
                width, height = (int(v) for v in args.photo_size.split("x"))
                photos = draw_photos(folder, args.photo_items, width, height)
                configs.append((args.photo_items, "direct", f"jpeg{args.photo_size}", photos))
            for n_items, route, kind, images in configs:
                runs = [_stage_once(folder, images, base_url, route, n_items, args, f"{route}-{kind}-{n_items}-{k}")
                        for k in range(args.repeat)]
                effs = sorted(r["efficiency"] for r in runs)
                median = runs[[r["efficiency"] for r in runs].index(effs[len(effs) // 2])]
                row = {"route": route, "images": kind, "items": median["items"], "actors": median["actors"],
                       "ideal_s": median["ideal_s"], "measured_s": round(median["measured_s"], 2), "startup_s": round(median["startup_s"], 2),
                       "return_s": round(median["return_s"], 3),
                       "efficiency": round(median["efficiency"], 3),
                       "efficiency_min": round(effs[0], 3), "efficiency_max": round(effs[-1], 3),
                       "efficiency_runs": [round(r["efficiency"], 3) for r in runs],
                       "efficiency_with_startup": round(median["efficiency_with_startup"], 3),
                       "passed": median["passed"]}
                rows_out.append(row)
                print(f"llm stage, route {route}, {kind} images: {row['items']} items in flight, {row['actors']} "
                      f"stage actor(s), {args.repeat} runs: "
                      f"efficiency {row['efficiency']} median, {row['efficiency_min']}-{row['efficiency_max']} (target "
                      f">= 0.9); median run: measured {row['measured_s']} s (first item started -> last row durable; "
                      f"+{row['startup_s']} s stage start-up: {row['efficiency_with_startup']} counting it; "
                      f"run_stage returned {row['return_s']} s after the table was durable), ideal "
                      f"{row['ideal_s']} s; {row['passed']} verdicts accepted")
    direct = next((r["efficiency"] for r in rows_out
                   if r["route"] == "direct" and r["images"] == "png64" and r["items"] == max(args.llm_items)), None)
    return {"llm_stage_efficiency": direct, "llm_stage": rows_out}


def llm_stage_mixed_figure(args: argparse.Namespace) -> dict[str, Any]:
    """Stage 1 over ``--mixed-items`` images at ``--mixed-concurrency`` in flight, answered after unequal
    latencies (``--mixed-latencies``: most items fast, one in ten slow), direct route: measured against the
    makespan of a scheduler that starts the next item the moment a slot frees (items in their order)."""
    if not args.mixed_items:
        return {}
    lats = args.mixed_latencies
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = draw_images(folder, args.mixed_items, size=64)
        with _stage_bench(folder, paths, args, mixed=lats) as base_url:
            runs = [_stage_once(folder, paths, base_url, "direct", args.mixed_items, args, f"mixed-{k}",
                                concurrency=args.mixed_concurrency) for k in range(args.repeat)]
    ideal = greedy_makespan([mixed_latency(i, lats) for i in range(args.mixed_items)], args.mixed_concurrency)
    measured = sorted(r["measured_s"] for r in runs)
    effs = [round(ideal / m, 3) for m in measured]
    row = {"items": args.mixed_items, "concurrency": args.mixed_concurrency, "actors": runs[0]["actors"],
           "latencies_s": list(lats), "ideal_s": round(ideal, 2), "measured_s": round(measured[len(measured) // 2], 2),
           "efficiency": effs[len(effs) // 2], "efficiency_runs": effs,
           "passed": min(r["passed"] for r in runs)}
    print(f"llm stage, mixed latencies {'/'.join(f'{v:g}' for v in lats)} s (one item in ten at {lats[2]:g} s): "
          f"{row['items']} items, {row['concurrency']} in flight, {row['actors']} stage actor(s), {args.repeat} runs: "
          f"efficiency {row['efficiency']} "
          f"median ({', '.join(map(str, effs))}); measured {row['measured_s']} s, ideal {row['ideal_s']} s (a slot "
          f"never idle while items wait); {row['passed']} verdicts accepted")
    return {"llm_stage_mixed": row}


def machine() -> dict[str, Any]:
    import faiss
    import torch

    return {"cpus": os.cpu_count(), "torch_threads": torch.get_num_threads(),
            "faiss_threads": faiss.omp_get_max_threads(), "load_avg_1m": round(os.getloadavg()[0], 2)}


FIGURES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "clip": clip_figure,
    "clustering": clustering_figure,
    "llm_stage": llm_stage_figure,
    "llm_stage_mixed": llm_stage_mixed_figure,
}


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _photo_size(text: str) -> str:
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() and int(p) >= 16 for p in parts):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT (each at least 16), got {text!r}")
    return text.lower()


def _three_latencies(text: str) -> tuple[float, float, float]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 0:
        raise argparse.ArgumentTypeError(f"expected FAST,MID,SLOW seconds (three numbers >= 0), got {text!r}")
    return values  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--images", type=int, default=96, help="images for the CLIP throughput figure")
    ap.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=[1000, 10000, 100000])
    ap.add_argument("--centres", type=int, default=300, help="blob centres of the synthetic embeddings")
    ap.add_argument("--brute-max", type=int, default=20000, help="largest n brute force is run for")
    ap.add_argument("--llm-items", type=lambda s: [int(v) for v in s.split(",")], default=[64, 256],
                    help="item counts of the LLM-stage figure (each run with all its items in flight)")
    ap.add_argument("--latency", type=float, default=2.0, help="the fake server's latency (s)")
    ap.add_argument("--stage-actors", type=int, default=0,
                    help="stage actors of the LLM-stage figures (0: one per CPU, at least 32 items each)")
    ap.add_argument("--repeat", type=_at_least_one, default=3, help="runs of each LLM-stage configuration (median reported)")
    ap.add_argument("--photo-items", type=int, default=64,
                    help="items of the LLM-stage run on photo-sized JPEGs (direct route; 0: skip it)")
    ap.add_argument("--photo-size", type=_photo_size, default="2048x1536", help="WIDTHxHEIGHT of those JPEGs")
    ap.add_argument("--routes", default="direct,fast", help="routes of the LLM-stage figure (direct, fast)")
    ap.add_argument("--mixed-items", type=int, default=320, help="items of the mixed-latency run (0: skip it)")
    ap.add_argument("--mixed-concurrency", type=_at_least_one, default=64, help="items in flight in that run")
    ap.add_argument("--mixed-latencies", type=_three_latencies, default=(0.5, 1.0, 4.0),
                    help="FAST,MID,SLOW seconds of that run: items ending in 0-4, 5-8 and 9")
    ap.add_argument("--figures", default=",".join(FIGURES), help=f"comma-separated, of {', '.join(FIGURES)}")
    ap.add_argument("--json", action="store_true", help="print one JSON line last")
    args = ap.parse_args()
    result: dict[str, Any] = {}
    for name in args.figures.split(","):
        result.update(FIGURES[name](args))
    result["machine"] = machine()
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
