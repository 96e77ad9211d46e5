"""CLIP embeddings (pipelines.embed): the tiny offline config, normalisation, determinism, the Ray Data path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipelines.embed import TINY_CONFIG, ClipEmbedder, ClipSettings, embed_paths, embed_with_ray, load_clip

TINY = ClipSettings(model=TINY_CONFIG, device="cpu", batch_size=4)


@pytest.fixture
def images(tmp_path: Path) -> list[str]:
    """Seven small RGB images (and one grey one, to check the RGB conversion), distinct in colour and layout."""
    paths = []
    for i in range(7):
        im = Image.new("RGB", (40 + 3 * i, 30), ((37 * i) % 256, (90 + 50 * i) % 256, (200 - 25 * i) % 256))
        im.paste((255 - 30 * i, 20 * i, 128), (i * 3, 5, i * 3 + 12, 20))
        p = tmp_path / f"im{i}.png"
        im.save(p)
        paths.append(str(p))
    grey = tmp_path / "grey.jpg"
    Image.new("L", (32, 32), 100).save(grey)
    paths.append(str(grey))
    return paths


def test_tiny_config_builds_offline_in_eval_mode():
    model, preprocess = load_clip(TINY)
    assert not model.training
    assert model.visual.image_size == (32, 32)
    assert ClipEmbedder(TINY).embed_dim == 32


def test_embeddings_are_unit_rows_of_the_right_shape(images):
    emb = embed_paths(images, TINY)
    assert emb.shape == (len(images), 32)
    assert emb.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-5)
    assert np.unique(emb.round(5), axis=0).shape[0] == len(images)  # distinct images, distinct embeddings


def test_same_init_seed_same_embeddings_and_another_seed_differs(images):
    a = embed_paths(images, TINY)
    b = embed_paths(images, ClipSettings(model=TINY_CONFIG, device="cpu", batch_size=3))  # batching is irrelevant
    c = embed_paths(images, ClipSettings(model=TINY_CONFIG, device="cpu", init_seed=1))
    np.testing.assert_allclose(a, b, atol=1e-5)
    assert not np.allclose(a, c, atol=1e-3)


def test_image_size_override_changes_the_input(images):
    settings = ClipSettings(model=TINY_CONFIG, device="cpu", image_size=48)
    model, preprocess = load_clip(settings)
    assert model.visual.image_size == (48, 48)
    assert tuple(preprocess(Image.open(images[0]).convert("RGB")).shape) == (3, 48, 48)
    assert embed_paths(images[:2], settings).shape == (2, 32)


def test_no_paths_no_rows():
    assert embed_paths([], TINY).shape == (0, 32)


def test_the_embedder_keeps_the_batch_columns(images):
    batch = {"path": np.array(images[:3]), "image_id": np.array(["a", "b", "c"])}
    out = ClipEmbedder(TINY)(batch)
    assert list(out["image_id"]) == ["a", "b", "c"]
    assert out["embedding"].shape == (3, 32)


def test_the_ray_data_path_gives_the_same_embeddings(images, ray_local):
    ds = ray_local.data.from_items([{"path": p, "image_id": f"id{i}"} for i, p in enumerate(images)])
    rows = embed_with_ray(ds, TINY, concurrency=1, num_gpus=1).take_all()  # no GPU in this cluster: CPU actors
    by_id = {r["image_id"]: np.asarray(r["embedding"]) for r in rows}
    got = np.stack([by_id[f"id{i}"] for i in range(len(images))])
    np.testing.assert_allclose(got, embed_paths(images, TINY), atol=1e-5)


def test_problems_name_the_key(tmp_path):
    assert ClipSettings().problems() == []
    assert TINY.problems() == []
    cases = {
        "clip.model": ClipSettings(model="ViT-Nope-1"),
        "clip.batch_size": ClipSettings(batch_size=0),
        "clip.pretrained / clip.checkpoint": ClipSettings(pretrained="laion2b_s34b_b79k", checkpoint=TINY_CONFIG),
        "clip.checkpoint": ClipSettings(checkpoint=str(tmp_path / "missing.pt")),
        "clip.device": ClipSettings(device="tpu"),
        "clip.image_size": ClipSettings(image_size=0),
    }
    for key, settings in cases.items():
        problems = settings.problems()
        assert any(p.startswith(key + ":") for p in problems), (key, problems)
    assert ClipSettings(model=str(tmp_path / "nope.json")).problems()[0].startswith("clip.model:")
    assert ClipSettings(pretrained="not-a-tag").problems()[0].startswith("clip.pretrained:")
    assert ClipSettings(pretrained="laion2b_s34b_b79k").problems() == []  # a known tag (not fetched here)
    bad = tmp_path / "bad.json"
    bad.write_text('{"embed_dim": 8}')
    assert "lacks vision_cfg, text_cfg" in ClipSettings(model=str(bad)).problems()[0]
    with pytest.raises(ValueError, match="clip.batch_size"):
        load_clip(ClipSettings(batch_size=0))
