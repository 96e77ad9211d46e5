"""The procedural image families and source: deterministic drawing, balanced families, the manifest form."""

from __future__ import annotations

import json
import random
from pathlib import Path

from pipelines.procedural.families import DEFAULT_SOURCE, FAMILIES
from pipelines.procedural.families.base import CATEGORIES
from pipelines.procedural.source import draw_source, family_counts


def test_every_family_draws_deterministic_pngs():
    """The default source's families (the knob-aware ones are drawn by tests/pipelines/test_bench_design.py)."""
    for family in (FAMILIES[name] for name in DEFAULT_SOURCE):
        content = family.sample(random.Random(4))
        json.dumps(content)  # a JSON-able record
        png = family.render(content, 17)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png == family.render(content, 17)
        assert any(family.render(content, s) != png for s in (18, 19, 20))  # the style seed changes the looks
        assert family.category in CATEGORIES
    assert any(not f.actionable for f in FAMILIES.values())


def test_draw_source_is_deterministic(tmp_path: Path):
    a, b = draw_source(tmp_path / "a", 12, seed=3), draw_source(tmp_path / "b", 12, seed=3)
    assert a.read_text() == b.read_text()
    files = sorted(p.name for p in (tmp_path / "a" / "images").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b" / "images").iterdir())
    assert all((tmp_path / "a" / "images" / f).read_bytes() == (tmp_path / "b" / "images" / f).read_bytes()
               for f in files)
    assert draw_source(tmp_path / "c", 12, seed=4).read_text() != a.read_text()


def test_manifest_lines_carry_the_truth(tmp_path: Path):
    manifest = draw_source(tmp_path, 10, seed=1, families=["receipt", "abstract_pattern"])
    lines = [json.loads(x) for x in manifest.read_text().splitlines()]
    assert len(lines) == 10
    for line in lines:
        family = line["meta_data"]["truth"]["family"]
        (rel,) = line["image_paths"]
        assert rel.startswith(f"images/{family}_") and (tmp_path / rel).is_file()
        assert line["dataset_type"] == FAMILIES[family].dataset_type and line["meta_data"]["slug"] == family
        assert isinstance(line["meta_data"]["style_seed"], int) and line["meta_data"]["truth"]["content"]


def test_families_are_balanced():
    counts = family_counts(40, list(DEFAULT_SOURCE), 0.1)
    assert sum(counts.values()) == 40 and counts["abstract_pattern"] == 4
    active = [counts[f] for f in DEFAULT_SOURCE if FAMILIES[f].actionable]
    assert max(active) - min(active) <= 1 and min(active) >= 6  # enough for several groups of 3-6
