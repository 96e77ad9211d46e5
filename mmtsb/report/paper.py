"""``mmtsb report --paper RUN_DIR...``: a set of runs laid out as the paper's Section 6 tables and figures.

Each run folder (or every run folder below a folder, e.g. a ``--multirun`` sweep) is summarised once by
:func:`mmtsb.report.build.compute`; this module only picks and arranges those summaries' metrics (read by name,
so a change to how a metric is computed flows through unchanged):

- Table 2: Agent SR, Entity F1 and average steps per model, in the main setting: the (interface, toolbox)
  pair most models ran (ties: code execution with the full toolbox, the paper's setting); UI-mode runs apart;
- Table 3: the failure root-cause taxonomy per model (counts and shares of its failures), main setting;
- Table 4: UI mode per model: Agent SR, UI SR, User SR, Entity F1, average steps;
- Table 11: tool discovery per model: surfaced and invoked recall of the expected tools, search calls per
  episode, Agent SR;
- Table 12: Agent SR by image source category per model (a scenario counts in every category it has an image
  from), with an overall row;
- the interface ablation (Figure 6b: models run on several interfaces) and the toolbox ablation (Figure 6c:
  Agent SR and average steps per toolbox level);
- Figures 5 (breakdowns), 6a (User SR against Agent SR, every non-UI run), 6b, 6c and 7 (taxonomy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mmtsb.report import figures as figs
from mmtsb.report import paper_figures
from mmtsb.report.build import FIGURE_DIR, compute, write_json, write_text
from mmtsb.report.data import LEGACY_JSONL, PARQUET_DIR, RunData, RunDataError
from mmtsb.report.markdown import num, partial_judge_note, pct, table
from mmtsb.report.metrics import IMAGE_CATEGORIES
from mmtsb.report.taxonomy import CATEGORIES, CATEGORY_TITLES

PAPER_SETTING = ("code_exec", "full")
TOOLBOX_ORDER = ("full", "medium", "compact", "mini")
FIGURES = {"fig5": "fig5_breakdowns.png", "fig5_image_source": "fig5_image_source_category.png",
           "fig6a": "fig6a_user_vs_agent_sr.png", "fig6b": "fig6b_interface_ablation.png",
           "fig6c": "fig6c_toolbox_ablation.png", "fig7": "fig7_failure_taxonomy.png"}


# ------------------------------------------------------------------------------------------------ runs
def is_run_dir(path: Path) -> bool:
    return (path / PARQUET_DIR).exists() or (path / LEGACY_JSONL).is_file()


def discover_runs(paths: Sequence[Path]) -> list[Path]:
    """The run folders given, or found below the folders given (a sweep's job folders), in order."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if is_run_dir(path):
            found = [path]
        else:
            found = sorted({m.parent for name in (PARQUET_DIR, LEGACY_JSONL) for m in path.glob(f"**/{name}")})
            found = [p for p in found if not any(q in p.parents for q in found)]   # not a run inside a run
        if not found:
            raise RunDataError(f"{path}: not a run folder, and no run folder ({PARQUET_DIR}/) below it")
        out += [p for p in found if p not in out]
    return out


@dataclass
class PaperRun:
    """One run: its summary and what places it in the tables."""

    run_dir: Path
    summary: dict[str, Any]
    model: str
    interface: str
    toolbox: str
    ui: bool
    label: str = ""

    @property
    def setting(self) -> tuple[str, str]:
        return self.interface, self.toolbox


def _config(run_dir: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load((run_dir / "config.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def load_run(run_dir: Path) -> PaperRun:
    """Summarise a run; its model is the model entry's name from config.yaml (e.g. ``gpt_5_4_high``), else the
    agent model id of its rows; UI mode from the config, else from its rows having UI verdicts."""
    summary = compute(RunData.load(run_dir))["summary"]
    config = _config(run_dir)
    model_entry = config.get("model") if isinstance(config.get("model"), dict) else {}
    model = str(model_entry.get("name") or summary["config"]["agent_model"])
    dataset = config.get("dataset") if isinstance(config.get("dataset"), dict) else {}
    ui_flag = config.get("ui")
    ui = bool(ui_flag) if ui_flag is not None else bool(dataset.get("enable_ui", "ui_sr" in summary))
    return PaperRun(run_dir, summary, model, summary["config"]["interface"], summary["config"]["toolbox"], ui)


def _label_runs(runs: list[PaperRun]) -> None:
    """Labels unique across the runs: the model, then its interface/toolbox, then the folder name."""
    for run in runs:
        run.label = run.model + (" (UI)" if run.ui else "")
    for widen in (lambda r: f"{r.label} [{r.interface}, {r.toolbox}]", lambda r: f"{r.label} [{r.run_dir.name}]",
                  lambda r: f"{r.label} #{runs.index(r) + 1}"):
        counts = Counter(r.label for r in runs)
        for run in runs:
            if counts[run.label] > 1:
                run.label = widen(run)


def main_setting(runs: Sequence[PaperRun]) -> tuple[str, str] | None:
    """The (interface, toolbox) most models ran (non-UI runs); ties go to the paper's code_exec/full."""
    models: dict[tuple[str, str], set[str]] = {}
    for run in runs:
        models.setdefault(run.setting, set()).add(run.model)
    if not models:
        return None
    return max(models, key=lambda s: (len(models[s]), s == PAPER_SETTING, s))


# ------------------------------------------------------------------------------------------------ tables
@dataclass
class PaperTable:
    key: str
    title: str
    header: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""
    empty: str = ""

    def markdown(self) -> str:
        body = table(self.header, self.rows) if self.rows else f"_{self.empty}_"
        return f"## {self.title}\n\n{body}" + (f"\n\n{self.note}" if self.note else "")

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "header": self.header, "rows": self.rows, "note": self.note}


def _steps(s: dict[str, Any]) -> str:
    return num(s.get("avg_steps"), 1)


def table2(main: list[PaperRun], setting: tuple[str, str] | None) -> PaperTable:
    where = f"interface {setting[0]}, toolbox {setting[1]}" if setting else ""
    t = PaperTable("table2", f"Table 2: Main results ({where})" if where else "Table 2: Main results",
                   ["Model", "Agent Success Rate ↑", "95% CI", "Entity F1 ↑", "Entity F1 (reference) ↑",
                    "Avg. Steps ↓", "Episodes"],
                   empty="no non-UI run among the runs given")
    for r in main:
        s = r.summary
        ci = s.get("agent_sr_ci")
        t.rows.append([r.label, num(s.get("agent_sr")), f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "–",
                       num(s.get("entity_f1")), num(s.get("entity_f1_macro")), _steps(s), s.get("n_evaluated")])
    t.note = ("Agent SR: share of evaluated episodes whose agent judge passed every criterion (95% Wilson "
              "interval); Entity F1: our entity-level F1, and the reference's (macro over table groups); average "
              "steps as the run reports them. Runs in other settings are in the ablations below. "
              + partial_judge_note([(r.label, r.summary) for r in main])).strip()
    return t


def table3(main: list[PaperRun]) -> PaperTable:
    t = PaperTable("table3", "Table 3: Failure root-cause taxonomy",
                   ["Model (failures)", *(CATEGORY_TITLES[c] for c in CATEGORIES)],
                   empty="no non-UI run among the runs given")
    for r in main:
        tax = r.summary["failure_taxonomy"]
        n = tax["n_failures"]
        t.rows.append([f"{r.label} ({n})", *(f"{tax['counts'].get(c, 0)} ({pct(tax['counts'].get(c, 0) / n)})"
                                             if n else "0" for c in CATEGORIES)])
    t.note = ("Percentages are relative to each model's failures. The root cause of each failure comes from the "
              "report's classifier (see a run's report.md for its rules and evidence).")
    return t


def table4(ui_runs: list[PaperRun]) -> PaperTable:
    t = PaperTable("table4", "Table 4: UI mode", ["Model", "Agent SR", "UI SR", "User SR", "Entity F1", "Avg. Steps",
                                                  "Episodes"], empty="no UI-mode run among the runs given")
    for r in ui_runs:
        s = r.summary
        t.rows.append([r.label, num(s.get("agent_sr")), num(s.get("ui_sr")), num(s.get("user_sr")),
                       num(s.get("entity_f1")), _steps(s), s.get("n_evaluated")])
    t.note = partial_judge_note([(r.label, r.summary) for r in ui_runs])
    return t


def table11(main: list[PaperRun]) -> PaperTable:
    t = PaperTable("table11", "Table 11: Tool discovery",
                   ["Agent Model", "Surfaced recall", "Invoked recall", "Search calls", "Pass rate"],
                   empty="no non-UI run among the runs given")
    for r in main:
        s = r.summary
        t.rows.append([r.label, num(s.get("surfaced_tool_recall")), num(s.get("invoked_tool_recall")),
                       num(s.get("search_calls_per_episode"), 1), num(s.get("agent_sr"))])
    t.note = ("Surfaced recall: share of the scenario's expected tools the agent discovered through tool search "
              "(or called); invoked recall: share it called; search calls per episode; pass rate is Agent SR.")
    return t


def table12(main: list[PaperRun]) -> PaperTable:
    values: list[str] = [c for c in IMAGE_CATEGORIES]
    for r in main:
        values += [v for v in r.summary["breakdowns"].get("image_category", {}) if v not in values]
    t = PaperTable("table12", "Table 12: Agent SR by image source category", ["Category", "n", *(r.label for r in main)],
                   empty="no non-UI run among the runs given")
    if not main:
        return t
    for v in values:
        groups = [r.summary["breakdowns"].get("image_category", {}).get(v) for r in main]
        if not any(groups):
            continue
        ns = {g["n"] for g in groups if g}
        t.rows.append([v, ns.pop() if len(ns) == 1 else "varies",
                       *(num(g["agent_sr"]) + ("" if len({x["n"] for x in groups if x}) == 1 else f" (n={g['n']})")
                         if g else "–" for g in groups)])
    ns = {r.summary["n_evaluated"] for r in main}
    t.rows.append(["Overall", ns.pop() if len(ns) == 1 else "varies", *(num(r.summary.get("agent_sr")) for r in main)])
    t.note = ("n: evaluated episodes with at least one image from the category (scenarios × repeats); "
              "categories overlap, so the counts do not sum to the overall n.")
    return t


def ablation(non_ui: list[PaperRun], key: Callable[[PaperRun], str], fixed: Callable[[PaperRun], str],
             order: Sequence[str], tkey: str, title: str) -> tuple[PaperTable, dict[str, dict[str, dict[str, Any]]]]:
    """Per model (and fixed other axis), Agent SR and average steps for each value of ``key``; only models run
    on two values or more. Also returns the figure series: model -> value -> summary."""
    groups: dict[tuple[str, str], dict[str, PaperRun]] = {}
    for r in non_ui:
        groups.setdefault((r.model, fixed(r)), {}).setdefault(key(r), r)
    groups = {g: by for g, by in groups.items() if len(by) > 1}
    seen = [v for v in order if any(v in by for by in groups.values())]
    seen += sorted({v for by in groups.values() for v in by} - set(seen))
    t = PaperTable(tkey, title, ["Model", *(f"{v} SR / steps" for v in seen)],
                   empty="no model was run on more than one of them")
    series: dict[str, dict[str, dict[str, Any]]] = {}
    for (model, other), by in groups.items():
        name = f"{model} [{other}]" if len({o for m, o in groups if m == model}) > 1 else model
        series[name] = {v: by[v].summary for v in seen if v in by}
        t.rows.append([name, *(f"{num(by[v].summary.get('agent_sr'))} / {_steps(by[v].summary)}" if v in by
                               else "–" for v in seen)])
    return t, series


# ------------------------------------------------------------------------------------------------ the report
def paper_report(run_dirs: Sequence[Path], out_dir: Path) -> dict[str, Any]:
    """Write ``out_dir/paper.md``, ``out_dir/paper.json`` and ``out_dir/figures/``; returns what paper.json holds
    plus ``report`` (the Markdown path)."""
    runs = [load_run(d) for d in discover_runs(run_dirs)]
    _label_runs(runs)
    non_ui = [r for r in runs if not r.ui]
    ui_runs = [r for r in runs if r.ui]
    setting = main_setting(non_ui)
    main = [r for r in non_ui if r.setting == setting]
    interface_table, interface_series = ablation(
        non_ui, lambda r: r.interface, lambda r: r.toolbox, ("code_exec", "tool_use", "hybrid"), "interface_ablation",
        "Interface ablation (Figure 6b): Agent SR / average steps per interface")
    toolbox_table, toolbox_series = ablation(
        non_ui, lambda r: r.toolbox, lambda r: r.interface, TOOLBOX_ORDER, "toolbox_ablation",
        "Toolbox ablation (Figure 6c): Agent SR / average steps per toolbox level")
    tables = [table2(main, setting), table3(main), table4(ui_runs), table11(main), table12(main), interface_table,
              toolbox_table]
    figures = draw_figures(out_dir / FIGURE_DIR, main, non_ui, interface_series, toolbox_series)
    result = {"runs": [{"label": r.label, "run_dir": str(r.run_dir), "model": r.model, "interface": r.interface,
                        "toolbox": r.toolbox, "ui": r.ui, "main": r in main, "summary": r.summary} for r in runs],
              "main_setting": list(setting) if setting else None,
              "tables": {t.key: t.to_dict() for t in tables},
              "figures": {k: f"{FIGURE_DIR}/{v}" for k, v in figures.items()}}
    report = out_dir / "paper.md"
    write_text(report, render(runs, main, tables, figures))
    write_json(out_dir / "paper.json", result)
    return {**result, "report": str(report)}


def draw_figures(fig_dir: Path, main: list[PaperRun], non_ui: list[PaperRun],
                 interface_series: dict[str, dict[str, dict[str, Any]]],
                 toolbox_series: dict[str, dict[str, dict[str, Any]]]) -> dict[str, str]:
    """The paper's figures that the runs given can fill (file names relative to ``fig_dir``)."""
    out: dict[str, Path] = {}
    if main:
        out["fig5"] = figs.breakdown_figure({r.label: r.summary["breakdowns"] for r in main}, fig_dir / FIGURES["fig5"])
        out["fig5_image_source"] = figs.image_source_figure({r.label: r.summary["breakdowns"] for r in main},
                                                            fig_dir / FIGURES["fig5_image_source"])
        out["fig7"] = figs.taxonomy_figure({r.label: r.summary["failure_taxonomy"]["counts"] for r in main},
                                           fig_dir / FIGURES["fig7"])
    if non_ui:
        out["fig6a"] = figs.user_vs_agent_figure({r.label: r.summary for r in non_ui}, fig_dir / FIGURES["fig6a"])
    if interface_series:
        out["fig6b"] = paper_figures.interface_figure(interface_series, fig_dir / FIGURES["fig6b"])
    if toolbox_series:
        out["fig6c"] = paper_figures.toolbox_figure(toolbox_series, TOOLBOX_ORDER, fig_dir / FIGURES["fig6c"])
    return {k: out[k].name for k in FIGURES if k in out}


FIGURE_TITLES = {"fig5": "Figure 5: Agent SR by image arrival, number of images, challenge and flow type",
                 "fig5_image_source": "Agent SR by image source category (Table 12)",
                 "fig6a": "Figure 6a: User SR against Agent SR (every non-UI run)",
                 "fig6b": "Figure 6b: interface ablation", "fig6c": "Figure 6c: toolbox granularity ablation",
                 "fig7": "Figure 7: failure taxonomy per model"}


def render(runs: list[PaperRun], main: list[PaperRun], tables: list[PaperTable], figures: dict[str, str]) -> str:
    listing = table(["Label", "Run folder", "Model", "Interface", "Toolbox", "UI", "Episodes", "Not evaluated",
                     "In Tables 2/3/11/12"],
                    [[r.label, f"`{r.run_dir}`", r.model, r.interface, r.toolbox, "yes" if r.ui else "",
                      r.summary["n_episodes"], r.summary.get("not_evaluated", 0), "yes" if r in main else ""]
                     for r in runs])
    parts = [f"# The paper's tables from {len(runs)} run(s)", "## Runs\n\n" + listing,
             "Every metric excludes the episodes that could not be evaluated (infrastructure, configuration and "
             "scenario failures), as in each run's report."]
    parts += [t.markdown() for t in tables]
    parts += [f"## {FIGURE_TITLES[k]}\n\n![{FIGURE_TITLES[k]}]({FIGURE_DIR}/{v})" for k, v in figures.items()]
    return "\n\n".join(parts) + "\n"
