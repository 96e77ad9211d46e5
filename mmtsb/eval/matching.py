"""Scoring expected rows against actual rows: per-column similarities, the pair score, and the Hungarian
assignment (the reference's ``flexible_row_matching``, SPEC.md §6.2).

A pair's score is the arithmetic mean of its non-ignored column similarities (1.0 when every compared
column is ignored: an existence check). The reference assigns min(N, M) pairs with
``scipy.optimize.linear_sum_assignment`` and gives every assigned pair its score, however low.
Deliberate difference outside strict mode: scores below ``threshold`` (``min_match_similarity``) are set
to 0 *before* the assignment, so the assignment maximises the credit that counts, and such pairs are
reported as unmatched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from mmtsb.eval.similarity import get_similarity


@dataclass
class ColumnScore:
    """One compared column: the function used, both values, the score, and whether it counts in the mean."""

    column: str
    function: str
    expected: Any
    actual: Any
    score: float
    counted: bool


@dataclass
class PairScore:
    """An expected row scored against one actual row."""

    score: float
    columns: list[ColumnScore]

    @property
    def compared(self) -> bool:
        return bool(self.columns)


@dataclass
class Expected:
    """An expected row with its similarity function per column (``compare`` is what gets scored;
    ``shown`` is what the spec wrote, for evidence)."""

    compare: dict[str, Any]
    functions: dict[str, str]
    shown: dict[str, Any] = field(default_factory=dict)


@dataclass
class Assignment:
    """The outcome for one expected row: its credited score, the matched actual row (index) if any, the
    raw score of the row the assignment gave it (``assigned_index``, even when below the threshold), and
    the best-scoring candidate (for evidence when unmatched)."""

    score: float
    actual_index: int | None
    pair: PairScore | None
    raw_score: float | None = None
    closest_index: int | None = None
    closest: PairScore | None = None
    assigned_index: int | None = None


def score_pair(expected: Expected, actual: Mapping[str, Any], actual_columns: set[str],
               *, strict: bool) -> PairScore:
    """Mean of the non-ignored column similarities over the expected columns the actual table has."""
    columns = []
    for col, exp_value in expected.compare.items():
        name = expected.functions.get(col)
        if name is None or col not in actual_columns:
            continue
        sim = get_similarity(name, strict_reference=strict)
        act_value = actual.get(col)
        columns.append(ColumnScore(col, name, expected.shown.get(col, exp_value), act_value,
                                   sim(exp_value, act_value), sim.counted))
    if not columns:
        return PairScore(0.0, [])
    counted = [c.score for c in columns if c.counted]
    return PairScore(sum(counted) / len(counted) if counted else 1.0, columns)


def match_rows(expected: Sequence[Expected], actual: Sequence[Mapping[str, Any]], actual_columns: set[str],
               *, strict: bool, threshold: float = 0.0) -> list[Assignment]:
    """Assign expected rows to actual rows maximising the total (thresholded) score."""
    n, m = len(expected), len(actual)
    if n == 0:
        return []
    if m == 0:
        return [Assignment(0.0, None, None) for _ in expected]
    pairs = [[score_pair(e, a, actual_columns, strict=strict) for a in actual] for e in expected]
    raw = np.array([[p.score for p in row] for row in pairs], dtype=float)
    credit = np.where(raw >= threshold, raw, 0.0) if threshold > 0 else raw
    rows, cols = linear_sum_assignment(-credit)
    assigned = dict(zip(rows.tolist(), cols.tolist()))
    out = []
    for i in range(n):
        best = int(np.argmax(raw[i]))
        j = assigned.get(i)
        if j is None:
            out.append(Assignment(0.0, None, None, None, best, pairs[i][best]))
        elif threshold > 0 and raw[i, j] < threshold:
            out.append(Assignment(0.0, None, None, float(raw[i, j]), best, pairs[i][best], j))
        else:
            out.append(Assignment(float(credit[i, j]), j, pairs[i][j], float(raw[i, j]), best, pairs[i][best], j))
    return out


def precision_recall(score_sum: float, n_expected: int, n_actual: int) -> tuple[float, float]:
    """P = Σscores / M and R = Σscores / N with the reference's edge cases (N = 0: P = 1 iff M = 0, R = 1;
    M = 0: P = R = 0)."""
    if n_expected == 0:
        return (1.0 if n_actual == 0 else 0.0), 1.0
    if n_actual == 0:
        return 0.0, 0.0
    return min(1.0, score_sum / n_actual), min(1.0, score_sum / n_expected)


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
