"""Cheap fingerprints of tables' rows, to tell copies (`copies.py`) without a query per pair of tables.

A row's hash is DuckDB's `hash` of its values, so equal values hash alike in a DataFrame and in a stored
table of the same types. A table's version changes when its rows do: a bound DataFrame's is read in pandas
(no query) from the object, its shape, its dtypes and a strided sample of its rows, so a change in place
to rows outside that sample is not seen until the frame's shape changes or its name is bound to another
object (`df = df[...]`, `df = df.assign(...)`); another table's is its row count and the sum of its rows'
hashes (one query).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Sequence

import duckdb
import pandas as pd

from ..errors import ChatDBError
from ..sql.catalog import Table
from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session

SAMPLE = 32  # a frame's row hashes looked up in another table before the rows are compared one by one
FETCH_ROWS = 2_000  # a table of at most this many rows sends the hashes of all its rows
VERSION_ROWS = 64  # rows of a DataFrame read for its version

Version = tuple[object, ...]
Hashes = frozenset[int] | None  # None: the rows could not be hashed


def frame_version(frame: pd.DataFrame) -> Version | None:
    """The version of a bound DataFrame, read without a query; None when its cells cannot be hashed.

    >>> kites = pd.DataFrame({"name": ["Aria", "Bolt"], "span": [2, 5]})
    >>> before = frame_version(kites)
    >>> before == frame_version(kites)
    True
    >>> kites.loc[1, "span"] = 6
    >>> before == frame_version(kites), before == frame_version(kites.copy())
    (False, False)
    """
    step = max(1, len(frame) // VERSION_ROWS)
    cells = []
    for _, column in frame.items():
        values = column.to_numpy()
        rows = (values[::step], values[-1:])  # strided, and the last row (rows added at the end)
        try:
            cells.append(tuple(r.tobytes() if r.dtype.kind in "biufcmM" else hash(tuple(r)) for r in rows))
        except TypeError:  # cells that cannot be hashed (lists, dicts): not kept
            return None
    return id(frame), frame.shape, tuple(map(str, frame.columns)), tuple(map(str, frame.dtypes)), hash(tuple(cells))


def table_version(session: Session, table: Table) -> Version | None:
    """The version of a stored, attached or mirrored table: its row count and the sum of its row hashes
    (one query); None when they cannot be read."""
    try:
        rows = session.rows(
            f"SELECT count(*), sum({_hash(c.name for c in table.columns)}) FROM {quote_table(table.name)}"
        )
    except (ChatDBError, duckdb.Error):
        return None
    return tuple(rows[0])


def every(session: Session, tables: Sequence[str], columns: Sequence[str]) -> dict[str, Hashes]:
    """Table -> the distinct hashes of all its rows over `columns`, for all `tables` in one query (for
    tables of at most `FETCH_ROWS` rows: their hashes come back whole).

    >>> s = Session()
    >>> s.bind("kites", pd.DataFrame({"name": ["Aria", "Bolt", "Aria"], "span": [2, 5, 2]}))
    >>> {table: len(hashes) for table, hashes in every(s, ["kites"], ["name", "span"]).items()}
    {'kites': 2}
    """
    return _per_table(session, tables, _rows(columns), "", None)


def samples(session: Session, tables: Sequence[str], columns: Sequence[str]) -> dict[str, Hashes]:
    """Table -> the `SAMPLE` smallest distinct hashes of its rows over `columns` (a bottom-k sample: the
    same whatever order the rows are in), for all `tables` in one query.

    >>> s = Session()
    >>> s.bind("kites", pd.DataFrame({"name": [f"k{i}" for i in range(50)], "span": range(50)}))
    >>> hashes = samples(s, ["kites"], ["name", "span"])["kites"]
    >>> len(hashes), hashes == bottom(every(s, ["kites"], ["name", "span"])["kites"])
    (32, True)
    """
    then = f"QUALIFY row_number() OVER (PARTITION BY t ORDER BY h) <= {SAMPLE}"
    return _per_table(session, tables, _rows(columns), then, None)


def bottom(hashes: Hashes) -> Hashes:
    """The `SAMPLE` smallest of `hashes`: the sample `samples` reads."""
    return None if hashes is None else frozenset(heapq.nsmallest(SAMPLE, hashes))


def held(session: Session, tables: Sequence[str], columns: Sequence[str], wanted: Collection[int]) -> dict[str, Hashes]:
    """Table -> which of the row hashes `wanted` it holds over `columns`, for all `tables` in one query.

    >>> s = Session()
    >>> s.bind("kites", pd.DataFrame({"name": ["Aria", "Bolt"], "span": [2, 5]}))
    >>> s.bind("hounds", pd.DataFrame({"name": ["Bolt", "Rex"], "span": [5, 1]}))
    >>> hounds = samples(s, ["hounds"], ["name", "span"])["hounds"]
    >>> {table: len(hashes) for table, hashes in held(s, ["kites", "hounds"], ["name", "span"], hounds).items()}
    {'kites': 1, 'hounds': 2}
    """
    if not wanted:
        return {table: frozenset() for table in tables}
    return _per_table(session, tables, _rows(columns), "WHERE h IN (SELECT unnest(?::UBIGINT[]))", [list(wanted)])


def _rows(columns: Sequence[str]) -> Callable[[int, str], str]:
    """The SELECT of a table's row hashes over `columns`, the table numbered `t`."""
    return lambda index, table: f"SELECT {index} AS t, {_hash(columns)} AS h FROM {quote_table(table)}"


def _per_table(
    session: Session, tables: Sequence[str], rows: Callable[[int, str], str], then: str, params: list[object] | None
) -> dict[str, Hashes]:
    """The distinct hashes the SELECTs `rows` (of `t`, `h`) give for each table, `then` applied to them:
    all in one query, or one query per table when that fails (the tables that fail alone: None)."""
    if not tables:
        return {}
    try:
        return _hashes(session, tables, rows, then, params)
    except (ChatDBError, duckdb.Error):
        if len(tables) == 1:
            return {tables[0]: None}
    return {table: _per_table(session, [table], rows, then, params)[table] for table in tables}


def _hashes(
    session: Session, tables: Sequence[str], rows: Callable[[int, str], str], then: str, params: list[object] | None
) -> dict[str, Hashes]:
    union = " UNION ALL ".join(rows(index, table) for index, table in enumerate(tables))
    found: dict[str, set[int]] = {table: set() for table in tables}
    for index, value in session.rows(f"SELECT t, h FROM (SELECT DISTINCT t, h FROM ({union})) {then}", params):
        found[tables[index]].add(value)
    return {table: frozenset(values) for table, values in found.items()}


def _hash(columns: Iterable[str]) -> str:
    return f"hash({', '.join(quote_identifier(c) for c in columns)})"
