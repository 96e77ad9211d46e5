"""Human labels: one CSV or Parquet file per annotator, the contract between the viewer's annotation page (which
writes them) and ``mmtsb agreement --labels`` (which reads them).

Columns, exactly these (any order): ``annotator, run, episode_id, party, criterion, label, note``.

- ``annotator``: who labelled (one name per file);
- ``run``: the run folder the episode belongs to: its name (last path component) or its path;
- ``episode_id``: the episode's id (``episode_id`` of ``episodes.parquet``, the trajectory's file name);
- ``party``: ``agent``, ``user`` or ``ui`` (what is judged, as the judges of the run);
- ``criterion``: one of the party's rubric criteria (``task_completion``, ``request_fidelity``,
  ``ui_task_focus``...), or ``overall`` for the verdict on the party as a whole;
- ``label``: ``pass`` or ``fail``;
- ``note``: free text (may be empty).

A party's overall human verdict is its ``overall`` row when there is one; else ``fail`` when a criterion row
fails, ``pass`` when every criterion of the party has a row and all pass (the AND, as the judges decide), and
no verdict otherwise. A file that breaks the contract is refused with the file, the row and the column named.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mmtsb.protocol import registry

COLUMNS = ("annotator", "run", "episode_id", "party", "criterion", "label", "note")
OVERALL = "overall"
LABEL_VALUES = {"pass": True, "fail": False}
SUFFIXES = (".csv", ".parquet")


class LabelsError(ValueError):
    """A labels file that breaks the format; the message names the file, row and column."""


@dataclass(frozen=True)
class Label:
    annotator: str
    run: str
    episode_id: str
    party: str
    criterion: str
    passed: bool
    note: str
    file: str
    row: int            # 1-based data row (a CSV's header is line 1, so row r is on line r + 1)


def label_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, with the labels files (.csv, .parquet) of each folder named, sorted."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in SUFFIXES)
            if not found:
                raise LabelsError(f"{p}: no labels files (*.csv, *.parquet) in this folder")
            out += found
        elif p.is_file():
            out.append(p)
        else:
            raise LabelsError(f"{p}: no such labels file or folder")
    return out


def _read_rows(path: Path) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, rows) of a CSV or Parquet file."""
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as e:  # noqa: BLE001 (pyarrow raises several types for a broken file)
            raise LabelsError(f"{path}: not a readable Parquet file ({e})") from None
        return list(table.column_names), table.to_pylist()
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            columns = [c.strip() for c in reader.fieldnames or []]
            reader.fieldnames = columns
            rows = [dict(r) for r in reader]
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise LabelsError(f"{path}: not a readable UTF-8 CSV file ({e})") from None
    for i, r in enumerate(rows, start=1):
        if None in r:   # more cells than the header has columns
            raise LabelsError(f"{path}: row {i} (line {i + 1}): {len(columns) + len(r[None])} cells but the header "
                              f"has {len(columns)} columns")
    return columns, rows


def _where(path: Path, row: int, column: str) -> str:
    line = f" (line {row + 1})" if path.suffix.lower() != ".parquet" else ""
    return f"{path}: row {row}{line}, column '{column}'"


def read_labels(path: str | Path) -> list[Label]:
    """Every label of one annotator's file, checked against the format (see the module docstring)."""
    path = Path(path)
    columns, rows = _read_rows(path)
    missing = [c for c in COLUMNS if c not in columns]
    extra = [c for c in columns if c not in COLUMNS]
    if missing or extra:
        problems = ([f"missing column(s) {', '.join(missing)}"] if missing else []) + \
                   ([f"unknown column(s) {', '.join(extra)}"] if extra else [])
        raise LabelsError(f"{path}: {'; '.join(problems)}; a labels file has exactly the columns "
                          f"{', '.join(COLUMNS)}")
    if not rows:
        raise LabelsError(f"{path}: no labels (the file has a header but no rows)")
    parties = registry.judged_parties()
    out: list[Label] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    annotator: str | None = None
    for i, r in enumerate(rows, start=1):
        cell = {c: ("" if r.get(c) is None else str(r.get(c))).strip() for c in COLUMNS}
        for c in ("annotator", "run", "episode_id", "party", "criterion", "label"):
            if not cell[c]:
                raise LabelsError(f"{_where(path, i, c)}: empty; every row needs a value here")
        if annotator is None:
            annotator = cell["annotator"]
        elif cell["annotator"] != annotator:
            raise LabelsError(f"{_where(path, i, 'annotator')}: {cell['annotator']!r}, but earlier rows say "
                              f"{annotator!r}: one file per annotator")
        party = parties.get(cell["party"])
        if party is None:
            raise LabelsError(f"{_where(path, i, 'party')}: {cell['party']!r} is not one of {', '.join(parties)}")
        if cell["criterion"] != OVERALL and cell["criterion"] not in party.criteria:
            raise LabelsError(f"{_where(path, i, 'criterion')}: {cell['criterion']!r} is not a criterion of the "
                              f"{party.name} judge; use {OVERALL} or one of {', '.join(party.criteria)}")
        value = LABEL_VALUES.get(cell["label"].lower())
        if value is None:
            raise LabelsError(f"{_where(path, i, 'label')}: {cell['label']!r}; a label is pass or fail")
        key = (cell["run"], cell["episode_id"], cell["party"], cell["criterion"])
        if key in seen:
            raise LabelsError(f"{_where(path, i, 'criterion')}: {cell['party']}/{cell['criterion']} of episode "
                              f"{cell['episode_id']} (run {cell['run']}) is labelled again (first in row {seen[key]})")
        seen[key] = i
        out.append(Label(cell["annotator"], cell["run"], cell["episode_id"], cell["party"], cell["criterion"],
                         value, cell["note"], str(path), i))
    return out


def read_all(paths: Sequence[str | Path]) -> list[Label]:
    """The labels of every file (or folder of files); two files of one annotator are refused."""
    labels: list[Label] = []
    owner: dict[str, str] = {}
    for path in label_files(paths):
        file_labels = read_labels(path)
        name = file_labels[0].annotator
        if name in owner and owner[name] != str(path):
            raise LabelsError(f"{path}: annotator {name!r} also has the file {owner[name]}: one file per annotator")
        owner[name] = str(path)
        labels += file_labels
    return labels


def write_labels(path: str | Path, labels: Iterable[dict[str, Any]]) -> Path:
    """Write one annotator's labels (dicts with the columns; ``label`` as pass/fail or a bool) as CSV or Parquet
    by the file's suffix: the writer side of the contract, for tools and tests."""
    path = Path(path)
    rows = [{c: _cell(c, r.get(c)) for c in COLUMNS} for r in labels]
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({c: [r[c] for r in rows] for c in COLUMNS},
                                schema=pa.schema([(c, pa.string()) for c in COLUMNS])), path)
    else:
        with path.open("w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(COLUMNS))
            writer.writeheader()
            writer.writerows(rows)
    return path


def _cell(column: str, value: Any) -> str:
    if column == "label" and isinstance(value, bool):
        return "pass" if value else "fail"
    return "" if value is None else str(value)
