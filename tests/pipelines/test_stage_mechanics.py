"""The stage machinery without models: resumable stage tables, outline balancing, balanced downsampling, the
draft/outline checks, config problems and source reading."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from PIL import Image

from pipelines.config import BalanceConf, GenerateConfig
from pipelines.items import CHALLENGES, FLOWS, DraftRound, Outline, ScenarioDraft
from pipelines.source import SourceError, read_folder, read_manifest
from pipelines.stages.s3_outline import OutlineSampler
from pipelines.stages.s4_scenario import draft_problems
from pipelines.stages.s6_quality import balanced_order
from pipelines.store import StageStore


def test_stage_store_resumes_from_parts_and_merges_once(tmp_path):
    store = StageStore(tmp_path, 1, "associate", "image_id")
    store.append([{"image_id": "a", "passed": True, "reason": ""}])
    store.append([{"image_id": "b", "passed": False, "reason": "not actionable"}])
    again = StageStore(tmp_path, 1, "associate", "image_id")  # a rerun after a kill sees the parts
    assert again.done_keys() == {"a", "b"} and not again.complete
    rows = again.finish(order=["b", "a"])
    assert [r["image_id"] for r in rows] == ["b", "a"]
    assert (tmp_path / "1_associate.parquet").exists() and not (tmp_path / "1_associate.parts").exists()
    assert StageStore(tmp_path, 1, "associate", "image_id").complete


def test_the_merge_of_a_resumed_stage_equals_one_read_from_disk(tmp_path):
    # parts from a killed run (read back) and this run's own (merged from memory), with a column only some rows
    # have and a key that ``order`` does not name: the stage file and the rows are those of its parts read back
    killed = StageStore(tmp_path, 3, "outline", "outline_id")
    killed.append([{"outline_id": "o3", "n": 3}, {"outline_id": "o9", "n": 9}])
    store = StageStore(tmp_path, 3, "outline", "outline_id")
    store.append([{"outline_id": "o1", "n": 1, "note": "late"}])
    store.append([{"outline_id": "o2", "n": 2}])
    expected = StageStore(tmp_path, 3, "outline", "outline_id").rows()   # every part read from disk
    rows = store.finish(order=["o1", "o2", "o3"])
    assert [r["outline_id"] for r in rows] == ["o1", "o2", "o3", "o9"]
    assert sorted(rows, key=lambda r: r["outline_id"]) == sorted(expected, key=lambda r: r["outline_id"])
    assert rows[0]["note"] == "late" and rows[1]["note"] is None
    assert StageStore(tmp_path, 3, "outline", "outline_id").rows() == rows
    assert not store.parts_dir.exists()


def test_a_stages_last_batch_goes_straight_into_the_stage_file(tmp_path):
    # the batch that completes a stage is merged with the parts without being written as a part itself
    store = StageStore(tmp_path, 1, "associate", "image_id")
    store.append([{"image_id": "a", "n": 1}])
    assert store.finished_at is None
    rows = store.finish(order=["c", "b", "a"], last=[{"image_id": "b", "n": 2}, {"image_id": "c", "n": 3, "x": "y"}])
    assert [(r["image_id"], r["n"], r["x"]) for r in rows] == [("c", 3, "y"), ("b", 2, None), ("a", 1, None)]
    assert StageStore(tmp_path, 1, "associate", "image_id").rows() == rows and not store.parts_dir.exists()
    assert store.finished_at is not None and store.finished_at >= store.path.stat().st_mtime - 1
    only_last = StageStore(tmp_path, 2, "cluster", "cluster_id")   # a stage whose one batch is its last
    assert only_last.finish(last=[{"cluster_id": "c1"}]) == [{"cluster_id": "c1"}]
    assert not only_last.parts_dir.exists()


def test_a_part_keeps_the_columns_its_first_row_lacks(tmp_path):
    store = StageStore(tmp_path, 5, "entities", "scenario_id")
    store.append([{"scenario_id": "s1", "passed": False}, {"scenario_id": "s2", "passed": True, "attempts": 2}])
    assert StageStore(tmp_path, 5, "entities", "scenario_id").rows() == [
        {"scenario_id": "s1", "passed": False, "attempts": None}, {"scenario_id": "s2", "passed": True, "attempts": 2}]


def test_a_half_written_part_is_never_read(tmp_path):
    store = StageStore(tmp_path, 2, "cluster", "cluster_id")
    store.append([{"cluster_id": "c1"}])
    (store.parts_dir / ".part-000001.parquet.tmp-1").write_bytes(b"PAR1 truncated")
    assert store.done_keys() == {"c1"}


def _shares(**given):
    conf = BalanceConf()
    for axis, weights in given.items():
        setattr(conf, axis, {name: weights.get(name, 0.0) for name in getattr(conf, axis)})
    return {axis: conf.shares(axis) for axis in ("flow", "arrival", "challenge")}


def test_outline_sampling_is_deterministic_and_steers_to_balance():
    pairs = [f"{f}/{a}" for f in FLOWS for a in ("upfront", "progressive")]
    def draw(seed):
        sampler = OutlineSampler(_shares(), seed)
        return [sampler.draw(f"cl-{i:03d}", "simple_note", [f"img-{i}-{k}" for k in range(4)], pairs, ["t"])
                for i in range(70)]
    first, second = draw(3), draw(3)
    assert [o.model_dump() for o in first] == [o.model_dump() for o in second]
    flows = Counter(o.flow for o in first)
    challenges = Counter(o.challenge for o in first)
    # 70 outlines over 7 flows and 4 challenges: steering keeps every value near its share
    assert set(flows) == set(FLOWS) and max(flows.values()) - min(flows.values()) <= 4
    assert set(challenges) == set(CHALLENGES) and max(challenges.values()) - min(challenges.values()) <= 4
    assert all(2 <= o.n_rounds <= 5 for o in first)
    assert draw(4) != first


def test_outline_sampling_honours_zero_targets():
    sampler = OutlineSampler(_shares(challenge={"none": 1.0}), 0)
    outs = [sampler.draw(f"cl-{i}", "d", ["a", "b", "c"], ["aggregate/upfront", "compare/late"], []) for i in range(10)]
    assert {o.challenge for o in outs} == {"none"}
    assert sampler.draw("cl-x", "d", ["a", "b", "c"], [], []) is None


def test_balanced_order_prefixes_follow_the_targets():
    items = [{"scenario_id": f"s{i:02d}", "flow": "aggregate" if i < 12 else "compare",
              "arrival": "upfront", "challenge": "none"} for i in range(16)]
    order = balanced_order(items, _shares(flow={"aggregate": 1, "compare": 1}))
    first8 = Counter(next(r["flow"] for r in items if r["scenario_id"] == sid) for sid in order[:8])
    assert first8 == {"aggregate": 4, "compare": 4}
    assert sorted(order) == sorted(r["scenario_id"] for r in items)
    assert order == balanced_order(list(reversed(items)), _shares(flow={"aggregate": 1, "compare": 1}))


def _outline(arrival="progressive", n_rounds=2):
    return Outline(outline_id="ol-1", cluster_id="cl-1", domain="simple_note", flow="aggregate", arrival=arrival,
                   challenge="none", n_rounds=n_rounds, image_ids=["a", "b", "c"], required_tools=[], seed=1)


def _draft(*provides):
    return ScenarioDraft(title="t", description="d", persona="p", user_id=50, goal="g", criteria="c",
                         rounds=[DraftRound(provide=list(p), query="q", instructions="i") for p in provides])


def test_draft_problems_name_what_breaks_the_outline():
    assert draft_problems(_outline(), _draft([1, 2], [3])) == []
    assert "3 rounds for an outline of 2" in draft_problems(_outline(), _draft([1], [2], [3]))[0]
    assert any("delivered [1, 2]" in p for p in draft_problems(_outline(), _draft([1], [2])))
    assert any("upfront" in p for p in draft_problems(_outline("upfront"), _draft([1, 2], [3])))


def test_config_problems_name_their_keys():
    cfg = GenerateConfig(n_scenarios=0, rounds_min=1)
    cfg.balance.flow = {"aggregat": 1.0}
    cfg.balance.challenge = dict.fromkeys(cfg.balance.challenge, 0.0)
    problems = " | ".join(cfg.problems())
    assert "n_scenarios must be >= 1" in problems and "rounds_min/rounds_max" in problems
    assert "balance.flow.aggregat: unknown flow" in problems and "balance.challenge: at least one weight" in problems
    from pipelines.config import BackendKind

    llm = GenerateConfig(backend=BackendKind.llm)
    assert any("backend=llm needs a model for stage associate" in p for p in llm.problems())
    assert GenerateConfig(concurrency=4, stage_actors=2).problems() == []
    assert GenerateConfig(concurrency=4, stage_actors=0).problems() == []   # 0: one per CPU (the default)
    for actors in (-1, 5):  # each actor needs at least one item in flight
        assert (f"stage_actors must be 0 (one per CPU) or between 1 and concurrency (4), got {actors}"
                in GenerateConfig(concurrency=4, stage_actors=actors).problems())


def test_sources_read_folders_and_manifests_and_name_bad_lines(tmp_path):
    for i in range(3):
        Image.new("RGB", (8, 8), (i * 40 + 10, 0, 0)).save(tmp_path / f"im{i}.png")
    Image.new("RGB", (8, 8), (0, 0, 0)).save(tmp_path / "dup.png")
    Image.new("RGB", (8, 8), (0, 0, 0)).save(tmp_path / "im0_copy.png")
    assert len(read_folder(tmp_path)) == 4  # the two black images are one image
    manifest = tmp_path / "m.jsonl"
    manifest.write_text(json.dumps({"image_paths": ["im1.png"], "meta_data": {"truth": {"family": "x"}},
                                    "dataset_type": "docvqa"}) + "\n")
    (img,) = read_manifest(manifest)
    assert img.dataset_type == "docvqa" and img.truth == {"family": "x"}
    manifest.write_text('{"image_paths": ["missing.png"]}\nnot json\n')
    with pytest.raises(SourceError, match=r"m.jsonl:1: image missing.png does not exist"):
        read_manifest(manifest)
    manifest.write_text('{"image_paths": ["im1.png"]}\nnot json\n')
    with pytest.raises(SourceError, match=r"m.jsonl:2: not JSON"):
        read_manifest(manifest)
