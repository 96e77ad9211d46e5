"""W&B logging of a generation run (``logging=wandb``; offline without a key, synced later with ``wandb sync``):
the run config without secrets, one table per stage, the funnel, the distribution figure, and the final
scenario set as an artifact."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mmtsb.report.wandb_log import _slug, import_wandb, run_location, wandb_run

__all__ = ["log_generation"]

MAX_TABLE_ROWS = 5000  # rows per stage table sent to W&B (the Parquet files hold all of them)


def _stage_table(wandb: Any, path: Path) -> Any:
    import pyarrow.parquet as pq

    rows = pq.read_table(path).to_pylist()[:MAX_TABLE_ROWS]
    columns = sorted({k for r in rows for k in r}) if rows else ["empty"]
    data = [[r.get(c) if isinstance(r.get(c), (int, float, str, bool, type(None))) else json.dumps(r.get(c), default=str)
             for c in columns] for r in rows]
    return wandb.Table(columns=columns, data=data, allow_mixed_types=True)


def log_generation(run_dir: Path, config: dict[str, Any], logging: Any) -> str:
    """Log ``run_dir`` to W&B; returns the local W&B folder (offline) or the run URL."""
    wandb = import_wandb()
    with wandb_run(wandb, run_dir, logging, job_type="generate", config=config) as run:
        funnel = json.loads((run_dir / "funnel.json").read_text(encoding="utf-8"))
        payload: dict[str, Any] = {}
        for path in sorted((run_dir / "stages").glob("[0-9]_*.parquet")):
            if path.stem == "2_embeddings":  # vectors, not a stage's items
                continue
            payload[f"stages/{path.stem}"] = _stage_table(wandb, path)
        payload["funnel"] = wandb.Table(columns=["stage", "unit", "in", "out", "rejected"],
                                        data=[[s["stage"], s["unit"], s["in"], s["out"], json.dumps(s["rejected"])]
                                              for s in funnel["stages"]])
        figure = run_dir / "figures" / "distribution.png"
        if figure.is_file():
            payload["figures/distribution"] = wandb.Image(str(figure))
        run.log(payload)
        run.summary.update({"final_scenarios": funnel["final"], "cost": funnel.get("cost", 0.0),
                            **{f"funnel/{s['stage']}/out": s["out"] for s in funnel["stages"]}})
        scenarios = run_dir / "scenarios"
        if scenarios.is_dir() and any(scenarios.glob("*.json")):
            artifact = wandb.Artifact(_slug(f"scenarios-{run_dir.name}"), type="dataset",
                                      metadata={"scenarios": funnel["final"]})
            artifact.add_dir(str(scenarios))
            run.log_artifact(artifact)
        return run_location(run)
