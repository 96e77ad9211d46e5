"""The benchmark's building blocks (issue 12): knob-aware image families over installed fonts, the difficulty
knobs, the set design (balanced axes, categories, domains; deterministic; a sample is the whole set's slots),
the variants (hard, text and UI twins), the entity kinds the new recipes write, and `mmtsb generate`'s design
source refusing what it cannot build."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from PIL import Image

from mmtsb.report.metrics import DATASET_CATEGORY
from pipelines.config import DesignVariant, GenerateConfig, SourceKind
from pipelines.procedural.design import (
    APP_DOMAINS, IMAGE_CATEGORIES, design, slot_context, slot_outline, ui_convertible, variant_slots,
)
from pipelines.procedural.families import KNOB_FAMILIES, families_of_kind
from pipelines.procedural.families.base import CATEGORIES, PAPER_CATEGORY
from pipelines.procedural.render.fonts import FACES, face_path, font
from pipelines.procedural.render.knobs import HARD, NOMINAL, Knobs
from pipelines.procedural.templates import TEMPLATES
from pipelines.procedural.templates.kinds import KIND_RECIPES

N = 96  # a small design: the same code as the shipped 320, quick enough for a unit test


def _decode(blob: bytes) -> Image.Image:
    import io

    return Image.open(io.BytesIO(blob))


def test_fonts_come_from_matplotlibs_package():
    import matplotlib

    for face in FACES:
        path = face_path(face)
        assert path.is_file() and str(path).startswith(matplotlib.get_data_path()), face
        assert font(face, 14).getlength("Aa") > 0
    with pytest.raises(ValueError, match="unknown font face"):
        face_path("comic")


@pytest.mark.parametrize("family", KNOB_FAMILIES, ids=lambda f: f.name)
def test_every_family_draws_deterministically_under_the_knobs(family):
    content = family.sample(random.Random(7))
    nominal = family.render(content, 11, NOMINAL)
    assert nominal[:3] == b"\xff\xd8\xff" and nominal == family.render(content, 11, NOMINAL)
    hard = family.render(content, 11, HARD)
    assert hard != nominal and _decode(hard).size != (0, 0)
    # the knobs act: smaller output at the hard resolution, PNG when no JPEG quality is set
    assert max(_decode(hard).size) < max(_decode(nominal).size) * 1.05
    assert family.render(content, 11, Knobs())[:8] == b"\x89PNG\r\n\x1a\n"
    assert family.category in CATEGORIES and family.kind in KIND_RECIPES
    # the category the design balances is the one reports and `scenarios stats` read from the source type
    assert PAPER_CATEGORY[family.category] == DATASET_CATEGORY[family.dataset_type]


#: one raised setting per difficulty knob the issue names (text size, contrast, blur, JPEG quality, rotation,
#: perspective, clutter and distractors, resolution) and the photo knobs (noise, lighting)
ONE_KNOB = {"text_scale": 0.7, "contrast": 0.6, "blur": 1.0, "jpeg_quality": 40, "rotation": 5.0,
            "perspective": 0.06, "clutter": 4, "resolution": 0.7, "noise": 6.0, "lighting": 0.4}


@pytest.mark.parametrize("family", KNOB_FAMILIES, ids=lambda f: f.name)
def test_every_family_answers_every_knob(family):
    """Each knob, raised alone, changes what the family draws (no renderer ignores one)."""
    content = family.sample(random.Random(7))
    nominal = family.render(content, 11, NOMINAL)
    assert set(ONE_KNOB) == set(NOMINAL.to_dict())
    ignored = [k for k, v in ONE_KNOB.items() if family.render(content, 11, NOMINAL.with_(**{k: v})) == nominal]
    assert ignored == []


def test_knobs_refuse_impossible_settings():
    with pytest.raises(ValueError, match="jpeg_quality"):
        Knobs(jpeg_quality=5)
    with pytest.raises(ValueError, match="contrast"):
        Knobs(contrast=0.0)
    assert HARD.text_scale < 1 and HARD.clutter > 0 and HARD.blur > 0 and HARD.jpeg_quality < NOMINAL.jpeg_quality


def test_every_kind_has_families_in_several_categories_and_recipes_for_several_flows():
    for kind, recipes in KIND_RECIPES.items():
        assert len({PAPER_CATEGORY[f.category] for f in families_of_kind(kind)}) >= 2, kind
        assert len(recipes) >= 4, kind
    flows = Counter(flow for recipes in KIND_RECIPES.values() for flow in recipes)
    assert set(flows) == set(TEMPLATES) and min(flows.values()) >= 4


def test_the_design_is_balanced_and_deterministic():
    slots = design("unit", N, 3)
    assert len(slots) == N and slots == design("unit", N, 3)
    for axis, values in (("flow", TEMPLATES), ("challenge", ("none", "goal_change", "error_correction",
                                                            "state_mutation")),
                         ("arrival", ("upfront", "progressive", "late", "mixed"))):
        counts = Counter(getattr(s, axis) for s in slots)
        assert set(counts) == set(values) and max(counts.values()) - min(counts.values()) <= 1, axis
    categories = Counter(s.category for s in slots)
    assert set(categories) == set(IMAGE_CATEGORIES) and max(categories.values()) - min(categories.values()) <= 1
    domains = Counter(d for s in slots for d in s.domains)
    assert set(domains) == set(APP_DOMAINS)
    assert len({(s.template, str(s.contents)) for s in slots}) == N
    assert all(2 <= s.n_rounds <= 5 and 3 <= len(s.contents) <= 6 for s in slots)
    assert design("unit", N, 4) != slots


def test_slots_build_into_their_outline():
    slot = design("unit", N, 3)[0]
    outline = slot_outline(slot)
    draft, _ = TEMPLATES[slot.flow].build(outline, slot_context(slot))
    assert outline.name == slot.name and outline.variant == slot.variant
    assert (outline.flow, outline.arrival, outline.challenge, len(draft.rounds)) == (
        slot.flow, slot.arrival, slot.challenge, slot.n_rounds)


def test_variants_twin_the_nominal_slots():
    nominal = variant_slots("unit", N, 3, "nominal", 12)
    hard = variant_slots("unit", N, 3, "hard", 12)
    text = variant_slots("unit", N, 3, "text", 12)
    ui = variant_slots("unit", N, 3, "ui", 12)
    assert [s.name for s in hard] == [f"unit_hard_{s.index:04d}" for s in nominal]
    assert [s.contents for s in hard] == [s.contents for s in nominal]
    assert all(t.variant.endswith("+text") for t in text)
    assert 0 < len(ui) <= 12 and all(u.variant.endswith("+ui") and ui_convertible(u) for u in ui)
    with pytest.raises(ValueError, match="unknown design variant"):
        variant_slots("unit", N, 3, "blurry", 12)


def test_design_source_config_is_checked():
    cfg = GenerateConfig()
    cfg.source.kind = SourceKind.design
    cfg.design.n = 0
    assert any("design.n" in p for p in cfg.problems())
    from pipelines.config import BackendKind

    cfg = GenerateConfig(backend=BackendKind.llm)
    cfg.source.kind = SourceKind.design
    assert any("needs backend=procedural" in p for p in cfg.problems())
    assert DesignVariant("ui") is DesignVariant.ui


def test_design_only_names_unknown_scenarios():
    from pipelines.run import design_slots

    cfg = GenerateConfig()
    cfg.source.kind = SourceKind.design
    cfg.design.base, cfg.design.n, cfg.design.only = "unit", N, ["unit_0002", "unit_9999"]
    with pytest.raises(ValueError, match="unit_9999"):
        design_slots(cfg)
    cfg.design.only = ["unit_0002"]
    assert [s.name for s in design_slots(cfg)] == ["unit_0002"]


def test_generate_refuses_an_unknown_sample_name_as_a_config_error(tmp_path):
    import subprocess
    import sys

    from testkit import REPO

    proc = subprocess.run([sys.executable, "-m", "mmtsb.cli", "generate", "benchmark=mmtsb_v1",
                           "design.only=[mmtsb_v1_9999]", f"hydra.run.dir={tmp_path / 'run'}", "progress=false"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "config error: design.only: ['mmtsb_v1_9999'] not in the nominal set of mmtsb_v1" in proc.stderr
    assert not (tmp_path / "run" / "source").exists()  # nothing was drawn


def test_publish_leaves_no_empty_images_folder_for_a_text_set(tmp_path):
    """A text twin's run has an empty ``images/``; publishing must not create one (git keeps no empty folder,
    so `make bench-check`'s `diff -r` on a fresh clone would report it), and a set with images keeps them."""
    import shutil

    from pipelines.procedural.card import publish
    from testkit import REPO

    run = tmp_path / "run"
    (run / "scenarios" / "images").mkdir(parents=True)
    for name in ("mmtsb_v1_text_0001", "mmtsb_v1_text_0002"):
        shutil.copyfile(REPO / "scenarios" / "mmtsb_v1_text" / f"{name}.json", run / "scenarios" / f"{name}.json")
    target = tmp_path / "published"
    (target / "images").mkdir(parents=True)  # a stale folder from an earlier publish goes too
    card = publish(run, target, "mmtsb_v1_text", "text", 0, 320)
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == [
        "README.md", "figures", "figures/distribution.png", "mmtsb_v1_text_0001.json", "mmtsb_v1_text_0002.json"]
    assert card == target / "README.md" and "2 scenarios" in card.read_text(encoding="utf-8")
    (run / "scenarios" / "images" / "synthetic_chart").mkdir()
    (run / "scenarios" / "images" / "synthetic_chart" / "a.jpg").write_bytes(b"\xff\xd8\xff")
    publish(run, target, "mmtsb_v1_text", "text", 0, 320)
    assert (target / "images" / "synthetic_chart" / "a.jpg").read_bytes() == b"\xff\xd8\xff"


def test_the_parking_sign_shows_an_exact_paid_stay():
    """Parking signage (the issue's "parking and transit signage"): a pay-and-display station photographed in a
    car park, its tariff board and the ticket it printed; the content is an expense whose amounts follow from the
    tariff and the stay, and the facts name what the sign shows."""
    from pipelines.procedural.families import FAMILIES

    family = FAMILIES["parking_sign"]
    assert (family.kind, family.category, PAPER_CATEGORY[family.category]) == ("expense", "photo",
                                                                              "Natural (less text)")
    rng = random.Random(5)
    for _ in range(200):
        c = family.sample(rng)
        assert 1 <= c["hours"] <= c["max_stay"] and c["subtotal"] == round(c["rate"] * c["hours"], 2)
        assert c["tax"] == round(c["subtotal"] * c["tax_rate"] / 100, 2) and c["total"] == round(c["subtotal"] + c["tax"], 2)
        assert int(c["expires"][:2]) - int(c["time"][:2]) == c["hours"] and c["expires"][3:] == c["time"][3:]
        assert "2026-04-01" <= c["date"] <= "2026-04-16"
    facts = "\n".join(family.facts(c))
    for shown in (f"level: {c['level']}", f"bay: {c['bay']}", f"maximum stay: {c['max_stay']} hours",
                  f"charging hours: {c['open']}", f"total: ${c['total']:.2f}"):
        assert shown in facts
    assert {c["vendor"], c["bay"], f"{c['rate']:.2f}", f"{c['total']:.2f}"} <= set(family.values(c))


def test_parking_costs_are_split_on_venmo_in_the_shipped_design():
    """The shipped design draws parking photos, among them compute tasks whose parking costs are split and
    requested on Venmo; such a slot builds with no image value in the user's words."""
    from pipelines.assemble import assemble
    from pipelines.procedural.critic import critique, image_values, leaks, user_texts

    slots = [s for s in design("mmtsb_v1", 320, 0) if s.family == "parking_sign"]
    assert len(slots) >= 10 and {s.category for s in slots} == {"Natural (less text)"}
    venmo = [s for s in slots if s.flow == "compute" and s.variant.split("+")[0] == "venmo"]
    assert venmo
    slot = venmo[0]
    ctx, outline = slot_context(slot), slot_outline(slot)
    draft, entity_set = TEMPLATES["compute"].build(outline, ctx)
    _, data = assemble(outline, draft, entity_set, ctx.images)
    assert "venmo_create_payment_request" in data["metadata"]["expected_tools"]
    assert leaks("\n".join(user_texts(data)), image_values(ctx)) == [] and critique(data, ctx, outline).passed
