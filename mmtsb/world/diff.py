"""World diffs: which rows were added, updated (with old and new values) or deleted, per table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RowUpdate:
    """One updated row: its key, the whole old and new row, and the columns that changed."""

    key: Any
    old: dict[str, Any]
    new: dict[str, Any]

    @property
    def changed(self) -> dict[str, tuple[Any, Any]]:
        cols = set(self.old) | set(self.new)
        return {c: (self.old.get(c), self.new.get(c)) for c in sorted(cols) if self.old.get(c) != self.new.get(c)}


@dataclass
class TableDiff:
    """Changes to one table between two snapshots."""

    table: str
    added: list[dict[str, Any]] = field(default_factory=list)
    updated: list[RowUpdate] = field(default_factory=list)
    deleted: list[dict[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.updated or self.deleted)

    @property
    def n_changes(self) -> int:
        return len(self.added) + len(self.updated) + len(self.deleted)

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "added": self.added,
                "updated": [{"key": u.key, "changed": {c: {"old": o, "new": n} for c, (o, n) in u.changed.items()}}
                            for u in self.updated],
                "deleted": self.deleted}


@dataclass
class WorldDiff:
    """Per-table diffs; tables without changes are left out."""

    tables: dict[str, TableDiff] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.tables

    def __getitem__(self, key: str) -> TableDiff:
        return self.tables.get(key) or TableDiff(key)

    def __contains__(self, key: str) -> bool:
        return key in self.tables

    def to_dict(self) -> dict[str, Any]:
        return {k: v.to_dict() for k, v in sorted(self.tables.items())}

    def summary(self) -> dict[str, str]:
        return {k: f"+{len(v.added)} ~{len(v.updated)} -{len(v.deleted)}" for k, v in sorted(self.tables.items())}


def diff_rows(table: str, before: dict[Any, dict[str, Any]], after: dict[Any, dict[str, Any]]) -> TableDiff:
    """Diff two ``{primary key: row}`` maps of one table."""
    d = TableDiff(table)
    for k in sorted(after, key=key_order):
        old, row = before.get(k), after[k]
        if old is None:
            d.added.append(row)
        elif old != row:
            d.updated.append(RowUpdate(k, old, row))
    d.deleted = [before[k] for k in sorted(before, key=key_order) if k not in after]
    return d


def key_order(key: Any) -> tuple[str, Any]:
    """Sort primary keys of mixed types deterministically (by type name, then value)."""
    return (type(key).__name__, key)
