"""Undoing one journalled write request: its difference applied backwards, and what that took back.

Per table, the rows the request added go, the rows it changed get their old values back and the rows
it removed come back, in that order (a unique value the request moved to a new row is free again before
its old row takes it back); by the table's row key (`table_keys.row_key`) where it has one, so rows
other code changed meanwhile are left alone, otherwise row by row. Generated columns are never set.

DuckDB refuses to delete a parent row in the transaction that deleted or re-pointed its children, so
the added rows are deleted level by level along the references, children first, one transaction per
level; everything else runs in the first. Between those transactions the journal notes how far the
undo got, and Ctrl-C waits until the last one has committed: an undo stopped any other way (a crash)
is finished by the next undo or restore, never run twice.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from .guard import PRIVATE_SCHEMA
from .names import quote_identifier
from .session import Session
from .table_keys import children_first_levels, row_key, writable_columns

J = PRIVATE_SCHEMA
PROGRESS = f"CREATE TABLE IF NOT EXISTS {J}.undoing (request_id INTEGER PRIMARY KEY, next_level INTEGER)"


@dataclass(frozen=True)
class TableUndone:
    """What undoing a request did to one table."""

    table: str
    removed: int = 0  # rows the request had added
    back: int = 0  # rows the request had removed
    changed_back: int = 0  # rows the request had changed, as they were
    dropped: bool = False  # a table the request had created

    @property
    def summary(self) -> str:
        """
        >>> TableUndone("hives", removed=1).summary
        'hives: 1 row removed'
        >>> TableUndone("hives", back=2, changed_back=1).summary
        'hives: 2 rows back, 1 row changed back'
        """
        if self.dropped:
            return f"{self.table}: dropped (the request created it)"
        counts = {"removed": self.removed, "back": self.back, "changed back": self.changed_back}
        parts = [f"{n} row{'s' if n != 1 else ''} {what}" for what, n in counts.items() if n]
        return f"{self.table}: " + (", ".join(parts) or "no rows")


@dataclass(frozen=True)
class Undone:
    """One write request taken back: its words and what it took back, table by table."""

    request_id: int
    request: str
    tables: tuple[TableUndone, ...] = ()

    @property
    def summary(self) -> str:
        """
        >>> Undone(2, "Add a hive at Calder", (TableUndone("hives", removed=1),)).summary
        'Undid request 2 ("Add a hive at Calder"): hives: 1 row removed.'
        """
        words = self.request if len(self.request) <= 80 else self.request[:77] + "..."
        taken = "; ".join(table.summary for table in self.tables) or "nothing left to take back"
        return f'Undid request {self.request_id} ("{words}"): {taken}.'


@dataclass(frozen=True)
class _Rows:
    """Where the journal keeps one table's difference (the old images and the new images), with the
    table's row key and the columns a statement may set, read once."""

    table: str
    old: str
    new: str
    key: tuple[str, ...]
    columns: list[str]


def undo_request(session: Session, request_id: int) -> Undone:
    """Apply request `request_id`'s difference backwards and mark it undone (see the module's docstring)."""
    listed = session.rows(
        f"SELECT table_name, kind, old_rows, new_rows FROM {J}.changes WHERE request_id = ? ORDER BY position",
        [request_id],
    )
    (text,) = session.rows(f"SELECT request FROM {J}.requests WHERE request_id = ?", [request_id])[0]
    rows = {
        table: _Rows(table, old, new, row_key(session, table), writable_columns(session, table))
        for table, kind, old, new in listed
        if kind == "rows"
    }
    created = [(table, kind) for table, kind, _, _ in reversed(listed) if kind in ("created", "sequence")]
    levels = children_first_levels(session, list(rows)) or [[]]
    counted = [_counted(session, change) for change in rows.values()]
    counted += [TableUndone(table, dropped=True) for table, kind in created if kind == "created"]
    session.rows(PROGRESS)
    (start,) = session.rows(f"SELECT coalesce(max(next_level), 0) FROM {J}.undoing WHERE request_id = ?", [request_id])[
        0
    ]
    parents_first = [rows[table] for level in reversed(levels) for table in level]
    with interrupts_deferred():
        for depth in range(start, len(levels)):
            with session.transaction():
                for table in levels[depth]:
                    _delete_added(session, rows[table])
                if depth == 0:
                    for change in parents_first:  # a parent is back before a child points at it again
                        _revert_changed(session, change)
                        _reinsert(session, change)
                if depth < len(levels) - 1:
                    session.rows(f"INSERT OR REPLACE INTO {J}.undoing VALUES (?, ?)", [request_id, depth + 1])
                    continue
                for name, kind in created:
                    what = "TABLE" if kind == "created" else "SEQUENCE"
                    session.rows(f"DROP {what} IF EXISTS main.{quote_identifier(name)}")
                session.rows(f"DELETE FROM {J}.undoing WHERE request_id = ?", [request_id])
                session.rows(
                    f"UPDATE {J}.requests SET undone_at = current_localtimestamp() WHERE request_id = ?", [request_id]
                )
    return Undone(request_id, text, tuple(counted))


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Ctrl-C (SIGINT) inside the block is raised when it ends, not midway; outside the main thread, or
    where Python does not handle SIGINT, the block runs as it is."""
    handler = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if not callable(handler):
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
    if caught:
        raise KeyboardInterrupt


# -- one table's difference backwards ------------------------------------------------------------


def _counted(session: Session, change: _Rows) -> TableUndone:
    """What undoing `change` takes back: by key, rows added, removed and changed; without one, the rows
    added and removed (a changed row is one of each)."""
    key = change.key
    if not key:
        (old,) = session.rows(f"SELECT count(*) FROM {change.old}")[0]
        (new,) = session.rows(f"SELECT count(*) FROM {change.new}")[0]
        return TableUndone(change.table, removed=new, back=old)
    listed = ", ".join(quote_identifier(c) for c in key)
    old_keys = f"SELECT DISTINCT {listed} FROM {change.old}"
    new_keys = f"SELECT DISTINCT {listed} FROM {change.new}"
    removed, back, both = session.rows(
        f"SELECT (SELECT count(*) FROM ({new_keys} EXCEPT {old_keys})), (SELECT count(*) FROM ({old_keys} EXCEPT"
        f" {new_keys})), (SELECT count(*) FROM ({old_keys} INTERSECT {new_keys}))"
    )[0]
    return TableUndone(change.table, removed=removed, back=back, changed_back=both)


def _delete_added(session: Session, change: _Rows) -> None:
    """Rows the request added go away: by key, or else one live row per added row."""
    key, live = change.key, f"main.{quote_identifier(change.table)}"
    if key:
        session.rows(
            f"DELETE FROM {live} AS t WHERE EXISTS (SELECT 1 FROM {change.new} AS n WHERE {_same(key, 't', 'n')}"
            f" AND NOT EXISTS (SELECT 1 FROM {change.old} AS o WHERE {_same(key, 'o', 'n')}))"
        )
        return
    listed = ", ".join(quote_identifier(c) for c in change.columns)
    session.rows(
        f"DELETE FROM {live} WHERE rowid IN (SELECT l.rowid FROM"
        f" (SELECT rowid, {listed}, row_number() OVER (PARTITION BY {listed}) AS nth FROM {live}) AS l"
        f" JOIN (SELECT {listed}, count(*) AS times FROM {change.new} GROUP BY ALL) AS n"
        f" ON {_same(change.columns, 'l', 'n')} AND l.nth <= n.times)"
    )


def _revert_changed(session: Session, change: _Rows) -> None:
    """Rows the request changed get their old values back (tables with a row key; without one, a changed
    row is an added row deleted and a removed row put back)."""
    key = change.key
    if not key:
        return
    live = f"main.{quote_identifier(change.table)}"
    in_both = f"EXISTS (SELECT 1 FROM {change.new} AS n WHERE {_same(key, 'n', 'o')})"
    # set only the columns that differ: DuckDB rewrites an update of an indexed column as delete + insert
    differing = [
        c
        for c in change.columns
        if c not in key
        and session.rows(
            f"SELECT count(*) FROM {change.old} AS o JOIN {live} AS t ON {_same(key, 't', 'o')}"
            f" WHERE {in_both} AND o.{quote_identifier(c)} IS DISTINCT FROM t.{quote_identifier(c)}"
        )[0][0]
    ]
    if differing:
        assignments = ", ".join(f"{quote_identifier(c)} = o.{quote_identifier(c)}" for c in differing)
        session.rows(
            f"UPDATE {live} AS t SET {assignments} FROM {change.old} AS o WHERE {_same(key, 't', 'o')} AND {in_both}"
        )


def _reinsert(session: Session, change: _Rows) -> None:
    """Rows the request removed come back (their generated columns computed again)."""
    key = change.key
    only_old = f"WHERE NOT EXISTS (SELECT 1 FROM {change.new} AS n WHERE {_same(key, 'n', 'o')})" if key else ""
    listed = ", ".join(quote_identifier(c) for c in change.columns)
    taken = ", ".join(f"o.{quote_identifier(c)}" for c in change.columns)
    session.rows(
        f"INSERT INTO main.{quote_identifier(change.table)} ({listed}) SELECT {taken} FROM {change.old} AS o {only_old}"
    )


def _same(columns: tuple[str, ...] | list[str], left: str, right: str) -> str:
    return " AND ".join(
        f"{left}.{quote_identifier(c)} IS NOT DISTINCT FROM {right}.{quote_identifier(c)}" for c in columns
    )
