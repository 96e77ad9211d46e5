"""Each figure of ``mmtsb agreement`` drawn from a worked example and read back: the numbers in the figure's
artists are the hand-computed ones (not only a PNG that exists)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mmtsb.eval.agreement import figures, stats
from mmtsb.eval.agreement.study import block

# a: P P P F F F ; b: P P F F F P -> kappa 1/3 (pe .5, po 4/6); a vs c (c = a): kappa 1; b vs c: 1/3
A = [True, True, True, False, False, False]
B = [True, True, False, False, False, True]


def keyed(values: list[bool]) -> dict[tuple[str, str], bool]:
    return {("run1", f"e{i}"): v for i, v in enumerate(values)}


def table6_block() -> dict:
    """Three annotators whose majority is the paper's Table 6 human label, and the Sonnet judge's labels."""
    human, judge = [True] * 44 + [False] * 56, [True] * 32 + [False] * 12 + [True] * 2 + [False] * 54
    # annotators 1 and 2 give the majority label; annotator 3 the opposite on the first ten items
    third = [(not h) if i < 10 else h for i, h in enumerate(human)]
    return block({"sonnet": keyed(judge)}, {"h1": keyed(human), "h2": keyed(human), "h3": keyed(third)})


def test_kappa_heatmap_holds_the_pairwise_kappas(tmp_path):
    b = block({"j1": keyed(A), "j2": keyed(B)}, {"human:h1": keyed(A)})
    fig = figures.kappa_figure(b, tmp_path / "k.png")
    assert (tmp_path / "k.png").stat().st_size > 0
    drawn = np.asarray(fig.axes[0].images[0].get_array())
    expected = np.array([[1, 1 / 3, 1], [1 / 3, 1, 1 / 3], [1, 1 / 3, 1]])
    assert np.allclose(drawn, expected)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["j1", "j2", "human:h1"]


def test_kappa_heatmap_marks_an_undefined_kappa(tmp_path):
    b = block({"j1": keyed([True] * 4), "j2": keyed([True] * 4)}, {})
    fig = figures.kappa_figure(b, tmp_path / "k.png")
    drawn = np.asarray(fig.axes[0].images[0].get_array())
    assert math.isnan(drawn[0, 1]) and drawn[0, 0] == 1
    assert "–" in [t.get_text() for t in fig.axes[0].texts]


def test_confusion_figure_is_the_papers_table6(tmp_path):
    b = table6_block()
    v = b["vs_majority"]["sonnet"]
    assert v["confusion"] == {"tp": 32, "fn": 12, "fp": 2, "tn": 54}
    assert round(v["kappa"], 3) == 0.709 and round(v["fpr"], 3) == 0.036 and round(v["fnr"], 3) == 0.273
    fig = figures.confusion_figure(b, tmp_path / "c.png")
    assert np.array_equal(np.asarray(fig.axes[0].images[0].get_array()), [[32, 12], [2, 54]])
    assert sorted(t.get_text() for t in fig.axes[0].texts) == ["12", "2", "32", "54"]


def test_criteria_figure_bars_are_raw_agreement_and_kappa(tmp_path):
    # task_completion: judge = A, majority = A -> raw 1, kappa 1; no_side_effects: judge = B, majority = A ->
    # raw 4/6, kappa 1/3
    party = {"criteria": {"task_completion": block({"j": keyed(A)}, {"h": keyed(A)}),
                          "no_side_effects": block({"j": keyed(B)}, {"h": keyed(A)})}}
    fig = figures.criteria_figure(party, tmp_path / "cr.png")
    raw_ax, kappa_ax = fig.axes[0], fig.axes[1]
    assert [p.get_height() for p in raw_ax.patches] == pytest.approx([1.0, 4 / 6])
    assert [p.get_height() for p in kappa_ax.patches] == pytest.approx([1.0, 1 / 3])


def test_rankings_figure_plots_each_judges_agent_sr(tmp_path):
    rankings = {"agent_sr": {"jA": {"r1": 0.5, "r2": 0.25, "r3": 0.75}, "jB": {"r1": 0.4, "r2": 0.3, "r3": 0.6}},
                "pairs": []}
    fig = figures.rankings_figure(rankings, tmp_path / "r.png")
    lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].lines}
    assert lines["jA"] == pytest.approx([25, 50, 75])   # runs ordered by the first judge: r2, r1, r3
    assert lines["jB"] == pytest.approx([30, 40, 60])
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["r2", "r1", "r3"]


def test_variance_figure_is_the_papers_table9(tmp_path):
    gpt = {"run": "GPT-5.4", "judge": "sonnet", **stats.spread([0.4151, 0.4340, 0.4264])}
    fig = figures.variance_figure([gpt], [], tmp_path / "v.png")
    ax = fig.axes[0]
    assert [round(p.get_height(), 2) for p in ax.patches] == [42.52]
    (segments,) = [c.get_segments() for c in ax.collections]
    (low, high) = segments[0][:, 1]
    assert round((high - low) / 2, 2) == 0.95           # the SD of Table 9, drawn as the error bar
    assert "no repeats" in [t.get_text() for t in fig.axes[1].texts]
