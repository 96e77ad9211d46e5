"""Writes outside the expected changes (SPEC.md §6.2 guardrails, §9 item 7).

Reference: only device namespaces (keys without a dot) are checked; any change to one that no spec names
(SANDBOX, IMAGE and the recurrence staging table excepted) fails the episode, and the score is forced to 0.
Its AppWorld guardrail only ever looks at spec tables, so it never fires.

Ours (default): every table is checked. A row added, updated or deleted in a table that is neither a spec
table nor a companion of one (``App.companions``: tables the same user action writes, e.g. email threads
when an email is sent) nor internal is an *unexpected write*. Each one is reported with its table,
operation and key, and counts as one unmatched actual entity, lowering precision instead of zeroing F1.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mmtsb.eval.rows import ID_COLUMN_ORDER, Row
from mmtsb.world.diff import TableDiff, WorldDiff, diff_rows

#: device namespaces the reference's guardrail never checks
REFERENCE_EXEMPT_NAMESPACES = frozenset({"SANDBOX", "IMAGE"})


@dataclass
class UnexpectedWrite:
    """A row written outside the spec tables and their companions."""

    table: str
    operation: str  # create / update / delete
    key: Any
    changed_columns: list[str] = field(default_factory=list)


def _reference_exempt(key: str) -> bool:
    return key.upper() in REFERENCE_EXEMPT_NAMESPACES or key.upper().endswith("RECURRENCE_STAGING")


def reference_guardrail_failures(diff: WorldDiff, spec_tables: Iterable[str]) -> list[str]:
    """The reference's verdict: one message per changed device namespace that no spec names."""
    specs = {k.upper() if "." not in k else k for k in spec_tables}
    failures = []
    for key, d in sorted(diff.tables.items()):
        if "." in key or key.upper() in specs or _reference_exempt(key) or d.empty:
            continue
        failures.append(f"{key}: changed although no spec names it "
                        f"(+{len(d.added)} ~{len(d.updated)} -{len(d.deleted)})")
    return failures


def companion_tables(spec_tables: Iterable[str], companions: Mapping[str, Iterable[str]]) -> set[str]:
    """Every table a spec table's actions also write."""
    return {c for k in spec_tables for c in companions.get(k, ())}


def default_companions() -> dict[str, tuple[str, ...]]:
    """``App.companions`` of every app, merged."""
    from mmtsb.apps import all_apps

    merged: dict[str, tuple[str, ...]] = {}
    for app in all_apps():
        for key, tables in app.companions.items():
            merged[key] = tuple(dict.fromkeys((*merged.get(key, ()), *tables)))
    return merged


def _pk(row: Row, primary_key: str | None) -> Any:
    return row.get(primary_key) if primary_key else None


def unexpected_writes(diff: WorldDiff, spec_tables: Iterable[str], companions: Mapping[str, Iterable[str]],
                      ignored_tables: Iterable[str] = (),
                      primary_keys: Mapping[str, str] | None = None) -> list[UnexpectedWrite]:
    """Every row written in a table that is not a spec table, a companion of one, or ignored."""
    specs = set(spec_tables)
    exempt = specs | companion_tables(specs, companions) | set(ignored_tables)
    out: list[UnexpectedWrite] = []
    for key, d in sorted(diff.tables.items()):
        if key in exempt:
            continue
        pk = (primary_keys or {}).get(key) or _guess_pk(d)
        out += [UnexpectedWrite(key, "create", _pk(r, pk)) for r in d.added]
        out += [UnexpectedWrite(key, "update", u.key, sorted(u.changed)) for u in d.updated]
        out += [UnexpectedWrite(key, "delete", _pk(r, pk)) for r in d.deleted]
    return out


def _guess_pk(d: TableDiff) -> str | None:
    rows = [*d.added, *d.deleted, *(u.new for u in d.updated)]
    columns = set(rows[0]) if rows else set()
    return next((c for c in ID_COLUMN_ORDER if c in columns), None)


def _keyed(rows: list[Row], pk: str | None) -> dict[Any, Row]:
    if pk:
        return {r.get(pk): r for r in rows}
    return {json.dumps(r, sort_keys=True, default=str): r for r in rows}


def diff_tables(initial: Mapping[str, Sequence[Row]], final: Mapping[str, Sequence[Row]],
                primary_keys: Mapping[str, str] | None = None) -> WorldDiff:
    """A row-level diff of plain table dicts (for callers without a World): rows are keyed by the primary
    key, else the first reference id column, else the whole row (an update then shows as delete + add)."""
    out = WorldDiff()
    for key in sorted(set(initial) | set(final)):
        before, after = list(initial.get(key, ())), list(final.get(key, ()))
        columns = {c for r in [*before, *after] for c in r}
        pk = (primary_keys or {}).get(key) or next((c for c in ID_COLUMN_ORDER if c in columns), None)
        d = diff_rows(key, _keyed(before, pk), _keyed(after, pk))
        if not d.empty:
            out.tables[key] = d
    return out
