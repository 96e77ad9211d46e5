"""Draw a designed set's source: each slot's images (under the variant's knobs: nominal or hard) into
``images/<dataset type>/<scenario>_<k>_<family>.jpg``, or for text twins the typed-out content, and a manifest
whose lines carry each image's ground truth and its place in the design (scenario name and position)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pipelines.procedural.design import Slot
from pipelines.procedural.families import FAMILIES
from pipelines.procedural.render.knobs import PROFILES

__all__ = ["draw_design_source", "transcript"]


def transcript(family: str, content: dict) -> str:
    """An image's content as text (what a text twin hands over instead of the image)."""
    return "\n".join(FAMILIES[family].facts(content))


def _draw(job: tuple[str, dict, int, str]) -> bytes:
    family, content, style_seed, profile = job
    return FAMILIES[family].render(content, style_seed, PROFILES[profile])


def draw_design_source(out_dir: Path, slots: Sequence[Slot], variant: str, *, workers: int = 1) -> Path:
    """Draw the images of ``slots`` (text twins: their transcripts) and write the manifest; returns its path.
    The same slots give the same bytes; ``workers`` > 1 draws in that many processes."""
    profile = "hard" if variant == "hard" else "nominal"
    jobs, lines = [], []
    for s in slots:
        fam = FAMILIES[s.family]
        for k, (content, style) in enumerate(zip(s.contents, s.style_seeds), 1):
            if variant == "text":
                rel = f"texts/{s.name}_{k}_{s.family}.txt"
            else:
                rel = f"images/{fam.dataset_type}/{s.name}_{k}_{s.family}.jpg"
                jobs.append((rel, (s.family, content, style, profile)))
            lines.append({"image_paths": [rel], "dataset_type": fam.dataset_type,
                          "meta_data": {"truth": {"family": s.family, "content": content}, "style_seed": style,
                                        "slug": s.family, "folder": fam.dataset_type, "slot": s.name,
                                        "position": k}})
            if variant == "text":  # headed with its place, so two images of the same content stay two files
                (out_dir / rel).parent.mkdir(parents=True, exist_ok=True)
                (out_dir / rel).write_text(f"{s.name} image {k}\n{transcript(s.family, content)}\n", encoding="utf-8")
    if workers > 1 and len(jobs) > 8:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            blobs = list(pool.map(_draw, [j for _, j in jobs], chunksize=8))
    else:
        blobs = [_draw(j) for _, j in jobs]
    for (rel, _), blob in zip(jobs, blobs):
        (out_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (out_dir / rel).write_bytes(blob)
    manifest = out_dir / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines), encoding="utf-8")
    return manifest
