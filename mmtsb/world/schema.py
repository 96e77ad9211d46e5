"""Table definitions: what a table is called, which columns it has and how values are typed.

Every app declares its tables with :func:`table`. The World turns them into SQLite DDL inside one
attached schema per app (so ``gmail.emails`` is a real table) and uses the column types to encode
values on the way in (lists as JSON, booleans as 0/1) and decode them on the way out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from collections.abc import Iterable

#: Column types understood by the World. ``datetime`` values are stored as ISO-8601 text.
COLUMN_TYPES = {"int": "INTEGER", "float": "REAL", "str": "TEXT", "bool": "INTEGER", "datetime": "TEXT",
                "json": "TEXT"}


@dataclass(frozen=True)
class Column:
    """One column: its name and one of :data:`COLUMN_TYPES`."""

    name: str
    type: str

    def __post_init__(self) -> None:
        if self.type not in COLUMN_TYPES:
            raise ValueError(f"column {self.name!r}: unknown type {self.type!r}; use one of {sorted(COLUMN_TYPES)}")

    def encode(self, value: Any) -> Any:
        """Python value -> SQLite value."""
        if value is None:
            return None
        if self.type == "json":
            return value if isinstance(value, str) and _looks_like_json(value) else json.dumps(value)
        if self.type == "bool":
            if isinstance(value, str):
                return 1 if value.strip().lower() in ("1", "true", "yes") else 0
            return 1 if value else 0
        if self.type == "datetime":
            if isinstance(value, datetime):
                return value.isoformat()
            if isinstance(value, date):
                return value.isoformat()
            return str(value)
        if isinstance(value, (list, dict)):
            return json.dumps(value)
        return value

    def decode(self, value: Any) -> Any:
        """SQLite value -> Python value (lists for json columns, bool for bool columns)."""
        if value is None:
            return None
        if self.type == "json":
            try:
                return json.loads(value) if isinstance(value, str) else value
            except json.JSONDecodeError:
                return value
        if self.type == "bool":
            return bool(value)
        return value


def _looks_like_json(text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return False
    try:
        json.loads(stripped)
    except json.JSONDecodeError:
        return False
    return True


@dataclass(frozen=True)
class Table:
    """A table inside an attached schema.

    ``key`` is the name scenario files use for it: ``"gmail.emails"`` for app tables, the
    namespace name (``"CALENDAR_EVENTS"``) for the device-side tables.
    """

    schema: str
    name: str
    columns: tuple[Column, ...]
    primary_key: str = "id"
    key: str = ""
    #: rows never shown in diffs/guardrails (harness bookkeeping such as login sessions)
    internal: bool = False
    by_name: dict[str, Column] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", f"{self.schema}.{self.name}")
        object.__setattr__(self, "by_name", {c.name: c for c in self.columns})
        if self.primary_key not in self.by_name:
            raise ValueError(f"table {self.key}: primary key {self.primary_key!r} is not a column")

    @property
    def qualified(self) -> str:
        """The SQL name, e.g. ``gmail.emails``."""
        return f'"{self.schema}"."{self.name}"'

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def integer_key(self) -> bool:
        return self.by_name[self.primary_key].type == "int"

    def has(self, column: str) -> bool:
        return column in self.by_name

    def encode_row(self, row: dict[str, Any]) -> dict[str, Any]:
        unknown = [k for k in row if k not in self.by_name]
        if unknown:
            raise KeyError(f"table {self.key} has no column(s) {unknown}; its columns are {self.column_names}")
        return {k: self.by_name[k].encode(v) for k, v in row.items()}

    def decode_row(self, row: dict[str, Any]) -> dict[str, Any]:
        return {k: (self.by_name[k].decode(v) if k in self.by_name else v) for k, v in row.items()}

    def ddl(self) -> str:
        cols = []
        for c in self.columns:
            sql_type = COLUMN_TYPES[c.type]
            if c.name == self.primary_key:
                # AUTOINCREMENT: ids of deleted rows are never reused, so a new row is never mistaken
                # for an update of a deleted one when worlds are diffed by primary key
                auto = " AUTOINCREMENT" if c.type == "int" else ""
                cols.append(f'"{c.name}" {sql_type} PRIMARY KEY{auto}')
            else:
                cols.append(f'"{c.name}" {sql_type}')
        return f'CREATE TABLE {self.qualified} ({", ".join(cols)})'


def table(schema: str, name: str, columns: dict[str, str], *, primary_key: str = "id", key: str = "",
          internal: bool = False) -> Table:
    """Declare a table compactly: ``table("gmail", "emails", {"id": "int", "subject": "str"})``."""
    return Table(schema=schema, name=name, columns=tuple(Column(n, t) for n, t in columns.items()),
                 primary_key=primary_key, key=key, internal=internal)


def schemas_of(tables: Iterable[Table]) -> list[str]:
    """The distinct schema names of some tables, in first-seen order."""
    seen: dict[str, None] = {}
    for t in tables:
        seen.setdefault(t.schema, None)
    return list(seen)
