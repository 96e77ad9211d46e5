"""The agreement and variance measures of the paper's judge study (its Appendix B and C), each from the
maintained library that has it: Cohen's kappa and the confusion matrix from scikit-learn, Fleiss' kappa from
statsmodels, Spearman's rho and Kendall's tau from scipy.

Labels are booleans (pass = True). A measure that is not defined for the data (kappa when both raters give one
and the same label to every item, a correlation over fewer than two values or a constant ranking) is None,
never a number that looks meaningful.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

PASS, FAIL = True, False
LABELS = [PASS, FAIL]


def _finite(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def raw_agreement(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """The share of items two raters label alike."""
    if len(a) != len(b):
        raise ValueError(f"raters label {len(a)} and {len(b)} items")
    return sum(x == y for x, y in zip(a, b)) / len(a) if a else None


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two raters over the same items (scikit-learn); None when undefined (no items, or chance
    agreement 1: both raters gave every item the same single label)."""
    if not a:
        return None
    if len(set(a) | set(b)) == 1:
        return None
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _finite(cohen_kappa_score(list(a), list(b), labels=LABELS))


def fleiss_kappa(ratings: Sequence[Sequence[bool]]) -> float | None:
    """Fleiss' kappa of several raters (statsmodels); ``ratings`` holds one row per item and one column per
    rater, every item rated by every rater. None when undefined (fewer than two items or raters, or every
    label the same)."""
    if len(ratings) < 2 or min((len(r) for r in ratings), default=0) < 2:
        return None
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as _fleiss

    table, _ = aggregate_raters(np.asarray([[int(x) for x in row] for row in ratings]), n_cat=2)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return _finite(_fleiss(table, method="fleiss"))


def confusion(human: Sequence[bool], judge: Sequence[bool]) -> dict[str, int]:
    """The paper's Table 6 layout (scikit-learn's confusion matrix with pass first): rows are the human label,
    columns the judge's: ``tp`` human pass / judge pass, ``fn`` human pass / judge fail, ``fp`` human fail /
    judge pass, ``tn`` human fail / judge fail."""
    from sklearn.metrics import confusion_matrix

    if not human:
        return {"tp": 0, "fn": 0, "fp": 0, "tn": 0}
    (tp, fn), (fp, tn) = confusion_matrix(list(human), list(judge), labels=LABELS).tolist()
    return {"tp": tp, "fn": fn, "fp": fp, "tn": tn}


def error_rates(c: dict[str, int]) -> dict[str, float | None]:
    """False-positive rate (the judge passes what humans fail: fp / human fails) and false-negative rate (the
    judge fails what humans pass: fn / human passes), as the paper's Table 5."""
    fails, passes = c["fp"] + c["tn"], c["tp"] + c["fn"]
    return {"fpr": c["fp"] / fails if fails else None, "fnr": c["fn"] / passes if passes else None}


def majority(labels: Sequence[bool]) -> bool | None:
    """The majority label, or None on a tie (or no labels)."""
    passes = sum(1 for x in labels if x)
    fails = len(labels) - passes
    return None if passes == fails else passes > fails


def rank_correlation(x: Sequence[float], y: Sequence[float]) -> dict[str, Any]:
    """Spearman's rho and Kendall's tau (tau-b) of two scorings of the same items, with p-values (scipy)."""
    out: dict[str, Any] = {"n": len(x), "spearman": None, "spearman_p": None, "kendall": None, "kendall_p": None}
    if len(x) != len(y):
        raise ValueError(f"{len(x)} and {len(y)} values")
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return out
    from scipy import stats

    rho = stats.spearmanr(x, y)
    tau = stats.kendalltau(x, y)
    out.update(spearman=_finite(rho.statistic), spearman_p=_finite(rho.pvalue), kendall=_finite(tau.statistic),
               kendall_p=_finite(tau.pvalue))
    return out


def spread(values: Sequence[float]) -> dict[str, Any]:
    """Mean, sample standard deviation (n - 1, as the paper's Table 9) and range (max - min) of repeated
    measurements; SD and range are None for a single value."""
    vals = [float(v) for v in values]
    if not vals:
        return {"values": [], "mean": None, "sd": None, "range": None}
    arr = np.asarray(vals)
    many = arr.size > 1
    return {"values": vals, "mean": float(arr.mean()), "sd": float(arr.std(ddof=1)) if many else None,
            "range": float(arr.max() - arr.min()) if many else None}
