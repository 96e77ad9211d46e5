"""The per-episode world: one embedded SQLite database, one attached schema per app.

Design notes
- Every written table carries change-tracking triggers that append ``(table, key, old row, new row)`` to a
  ``_changes`` log inside the table's own schema. A snapshot is the serialized schemas plus the log
  position, so :meth:`World.diff` between two snapshots of the same world reads only the log entries in
  between: its cost grows with the rows that changed, not with table sizes.
- Triggers are installed lazily, the first time a statement writes a table: SQLite parses every trigger of
  a database when a connection first uses it, and ~400 triggers made that parse (~5 ms) the largest cost of
  a new World. An authorizer refuses, at prepare time, any write to a table whose triggers are missing; the
  connection then installs them and runs the statement again, so no write can escape the log.
- A World never touches module state: two Worlds in one process are fully independent.
- Tool calls run inside :meth:`World.savepoint`; the image store and the id generator take part in it,
  so a failing call leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from collections.abc import Iterable, Iterator, Sequence

from mmtsb.world.episode_state import EpisodeState
from mmtsb.world.clock import Clock
from mmtsb.world.diff import RowUpdate, TableDiff, WorldDiff, diff_rows, key_order
from mmtsb.world.schema import Table, schemas_of

#: the connection's own schema: device-side namespaces and harness bookkeeping live here, since SQLite
#: attaches at most 10 further databases (one per AppWorld-style app)
MAIN_SCHEMA = "main"
MAX_ATTACHED = 10


@dataclass(frozen=True)
class Snapshot:
    """A cheap, immutable copy of the world's tables (serialized schemas + change-log positions + which
    tables had their change triggers installed)."""

    lineage: str
    data: dict[str, bytes]
    log_position: dict[str, int]
    tracked: frozenset[tuple[str, str]] = frozenset()

    @property
    def size_bytes(self) -> int:
        return sum(len(b) for b in self.data.values())


_WRITES = frozenset({sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE})


def _retrying(run: Any, connection: Any) -> Any:
    """Run a statement; when the authorizer refused it for missing change triggers, install them and rerun."""
    while True:
        try:
            return run()
        except sqlite3.DatabaseError:
            install = getattr(connection, "install_pending", None)
            if install is None or not install():
                raise


class _TrackingCursor(sqlite3.Cursor):
    """Cursor of a World connection: its statements get the same install-and-retry as the connection's."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return _retrying(lambda: super(_TrackingCursor, self).execute(sql, parameters), self.connection)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        rows = parameters if isinstance(parameters, (list, tuple)) else list(parameters)
        return _retrying(lambda: super(_TrackingCursor, self).executemany(sql, rows), self.connection)

    def executescript(self, sql_script: str, /) -> sqlite3.Cursor:
        raise NotImplementedError("World connections run one statement at a time (execute/executemany)")


class _TrackingConnection(sqlite3.Connection):
    """A connection whose statements are retried once the change triggers they were refused for exist.

    ``install_pending`` (set by the World) installs the triggers of the tables the authorizer refused and
    returns whether it installed any; a refusal for any other reason is raised as usual."""

    install_pending: Any = None

    def cursor(self, factory: Any = _TrackingCursor) -> sqlite3.Cursor:
        if not (isinstance(factory, type) and issubclass(factory, _TrackingCursor)):
            raise TypeError("World connections only make change-tracking cursors")
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return _retrying(lambda: super(_TrackingConnection, self).execute(sql, parameters), self)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        rows = parameters if isinstance(parameters, (list, tuple)) else list(parameters)
        return _retrying(lambda: super(_TrackingConnection, self).executemany(sql, rows), self)

    def executescript(self, sql_script: str, /) -> sqlite3.Cursor:
        raise NotImplementedError("World connections run one statement at a time (execute/executemany)")


class UnknownTableError(KeyError):
    """A table key that no app declares."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0])


class World:
    """All mutable state of one episode.

    Args:
        tables: every table of every app in this world.
        clock: the episode clock (scenario reference time; frozen by default).
        seed: seeds the deterministic id generator (UUIDs for device-side rows).
    """

    def __init__(self, tables: Sequence[Table], clock: Clock, *, seed: int = 0,
                 template: Snapshot | None = None) -> None:
        """``template``: start from a snapshot of a world with the same tables (its schemas, rows and change
        triggers are copied in, which skips creating ~100 tables and their triggers)."""
        from mmtsb.vision.store import ImageStore  # local: vision depends on world, not the reverse

        self.clock = clock
        self.tables: dict[str, Table] = {}
        self._sql_names: dict[tuple[str, str], Table] = {}
        for t in tables:
            if t.key in self.tables:
                raise ValueError(f"table {t.key} declared twice")
            self.tables[t.key] = t
            self._sql_names[(t.schema, t.name.lower())] = t
        self.schemas = [MAIN_SCHEMA] + [s for s in schemas_of(tables) if s != MAIN_SCHEMA]
        attached = self.schemas[1:]
        if len(attached) > MAX_ATTACHED:
            raise ValueError(f"SQLite attaches at most {MAX_ATTACHED} app schemas; got {len(attached)}: {attached}")
        self.db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False,
                                  factory=_TrackingConnection)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA recursive_triggers = ON")  # REPLACE must log its implicit delete
        for schema in self.schemas[1:]:  # attach every schema before filling any: an ATTACH re-reads schemas
            self.db.execute(f"ATTACH DATABASE ':memory:' AS \"{schema}\"")
        for schema in self.schemas:
            if template is not None:
                self.db.deserialize(template.data[schema], name=schema)
                continue
            self.db.execute(f'CREATE TABLE "{schema}"._changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, '
                            "tbl TEXT NOT NULL, pk TEXT, old TEXT, new TEXT)")
        if template is None:
            for t in self.tables.values():
                self.db.execute(t.ddl())
        self._tracked: set[tuple[str, str]] = set(template.tracked) if template is not None else set()
        self._refused: set[tuple[str, str]] = set()
        self._untracked_writes = False
        self.db.install_pending = self._install_refused_tracking
        self.db.set_authorizer(self._authorize)
        self.images = ImageStore()
        self._rng = random.Random(seed)
        self._lineage = uuid.uuid4().hex
        #: the state right after construction from ``template`` (its data, this world's lineage): a snapshot
        #: taken for free, without serializing or reading the change-log positions
        self.created_from: Snapshot | None = (
            Snapshot(self._lineage, template.data, template.log_position, template.tracked)
            if template is not None else None)
        self._savepoint_depth = 0
        #: setup facts (scenario name, main user, scratch folder, web corpus), set before the episode starts
        self.metadata: dict[str, Any] = {}
        #: what tools produce for the episode beside the database (covered by :meth:`savepoint`)
        self.episode = EpisodeState()

    # ------------------------------------------------------------------ lookup
    def table(self, key: str) -> Table:
        """The table for a scenario key (``gmail.emails`` or ``CALENDAR_EVENTS``); clear error otherwise."""
        t = self.tables.get(key)
        if t is None:
            t = self.tables.get(key.upper()) if "." not in key else None
        if t is None:
            known = ", ".join(sorted(self.tables))
            raise UnknownTableError(f"unknown table {key!r}; known tables: {known}")
        return t

    def has_table(self, key: str) -> bool:
        return key in self.tables or ("." not in key and key.upper() in self.tables)

    def now(self) -> datetime:
        return self.clock.now()

    # ------------------------------------------------------------------ ids
    def new_uuid(self) -> str:
        """A deterministic UUID4-shaped id (seeded per world)."""
        return str(uuid.UUID(int=self._rng.getrandbits(128), version=4))

    def next_id(self, key: str) -> int:
        """The next integer id for a table (max + 1, starting at 1)."""
        t = self.table(key)
        row = self.db.execute(f'SELECT COALESCE(MAX("{t.primary_key}"), 0) + 1 FROM {t.qualified}').fetchone()
        return int(row[0])

    # ------------------------------------------------------------------ reads
    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        """Raw SQL read; rows as plain dicts (not decoded)."""
        return [dict(r) for r in self.db.execute(sql, params).fetchall()]

    def select(self, key: str, where: str = "", params: Sequence[Any] | dict[str, Any] = (),
               order_by: str = "") -> list[dict[str, Any]]:
        """Decoded rows of a table, e.g. ``select("gmail.emails", "sender_id = ?", (13,))``."""
        t = self.table(key)
        sql = f"SELECT * FROM {t.qualified}"
        if where:
            sql += f" WHERE {where}"
        sql += f" ORDER BY {order_by}" if order_by else f' ORDER BY "{t.primary_key}"'
        return [t.decode_row(dict(r)) for r in self.db.execute(sql, params).fetchall()]

    def get(self, key: str, pk: Any) -> dict[str, Any] | None:
        """One decoded row by primary key, or None."""
        t = self.table(key)
        rows = self.select(key, f'"{t.primary_key}" = ?', (pk,))
        return rows[0] if rows else None

    def rows(self, key: str) -> list[dict[str, Any]]:
        """All decoded rows of a table, ordered by primary key."""
        return self.select(key)

    def count(self, key: str) -> int:
        t = self.table(key)
        return int(self.db.execute(f"SELECT COUNT(*) FROM {t.qualified}").fetchone()[0])

    # ------------------------------------------------------------------ writes
    def insert(self, key: str, row: dict[str, Any], *, replace: bool = False) -> Any:
        """Insert one row (values encoded by column type); returns its primary key."""
        t = self.table(key)
        enc = t.encode_row(row)
        if not enc:
            raise ValueError(f"refusing to insert an empty row into {key}")
        cols = ", ".join(f'"{c}"' for c in enc)
        marks = ", ".join("?" for _ in enc)
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        cur = self.db.execute(f"{verb} INTO {t.qualified} ({cols}) VALUES ({marks})", list(enc.values()))
        return enc.get(t.primary_key, cur.lastrowid)

    def update(self, key: str, pk: Any, fields: dict[str, Any]) -> int:
        """Update columns of the row with this primary key; returns the number of rows changed."""
        if not fields:
            return 0
        t = self.table(key)
        enc = t.encode_row(fields)
        sets = ", ".join(f'"{c}" = ?' for c in enc)
        cur = self.db.execute(f'UPDATE {t.qualified} SET {sets} WHERE "{t.primary_key}" = ?',
                              [*enc.values(), pk])
        return cur.rowcount

    def delete(self, key: str, pk: Any) -> int:
        """Delete the row with this primary key; returns the number of rows deleted."""
        t = self.table(key)
        return self.db.execute(f'DELETE FROM {t.qualified} WHERE "{t.primary_key}" = ?', (pk,)).rowcount

    # ------------------------------------------------------------------ atomicity
    @contextlib.contextmanager
    def savepoint(self) -> Iterator[None]:
        """Run a block atomically: on an exception every write (rows, images, episode state) is undone."""
        self._savepoint_depth += 1
        name = f"sp{self._savepoint_depth}"
        image_mark = self.images.mark()
        episode_mark = self.episode.mark()
        rng_state = self._rng.getstate()
        tracked = set(self._tracked)
        self.db.execute(f"SAVEPOINT {name}")
        try:
            yield
        except BaseException:
            self.db.execute(f"ROLLBACK TO {name}")
            self.db.execute(f"RELEASE {name}")
            self._tracked = tracked   # triggers installed inside the block were rolled back with it
            self.images.rollback(image_mark)
            self.episode.rollback(episode_mark)
            self._rng.setstate(rng_state)
            raise
        else:
            self.db.execute(f"RELEASE {name}")
        finally:
            self._savepoint_depth -= 1

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> Snapshot:
        """Serialize every app schema (a memcpy per schema) and remember the change-log position."""
        data = {s: self.db.serialize(name=s) for s in self.schemas}
        return Snapshot(self._lineage, data, self._log_positions(), frozenset(self._tracked))

    def restore(self, snap: Snapshot) -> None:
        """Put the world back into a snapshot's state (images are not rolled back)."""
        for s, blob in snap.data.items():
            self.db.deserialize(blob, name=s)
        self._tracked = set(snap.tracked)
        self._lineage = uuid.uuid4().hex

    # ------------------------------------------------------------------ change tracking
    @contextlib.contextmanager
    def untracked_writes(self) -> Iterator[None]:
        """Bulk loading (base state, scenario rows): writes to tables not yet tracked are not logged and install
        no triggers. Snapshots taken before the block belong to another lineage afterwards, so a diff across
        it compares full tables instead of reading an incomplete log."""
        self._untracked_writes = True
        try:
            yield
        finally:
            self._untracked_writes = False
            self._lineage = uuid.uuid4().hex

    def forget_tracking(self) -> None:
        """Drop every change trigger (a template for other worlds: copies parse no triggers until they write)."""
        for schema, name in sorted(self._tracked):
            for suffix in _TRIGGER_SUFFIXES:
                self.db.execute(f'DROP TRIGGER IF EXISTS "{schema}"."trg_{name}_{suffix}"')
        self._tracked.clear()
        self._lineage = uuid.uuid4().hex

    def _authorize(self, action: int, arg1: str | None, arg2: str | None, db_name: str | None,
                   source: str | None) -> int:
        """SQLite authorizer: refuse a write to an app table whose change triggers are not installed yet."""
        if action in _WRITES and arg1 is not None and db_name is not None and not self._untracked_writes:
            key = (db_name, arg1.lower())
            if key not in self._tracked:
                t = self._sql_names.get(key)
                if t is not None and not t.internal:
                    self._refused.add(key)
                    return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def _install_refused_tracking(self) -> bool:
        refused, self._refused = self._refused - self._tracked, set()
        for key in sorted(refused):
            for trigger in _tracking_triggers(self._sql_names[key]):
                self.db.execute(trigger)
            self._tracked.add(key)
        return bool(refused)

    @property
    def rng_state(self) -> object:
        """The id generator's state (a template world hands it to its copies, keeping ids deterministic)."""
        return self._rng.getstate()

    @rng_state.setter
    def rng_state(self, state: object) -> None:
        self._rng.setstate(state)  # type: ignore[arg-type]

    def _log_positions(self) -> dict[str, int]:
        out = {}
        for s in self.schemas:
            row = self.db.execute(f'SELECT seq FROM "{s}".sqlite_sequence WHERE name = \'_changes\'').fetchone()
            out[s] = int(row[0]) if row else 0
        return out

    def diff(self, a: Snapshot, b: Snapshot | None = None) -> WorldDiff:
        """Row-level changes from snapshot ``a`` to ``b`` (default: the current state).

        Uses the change log when both belong to this world's history (cost ~ changed rows); otherwise
        compares the serialized tables in full (:meth:`diff_full`).
        """
        if b is None:
            b_lineage, b_pos = self._lineage, self._log_positions()
        else:
            b_lineage, b_pos = b.lineage, b.log_position
        if a.lineage != self._lineage or b_lineage != self._lineage or any(
                a.log_position[s] > b_pos[s] for s in self.schemas):
            return self.diff_full(a, b or self.snapshot())
        return self._diff_from_log(a.log_position, b_pos)

    def _diff_from_log(self, start: dict[str, int], end: dict[str, int]) -> WorldDiff:
        first_old: dict[tuple[str, str, str], Any] = {}
        last_new: dict[tuple[str, str, str], Any] = {}
        for s in self.schemas:
            if start[s] == end[s]:
                continue
            for tbl, pk, old, new in self.db.execute(
                    f'SELECT tbl, pk, old, new FROM "{s}"._changes WHERE seq > ? AND seq <= ? ORDER BY seq',
                    (start[s], end[s])):
                k = (s, tbl, pk)
                if k not in first_old:
                    first_old[k] = old
                last_new[k] = new
        out = WorldDiff()
        for (s, tbl, pk), old in first_old.items():
            new = last_new[(s, tbl, pk)]
            t = self._sql_names[(s, tbl.lower())]
            if t.internal:
                continue
            old_row = t.decode_row(json.loads(old)) if old is not None else None
            new_row = t.decode_row(json.loads(new)) if new is not None else None
            if old_row == new_row:
                continue
            d = out.tables.setdefault(t.key, TableDiff(t.key))
            if old_row is None:
                d.added.append(new_row)
            elif new_row is None:
                d.deleted.append(old_row)
            else:
                d.updated.append(RowUpdate(new_row[t.primary_key], old_row, new_row))
        for d in out.tables.values():
            pk = self.tables[d.table].primary_key
            d.added.sort(key=lambda r: key_order(r.get(pk)))
            d.deleted.sort(key=lambda r: key_order(r.get(pk)))
            d.updated.sort(key=lambda u: key_order(u.key))
        return out

    def diff_full(self, a: Snapshot, b: Snapshot) -> WorldDiff:
        """Compare two snapshots table by table (cost ~ table sizes); works across worlds."""
        out = WorldDiff()
        for t in self.tables.values():
            if t.internal:
                continue
            before = self.rows_at(a, t.key)
            after = self.rows_at(b, t.key)
            d = diff_rows(t.key, {r[t.primary_key]: r for r in before}, {r[t.primary_key]: r for r in after})
            if not d.empty:
                out.tables[t.key] = d
        return out

    def rows_at(self, snap: Snapshot, key: str) -> list[dict[str, Any]]:
        """Decoded rows of a table as they were in a snapshot."""
        t = self.table(key)
        conn = self._snapshot_connection(snap, t.schema)
        conn.row_factory = sqlite3.Row
        try:
            rows = conn.execute(f'SELECT * FROM "{t.name}" ORDER BY "{t.primary_key}"').fetchall()
            return [t.decode_row(dict(r)) for r in rows]
        finally:
            conn.close()

    @staticmethod
    def _snapshot_connection(snap: Snapshot, schema: str) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:")
        conn.deserialize(snap.data[schema])
        return conn

    def close(self) -> None:
        self.db.set_authorizer(None)
        self.db.install_pending = None
        self.db.close()

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_TRIGGER_SUFFIXES = ("ins", "del", "upd", "rekey")


def _tracking_triggers(t: Table) -> Iterable[str]:
    """AFTER INSERT/UPDATE/DELETE triggers that log the whole old/new row as JSON (names end in
    ``_TRIGGER_SUFFIXES``)."""

    def row_json(alias: str) -> str:
        return "json_object(" + ", ".join(f"'{c.name}', {alias}.\"{c.name}\"" for c in t.columns) + ")"

    pk = f'"{t.primary_key}"'
    name = t.name
    prefix = f'"{t.schema}"."trg_{name}'
    yield (f'CREATE TRIGGER IF NOT EXISTS {prefix}_ins" AFTER INSERT ON "{name}" BEGIN '
           f"INSERT INTO _changes (tbl, pk, old, new) VALUES ('{name}', NEW.{pk}, NULL, {row_json('NEW')}); END")
    yield (f'CREATE TRIGGER IF NOT EXISTS {prefix}_del" AFTER DELETE ON "{name}" BEGIN '
           f"INSERT INTO _changes (tbl, pk, old, new) VALUES ('{name}', OLD.{pk}, {row_json('OLD')}, NULL); END")
    yield (f'CREATE TRIGGER IF NOT EXISTS {prefix}_upd" AFTER UPDATE ON "{name}" WHEN OLD.{pk} IS NEW.{pk} BEGIN '
           f"INSERT INTO _changes (tbl, pk, old, new) VALUES ('{name}', NEW.{pk}, {row_json('OLD')}, "
           f"{row_json('NEW')}); END")
    yield (f'CREATE TRIGGER IF NOT EXISTS {prefix}_rekey" AFTER UPDATE ON "{name}" WHEN OLD.{pk} IS NOT NEW.{pk} BEGIN '
           f"INSERT INTO _changes (tbl, pk, old, new) VALUES ('{name}', OLD.{pk}, {row_json('OLD')}, NULL); "
           f"INSERT INTO _changes (tbl, pk, old, new) VALUES ('{name}', NEW.{pk}, NULL, {row_json('NEW')}); END")
