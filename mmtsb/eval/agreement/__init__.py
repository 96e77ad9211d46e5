"""The judge study (the paper's Appendix B and C) over run folders and human labels: ``mmtsb agreement``.

- :mod:`~mmtsb.eval.agreement.labels`: the human labels format (one CSV or Parquet file per annotator);
- :mod:`~mmtsb.eval.agreement.ratings`: every rater's labels over the same items;
- :mod:`~mmtsb.eval.agreement.stats`: the measures (scikit-learn, statsmodels, scipy);
- :mod:`~mmtsb.eval.agreement.study`: the study as data; :mod:`~mmtsb.eval.agreement.markdown` and
  :mod:`~mmtsb.eval.agreement.figures` render it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mmtsb.eval.agreement.labels import COLUMNS, Label, LabelsError, read_all, read_labels, write_labels

FIGURE_DIR = "figures"


def compute_study(run_dirs: Sequence[str | Path], label_paths: Sequence[str | Path] = ()) -> dict[str, Any]:
    """The study's data over ``run_dirs`` and the labels files (or folders) given."""
    from mmtsb.eval.agreement.ratings import collect
    from mmtsb.eval.agreement.study import study

    return study(collect(run_dirs, read_all(label_paths) if label_paths else []))


def write_study(run_dirs: Sequence[str | Path], label_paths: Sequence[str | Path], out_dir: str | Path
                ) -> dict[str, Any]:
    """Compute the study and write ``agreement.json``, ``agreement.md`` and ``figures/*.png`` into ``out_dir``."""
    from mmtsb.eval.agreement import figures, markdown
    from mmtsb.report.build import write_json, write_text

    out_dir = Path(out_dir)
    result = compute_study(run_dirs, label_paths)
    drawn = figures.draw_all(result, out_dir / FIGURE_DIR)
    result["figures"] = {k: f"{FIGURE_DIR}/{v}" for k, v in drawn.items()}
    write_json(out_dir / "agreement.json", result)
    write_text(out_dir / "agreement.md", markdown.render(result, drawn))
    return result


__all__ = ["COLUMNS", "Label", "LabelsError", "compute_study", "read_all", "read_labels", "write_labels",
           "write_study"]
