"""The procedural backend: stage answers from the ground truth, rejections, the critic catching broken files."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import pickle
from pathlib import Path

import pytest

from mmtsb.authoring.draw import Sheet
from pipelines.assemble import assemble
from pipelines.backends.base import GroupContext
from pipelines.backends.procedural import NO_TRUTH, ProceduralBackend, arrival_scores
from pipelines.items import ARRIVALS, FLOWS, Group, Outline, SourceImage
from pipelines.procedural.families.base import money
from pipelines.procedural.source import draw_source


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> dict[str, list[SourceImage]]:
    root = tmp_path_factory.mktemp("src")
    out: dict[str, list[SourceImage]] = {}
    for line in draw_source(root, 24, seed=5).read_text().splitlines():
        d = json.loads(line)
        path = root / d["image_paths"][0]
        out.setdefault(d["meta_data"]["truth"]["family"], []).append(SourceImage(
            image_id="img-" + hashlib.sha256(path.read_bytes()).hexdigest()[:16], path=str(path),
            dataset_type=d["dataset_type"], meta=d["meta_data"], truth=d["meta_data"]["truth"]))
    return out


def run(coro):
    return asyncio.run(coro)


def ctx_of(images: list[SourceImage]) -> GroupContext:
    return GroupContext(Group(cluster_id="c", domain="simple_note", image_ids=[i.image_id for i in images],
                              mean_similarity=0.8), images, [])


def outline(ctx: GroupContext, flow: str = "aggregate", challenge: str = "none") -> Outline:
    return Outline(outline_id=f"o-{flow}-{challenge}", cluster_id="c", domain="simple_note", flow=flow,
                   arrival="upfront", challenge=challenge, n_rounds=3, image_ids=list(ctx.group.image_ids),
                   required_tools=[], seed=2)


def test_associate_reads_the_truth(images):
    backend = ProceduralBackend()
    got = run(backend.associate(images["receipt"][0], "catalog"))
    assert got.ok and got.calls == []
    v = got.value
    assert v.actionable and v.needs_visual_extraction and v.needs_tool_call and v.domains[0] == "simple_note"
    assert any(f.startswith("total: $") for f in v.facts) and "simple_note_create_note" in [t.tool for t in v.tools]


def test_associate_marks_the_non_actionable_family(images):
    got = run(ProceduralBackend().associate(images["abstract_pattern"][0], "catalog"))
    assert got.ok and not got.value.actionable and not got.value.needs_tool_call


def test_a_real_image_without_truth_is_rejected(tmp_path: Path):
    path = tmp_path / "photo.png"
    path.write_bytes(Sheet(64, 48, (10, 120, 30)).png())
    image = SourceImage(image_id="img-0123456789abcdef", path=str(path), dataset_type="photo")
    got = run(ProceduralBackend().associate(image, "catalog"))
    assert got.value is None and got.rejection == NO_TRUTH


def test_viability_scores_flows_and_arrivals(images):
    got = run(ProceduralBackend().viability(ctx_of(images["receipt"][:4])))
    assert set(got.value.flows) == set(FLOWS) and set(got.value.arrivals) == set(ARRIVALS)
    assert got.value.flows["aggregate"] == 3 and got.value.flows["lookup_chain"] == 0
    assert arrival_scores(3) == {"upfront": 3, "progressive": 3, "late": 2, "mixed": 1}
    assert arrival_scores(4)["mixed"] == 2


def test_expand_entities_and_repair_are_deterministic(images):
    backend, ctx = ProceduralBackend(), ctx_of(images["receipt"][:3])
    o = outline(ctx)
    draft = run(backend.expand(o, ctx)).value
    first = run(backend.entities(o, draft, ctx, [])).value
    again = run(backend.entities(o, draft, ctx, ["some validation error"])).value
    assert first == again and len(first.solution) == len(draft.rounds) == 3


def test_an_unbuildable_outline_is_rejected_not_raised(images):
    ctx = ctx_of(images["receipt"][:3])
    bad = outline(ctx, "lookup_chain")
    got = run(ProceduralBackend().expand(bad, ctx))
    assert got.value is None and "lookup_chain" in got.rejection


def test_the_critic_passes_a_good_file_and_rejects_a_broken_one(images):
    backend, ctx = ProceduralBackend(), ctx_of(images["receipt"][:3])
    o = outline(ctx, challenge="goal_change")
    draft = run(backend.expand(o, ctx)).value
    entity_set = run(backend.entities(o, draft, ctx, [])).value
    _, data = assemble(o, draft, entity_set, ctx.images)
    good = run(backend.critique(o, data, ctx)).value
    assert good.passed, good.failures()

    leaky = copy.deepcopy(data)
    total = money(images["receipt"][1].truth["content"]["total"])
    leaky["messages"][1]["content"] += f" The second receipt's total is {total}."
    verdict = run(backend.critique(o, leaky, ctx)).value
    assert not verdict.criteria["multimodal_necessity"].passed and total[1:] in verdict.criteria[
        "multimodal_necessity"].reason

    wrong = copy.deepcopy(data)
    spec = next(s for s in wrong["entity_diff_specs"] if s.get("table") == "simple_note.notes")
    vendor = images["receipt"][0].truth["content"]["vendor"]
    spec["entity_data"]["content"] = f"{vendor}: $1.23"
    assert not run(backend.critique(o, wrong, ctx)).value.criteria["visual_grounding_accuracy"].passed

    no_pivot = copy.deepcopy(data)
    no_pivot["messages"][0]["content"] = no_pivot["messages"][0]["content"].replace("Change of plan", "Also")
    assert not run(backend.critique(o, no_pivot, ctx)).value.criteria["goal_flexibility"].passed


def test_the_backend_pickles():
    backend = pickle.loads(pickle.dumps(ProceduralBackend()))
    assert backend.name == "procedural"
