"""Pieces of the pipeline around the stages: a local CLIP checkpoint loads (the real-weights path, without a
download), stage 5's repair loop feeds the World's validation errors back and counts schema failures, and a
run with a locally served model composes (serve=vllm)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import numpy as np
import torch
from PIL import Image

from mmtsb.config.paths import find_project_root
from pipelines.backends.base import Generated
from pipelines.embed import TINY_CONFIG, ClipSettings, embed_paths, load_clip
from pipelines.items import DraftRound, EntitySet, Group, Outline, ScenarioDraft, SolutionStep, SourceImage
from pipelines.stages.s2_cluster import context_payload
from pipelines.stages.s5_entities import entities_task

ROOT = find_project_root()


def test_a_local_checkpoint_loads_and_gives_its_weights(tmp_path):
    for i in range(2):
        Image.new("RGB", (40, 40), (60 * i, 120, 30)).save(tmp_path / f"{i}.png")
    paths = [str(tmp_path / f"{i}.png") for i in range(2)]
    model, _ = load_clip(ClipSettings(model=TINY_CONFIG, init_seed=7, device="cpu"))
    checkpoint = tmp_path / "tiny.pt"
    torch.save({"state_dict": model.state_dict()}, checkpoint)
    from_file = embed_paths(paths, ClipSettings(model=TINY_CONFIG, checkpoint=str(checkpoint), device="cpu"))
    same_seed = embed_paths(paths, ClipSettings(model=TINY_CONFIG, init_seed=7, device="cpu"))
    other_seed = embed_paths(paths, ClipSettings(model=TINY_CONFIG, init_seed=8, device="cpu"))
    assert np.allclose(from_file, same_seed, atol=1e-5) and not np.allclose(from_file, other_seed, atol=1e-3)


class RepairingBackend:
    """First an entity set naming a table that does not exist, then a sound one; records what it was told."""

    name = "test"

    def __init__(self) -> None:
        self.errors_seen: list[list[str]] = []

    async def entities(self, outline, draft, ctx, errors):
        self.errors_seen.append(list(errors))
        table = "simple_note.notez" if not errors else "simple_note.notes"
        spec = {"operation": "create", "source": "appworld", "table": table,
                "entity_data": {"user_id": 50, "title": "Trip", "content": "Total: $10"},
                "column_similarity_measure": {"user_id": "column_exact_match_similarity",
                                              "title": "column_rouge_l_similarity",
                                              "content": "column_rouge_l_similarity"}}
        steps = [SolutionStep(tool="simple_note_create_note", arguments={"title": "Trip", "content": "Total: $10"})]
        return Generated(EntitySet(entity_diff_specs=[spec], solution=[steps, []], replies=["Done.", "Bye."]))


def test_stage_5_feeds_validation_errors_back_and_counts_schema_failures(tmp_path):
    images = []
    for i in range(3):
        path = tmp_path / f"r{i}.png"
        Image.new("RGB", (32, 32), (40 * i, 0, 0)).save(path)
        images.append(SourceImage(image_id=f"img-{i}", path=str(path), dataset_type="synthetic_receipt"))
    group = Group(cluster_id="cl-1", domain="simple_note", image_ids=[i.image_id for i in images], mean_similarity=0.9)
    outline = Outline(outline_id="ol-1", cluster_id="cl-1", domain="simple_note", flow="aggregate", arrival="upfront",
                      challenge="none", n_rounds=2, image_ids=group.image_ids, required_tools=[], seed=1)
    draft = ScenarioDraft(title="t", description="d", persona="p", user_id=50, goal="g", criteria="c",
                          rounds=[DraftRound(provide=[1, 2, 3], query="Note these receipts.", instructions="i"),
                                  DraftRound(provide=[], query="Thanks.", instructions="End.")])
    from pipelines.backends.base import GroupContext

    ctx = GroupContext(group=group, images=images, verdicts=[])
    backend = RepairingBackend()
    payload = {"outline": outline.model_dump(), "draft": draft.model_dump_json(), "context": context_payload(ctx),
               "entity_repairs": 2}
    row = asyncio.run(entities_task(backend, json.loads(json.dumps(payload))))
    assert row["passed"] and row["attempts"] == 2 and row["schema_failures"] == 1
    assert backend.errors_seen[0] == [] and any("notez" in e for e in backend.errors_seen[1])
    assert json.loads(row["scenario"])["entity_diff_specs"][0]["table"] == "simple_note.notes"
    never = RepairingBackend()
    never.entities = lambda *a: RepairingBackend.entities(never, *a[:3], [])  # type: ignore[method-assign]
    failed = asyncio.run(entities_task(never, json.loads(json.dumps({**payload, "entity_repairs": 1}))))
    assert not failed["passed"] and failed["schema_failures"] == 2 and "invalid after 2 attempt(s)" in failed["reason"]


def test_a_locally_served_model_composes_for_every_stage():
    env = {**os.environ, "HYDRA_FULL_ERROR": "0"}
    proc = subprocess.run([sys.executable, "-m", "mmtsb.cli", "generate", "backend=llm", "model=qwen3_5_9b",
                           "serve=vllm", "--cfg", "job", "--resolve"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "hosted_vllm/Qwen/Qwen3.5-9B" in proc.stdout and "kind: vllm" in proc.stdout
