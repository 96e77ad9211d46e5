"""Preparing table rows for the entity diff: soft-delete filtering, null filling, anti-joins (SPEC.md §6.2).

The reference holds each table as a polars frame. Two of its behaviours depend on that and are emulated
in strict mode only:

- null filling goes by the frame's dtype, which for AppWorld tables is inferred from the data: a column
  that is null in every row is Null-typed and stays null, and JSON columns are text, so their nulls become
  ``""`` there (device tables have declared list columns, filled with ``[]``);
- expected values are never filled, so an expected ``null`` compared with ``column_exact_match_similarity``
  fails against a filled actual (``0``, ``""``...).

Outside strict mode, nulls are filled by the declared column type in every table (JSON -> ``[]``), and the
expected values are filled the same way before they are compared, so "null" and "empty" mean the same on
both sides whatever the rest of the table holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Row = dict[str, Any]

#: the reference's id columns, in the order it picks the first one both sides share
ID_COLUMN_ORDER: tuple[str, ...] = (
    "id", "note_id", "reminder_id", "calendar_event_id", "calendar_id", "person_id", "song_id", "playlist_id",
    "email_id", "thread_id", "order_id", "product_id", "transaction_id", "expense_id", "task_id", "file_id",
    "directory_id", "contact_id", "alarm_id")

_FILL: dict[str, Any] = {"int": 0, "float": 0.0, "bool": False, "str": "", "datetime": ""}


def is_app_table(key: str) -> bool:
    """App tables are ``app.table``; device namespaces (``REMINDER``) have no dot."""
    return "." in key


def infer_column_types(rows: Sequence[Row]) -> dict[str, str]:
    """Column types from values (as polars infers them), for callers that pass plain dicts."""
    types: dict[str, str] = {}
    for row in rows:
        for col, value in row.items():
            if col in types or value is None:
                continue
            if isinstance(value, bool):
                types[col] = "bool"
            elif isinstance(value, int):
                types[col] = "int"
            elif isinstance(value, float):
                types[col] = "float"
            elif isinstance(value, str):
                types[col] = "str"
            elif isinstance(value, list):
                types[col] = "json"
            else:
                types[col] = "struct"  # dicts and others: never filled
    for row in rows:
        for col in row:
            types.setdefault(col, "null")
    return types


def fill_value(column_type: str, *, app_table: bool, strict: bool) -> Any:
    """The value a null becomes for a column type (None: left null)."""
    if column_type == "json":
        return "" if (strict and app_table) else []
    return _FILL.get(column_type)


def null_typed_columns(rows: Sequence[Row], column_types: Mapping[str, str], *, app_table: bool,
                       strict: bool) -> set[str]:
    """Strict mode, app tables: the columns null in every row (polars infers them as Null and leaves them)."""
    if not (strict and app_table):
        return set()
    return {c for c in column_types if all(r.get(c) is None for r in rows)}


def fill_nulls(rows: Sequence[Row], column_types: Mapping[str, str], *, app_table: bool, strict: bool,
               keep_null: Iterable[str] = ()) -> list[Row]:
    """Copies of the rows with nulls replaced by their column type's fill value (see module docstring)."""
    skip = set(keep_null)
    fills = {c: fill_value(t, app_table=app_table, strict=strict) for c, t in column_types.items()
             if c not in skip}
    fills = {c: v for c, v in fills.items() if v is not None}
    out = []
    for row in rows:
        filled = dict(row)
        for col, value in fills.items():
            if filled.get(col) is None:
                filled[col] = list(value) if isinstance(value, list) else value
        out.append(filled)
    return out


def fill_expected(row: Mapping[str, Any], column_types: Mapping[str, str], *, app_table: bool) -> Row:
    """Our (non-strict) mode: fill the expected row's nulls exactly like the table's."""
    return fill_nulls([dict(row)], {c: t for c, t in column_types.items() if c in row}, app_table=app_table,
                      strict=False)[0]


def drop_soft_deleted(rows: Sequence[Row]) -> list[Row]:
    """Keep rows whose ``deleted`` flag is false (a null flag is not false: the row is dropped)."""
    return [r for r in rows if r.get("deleted") is not None and not r.get("deleted")]


def prepare_rows(key: str, rows: Sequence[Row], column_types: Mapping[str, str], *, strict: bool) -> list[Row]:
    """Rows as the evaluator compares them: soft-deleted app rows dropped, then nulls filled."""
    app = is_app_table(key)
    keep_null = null_typed_columns(rows, column_types, app_table=app, strict=strict)  # the whole frame
    kept = drop_soft_deleted(rows) if app and "deleted" in column_types else list(rows)
    return fill_nulls(kept, column_types, app_table=app, strict=strict, keep_null=keep_null)


def shared_id_column(columns_a: Iterable[str], columns_b: Iterable[str]) -> str | None:
    """The first column of :data:`ID_COLUMN_ORDER` present on both sides, or None."""
    a, b = set(columns_a), set(columns_b)
    return next((c for c in ID_COLUMN_ORDER if c in a and c in b), None)


def _row_key(row: Row, columns: Sequence[str]) -> str:
    return json.dumps([row.get(c) for c in columns], sort_keys=True, default=str)


def anti_join(left: Sequence[Row], right: Sequence[Row], left_columns: Iterable[str],
              right_columns: Iterable[str]) -> list[Row]:
    """Rows of ``left`` with no counterpart in ``right``: by the first shared id column compared as text,
    else by every common column."""
    left_cols, right_cols = list(left_columns), list(right_columns)
    id_col = shared_id_column(left_cols, right_cols)
    if id_col is not None:
        seen = {str(r.get(id_col)) for r in right}
        return [r for r in left if str(r.get(id_col)) not in seen]
    common = [c for c in left_cols if c in set(right_cols)]
    seen_rows = {_row_key(r, common) for r in right}
    return [r for r in left if _row_key(r, common) not in seen_rows]
