"""Where re-judged verdicts live: beside the run, one folder per judge label, one row per (episode, judge repeat).

Layout of ``RUN_DIR/rejudge/<label>/``:

- ``judge.json``: the judge (kind, name, its config with secrets removed), its fingerprint and what it covers;
- ``verdicts.parquet/<episode_id>__j<r>.parquet``: one single-row part file per episode and judge repeat ``r``,
  written atomically (as the run's own ``episodes.parquet``): ids, the content key, the verdict per judged
  party (``<party>_pass``, one column per criterion, ``<party>_judge_error``), the judge's usage
  (``<party>_judge_total_tokens``...), and every verdict in full (``verdicts``: criteria with their analysis
  and evidence, the judge's reasoning) for viewers.

Content key: sha256 over the trajectory's content, the judge's fingerprint (kind, the model fields that change
its answers, each judge's prompt version) and the repeat index. A verdict whose key matches is never asked
again, under any label of the run.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from mmtsb.protocol import registry
from mmtsb.protocol.judges import JudgeVerdict
from mmtsb.runner.results import RunLayout
from mmtsb.runner.rows import USAGE_FIELDS

REJUDGE_DIR = "rejudge"
JUDGE_FILE = "judge.json"
VERDICTS_DIR = "verdicts.parquet"
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class StoreError(ValueError):
    """A label that cannot be used (a bad name, or a folder holding another judge's verdicts)."""


def check_label(label: str) -> str:
    if not _LABEL.match(label):
        raise StoreError(f"label={label!r}: use letters, digits, '.', '_' or '-' (at most 100, not starting "
                         "with a dot): it names the folder rejudge/<label>/")
    return label


def label_from(name: str) -> str:
    """A folder-safe label from a judge's name (``gpt_5_4``, ``llm:openai/gpt-5.4`` -> ``llm-openai-gpt-5.4``)."""
    out = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return out[:100] or "judge"


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def cache_key(trajectory_sha256: str, fingerprint: str, judge_repeat: int) -> str:
    """The content key of one verdict: same trajectory, same judge config, same repeat -> same key."""
    return digest({"trajectory": trajectory_sha256, "judge": fingerprint, "repeat": judge_repeat})


def part_name(episode_id: str, judge_repeat: int) -> str:
    return f"{episode_id}__j{judge_repeat}"


def labels(run_dir: str | Path) -> list[str]:
    """The judge labels re-judged in a run folder, sorted."""
    base = Path(run_dir) / REJUDGE_DIR
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / JUDGE_FILE).is_file())


@dataclass
class JudgeRecord:
    """``judge.json``: which judge a label holds the verdicts of."""

    label: str
    kind: str
    name: str
    fingerprint: str
    fingerprint_view: dict[str, Any]
    config: dict[str, Any]
    judge_repeats: int = 1

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class VerdictStore:
    """One label's folder: its ``judge.json`` and its verdict part files (atomic writes, secrets scrubbed)."""

    def __init__(self, run_dir: str | Path, label: str, secrets: Iterable[str] = ()) -> None:
        self.run_dir = Path(run_dir)
        self.label = check_label(label)
        self.folder = self.run_dir / REJUDGE_DIR / label
        self.layout = RunLayout(self.folder, tuple(secrets))
        # the run layout's part files and atomic writes, under other names
        self.layout.episodes_dir = self.folder / VERDICTS_DIR
        self.layout.summary_path = self.folder / JUDGE_FILE

    @property
    def judge_path(self) -> Path:
        return self.folder / JUDGE_FILE

    def judge(self) -> JudgeRecord | None:
        if not self.judge_path.is_file():
            return None
        try:
            return JudgeRecord(**json.loads(self.judge_path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as e:
            raise StoreError(f"{self.judge_path}: cannot read it ({e}); remove the folder or choose another "
                             "label=") from None

    def claim(self, record: JudgeRecord, *, replace: bool = False) -> None:
        """Make this folder the given judge's: refused when it holds another judge config's verdicts (unless
        ``replace``, which removes them); the recorded repeat count only grows."""
        held = self.judge()
        if held is not None and held.fingerprint != record.fingerprint:
            if not replace:
                differ = sorted(k for k in {**held.fingerprint_view, **record.fingerprint_view}
                                if held.fingerprint_view.get(k) != record.fingerprint_view.get(k))
                raise StoreError(f"{self.folder} holds the verdicts of another judge config ({', '.join(differ)} "
                                 "differ): choose another label=, or replace=true to drop them")
            for part in self.part_files():
                part.unlink()
            held = None
        if held is not None:
            record.judge_repeats = max(record.judge_repeats, held.judge_repeats)
        self.layout.write_summary(record.to_dict())

    def part_files(self) -> list[Path]:
        return [self.layout.part_path(n) for n in sorted(self.layout.done_ids())]

    def key_of(self, episode_id: str, judge_repeat: int) -> str | None:
        """The content key of the stored verdict of (episode, repeat), or None when there is none."""
        path = self.layout.part_path(part_name(episode_id, judge_repeat))
        if not path.is_file():
            return None
        try:
            keys = pq.read_table(path, columns=["cache_key"]).column("cache_key").to_pylist()
        except (OSError, KeyError, ValueError):
            return None
        return keys[0] if keys else None

    def read(self, episode_id: str, judge_repeat: int) -> dict[str, Any] | None:
        path = self.layout.part_path(part_name(episode_id, judge_repeat))
        if not path.is_file():
            return None
        rows = pq.read_table(path).to_pylist()
        return rows[0] if rows else None

    def write(self, row: dict[str, Any]) -> Path:
        return self.layout.write_row(part_name(row["episode_id"], int(row["judge_repeat"])), row)

    def rows(self) -> list[dict[str, Any]]:
        """Every stored verdict row, sorted by episode and repeat."""
        rows = self.layout.read_rows()
        rows.sort(key=lambda r: (str(r.get("episode_id")), int(r.get("judge_repeat") or 0)))
        return rows


def find_cached(run_dir: str | Path, episode_id: str, judge_repeat: int, key: str) -> dict[str, Any] | None:
    """A stored verdict row with this content key under any label of the run (None when there is none)."""
    for label in labels(run_dir):
        store = VerdictStore(run_dir, label)
        if store.key_of(episode_id, judge_repeat) == key:
            return store.read(episode_id, judge_repeat)
    return None


def verdict_row(*, episode_id: str, scenario: str, repeat: int | None, judge_repeat: int, label: str, key: str,
                trajectory_sha256: str, fingerprint: str, verdicts: dict[str, JudgeVerdict]) -> dict[str, Any]:
    """One stored row: ids, the content key, and per judged party its verdict columns and usage."""
    row: dict[str, Any] = {"episode_id": episode_id, "scenario": scenario, "repeat": repeat,
                           "judge_repeat": judge_repeat, "judge_label": label, "cache_key": key,
                           "trajectory_sha256": trajectory_sha256, "judge_fingerprint": fingerprint,
                           "judged_at": time.time(), "parties": json.dumps(sorted(verdicts))}
    parties = registry.judged_parties()
    for name, verdict in verdicts.items():
        party = parties.get(name)
        row[f"{name}_judge"] = verdict.judge
        row[f"{name}_pass"] = None if verdict.error else verdict.passed
        row[f"{name}_judge_error"] = verdict.error
        by_name = {c.criterion: c.passed for c in verdict.criteria}
        for criterion in (party.criteria if party is not None else by_name):
            column = party.column(criterion) if party is not None else f"{name}_{criterion}"
            row[column] = by_name.get(criterion)
        for k in USAGE_FIELDS:
            row[f"{name}_judge_{k}"] = verdict.usage.get(k, 0) or 0
    row["verdicts"] = json.dumps({k: v.to_dict() for k, v in verdicts.items()}, default=str)
    return row
