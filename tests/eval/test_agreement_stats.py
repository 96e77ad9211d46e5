"""The agreement measures against worked examples with known answers: the paper's own Tables 5, 6 and 9
(Appendix B.3 and C.3) and small cases computed by hand in the comments."""

from __future__ import annotations

import pytest

from mmtsb.eval.agreement import stats


def paper_table6() -> tuple[list[bool], list[bool]]:
    """The paper's Table 6 (Claude 4.5 Sonnet vs the human majority, n = 100): human pass 44 (judge pass 32,
    fail 12), human fail 56 (judge pass 2, fail 54)."""
    human = [True] * 44 + [False] * 56
    judge = [True] * 32 + [False] * 12 + [True] * 2 + [False] * 54
    return human, judge


def test_paper_table5_sonnet_row_from_its_confusion_matrix():
    human, judge = paper_table6()
    c = stats.confusion(human, judge)
    assert c == {"tp": 32, "fn": 12, "fp": 2, "tn": 54}
    # raw = (32 + 54) / 100; kappa: pe = .44 * .34 + .56 * .66 = .5192, (.86 - .5192) / (1 - .5192) = .7088
    assert stats.raw_agreement(human, judge) == pytest.approx(0.86)
    assert stats.cohen_kappa(human, judge) == pytest.approx(0.3408 / 0.4808)
    assert round(stats.cohen_kappa(human, judge), 3) == 0.709            # Table 5: 0.709
    rates = stats.error_rates(c)
    assert rates["fpr"] == pytest.approx(2 / 56) and round(rates["fpr"], 3) == 0.036   # Table 5: 0.036
    assert rates["fnr"] == pytest.approx(12 / 44) and round(rates["fnr"], 3) == 0.273  # Table 5: 0.273
    assert sum(judge) / len(judge) == pytest.approx(0.34)                # Table 5: pass rate 0.34


def test_cohen_kappa_small_case_by_hand():
    # a: P P P F F F ; b: P P F F F P -> agree 4/6; pe = .5 * .5 + .5 * .5 = .5; kappa = (2/3 - .5) / .5 = 1/3
    a = [True, True, True, False, False, False]
    b = [True, True, False, False, False, True]
    assert stats.raw_agreement(a, b) == pytest.approx(4 / 6)
    assert stats.cohen_kappa(a, b) == pytest.approx(1 / 3)


def test_kappa_is_undefined_not_invented_when_chance_agreement_is_total():
    assert stats.cohen_kappa([True] * 5, [True] * 5) is None
    assert stats.cohen_kappa([], []) is None
    # one rater constant, the other not: pe = 1 * 4/6, po = 4/6 -> kappa 0
    assert stats.cohen_kappa([True] * 6, [True, True, False, False, True, True]) == pytest.approx(0.0)


def test_fleiss_kappa_by_hand():
    # 4 items x 3 raters; passes per item 2, 0, 3, 1 -> P_i = 1/3, 1, 1, 1/3, mean 2/3; p_pass = 6/12 -> pe = .5;
    # kappa = (2/3 - 1/2) / (1 - 1/2) = 1/3
    ratings = [[True, True, False], [False, False, False], [True, True, True], [True, False, False]]
    assert stats.fleiss_kappa(ratings) == pytest.approx(1 / 3)
    assert stats.fleiss_kappa([[True, True, True], [True, True, True]]) is None   # every label the same
    assert stats.fleiss_kappa([[True, False, True]]) is None                      # one item


def test_majority_and_its_ties():
    assert stats.majority([True, True, False]) is True
    assert stats.majority([False, True, False]) is False
    assert stats.majority([True, False]) is None
    assert stats.majority([]) is None


def test_rank_correlation_by_hand():
    # ranks 1 2 3 4 vs 1 3 2 4: sum d^2 = 2 -> rho = 1 - 6 * 2 / (4 * 15) = 0.8; one discordant pair of 6 ->
    # tau = (5 - 1) / 6 = 2/3
    out = stats.rank_correlation([0.1, 0.2, 0.3, 0.4], [0.15, 0.35, 0.25, 0.45])
    assert out["spearman"] == pytest.approx(0.8)
    assert out["kendall"] == pytest.approx(2 / 3)
    assert out["n"] == 4 and 0 < out["spearman_p"] <= 1
    assert stats.rank_correlation([0.5], [0.5])["spearman"] is None
    assert stats.rank_correlation([0.5, 0.5, 0.5], [0.1, 0.2, 0.3])["kendall"] is None   # a constant ranking


def test_paper_table9_gpt_row_sd_and_range():
    # Table 9, GPT-5.4: runs 41.51, 43.40, 42.64 -> mean 42.52, SD 0.95 (n - 1), range 1.89
    s = stats.spread([41.51, 43.40, 42.64])
    assert round(s["mean"], 2) == 42.52
    assert round(s["sd"], 2) == 0.95
    assert round(s["range"], 2) == 1.89
    single = stats.spread([40.0])
    assert single["sd"] is None and single["range"] is None and single["mean"] == 40.0


def test_pass_k_with_its_interval_worked_example():
    """pass^k per run and judge, as `mmtsb agreement` reports it (the report's estimator, scipy's percentile
    bootstrap over scenarios). Four scenarios, two tries each: a passes both, b and c one, d none.
    pass^1 per scenario 1, 1/2, 1/2, 0 -> 0.5; pass^2 per scenario 1, 0, 0, 0 -> 0.25.
    The bootstrap of pass^2's mean over the four scenarios: a resample holds j copies of a (j ~ Binomial(4, 1/4)),
    mean j/4; P(j = 0) = 81/256 > 2.5 % -> lower bound 0; P(j >= 3) = 13/256 > 2.5 % > P(j = 4) = 1/256 ->
    upper bound 3/4."""
    from mmtsb.report.metrics import bootstrap_mean_ci, pass_k_table

    tries = {"a": (True, True), "b": (True, False), "c": (False, True), "d": (False, False)}
    rows = [{"scenario": s, "repeat": r, "agent_pass": v} for s, vs in tries.items() for r, v in enumerate(vs)]
    table = pass_k_table(rows)
    assert table["1"]["pass_hat_k"] == pytest.approx(0.5) and table["1"]["n_scenarios"] == 4
    assert table["2"]["pass_hat_k"] == pytest.approx(0.25)
    assert table["2"]["ci"] == pytest.approx([0.0, 0.75])
    assert table["2"]["pass_at_k"] == pytest.approx(0.75)          # a, b, c succeed at least once in two tries
    # two scenarios, 0 and 1: resample means 0, 1/2, 1 with probabilities 1/4, 1/2, 1/4 -> the interval (0, 1)
    assert bootstrap_mean_ci([0.0, 1.0]) == pytest.approx((0.0, 1.0))
    assert bootstrap_mean_ci([0.4]) == pytest.approx((0.4, 0.4))   # one scenario: its own value
