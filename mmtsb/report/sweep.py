"""``mmtsb report SWEEP_DIR``: one summary across the jobs of a ``mmtsb run --multirun`` sweep.

A sweep folder (``hydra.sweep.dir``) holds one run folder per job (``<job number>_<overrides>``), each with its
own report. The sweep summary puts the jobs side by side: a table of every job with the overrides that made
it and its headline metrics, then the comparison of the jobs' runs (:func:`mmtsb.report.compare.compare_runs`:
metrics, taxonomy, pass^k, breakdowns, figures, and a warning when jobs cover different scenario sets).
Written into the sweep folder: ``report.md``, ``sweep.json``, ``comparison.json``, ``figures/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from mmtsb.report.build import write_json, write_text
from mmtsb.report.compare import compare_runs
from mmtsb.report.data import LEGACY_JSONL, PARQUET_DIR, RunDataError
from mmtsb.report.markdown import ci, num, partial_judge_note, pct, table
from mmtsb.protocol.roles import cost_text

_JOB_NUMBER = re.compile(r"^(\d+)")


def is_run_folder(path: Path) -> bool:
    """A folder with results rows (``episodes.parquet``, or the older ``episodes.jsonl``)."""
    path = Path(path)
    return (path / PARQUET_DIR).exists() or (path / LEGACY_JSONL).is_file()


def _job_order(path: Path) -> tuple[int, str]:
    m = _JOB_NUMBER.match(path.name)
    return (int(m.group(1)) if m else 1 << 30, path.name)


def sweep_jobs(sweep_dir: Path) -> list[Path]:
    """The job folders of a sweep (its sub-folders, by job number), results or not."""
    return sorted((p for p in Path(sweep_dir).iterdir() if p.is_dir() and not p.name.startswith(".")), key=_job_order)


def is_sweep(path: Path) -> bool:
    path = Path(path)
    return path.is_dir() and not is_run_folder(path) and any(is_run_folder(j) for j in sweep_jobs(path))


def job_overrides(job_dir: Path) -> list[str]:
    """The command-line overrides of a job (``.hydra/overrides.yaml``, secrets already removed), or []."""
    try:
        data = yaml.safe_load((Path(job_dir) / ".hydra" / "overrides.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return []
    return [str(x) for x in data] if isinstance(data, list) else []


def _jobs_table(jobs: list[dict[str, Any]]) -> str:
    rows = [[j["job"], ", ".join(f"`{o}`" for o in j["overrides"]) or "–", j.get("label", "–"),
             j.get("n_episodes", "–"), j.get("not_evaluated", "–"), pct(j.get("agent_sr")), ci(j.get("agent_sr_ci")),
             num(j.get("entity_f1")), pct(j.get("user_sr")), num(j.get("avg_steps"), 1),
             "–" if j.get("cost_usd") is None else cost_text(j["cost_usd"], j.get("cost_known", True))]
            if j.get("has_results") else
            [j["job"], ", ".join(f"`{o}`" for o in j["overrides"]) or "–", "no results in this job's folder",
             *["–"] * 8] for j in jobs]
    note = partial_judge_note([(j["job"], j) for j in jobs if j.get("has_results")])
    return table(["Job", "Overrides", "Run", "Episodes", "Not evaluated", "Agent SR", "95% CI", "Entity F1",
                  "User SR", "Avg steps", "Cost (USD)"], rows) + (f"\n\n{note}" if note else "")


def sweep_report(sweep_dir: Path, out_dir: Path | None = None) -> dict[str, Any]:
    """Write the sweep summary (see the module docstring); returns {"jobs", "warnings", "report"}."""
    sweep_dir = Path(sweep_dir)
    out_dir = Path(out_dir) if out_dir is not None else sweep_dir
    folders = sweep_jobs(sweep_dir)
    with_results = [f for f in folders if is_run_folder(f)]
    if not with_results:
        raise RunDataError(f"{sweep_dir}: no job folder of this sweep holds results ({PARQUET_DIR}/)")
    compared = compare_runs(with_results, out_dir)
    by_dir = {Path(s["run_dir"]).resolve(): s for s in compared["runs"]}
    keys = ("label", "n_episodes", "not_evaluated", "agent_sr", "agent_sr_ci", "entity_f1", "user_sr", "avg_steps",
            "cost_usd", "cost_known", "agent_sr_note")
    jobs = []
    for folder in folders:
        s = by_dir.get(folder.resolve())
        jobs.append({"job": folder.name, "run_dir": str(folder), "overrides": job_overrides(folder),
                     "has_results": s is not None, **({k: s.get(k) for k in keys} if s else {})})
    comparison = Path(compared["report"]).read_text(encoding="utf-8")
    body = comparison.split("\n", 1)[1] if comparison.startswith("# ") else comparison
    text = (f"# Sweep summary: {len(jobs)} job(s)\n\nSweep folder `{sweep_dir}`; each job's own report is in its "
            f"folder. Jobs without results (a job that stopped before its first episode) are listed, not "
            f"compared.\n\n## Jobs\n\n{_jobs_table(jobs)}\n\n# Comparison of the jobs' runs\n{body}")
    report = out_dir / "report.md"
    write_text(report, text)
    result = {"sweep_dir": str(sweep_dir), "jobs": jobs, "warnings": compared["warnings"], "report": str(report)}
    write_json(out_dir / "sweep.json", result)
    return result
