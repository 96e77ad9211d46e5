"""Stage 2 grouping: images of one domain into groups of 3-6 that are coherent by CLIP embedding similarity.

Two functions, one contract (``(groups, left_out_ids)``, every group 3..6 images of ONE domain):

* ``group_embeddings``: the scalable path. Per domain, a hierarchical spherical k-means (FAISS ``faiss.Kmeans``
  with ``spherical=True``, at most 16 centroids per split, trained on a sample of <= 256 points per centroid and
  assigned with its exact flat index) splits the domain recursively until every leaf holds at most
  ``2 * partition_size`` points; each leaf is then grouped greedily from its exact similarity matrix. The leaves'
  leftovers are pooled and grouped once more (this recovers blobs cut in two by a split).
* ``brute_force_groups``: the baseline, the same greedy grouping on each domain's full exact similarity matrix
  (O(n^2) memory and time: fine up to ~20k images per domain).

Why this FAISS algorithm. A flat k-means with one centroid per few hundred points needs k ~ n / 256, and its
assignment costs O(n * k * d), i.e. quadratic in n again. A tree with a small fan-out costs O(n * 16 * d) per level
and log_16(n / partition_size) levels, so the coarse step is ~O(n log n); the leaves cost O(n * partition_size * d)
in total (linear in n). The flat (exact) index is the right one inside k-means because each split has only <= 16
centroids: IVF or HNSW indexes pay off only for many centroids or for all-points kNN, and an approximate kNN graph
would make group membership depend on index recall. Coherence: a leaf is a set of mutually near points (a k-means
cell), and within it every decision uses exact cosines; the only loss against brute force is at cell boundaries,
which the leftover pool partly repairs.

The greedy grouping (both paths). Each point's local density rho is its mean cosine to its ``min_size - 1``
nearest neighbours (within its leaf), and a point's threshold is ``max(rho, median rho of its domain) - slack``
(and >= ``min_similarity`` when given). Seeds are tried densest first; a seed grows its group by adding the free
point with the highest mean cosine to the current members, while that mean stays >= the seed's threshold, up to
``max_size``. A group that ends below ``min_size`` is dropped (its members stay free). Points still free at the end
join the most similar group with room when their mean cosine to it is >= their own threshold; the rest are left
out (too few similar images). The threshold is relative, so it keeps well-separated blobs apart whatever the
absolute similarity scale of the model (a randomly initialised CLIP puts every cosine near 1, a trained one spreads
them out), and the domain median keeps an isolated point (low rho) from lowering the bar for itself.

Deterministic for a seed: the k-means seeds are drawn from ``numpy.random.default_rng(seed)`` and every tie is
broken by input order. ``cluster_id`` is a hash of the domain and the sorted member ids, so it does not depend on
the order the groups were found in.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from pipelines.items import Group

__all__ = ["brute_force_groups", "group_embeddings", "mean_pairwise_similarity"]

_BRANCH = 16  # the most centroids per k-means split
_KMEANS_ITERS = 20
_RHO_CHUNK = 2048  # rows of the similarity matrix ranked at a time for rho (bounds the copy np.partition makes)


def group_embeddings(embeddings: np.ndarray, image_ids: Sequence[str], domains: Sequence[str], *, min_size: int = 3,
                     max_size: int = 6, seed: int = 0, partition_size: int = 256, slack: float = 0.2,
                     min_similarity: float | None = None) -> tuple[list[Group], list[str]]:
    """Group images within their domain into coherent groups of ``min_size..max_size`` (FAISS-partitioned).

    Returns the groups (per domain in sorted order, in the order they were found) and the ids left out, in input
    order. ``partition_size``: the target leaf size of the k-means tree (leaves hold at most twice as many).
    """
    if partition_size < max_size:
        raise ValueError(f"partition_size must be >= max_size ({max_size}), got {partition_size}")
    x = _prepare(embeddings, image_ids, domains, min_size, max_size)
    with _faiss_single_thread():
        return _group_partitioned(x, image_ids, domains, min_size, max_size, seed, partition_size, slack,
                                  min_similarity)


def _group_partitioned(x: np.ndarray, image_ids: Sequence[str], domains: Sequence[str], min_size: int,
                       max_size: int, seed: int, partition_size: int, slack: float,
                       min_similarity: float | None) -> tuple[list[Group], list[str]]:
    """``group_embeddings`` on prepared unit rows: per domain, tree leaves, greedy per leaf, then the pool pass."""
    rng = np.random.default_rng(seed)
    groups: list[Group] = []
    left: set[int] = set()
    for domain, idx in _by_domain(domains):
        leaves: list[np.ndarray] = []
        _split(x, idx, partition_size, rng, leaves)
        rho = np.full(len(x), np.nan, dtype=np.float32)
        sims = [x[leaf] @ x[leaf].T for leaf in leaves]  # ~n * 2 * partition_size floats in all
        for leaf, s in zip(leaves, sims, strict=True):
            rho[leaf] = _density(s, min_size - 1)
        ref = _reference(rho, idx)
        pool: list[int] = []
        for leaf, s in zip(leaves, sims, strict=True):
            found, rest = _greedy(x, leaf, rho[leaf], ref, min_size, max_size, slack, min_similarity, s=s)
            groups += [_group(domain, members, x, image_ids) for members in found]
            pool += rest
        if len(pool) >= min_size:
            pool_leaves: list[np.ndarray] = []
            _split(x, np.array(sorted(pool)), partition_size, rng, pool_leaves)
            pool = []
            for leaf in pool_leaves:
                found, rest = _greedy(x, leaf, rho[leaf], ref, min_size, max_size, slack, min_similarity)
                groups += [_group(domain, members, x, image_ids) for members in found]
                pool += rest
        left.update(pool)
    return groups, [image_ids[i] for i in sorted(left)]


def brute_force_groups(embeddings: np.ndarray, image_ids: Sequence[str], domains: Sequence[str], *, min_size: int = 3,
                       max_size: int = 6, seed: int = 0, slack: float = 0.2,
                       min_similarity: float | None = None) -> tuple[list[Group], list[str]]:
    """The baseline: the same contract and greedy grouping on each domain's full exact similarity matrix.

    O(n^2) memory per domain (n = 20k -> 1.6 GB). ``seed`` is accepted for the same call shape; nothing is random.
    """
    del seed
    x = _prepare(embeddings, image_ids, domains, min_size, max_size)
    groups: list[Group] = []
    left: list[int] = []
    for domain, idx in _by_domain(domains):
        s = x[idx] @ x[idx].T
        rho = np.full(len(x), np.nan, dtype=np.float32)
        rho[idx] = _density(s, min_size - 1)
        ref = _reference(rho, idx)
        found, rest = _greedy(x, idx, rho[idx], ref, min_size, max_size, slack, min_similarity, s=s)
        groups += [_group(domain, members, x, image_ids) for members in found]
        left += rest
    return groups, [image_ids[i] for i in sorted(left)]


def mean_pairwise_similarity(vectors: np.ndarray) -> float:
    """Mean cosine over all distinct pairs of (unit) rows; 1.0 for a single row."""
    n = len(vectors)
    if n < 2:
        return 1.0
    s = vectors @ vectors.T
    return float((s.sum(dtype=np.float64) - np.trace(s, dtype=np.float64)) / (n * (n - 1)))


def _prepare(embeddings: np.ndarray, image_ids: Sequence[str], domains: Sequence[str], min_size: int,
             max_size: int) -> np.ndarray:
    """Check the inputs; return the embeddings as contiguous float32 unit rows."""
    x = np.asarray(embeddings, dtype=np.float32)
    if x.ndim != 2:
        raise ValueError(f"embeddings must be 2-D (n, d), got shape {x.shape}")
    if not (len(x) == len(image_ids) == len(domains)):
        raise ValueError(f"{len(x)} embeddings, {len(image_ids)} image ids and {len(domains)} domains differ")
    if len(set(image_ids)) != len(image_ids):
        raise ValueError("image ids must be unique")
    if not 1 <= min_size <= max_size:
        raise ValueError(f"need 1 <= min_size <= max_size, got {min_size}, {max_size}")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    if len(x) and not np.all(norms > 0):
        raise ValueError("embeddings must be non-zero")
    return np.ascontiguousarray(x / np.where(norms > 0, norms, 1.0))


def _by_domain(domains: Sequence[str]) -> list[tuple[str, np.ndarray]]:
    """(domain, indices in input order) for every domain, domains sorted."""
    arr = np.asarray(domains, dtype=object)
    return [(d, np.flatnonzero(arr == d)) for d in sorted(set(domains))]


@contextmanager
def _faiss_single_thread() -> Iterator[None]:
    """Run FAISS on one OpenMP thread, restoring the caller's setting after. Each split is small (<= 4096 training
    points, <= 16 centroids): there OpenMP's fork and spin-wait cost more than they gain, and on shared cores the
    spinning threads also slow numpy's BLAS down (measured at 100k points on 2 busy cores: k-means 12.3 s on two
    threads, 0.9 s on one). Parallelism belongs a level up (Ray, one task per domain or shard)."""
    import faiss

    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(before)


def _split(x: np.ndarray, idx: np.ndarray, partition_size: int, rng: np.random.Generator,
           out: list[np.ndarray]) -> None:
    """Append to ``out`` the leaves of a spherical k-means tree over ``x[idx]`` (each <= 2 * partition_size)."""
    if len(idx) <= 2 * partition_size:
        out.append(idx)
        return
    import faiss

    k = min(_BRANCH, math.ceil(len(idx) / partition_size))
    pts = np.ascontiguousarray(x[idx])
    km = faiss.Kmeans(pts.shape[1], k, niter=_KMEANS_ITERS, spherical=True, seed=int(rng.integers(2**31 - 1)),
                      verbose=False, min_points_per_centroid=1, max_points_per_centroid=256)
    km.train(pts)
    _, lab = km.index.search(pts, 1)
    parts = [idx[lab[:, 0] == c] for c in range(k)]
    parts = [p for p in parts if len(p)]
    if len(parts) < 2:  # k-means could not split (e.g. duplicates): cut along a random direction instead
        order = np.argsort(pts @ rng.standard_normal(pts.shape[1]).astype(np.float32), kind="stable")
        parts = [idx[np.sort(chunk)] for chunk in np.array_split(order, k)]
    for part in parts:
        _split(x, part, partition_size, rng, out)


def _density(s: np.ndarray, k: int) -> np.ndarray:
    """Each row's mean of its ``k`` largest off-diagonal entries (rows of a square similarity matrix); NaN where
    a row has no other entry."""
    m = len(s)
    k = min(max(k, 1), m - 1)
    if k < 1:
        return np.full(m, np.nan, dtype=np.float32)
    rho = np.empty(m, dtype=np.float32)
    for lo in range(0, m, _RHO_CHUNK):
        block = s[lo:lo + _RHO_CHUNK].copy()
        block[np.arange(len(block)), np.arange(lo, lo + len(block))] = -np.inf
        top = np.partition(block, m - k, axis=1)[:, m - k:]
        rho[lo:lo + len(block)] = top.mean(axis=1)
    return rho


def _reference(rho: np.ndarray, idx: np.ndarray) -> float:
    """The domain's median density (the reference no threshold goes below); fills the NaN densities with it."""
    vals = rho[idx]
    known = vals[~np.isnan(vals)]
    ref = float(np.median(known)) if len(known) else 1.0
    rho[idx] = np.where(np.isnan(vals), ref, vals)
    return ref


def _greedy(x: np.ndarray, idx: np.ndarray, rho: np.ndarray, ref: float, min_size: int, max_size: int,
            slack: float, floor: float | None, s: np.ndarray | None = None) -> tuple[list[list[int]], list[int]]:
    """Greedy grouping of the points ``x[idx]`` from their exact similarity matrix ``s`` (see the module docstring).

    ``rho``: the points' densities; a point's threshold is ``max(rho, ref) - slack`` (and >= ``floor``), so that a
    point far less dense than its domain's median does not lower the bar for itself. Returns groups and leftovers
    as indices into ``x``.
    """
    m = len(idx)
    if m < min_size:
        return [], [int(i) for i in idx]
    if s is None:
        s = x[idx] @ x[idx].T
    thr = np.maximum(rho, ref) - slack
    if floor is not None:
        thr = np.maximum(thr, floor)
    label = np.full(m, -1, dtype=np.int64)
    found: list[list[int]] = []
    for seed in np.argsort(-rho, kind="stable"):
        if label[seed] >= 0:
            continue
        members = _grow(s, int(seed), label < 0, float(thr[seed]), max_size)
        if len(members) >= min_size:
            label[members] = len(found)
            found.append(members)
    sizes = np.bincount(label[label >= 0], minlength=len(found)).astype(np.int64)
    rest: list[int] = []
    for i in np.argsort(-rho, kind="stable"):
        if label[i] >= 0:
            continue
        g = _best_group(s[i], label, sizes, max_size, float(thr[i])) if found else -1
        if g < 0:
            rest.append(int(idx[i]))
        else:
            label[i] = g
            sizes[g] += 1
            found[g].append(int(i))
    return [[int(idx[j]) for j in members] for members in found], sorted(rest)


def _grow(s: np.ndarray, seed: int, free: np.ndarray, threshold: float, max_size: int) -> list[int]:
    """Members grown from ``seed``: repeatedly the free point of highest mean similarity to the members, while
    that mean is >= ``threshold``."""
    members = [seed]
    free = free.copy()
    free[seed] = False
    acc = s[seed].astype(np.float64)
    while len(members) < max_size:
        aff = np.where(free, acc, -np.inf)
        j = int(np.argmax(aff))
        if not free[j] or aff[j] / len(members) < threshold:
            break
        members.append(j)
        free[j] = False
        acc += s[j]
    return members


def _best_group(row: np.ndarray, label: np.ndarray, sizes: np.ndarray, max_size: int, threshold: float) -> int:
    """The group with room whose mean similarity to this point (its similarity ``row``) is highest and
    >= ``threshold``; -1 when none."""
    inside = label >= 0
    sums = np.bincount(label[inside], weights=row[inside], minlength=len(sizes))
    aff = np.where(sizes < max_size, sums / np.maximum(sizes, 1), -np.inf)
    g = int(np.argmax(aff))
    return g if aff[g] >= threshold and sizes[g] < max_size else -1


def _group(domain: str, members: list[int], x: np.ndarray, image_ids: Sequence[str]) -> Group:
    ids = [image_ids[i] for i in members]
    digest = hashlib.sha256("\n".join([domain, *sorted(ids)]).encode()).hexdigest()[:16]
    return Group(cluster_id=f"cl-{digest}", domain=domain, image_ids=ids,
                 mean_similarity=mean_pairwise_similarity(x[members]))
