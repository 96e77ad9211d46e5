"""Reading a run folder: the episode rows of ``episodes.parquet`` and, on demand, their trajectories.

Each part file of the dataset is read on its own and the rows are concatenated as dicts, so part files
written by different code versions (a column added, a column that is all-null in one file) still combine.
Folders written by the earlier in-process runner (``episodes.jsonl``) are read as well.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmtsb.protocol.failures import is_excluded
from mmtsb.protocol.trajectory import Trajectory, TrajectoryFormatError, load_trajectory
from mmtsb.text import error_headline

PARQUET_DIR = "episodes.parquet"
LEGACY_JSONL = "episodes.jsonl"
TRAJECTORY_DIR = "trajectories"
#: the selected scenario files a run refused to play, with their validation errors (written by the runner)
INVALID_SCENARIOS = "invalid_scenarios.json"
log = logging.getLogger("mmtsb.report")
#: end reasons that mean the episode ran out of budget (an agent failure, not an infrastructure one)
BUDGET_END_REASONS = frozenset({"max_messages", "max_steps", "max_interaction_steps", "wall_clock", "token_budget"})
#: run-level fields that label a configuration in comparisons
CONFIG_FIELDS = ("agent_model", "interface", "toolbox", "user_model", "judge_model", "dataset", "config_hash")

Row = dict[str, Any]


class RunDataError(ValueError):
    """A run folder holds no readable results."""


def read_rows(run_dir: Path) -> list[Row]:
    """Every episode row of a run, sorted by episode id (or scenario) for stable reports."""
    run_dir = Path(run_dir)
    pq_dir = run_dir / PARQUET_DIR
    rows: list[Row] = []
    if pq_dir.is_dir() or pq_dir.is_file():
        rows = _read_parquet(pq_dir)
    elif (run_dir / LEGACY_JSONL).is_file():
        rows = _read_jsonl(run_dir / LEGACY_JSONL)
    else:
        raise RunDataError(f"{run_dir}: no {PARQUET_DIR}/ (nor {LEGACY_JSONL}) found: is this a run folder?")
    rows.sort(key=lambda r: (str(r.get("episode_id") or ""), str(r.get("scenario") or ""), r.get("repeat") or 0))
    return rows


def _read_parquet(path: Path) -> list[Row]:
    import pyarrow.parquet as pq

    files = [path] if path.is_file() else sorted(
        p for p in path.glob("*.parquet") if p.is_file() and not p.name.startswith((".", "_")))
    rows: list[Row] = []
    for f in files:
        rows.extend(pq.read_table(f).to_pylist())
    return rows


def _read_jsonl(path: Path) -> list[Row]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:   # a torn last line of a killed run
            continue
    return rows


def json_list(value: Any) -> list[Any]:
    """A JSON-encoded list column (``expected_tools``, ``invoked_tools``...) as a list."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    try:
        out = json.loads(value)
    except (TypeError, json.JSONDecodeError):
        return []
    return out if isinstance(out, list) else []


def is_infra(row: Row) -> bool:
    """A row left out of the agent metrics: an infrastructure, configuration or scenario failure (its
    ``failure_class``; older rows: flagged by the runner, crashed, or an agent judge that gave no verdict).
    These never count as agent failures."""
    return is_excluded(row)


def infra_reason(row: Row) -> str:
    """Why a row is left out of the agent metrics, in one line."""
    if row.get("agent_judge_error") and row.get("end_reason") != "error" and not row.get("error"):
        return f"agent judge: {first_line(row['agent_judge_error'])}"
    return first_line(row.get("error") or "infrastructure failure (no error text)")


def first_line(text: Any, limit: int = 160) -> str:
    """The headline of a text, cut at ``limit``: its first line, or a traceback's exception line."""
    line = error_headline(text)
    return line if len(line) <= limit else line[: limit - 1] + "…"


def episode_key(row: Row) -> str:
    return str(row.get("episode_id") or f"{row.get('scenario')}__r{row.get('repeat') or 0}")


@dataclass
class RunData:
    """A run folder's rows; trajectories are read on demand."""

    run_dir: Path
    rows: list[Row]

    @classmethod
    def load(cls, run_dir: Path) -> "RunData":
        run_dir = Path(run_dir)
        return cls(run_dir, read_rows(run_dir))

    @property
    def evaluated(self) -> list[Row]:
        """Rows that count for agent metrics (infrastructure, configuration and scenario failures excluded)."""
        return [r for r in self.rows if not is_infra(r)]

    @property
    def infra(self) -> list[Row]:
        return [r for r in self.rows if is_infra(r)]

    def trajectory_path(self, row: Row) -> Path | None:
        """Where a row's trajectory is: its recorded path (absolute, or relative to the run folder), else
        ``trajectories/<episode_id>.json`` or ``trajectories/<scenario>.json``."""
        candidates: list[Path] = []
        recorded = row.get("trajectory_path")
        if recorded:
            p = Path(recorded)
            candidates += [p] if p.is_absolute() else [self.run_dir / p, Path.cwd() / p]
            candidates.append(self.run_dir / TRAJECTORY_DIR / p.name)
        for stem in (row.get("episode_id"), row.get("scenario")):
            if stem:
                candidates.append(self.run_dir / TRAJECTORY_DIR / f"{stem}.json")
        return next((c for c in candidates if c.is_file()), None)

    def record(self, row: Row) -> Trajectory | None:
        """The row's trajectory as the typed model, read through :func:`~mmtsb.protocol.trajectory.load_trajectory`
        (files of the previous format are upgraded; read each time, never kept: runs can hold thousands), or
        None when it cannot be found or read (a broken file is logged with its path)."""
        path = self.trajectory_path(row)
        if path is None:
            return None
        try:
            return load_trajectory(path)
        except TrajectoryFormatError as e:
            log.warning("trajectory left out of the report: %s", e)
            return None

    def trajectory(self, row: Row) -> dict[str, Any] | None:
        """:meth:`record` in its JSON form (what the report's per-episode facts read)."""
        record = self.record(row)
        return record.to_dict() if record is not None else None

    def invalid_scenarios(self) -> list[dict[str, Any]]:
        """The selected files the run refused to play (``[{"file", "errors"}]``; none when the runner wrote no
        list, or an unreadable one)."""
        try:
            found = json.loads((self.run_dir / INVALID_SCENARIOS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return [i for i in found if isinstance(i, dict) and "file" in i] if isinstance(found, list) else []

    def config(self) -> dict[str, str]:
        """The run's configuration fields, each the distinct values found in its rows joined by '+'."""
        out: dict[str, str] = {}
        fallback = {"agent_model": "agent", "user_model": "user", "judge_model": "agent_judge"}
        for name in CONFIG_FIELDS:
            values: dict[str, None] = {}
            for r in self.rows:
                v = r.get(name)
                if v in (None, "") and name in fallback:
                    v = r.get(fallback[name])
                if v not in (None, ""):
                    values.setdefault(str(v), None)
            out[name] = "+".join(values) if values else "?"
        return out

    def label(self) -> str:
        """A short label for comparisons: agent model / interface / toolbox."""
        c = self.config()
        return " / ".join(c[k] for k in ("agent_model", "interface", "toolbox"))
