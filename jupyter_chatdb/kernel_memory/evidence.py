"""Thoughts read from the data: a figure kept with the SELECT that read it and a fingerprint of each table
it read, so that a recall can tell whether the figure still holds. When a table changed, the SELECT runs
again (through the guard, reading only): the same figure stands, another one becomes the thought's new
version, and a SELECT that no longer runs (a column renamed, a frame gone) withholds the thought.

No memory system we know of ties a memory to the version of the data it came from; this is why a
recalled figure is never out of date.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import pandas as pd

from ..errors import ChatDBError
from ..sql import guard
from ..sql.names import quote_table
from ..sql.session import Session
from .store import UNCHECKED, Record
from .thoughts import Thought

MAX_ROWS, MAX_COLUMNS = 5, 3  # a larger result is a table, not a figure worth keeping as a sentence
Fingerprints = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Checked:
    """What a recall found of one result thought."""

    record: Record
    state: str  # fresh | changed (its figure read again differs) | withheld (its SQL no longer runs)
    figures: str = ""  # the figures as they are now
    tables: Fingerprints = ()  # the fingerprints it was checked at
    why: str = ""  # withheld: the error


def result_thought(request: str, frame: pd.DataFrame | None, sql: str, session: Session) -> Thought | None:
    """The answer to `request`, read by `sql`, as a thought that can be checked later; None when the
    result is too large (or empty) to keep as a figure, or `sql` is not one SELECT of stored data."""
    figures = figures_of(frame)
    if figures is None:
        return None
    try:
        tables = fingerprints(session, sorted(set(one_select(sql).tables)))
    except (ChatDBError, duckdb.Error):
        return None
    return Thought(request.strip(), ANSWER, figures, f"{request.strip()} {figures}", "result", sql=sql, tables=tables)


ANSWER = "answer"  # the relation of every result thought: one per request wording, the newest wins


def figures_of(frame: pd.DataFrame | None) -> str | None:
    """A small result in words, or None when it is too large (or empty) to keep as a figure.

    >>> figures_of(pd.DataFrame({"orders": [8]}))
    'orders: 8'
    >>> figures_of(pd.DataFrame({"region": ["N", "S"], "units": [3, 4.5]}))
    'region N, units 3; region S, units 4.5'
    """
    if frame is None or frame.empty or len(frame) > MAX_ROWS or not 0 < len(frame.columns) <= MAX_COLUMNS:
        return None
    if frame.shape == (1, 1):
        return f"{frame.columns[0]}: {_figure(frame.iat[0, 0])}"
    return "; ".join(
        ", ".join(f"{column} {_figure(value)}" for column, value in zip(frame.columns, row))
        for row in frame.itertuples(index=False)
    )


def _figure(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def one_select(sql: str) -> guard.Statement:
    """`sql` checked by the guard as one read (it raises SQLRefused for anything else): what is run again
    is the statement as the guard wrote it back."""
    checked = guard.check(sql)
    if len(checked.statements) != 1:
        raise ChatDBError("A result thought is read by one SELECT.")
    return checked.statements[0]


def fingerprints(session: Session, tables: Sequence[str]) -> Fingerprints:
    """A fingerprint of each table: its columns, its row count and the sum of its rows' hashes, so a
    column renamed, a value changed, a row added or a row removed changes it."""
    printed = []
    for table in tables:
        quoted = quote_table(table)
        columns = ",".join(session.frame(f"SELECT * FROM {quoted} LIMIT 0").columns)
        count, digest = session.rows(f"SELECT count(*), sum(hash(t)::HUGEINT) FROM {quoted} AS t")[0]
        printed.append((table, f"{columns}:{count}:{digest or 0}"))
    return tuple(printed)


def fingerprints_now(record: Record, session: Session) -> Fingerprints:
    """The fingerprints of the tables a result thought read, as they are now."""
    return fingerprints(session, [table for table, _ in record.tables])


def check(record: Record, session: Session) -> Checked:
    """Whether a result thought still holds for the tables as they are now (see the module's docstring)."""
    try:
        now = fingerprints_now(record, session)
        if now == record.tables:
            return Checked(record, "fresh", record.object, now)
        figures = figures_of(session.run(one_select(record.sql).sql).frame)
    except (ChatDBError, duckdb.Error) as error:  # a frame gone fails the fingerprint with DuckDB's own error
        return Checked(record, "withheld", why=str(error).splitlines()[0])
    if figures is None:
        return Checked(record, "withheld", why="its result is no longer a few figures", tables=now)
    return Checked(record, "fresh" if figures == record.object else "changed", figures, now)


def freshness(record: Record, session: Session) -> str:
    """How a thought stands against the tables now, in words, for `%mem` (no SQL is run again)."""
    if record.kind == UNCHECKED:
        return "noted from an answer by an older version, without its SQL: never recalled"
    if not record.verifiable:
        return ""
    try:
        same = fingerprints_now(record, session) == record.tables
    except (ChatDBError, duckdb.Error):
        return "its tables are gone: withheld"
    return (
        f"true of the tables now (checked {record.checked})"
        if same
        else "tables changed since: read again when recalled"
    )
