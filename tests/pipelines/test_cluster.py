"""Stage 2 grouping (pipelines.cluster) on synthetic blobs: sizes, domains, coherence, determinism, leftovers,
and the FAISS path against the brute-force baseline."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines.cluster import brute_force_groups, group_embeddings, mean_pairwise_similarity
from pipelines.items import Group


def blobs(sizes: list[int], *, d: int = 64, noise: float = 0.4, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors around random (nearly orthogonal) centres, blob b holding sizes[b] points; shuffled."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((len(sizes), d))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    label = np.repeat(np.arange(len(sizes)), sizes)
    rng.shuffle(label)
    x = centres[label] + noise * rng.standard_normal((len(label), d)) / np.sqrt(d)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32), label


def ids_of(n: int) -> list[str]:
    return [f"img-{i:05d}" for i in range(n)]


def blob_of(group: Group, label: np.ndarray) -> set[int]:
    return {int(label[int(i[4:])]) for i in group.image_ids}


@pytest.mark.parametrize("fn", [group_embeddings, brute_force_groups])
def test_groups_hold_3_to_6_images_of_one_blob_and_one_domain(fn):
    x, label = blobs([4, 5, 6, 7, 9, 12, 13, 18, 25, 31] * 2, seed=1)
    ids = ids_of(len(x))
    domains = ["shopping" if lab % 2 else "travel" for lab in label]  # each blob lies in one domain
    groups, left = fn(x, ids, domains, min_size=3, max_size=6)
    assert groups
    for g in groups:
        assert 3 <= len(g.image_ids) <= 6
        assert {domains[int(i[4:])] for i in g.image_ids} == {g.domain}
        assert len(blob_of(g, label)) == 1, g  # well-separated blobs never mix
        assert g.mean_similarity == pytest.approx(mean_pairwise_similarity(x[[int(i[4:]) for i in g.image_ids]]))
        assert g.mean_similarity > 0.7
    members = [i for g in groups for i in g.image_ids]
    assert len(members) == len(set(members))
    assert sorted(members + left) == ids  # every image is either grouped or reported left out
    assert len(left) <= len(x) // 10


@pytest.mark.parametrize("fn", [group_embeddings, brute_force_groups])
def test_images_without_enough_similar_ones_are_left_out(fn):
    x, label = blobs([6, 6, 2, 1, 1], seed=2)
    ids = ids_of(len(x))
    groups, left = fn(x, ids, ["d"] * len(x))
    lonely = sorted(i for i, lab in zip(ids, label, strict=True) if lab >= 2)
    assert left == lonely
    assert sorted(len(g.image_ids) for g in groups) == [6, 6]


def test_domains_are_grouped_apart_even_when_images_look_alike():
    x, _ = blobs([8], seed=3)
    groups, left = group_embeddings(x, ids_of(8), ["a", "b"] * 4)
    assert sorted((g.domain, len(g.image_ids)) for g in groups) == [("a", 4), ("b", 4)]
    assert left == []


def test_deterministic_for_a_seed_and_ids_are_stable():
    x, _ = blobs([20] * 40, seed=4)
    ids, domains = ids_of(len(x)), ["d"] * len(x)
    a = group_embeddings(x, ids, domains, seed=7, partition_size=64)
    b = group_embeddings(x, ids, domains, seed=7, partition_size=64)
    assert a == b
    assert len({g.cluster_id for g in a[0]}) == len(a[0])
    assert all(g.cluster_id.startswith("cl-") for g in a[0])


def test_faiss_partitions_agree_with_brute_force():
    x, label = blobs([18, 24, 12, 30, 15, 21] * 8, seed=5)  # 960 points, cut into leaves of <= 128
    ids, domains = ids_of(len(x)), ["d"] * len(x)
    fast, fast_left = group_embeddings(x, ids, domains, partition_size=64)
    slow, slow_left = brute_force_groups(x, ids, domains)
    same = {frozenset(g.image_ids) for g in fast} & {frozenset(g.image_ids) for g in slow}
    assert len(same) >= 0.9 * len(slow)
    assert abs(np.mean([g.mean_similarity for g in fast]) - np.mean([g.mean_similarity for g in slow])) < 0.01
    assert abs(len(fast_left) - len(slow_left)) <= 0.02 * len(x)
    assert all(len(blob_of(g, label)) == 1 for g in fast)


def test_group_sizes_follow_min_and_max():
    x, _ = blobs([10] * 6, seed=6)
    groups, left = group_embeddings(x, ids_of(len(x)), ["d"] * len(x), min_size=2, max_size=4)
    assert all(2 <= len(g.image_ids) <= 4 for g in groups)
    assert left == []


def test_a_similarity_floor_leaves_loose_images_out():
    x, _ = blobs([6] * 3, noise=1.5, seed=7)  # loose blobs: members ~0.3 apart in cosine
    ids = ids_of(len(x))
    assert group_embeddings(x, ids, ["d"] * len(x))[0]
    groups, left = group_embeddings(x, ids, ["d"] * len(x), min_similarity=0.95)
    assert groups == [] and left == ids


def test_bad_inputs_are_refused():
    x, _ = blobs([5], seed=8)
    with pytest.raises(ValueError, match="differ"):
        group_embeddings(x, ids_of(4), ["d"] * 5)
    with pytest.raises(ValueError, match="unique"):
        group_embeddings(x, ["a"] * 5, ["d"] * 5)
    with pytest.raises(ValueError, match="min_size"):
        brute_force_groups(x, ids_of(5), ["d"] * 5, min_size=4, max_size=3)
    with pytest.raises(ValueError, match="partition_size"):
        group_embeddings(x, ids_of(5), ["d"] * 5, partition_size=4)
    assert group_embeddings(np.zeros((0, 8), np.float32), [], []) == ([], [])
