"""Draw a procedural image source: PNGs under ``images/`` and a ``manifest.jsonl`` in the reference's manifest
form, each line carrying the image's ground truth (family and content) in ``meta_data.truth``."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

from pipelines.procedural.families import DEFAULT_SOURCE, FAMILIES

__all__ = ["draw_source", "family_counts"]


def family_counts(n_images: int, families: Sequence[str], non_actionable_share: float) -> dict[str, int]:
    """How many images each family gets: the non-actionable ones their share (at least one when asked for and
    there is room), the actionable ones the rest, balanced (the first families get the remainder)."""
    passive = [f for f in families if not FAMILIES[f].actionable]
    active = [f for f in families if FAMILIES[f].actionable]
    n_passive = min(n_images, round(n_images * non_actionable_share)) if passive else 0
    if passive and non_actionable_share > 0 and n_passive == 0 and n_images > len(active):
        n_passive = 1
    if not active:
        n_passive = n_images
    counts = {f: 0 for f in families}
    for i in range(n_passive):
        counts[passive[i % len(passive)]] += 1
    for i in range(n_images - n_passive):
        counts[active[i % len(active)]] += 1
    return counts


def draw_source(out_dir: Path, n_images: int, seed: int, families: Sequence[str] | None = None,
                non_actionable_share: float = 0.1) -> Path:
    """Draw ``n_images`` images into ``out_dir/images/`` (``<family>_<k>.png``) and write the manifest; the same
    seed gives the same bytes. Returns the manifest's path."""
    names = list(families) if families is not None else list(DEFAULT_SOURCE)
    unknown = [f for f in names if f not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown image families {unknown}; known: {sorted(FAMILIES)}")
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    lines = []
    for name, count in family_counts(n_images, names, non_actionable_share).items():
        family = FAMILIES[name]
        for k in range(1, count + 1):
            content = family.sample(rng)
            style_seed = rng.randrange(2**31)
            file = f"{name}_{k}.png"
            (out_dir / "images" / file).write_bytes(family.render(content, style_seed))
            lines.append({"image_paths": [f"images/{file}"],
                          "meta_data": {"truth": {"family": name, "content": content}, "style_seed": style_seed,
                                        "slug": name},
                          "dataset_type": family.dataset_type})
    manifest = out_dir / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines), encoding="utf-8")
    return manifest
