"""The runs a viewer shows: finding run folders, their summaries, and each run's compact episode index.

The index is what the list pages filter and paginate: one short record per episode, taken from the results
rows only (a run of 10,000 episodes opens without reading a trajectory), sent as columns + value lists so it
stays small. It is built once per run and rebuilt when the run's ``episodes.parquet/`` changes (a live run).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mmtsb.protocol import registry
from mmtsb.report.data import LEGACY_JSONL, PARQUET_DIR, RunData, RunDataError, episode_key, first_line, is_infra
from mmtsb.report.metrics import image_categories
from mmtsb.report.sweep import is_run_folder
from mmtsb.view.links import run_id
from mmtsb.view.rowcache import read_rows_cached

log = logging.getLogger("mmtsb.view")
#: how deep below a given folder run folders are looked for (outputs/multirun/<date>/<time>/<job>)
SEARCH_DEPTH = 4
#: the index's columns, in order (the front end reads them by name)
INDEX_COLUMNS = ("id", "scenario", "repeat", "model", "interface", "toolbox", "flow", "arrival", "challenge",
                 "categories", "agent_pass", "user_pass", "ui_pass", "f1", "failing", "end_reason", "excluded",
                 "failure_class", "steps", "duration_s", "error")
#: summary.json keys a run card shows
SUMMARY_KEYS = ("n_episodes", "n_evaluated", "n_scenarios", "repeats", "agent_sr", "agent_sr_ci", "entity_f1",
                "entity_f1_macro", "user_sr", "ui_sr", "avg_steps", "not_evaluated", "total_tokens", "cost_usd",
                "end_reasons", "criteria", "figures", "duration_s", "stopped")


def find_run_folders(paths: list[Path], depth: int = SEARCH_DEPTH) -> list[Path]:
    """Run folders among ``paths``: each path that is one, else the run folders below it (a ``--multirun``
    sweep, an ``outputs/`` folder), in sorted order. A path that is neither is an error naming it."""
    found: dict[Path, None] = {}
    for path in paths:
        path = Path(path)
        if not path.is_dir():
            raise RunDataError(f"{path}: not a folder")
        below = [path] if is_run_folder(path) else _below(path, depth)
        if not below:
            raise RunDataError(f"{path}: no run folder (with {PARQUET_DIR}/) in it or below it")
        for p in below:
            found.setdefault(p.resolve(), None)
    return list(found)


def _below(path: Path, depth: int) -> list[Path]:
    if depth <= 0:
        return []
    out: list[Path] = []
    try:
        children = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []
    for child in children:
        out.extend([child] if is_run_folder(child) else _below(child, depth - 1))
    return out


def criterion_columns() -> list[tuple[str, str]]:
    """(``party.criterion``, its results column) of every rubric criterion of the registry's judged parties."""
    return [(f"{p.name}.{c}", p.column(c)) for p in registry.judged_parties().values() for c in p.criteria]


def failing_criteria(row: dict[str, Any], columns: list[tuple[str, str]] | None = None) -> list[str]:
    """``party.criterion`` of every rubric criterion the row's judges failed."""
    return [name for name, col in (columns or criterion_columns()) if row.get(col) is False]


def row_image_categories(row: dict[str, Any]) -> list[str]:
    """The image source categories of a row (from its ``image_sources``; older rows: its dataset type)."""
    try:
        sources = json.loads(row.get("image_sources") or "[]")
    except (TypeError, json.JSONDecodeError):
        sources = []
    return image_categories(row, {"images": [{"source": s} for s in sources]} if sources else None)


class IndexBuilder:
    """Index records of one run's rows; what many rows share (their scenario's image categories, the criterion
    columns) is worked out once."""

    def __init__(self) -> None:
        self.columns = criterion_columns()
        self._categories: dict[tuple[Any, Any], list[str]] = {}

    def categories(self, row: dict[str, Any]) -> list[str]:
        key = (row.get("image_sources"), row.get("dataset_type"))
        if key not in self._categories:
            self._categories[key] = row_image_categories(row)
        return self._categories[key]

    def record(self, row: dict[str, Any]) -> list[Any]:
        """One episode's entry of the index, in :data:`INDEX_COLUMNS` order."""
        f1, duration = row.get("entity_f1"), row.get("duration_s")
        return [episode_key(row), row.get("scenario"), row.get("repeat") or 0,
                row.get("agent_model") or row.get("agent"), row.get("interface"), row.get("toolbox"),
                row.get("selected_flow_type"), row.get("image_arrival"), row.get("challenge_type"),
                self.categories(row), row.get("agent_pass"), row.get("user_pass"), row.get("ui_pass"),
                None if f1 is None else round(float(f1), 4), failing_criteria(row, self.columns),
                row.get("end_reason"), is_infra(row), row.get("failure_class"), row.get("steps"),
                None if duration is None else round(float(duration), 2), first_line(row.get("error")) or None]


@dataclass
class RunEntry:
    """One run folder of the viewer: its rows and index, read on first use and again when the run changes."""

    run_id: str
    run_dir: Path
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _stamp: Any = None
    _data: RunData | None = None
    _index: dict[str, Any] | None = None
    _by_id: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)

    def _current_stamp(self) -> Any:
        target = self.run_dir / PARQUET_DIR
        if not target.exists():
            target = self.run_dir / LEGACY_JSONL
        try:
            st = os.stat(target)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _load(self) -> None:
        stamp = self._current_stamp()
        if self._data is not None and stamp == self._stamp:
            return
        data = RunData(self.run_dir, read_rows_cached(self.run_dir))
        self._data, self._stamp = data, stamp
        self._by_id = {episode_key(r): r for r in data.rows}
        builder = IndexBuilder()
        self._index = {"run": self.run_id, "columns": list(INDEX_COLUMNS),
                       "rows": [builder.record(r) for r in data.rows]}

    def data(self) -> RunData:
        with self._lock:
            self._load()
            assert self._data is not None
            return self._data

    def index(self) -> dict[str, Any]:
        with self._lock:
            self._load()
            assert self._index is not None
            return self._index

    def row(self, episode_id: str) -> dict[str, Any] | None:
        with self._lock:
            self._load()
            return self._by_id.get(episode_id)

    def summary(self) -> dict[str, Any]:
        """The run card: its configuration, label, summary.json figures and a count of its episodes."""
        data = self.data()
        saved: dict[str, Any] = {}
        path = self.run_dir / "summary.json"
        if path.is_file():
            try:
                saved = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as e:
                log.warning("%s: unreadable summary.json, left out (%s)", self.run_dir, e)
        evaluated = data.evaluated
        judged = [r for r in evaluated if r.get("agent_pass") is not None]
        out = {k: saved[k] for k in SUMMARY_KEYS if k in saved}
        out.update({"id": self.run_id, "run_dir": str(self.run_dir), "label": data.label(), "config": data.config(),
                    "n_episodes": len(data.rows), "scenarios": sorted({str(r.get("scenario")) for r in data.rows}),
                    "has_report": (self.run_dir / "report.md").is_file()})
        out.setdefault("agent_sr", sum(bool(r["agent_pass"]) for r in judged) / len(judged) if judged else None)
        out.setdefault("not_evaluated", len(data.rows) - len(evaluated))
        return out


class RunCatalog:
    """The runs one viewer shows, by id (see :func:`mmtsb.view.links.run_id`)."""

    def __init__(self, run_dirs: list[Path]) -> None:
        self.runs: dict[str, RunEntry] = {}
        for d in run_dirs:
            rid, n = run_id(d), 1
            while rid in self.runs:
                n += 1
                rid = f"{run_id(d)}-{n}"
            self.runs[rid] = RunEntry(rid, Path(d))

    @classmethod
    def from_paths(cls, paths: list[Path]) -> RunCatalog:
        return cls(find_run_folders(paths))

    def get(self, rid: str) -> RunEntry:
        try:
            return self.runs[rid]
        except KeyError:
            raise KeyError(f"no run {rid!r} in this viewer (runs: {', '.join(self.runs) or 'none'})") from None

    def summaries(self) -> list[dict[str, Any]]:
        """Every run's card; a run whose rows cannot be read is listed with its error."""
        out = []
        for rid, entry in self.runs.items():
            try:
                out.append(entry.summary())
            except (RunDataError, OSError, ValueError) as e:
                out.append({"id": rid, "run_dir": str(entry.run_dir), "error": str(e)})
        return out
