"""``compare_runs``: several runs side by side (headline table, taxonomy, pass^k, breakdowns, figures).

The runs' own folders are only read: their metrics are computed in memory, the comparison is written to
``out_dir`` (report.md, comparison.json, figures/).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mmtsb.report import figures as figs
from mmtsb.report import markdown
from mmtsb.report.build import FIGURE_DIR, compute, write_json, write_text
from mmtsb.report.coverage import coverage_warnings, scenario_set, warning_block
from mmtsb.report.data import RunData

COMPARE_FIGURES = {"headline": "compare_headline.png", "user_vs_agent": "compare_user_vs_agent_sr.png",
                   "taxonomy": "compare_failure_taxonomy.png", "breakdowns": "compare_fig5_breakdowns.png",
                   "image_source": "compare_image_source_category.png", "pass_k": "compare_pass_k.png"}


def _unique_labels(summaries: list[dict[str, Any]]) -> None:
    """Runs with the same configuration label get their folder name (and a number if still equal)."""
    counts = Counter(s["label"] for s in summaries)
    for s in summaries:
        if counts[s["label"]] > 1:
            s["label"] = f"{s['label']} [{Path(s['run_dir']).name}]"
    seen: Counter[str] = Counter()
    for s in summaries:
        seen[s["label"]] += 1
        if seen[s["label"]] > 1:
            s["label"] = f"{s['label']} #{seen[s['label']]}"


def compare_runs(run_dirs: list[Path], out_dir: Path) -> dict[str, Any]:
    """Compare runs; writes ``out_dir/report.md``, ``out_dir/comparison.json`` and ``out_dir/figures/``.
    Returns {"runs": [summary per run], "figures": {name: relative path}, "report": path, "warnings": [...]}
    (``warnings``: the runs cover different scenario sets, see :mod:`mmtsb.report.coverage`)."""
    if not run_dirs:
        raise ValueError("compare_runs needs at least one run folder")
    out_dir = Path(out_dir)
    datas = [RunData.load(Path(d)) for d in run_dirs]
    summaries = [compute(d)["summary"] for d in datas]
    _unique_labels(summaries)
    warnings = coverage_warnings([s["label"] for s in summaries], [scenario_set(d) for d in datas])
    fig_dir = out_dir / FIGURE_DIR
    by_label = {s["label"]: s for s in summaries}
    paths = {
        "headline": figs.headline_figure(by_label, fig_dir / COMPARE_FIGURES["headline"]),
        "user_vs_agent": figs.user_vs_agent_figure(by_label, fig_dir / COMPARE_FIGURES["user_vs_agent"]),
        "taxonomy": figs.taxonomy_figure({k: s["failure_taxonomy"]["counts"] for k, s in by_label.items()},
                                         fig_dir / COMPARE_FIGURES["taxonomy"]),
        "breakdowns": figs.breakdown_figure({k: s["breakdowns"] for k, s in by_label.items()},
                                            fig_dir / COMPARE_FIGURES["breakdowns"]),
        "image_source": figs.image_source_figure({k: s["breakdowns"] for k, s in by_label.items()},
                                                 fig_dir / COMPARE_FIGURES["image_source"]),
    }
    with_k = {k: s["pass_k"] for k, s in by_label.items() if s.get("pass_k")}
    if with_k:
        paths["pass_k"] = figs.pass_k_figure(with_k, fig_dir / COMPARE_FIGURES["pass_k"])
    names = {k: p.name for k, p in paths.items()}
    report = out_dir / "report.md"
    text = markdown.compare_report(summaries, names)
    if warnings:   # right under the title
        title, _, rest = text.partition("\n\n")
        text = f"{title}\n\n{warning_block(warnings)}\n{rest}"
    write_text(report, text)
    result = {"runs": summaries, "figures": {k: f"{FIGURE_DIR}/{v}" for k, v in names.items()},
              "report": str(report), "warnings": warnings}
    write_json(out_dir / "comparison.json", result)
    return result
