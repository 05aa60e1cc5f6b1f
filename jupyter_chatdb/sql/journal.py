"""Undo and restore of write requests, kept in the database itself (schema `chatdb_journal`).

Before a request first writes a table, the table is copied; when the request commits, only the
difference is kept: the old images of the rows it removed or changed and the new images of the rows
it added or changed. Undoing a request applies that difference backwards (`undo.py`). The journal
commits in the same transaction as the request, so a file database keeps it across restarts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

import duckdb
import pandas as pd

from ..errors import ChatDBError, QueryFailed
from .guard import PRIVATE_SCHEMA, Kind, Statement
from .names import quote_identifier
from .session import Session
from .table_keys import row_key
from .undo import Undone, undo_request

J = PRIVATE_SCHEMA
SETUP = f"""
CREATE SCHEMA IF NOT EXISTS {J};
CREATE TABLE IF NOT EXISTS {J}.requests (
    request_id INTEGER PRIMARY KEY, applied_at TIMESTAMP, request VARCHAR, statements VARCHAR,
    rows_changed INTEGER, undone_at TIMESTAMP);
CREATE TABLE IF NOT EXISTS {J}.changes (
    request_id INTEGER, position INTEGER, table_name VARCHAR, kind VARCHAR, old_rows VARCHAR, new_rows VARCHAR);
"""


@dataclass(frozen=True)
class TableChange:
    """What one request did to one table: old images of removed/changed rows, new images of added/changed rows."""

    table: str
    old: pd.DataFrame
    new: pd.DataFrame
    key: tuple[str, ...] = ()
    created: bool = False
    rows_before: int | None = None  # the table's rows before the request (None: not counted)
    updated_only: bool = False  # only UPDATE statements wrote it: without a key, its old and new rows pair up

    @property
    def summary(self) -> str:
        """
        >>> TableChange("t", pd.DataFrame({"id": [1]}), pd.DataFrame({"id": [1, 2]}), ("id",)).summary
        't: 1 added, 1 changed'
        >>> TableChange("t", pd.DataFrame({"x": [1]}), pd.DataFrame({"x": [2]}), updated_only=True).summary
        't: 1 changed'
        """
        if self.created:
            return f"{self.table}: created, {len(self.new)} rows"
        if self.key:
            old, new = _keys(self.old, self.key), _keys(self.new, self.key)
            counts = {"added": len(new - old), "removed": len(old - new), "changed": len(old & new)}
        elif self.updated_only and len(self.old) == len(self.new):  # an UPDATE adds and removes no row
            counts = {"changed": len(self.new)}
        else:
            counts = {"added": len(self.new), "removed": len(self.old)}
        parts = [f"{n} {what}" for what, n in counts.items() if n]
        return f"{self.table}: " + (", ".join(parts) if parts else "no change")


@dataclass
class Recorder:
    """Tracks the tables one request writes, inside its transaction."""

    session: Session
    _tracked: dict[str, str] = field(default_factory=dict)  # table -> its copy before the request
    _created: list[tuple[str, str]] = field(default_factory=list)  # (name, TABLE | SEQUENCE)
    _not_updates: set[str] = field(default_factory=set)  # tables a statement other than an UPDATE wrote

    def before(self, statement: Statement) -> None:
        """Call before running a write: copies its table the first time the request writes it."""
        table = statement.target
        if table is not None and not statement.sql.lstrip().upper().startswith("UPDATE"):
            self._not_updates.add(table)
        if table is None or table in self._tracked or any(table == name for name, _ in self._created):
            return
        if statement.kind is Kind.DDL:
            kind = statement.creates or "TABLE"
            if not self._exists(table, kind):
                self._created.append((table, kind))
            return
        _ensure_schema(self.session)
        copy = f"{J}.pre_{len(self._tracked)}"
        self.session.rows(f"CREATE OR REPLACE TABLE {copy} AS SELECT * FROM main.{quote_identifier(table)}")
        self._tracked[table] = copy

    @property
    def tables(self) -> frozenset[str]:
        """The tables the request wrote or created so far."""
        return frozenset(self._tracked) | {name for name, kind in self._created if kind == "TABLE"}

    def changes(self) -> list[TableChange]:
        """The differences so far (before commit or rollback): the rows a dry run would touch."""
        changes = [_created_change(self.session, name) for name, kind in self._created if kind == "TABLE"]
        for table, copy in self._tracked.items():
            old = _frame(self.session, f"SELECT * FROM {copy} EXCEPT ALL SELECT * FROM main.{quote_identifier(table)}")
            new = _frame(self.session, f"SELECT * FROM main.{quote_identifier(table)} EXCEPT ALL SELECT * FROM {copy}")
            if len(old) or len(new):
                (before,) = self.session.rows(f"SELECT count(*) FROM {copy}")[0]
                key, updated_only = row_key(self.session, table), table not in self._not_updates
                changes.append(TableChange(table, old, new, key, rows_before=before, updated_only=updated_only))
        return changes

    def commit(self, request: str, statements: list[str], changes: Sequence[TableChange] | None = None) -> int | None:
        """Store the request's difference in the journal (same transaction); its id, or None if nothing changed.

        `changes`: what `changes()` returned just before, when the caller already has it.
        """
        changes = self.changes() if changes is None else list(changes)
        request_id = None
        if changes or self._created:
            request_id = self._store(request, statements, changes)
        for copy in self._tracked.values():
            self.session.rows(f"DROP TABLE {copy}")
        return request_id

    def _store(self, request: str, statements: list[str], changes: list[TableChange]) -> int:
        _ensure_schema(self.session)
        (request_id,) = self.session.rows(f"SELECT coalesce(max(request_id), 0) + 1 FROM {J}.requests")[0]
        for position, change in enumerate(changes):
            old_rows, new_rows = f"{J}.r{request_id}_{position}_old", f"{J}.r{request_id}_{position}_new"
            if not change.created:
                copy, live = self._tracked[change.table], f"main.{quote_identifier(change.table)}"
                self.session.rows(f"CREATE TABLE {old_rows} AS SELECT * FROM {copy} EXCEPT ALL SELECT * FROM {live}")
                self.session.rows(f"CREATE TABLE {new_rows} AS SELECT * FROM {live} EXCEPT ALL SELECT * FROM {copy}")
            self.session.rows(
                f"INSERT INTO {J}.changes VALUES (?, ?, ?, ?, ?, ?)",
                [request_id, position, change.table, "created" if change.created else "rows", old_rows, new_rows],
            )
        for name, kind in self._created:
            if kind == "SEQUENCE":
                self.session.rows(
                    f"INSERT INTO {J}.changes VALUES (?, -1, ?, 'sequence', NULL, NULL)", [request_id, name]
                )
        rows_changed = sum(len(c.new) + len(c.old) for c in changes if not c.created)
        self.session.rows(
            f"INSERT INTO {J}.requests VALUES (?, current_localtimestamp(), ?, ?, ?, NULL)",
            [request_id, request, json.dumps(statements), rows_changed],
        )
        return request_id

    def _exists(self, name: str, kind: str) -> bool:
        catalog = "duckdb_tables()" if kind == "TABLE" else "duckdb_sequences()"
        column = "table_name" if kind == "TABLE" else "sequence_name"
        return bool(self.session.rows(f"SELECT 1 FROM {catalog} WHERE schema_name = 'main' AND {column} = ?", [name]))


class Journal:
    """The applied write requests of a database, newest last; undo and restore them."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def recorder(self) -> Recorder:
        return Recorder(self.session)

    def history(self) -> pd.DataFrame:
        """One row per applied write request: id, time, request, SQL, rows changed, and when it was undone."""
        if not _has_schema(self.session):
            return pd.DataFrame(
                columns=["request_id", "applied_at", "request", "statements", "rows_changed", "undone_at"]
            )
        frame = _frame(self.session, f"SELECT * FROM {J}.requests ORDER BY request_id")
        frame["statements"] = [json.loads(text) for text in frame["statements"]]
        return frame

    def changed(self, request_id: int) -> pd.DataFrame:
        """Per table request `request_id` changed: the rows it removed or changed (as they were) and the rows
        it added or changed (as they became); a table it created says so."""
        columns = ["table", "removed or changed", "added or changed", "created"]
        if not _has_schema(self.session):
            return pd.DataFrame(columns=columns)
        listed = self.session.rows(
            f"SELECT table_name, kind, old_rows, new_rows FROM {J}.changes WHERE request_id = ? ORDER BY position",
            [request_id],
        )
        rows = []
        for table, kind, old_rows, new_rows in listed:
            old = self.session.rows(f"SELECT count(*) FROM {old_rows}")[0][0] if kind == "rows" else 0
            new = self.session.rows(f"SELECT count(*) FROM {new_rows}")[0][0] if kind == "rows" else 0
            rows.append({columns[0]: table, columns[1]: old, columns[2]: new, columns[3]: kind != "rows"})
        return pd.DataFrame(rows, columns=columns)

    def undo(self, n: int = 1) -> list[Undone]:
        """Undo the last `n` requests still applied, newest first; what each took back."""
        if n < 1:
            raise ChatDBError("undo(n) needs n >= 1.")
        active = self._active()
        if not active:
            raise ChatDBError("There is nothing to undo: no write request has been applied.")
        if n > len(active):
            raise ChatDBError(f"Only {len(active)} request(s) can be undone; call undo({len(active)}).")
        return self._undo(list(reversed(active))[:n])

    def restore(self, request_id: int) -> list[Undone]:
        """Bring the data back to how it was right after `request_id` (0: before the first request)."""
        active = self._active()
        if request_id != 0 and request_id not in active:
            known = ", ".join(map(str, active)) or "none"
            raise ChatDBError(f"Request {request_id} is not an applied request (applied: {known}); see history().")
        return self._undo([r for r in reversed(active) if r > request_id])

    def _active(self) -> list[int]:
        if not _has_schema(self.session):
            return []
        return [
            r for (r,) in self.session.rows(f"SELECT request_id FROM {J}.requests WHERE undone_at IS NULL ORDER BY 1")
        ]

    def _undo(self, request_ids: list[int]) -> list[Undone]:
        """Undo `request_ids` in turn, after finishing an undo a crash stopped midway (`undo.py`)."""
        unfinished = [r for r in self._unfinished() if r not in request_ids]
        return [undo_request(self.session, request_id) for request_id in (*unfinished, *request_ids)]

    def _unfinished(self) -> list[int]:
        if not self.session.rows(f"SELECT 1 FROM duckdb_tables() WHERE schema_name = '{J}' AND table_name = 'undoing'"):
            return []
        return [r for (r,) in self.session.rows(f"SELECT request_id FROM {J}.undoing ORDER BY 1 DESC")]


# -- catalog helpers ----------------------------------------------------------------------------


def _ensure_schema(session: Session) -> None:
    if not _has_schema(session):
        session.rows(SETUP)


def _has_schema(session: Session) -> bool:
    return bool(session.rows(f"SELECT 1 FROM duckdb_tables() WHERE schema_name = '{J}' AND table_name = 'requests'"))


def _created_change(session: Session, table: str) -> TableChange:
    return TableChange(
        table, pd.DataFrame(), _frame(session, f"SELECT * FROM main.{quote_identifier(table)}"), created=True
    )


def _frame(session: Session, sql: str) -> pd.DataFrame:
    """The rows as pandas holds them; a value it cannot hold (DATE 'infinity') fails the write in one line."""
    try:
        return session.frame(sql)
    except duckdb.ConversionException as error:
        reason = str(error).strip().splitlines()[0].removeprefix("Conversion Error: ")
        raise QueryFailed(
            f"The write stores a value that cannot be shown or undone ({reason}): write a finite value or NULL."
        ) from None


def _keys(frame: pd.DataFrame, key: tuple[str, ...]) -> set[tuple]:
    return set(frame[list(key)].itertuples(index=False, name=None)) if len(frame) else set()
