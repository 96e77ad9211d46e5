"""Metric helpers against hand computations: Wilson, pass^k / pass@k, bootstrap, image categories."""

from __future__ import annotations

import math

import pytest

from mmtsb.report.metrics import (
    bootstrap_mean_ci, dataset_folder, image_categories, pass_at_k, pass_hat_k, pass_k_table, wilson,
)


def test_wilson_matches_the_closed_form() -> None:
    lo, hi = wilson(3, 8)
    z = 1.959963984540054
    p, n = 3 / 8, 8
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert lo == pytest.approx(centre - half) and hi == pytest.approx(centre + half)
    assert (round(lo, 4), round(hi, 4)) == (0.1368, 0.6943)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0
    assert wilson(0, 0) is None


def test_pass_hat_k_and_pass_at_k_are_the_unbiased_estimators() -> None:
    assert pass_hat_k(5, 3, 2) == pytest.approx(3 / 10)          # C(3,2)/C(5,2)
    assert pass_hat_k(4, 4, 4) == 1.0 and pass_hat_k(4, 3, 4) == 0.0
    assert pass_hat_k(3, 2, 1) == pytest.approx(2 / 3)           # k=1 is the plain success rate
    assert pass_at_k(5, 3, 2) == pytest.approx(1 - 1 / 10)       # 1 - C(2,2)/C(5,2)
    assert pass_at_k(4, 0, 3) == 0.0
    with pytest.raises(ValueError, match="k must be in 1..n"):
        pass_hat_k(2, 1, 3)


def test_pass_k_table_averages_over_scenarios_with_enough_tries() -> None:
    rows = ([{"scenario": "a", "agent_pass": True}] * 3 + [{"scenario": "b", "agent_pass": True},
            {"scenario": "b", "agent_pass": False}, {"scenario": "b", "agent_pass": False}]
            + [{"scenario": "c", "agent_pass": True}]   # one try: only in k=1
            + [{"scenario": "c", "agent_pass": None, "end_reason": "error"}])   # infra: ignored
    table = pass_k_table(rows)
    assert set(table) == {"1", "2", "3"}
    assert table["1"]["pass_hat_k"] == pytest.approx((1 + 1 / 3 + 1) / 3) and table["1"]["n_scenarios"] == 3
    assert table["2"]["pass_hat_k"] == pytest.approx((1 + 0) / 2) and table["2"]["n_scenarios"] == 2
    assert table["3"]["pass_at_k"] == pytest.approx((1 + 1) / 2)
    lo, hi = table["2"]["ci"]
    assert 0.0 <= lo <= 0.5 <= hi <= 1.0


def test_bootstrap_is_deterministic_and_brackets_the_mean() -> None:
    values = [0.0, 1.0, 1.0, 0.5, 0.25]
    a, b = bootstrap_mean_ci(values), bootstrap_mean_ci(values)
    assert a == b
    assert a[0] < sum(values) / len(values) < a[1]
    assert bootstrap_mean_ci([0.7] * 4) == pytest.approx((0.7, 0.7))
    assert bootstrap_mean_ci([]) is None


def test_image_categories_from_paths_else_dataset_type() -> None:
    assert dataset_folder("hiertext/images/test/x.jpg") == "hiertext"
    assert dataset_folder("/data/bench/ScreenSpotPro/images/a_b/s.png") == "screenspotpro"
    t = {"images": [{"source": "docvqa/images/1.png"}, {"source": "hiertext/images/test/2.jpg"},
                    {"source": "plot(bar)"}]}
    assert image_categories({"dataset_type": "worldvqa"}, t) == ["Docs/Charts/Tables", "Natural (text-rich)"]
    assert image_categories({"dataset_type": "worldvqa"}, {"images": []}) == ["Natural (less text)"]
    assert image_categories({"dataset_type": "synthetic_screenshot"}, None) == ["UI"]
    assert image_categories({"dataset_type": "mystery"}, None) == ["Other"]
    assert image_categories({}, None) == ["unknown"]
