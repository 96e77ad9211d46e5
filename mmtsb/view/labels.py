"""Human labels of judge criteria, one CSV file per annotator: ``RUN_DIR/labels/<annotator>.csv``.

The contract (``mmtsb agreement --labels`` reads these files): the columns are exactly
``annotator, run, episode_id, party, criterion, label, note``; ``party`` is a judged party (``agent``, ``user``,
``ui``), ``label`` is ``pass`` or ``fail``, ``run`` the run folder's name (its last path component, as
``mmtsb agreement`` matches runs), ``episode_id`` the results row's id. One row per (run, episode, party,
criterion): labelling a criterion again replaces its row. Files are written whole and atomically, so a
reader never sees half a file and a crash never loses earlier labels.
"""

from __future__ import annotations

import csv
import io
import re
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from mmtsb.eval.agreement.labels import COLUMNS as LABEL_COLUMNS   # the one definition of the contract
from mmtsb.eval.agreement.labels import LABEL_VALUES as _READ_VALUES
from mmtsb.protocol import registry
from mmtsb.report.build import write_text

LABEL_VALUES = tuple(_READ_VALUES)   # ("pass", "fail")
LABELS_DIR = "labels"
_ANNOTATOR = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_NOTE_CHARS = 4000


class LabelError(ValueError):
    """A label or labels file that breaks the contract (the message names the file, row or field)."""


@dataclass(frozen=True)
class Label:
    annotator: str
    run: str
    episode_id: str
    party: str
    criterion: str
    label: str
    note: str = ""

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.run, self.episode_id, self.party, self.criterion)


def check_annotator(name: str) -> str:
    """An annotator name is also a file name: letters, digits, ``_ . -``, at most 64 characters."""
    if not isinstance(name, str) or not _ANNOTATOR.match(name):
        raise LabelError(f"annotator {name!r}: use 1-64 letters, digits, '_', '.' or '-' (it names the labels file)")
    return name


def check_label(label: Label, where: str = "label") -> Label:
    """The label if it keeps the contract, else a LabelError naming the field."""
    check_annotator(label.annotator)
    parties = registry.judged_parties()
    if label.party not in parties:
        raise LabelError(f"{where}: party {label.party!r} is not one of {', '.join(parties)}")
    if label.criterion not in parties[label.party].criteria:
        raise LabelError(f"{where}: criterion {label.criterion!r} is not one of party {label.party}'s "
                         f"({', '.join(parties[label.party].criteria)})")
    if label.label not in LABEL_VALUES:
        raise LabelError(f"{where}: label {label.label!r} must be 'pass' or 'fail'")
    if not label.run or not label.episode_id:
        raise LabelError(f"{where}: run and episode_id must not be empty")
    if len(label.note) > MAX_NOTE_CHARS:
        raise LabelError(f"{where}: note longer than {MAX_NOTE_CHARS} characters")
    return label


def labels_path(run_dir: Path, annotator: str) -> Path:
    return Path(run_dir) / LABELS_DIR / f"{check_annotator(annotator)}.csv"


def read_labels(path: Path) -> list[Label]:
    """The labels of one file (none when it does not exist); a file that breaks the contract is an error
    naming the file and the row."""
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != LABEL_COLUMNS:
            raise LabelError(f"{path}: columns {reader.fieldnames} are not {', '.join(LABEL_COLUMNS)}")
        out = []
        for i, raw in enumerate(reader, start=2):
            try:
                out.append(check_label(Label(**{k: raw[k] or "" for k in LABEL_COLUMNS}), f"{path}, line {i}"))
            except TypeError as e:
                raise LabelError(f"{path}, line {i}: {e}") from None
    return out


def labels_csv(labels: list[Label]) -> str:
    """The file text of ``labels`` (header first)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=LABEL_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for label in labels:
        writer.writerow(asdict(label))
    return buf.getvalue()


class LabelStore:
    """The labels files of one run folder; saving replaces a criterion's earlier label (one writer at a time).
    ``run``: what its labels' ``run`` column says (default: the folder's name)."""

    def __init__(self, run_dir: Path, run: str | None = None) -> None:
        self.run_dir = Path(run_dir)
        self.run = run or self.run_dir.resolve().name
        self._lock = threading.Lock()

    def annotators(self) -> list[str]:
        folder = self.run_dir / LABELS_DIR
        return sorted(p.stem for p in folder.glob("*.csv")) if folder.is_dir() else []

    def read(self, annotator: str) -> list[Label]:
        return read_labels(labels_path(self.run_dir, annotator))

    def save(self, labels: list[Label]) -> Path:
        """Add or replace ``labels`` (one annotator's) in that annotator's file."""
        if not labels:
            raise LabelError("no labels to save")
        annotator = labels[0].annotator
        for i, label in enumerate(labels):
            if label.annotator != annotator or label.run != self.run:
                raise LabelError(f"labels[{i}]: every label of one save must be annotator {annotator!r}, "
                                 f"run {self.run!r}")
            check_label(label, f"labels[{i}]")
        path = labels_path(self.run_dir, annotator)
        with self._lock:
            merged = {label.key: label for label in read_labels(path)}
            merged.update({label.key: label for label in labels})
            write_text(path, labels_csv(list(merged.values())))
        return path

