"""Reports over run folders: metrics, breakdowns, the failure taxonomy, pass^k, figures, comparisons, W&B.

- ``build_report(run_dir)`` writes summary.json, report.md, failures.json and figures/ for one run;
- ``compare_runs(run_dirs, out_dir)`` writes a side-by-side comparison of several runs;
- ``log_wandb(run_dir, settings)`` logs a run to Weights & Biases (optional dependency ``wandb``).
"""

from __future__ import annotations

from typing import Any

from mmtsb.report.build import build_report, compute
from mmtsb.report.compare import compare_runs
from mmtsb.report.data import RunData, RunDataError, read_rows
from mmtsb.report.taxonomy import Classification, classify


def log_wandb(run_dir: Any, settings: Any = None) -> str:
    """Log a run to W&B (see ``mmtsb.report.wandb_log``; imported lazily so wandb stays optional)."""
    from mmtsb.report.wandb_log import log_wandb as _log

    return _log(run_dir, settings)


__all__ = ["build_report", "compare_runs", "log_wandb", "compute", "RunData", "RunDataError", "read_rows",
           "Classification", "classify"]
