"""Stage tables: ``stages/<n>_<name>.parquet``, one row per item, written so that a killed run resumes.

While a stage runs, every finished batch of rows is written at once as its own part file
(``stages/<n>_<name>.parts/part-<k>.parquet``, written to a temporary name and renamed, so a part is either
whole or absent, even after ``kill -9``). A rerun skips the items whose ids are in the parts. When the stage
ends, the parts (and its last batch, which needs no part of its own) are merged into the stage's one Parquet file
(again atomically) and removed; a stage whose
file exists is complete and is not run again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["StageStore", "rows_table", "write_atomic"]


def write_atomic(table: pa.Table, path: Path) -> None:
    """Write ``table`` to ``path`` through a temporary name and a rename: whole or absent, even after kill -9."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def rows_table(rows: list[dict[str, Any]]) -> pa.Table:
    """``rows`` as a table with every column any of them has. (Arrow's ``from_pylist`` keeps only the columns of
    the first row: a batch whose first item failed with a stage error, a row of four columns, lost the model,
    token, cost and timing columns of every other row.)"""
    columns = dict.fromkeys(key for row in rows for key in row)
    return pa.table({key: [row.get(key) for row in rows] for key in columns})


class StageStore:
    """The rows of one stage: ``key`` names the id column (``image_id``, ``cluster_id``, ...)."""

    def __init__(self, stages_dir: Path, number: int, name: str, key: str) -> None:
        self.number, self.name, self.key = number, name, key
        self.path = stages_dir / f"{number}_{name}.parquet"
        self.parts_dir = stages_dir / f"{number}_{name}.parts"
        # the parts this store wrote, as written: the merge takes them from here rather than reading them back
        self._written: dict[Path, pa.Table] = {}
        #: wall-clock time (``time.time()``) the stage file became durable in :meth:`finish` (None before)
        self.finished_at: float | None = None

    @property
    def complete(self) -> bool:
        return self.path.exists()

    def _part_files(self) -> list[Path]:
        return sorted(self.parts_dir.glob("part-*.parquet")) if self.parts_dir.exists() else []

    def rows(self) -> list[dict[str, Any]]:
        """Every row written so far (the final file, or the parts of an unfinished stage)."""
        table = self._read()
        return [] if table is None else table.to_pylist()

    def _read(self) -> pa.Table | None:
        """The stage file, or the parts of an unfinished stage concatenated; None when there is nothing."""
        files = [self.path] if self.complete else self._part_files()
        if not files:
            return None
        tables = [self._written[f] if f in self._written else pq.read_table(f) for f in files]
        return pa.concat_tables(tables, promote_options="permissive")

    def done_keys(self) -> set[str]:
        table = self._read()
        return set() if table is None else set(table.column(self.key).to_pylist())

    def append(self, rows: Iterable[dict[str, Any]]) -> None:
        """Write ``rows`` as one new part (durable when this returns)."""
        rows = list(rows)
        if not rows:
            return
        self.parts_dir.mkdir(parents=True, exist_ok=True)
        k = len(self._part_files())
        path = self.parts_dir / f"part-{k:06d}.parquet"
        while path.exists():
            k += 1
            path = self.parts_dir / f"part-{k:06d}.parquet"
        table = rows_table(rows)
        write_atomic(table, path)
        self._written[path] = table

    def finish(self, order: list[str] | None = None, last: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Merge the parts into the stage file (rows in ``order`` of their keys when given) and return the rows.
        ``last``: rows not yet written (a stage's final batch), merged without being written as a part first."""
        if self.complete:
            return self.rows()
        table = self._read()
        if last:
            table = rows_table(last) if table is None else pa.concat_tables([table, rows_table(last)],
                                                                         promote_options="permissive")
        if table is None:
            table = pa.table({self.key: pa.array([], pa.string())})
        elif order is not None:
            # a stable sort by rank (keys not in ``order`` last, as they came), done by Arrow on the table itself
            rank = {k: i for i, k in enumerate(order)}
            ranks = [rank.get(k, len(rank)) for k in table.column(self.key).to_pylist()]
            table = table.take(sorted(range(len(ranks)), key=ranks.__getitem__))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(table, self.path)
        self.finished_at = time.time()
        for f in self._part_files():
            f.unlink()
        self._written.clear()
        if self.parts_dir.exists():
            self.parts_dir.rmdir()
        return table.to_pylist() if table.num_rows else []
