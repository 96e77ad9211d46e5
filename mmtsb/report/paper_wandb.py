"""The W&B form of ``mmtsb report --paper``: one W&B run (job type ``paper``) holding every table as a
``wandb.Table``, the figures as images and each run's headline metrics in the summary (``runs/<label>/...``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mmtsb.report.wandb_log import _settings_or_default, flatten, import_wandb, run_location, wandb_run

HEADLINE = ("agent_sr", "entity_f1", "entity_f1_macro", "user_sr", "ui_sr", "avg_steps", "surfaced_tool_recall",
            "invoked_tool_recall", "search_calls_per_episode", "n_evaluated")


def log_paper_wandb(result: dict[str, Any], out_dir: Path, settings: Any = None) -> str:
    """Log a paper report (what :func:`mmtsb.report.paper.paper_report` returned and wrote into ``out_dir``);
    returns the local W&B run folder (offline) or the run's URL."""
    wandb = import_wandb()
    out_dir = Path(out_dir)
    logging = _settings_or_default(out_dir, settings).logging
    config = {"runs": [{k: r[k] for k in ("label", "run_dir", "model", "interface", "toolbox", "ui", "main")}
                       for r in result["runs"]], "main_setting": result["main_setting"]}
    with wandb_run(wandb, out_dir, logging, job_type="paper", config=config) as run:
        run.summary.update(flatten({"runs": {r["label"]: {k: r["summary"].get(k) for k in HEADLINE}
                                             for r in result["runs"]}}))
        logged: dict[str, Any] = {}
        for key, t in result["tables"].items():
            logged[f"paper/{key}"] = wandb.Table(columns=t["header"], data=[[str(c) for c in row] for row in t["rows"]])
        for key, rel in result["figures"].items():
            if (out_dir / rel).is_file():
                logged[f"paper/{key}"] = wandb.Image(str(out_dir / rel))
        run.log(logged)
        return run_location(run)
