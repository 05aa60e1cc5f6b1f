"""DataFrames that only repeat rows of another table: a notebook's scratch frames (`s = df[df.x > 3]`).

Shown to the model beside the table they come from, a small model joins them into unrelated questions
(a count of plants came out as a count of plants joined with a filtered copy of plants). A frame whose
columns another table has too, by the same names, and each of whose rows that table holds, says nothing
the table does not; it is left out of what the planner is shown unless the request names it.
"""

from __future__ import annotations

import duckdb

from ..errors import ChatDBError
from ..sql.catalog import Catalog, Table
from ..sql.session import Session

MAX_ROWS = 100_000  # a larger frame is not compared row by row on every request


def copies(session: Session, catalog: Catalog) -> dict[str, str]:
    """Frame -> a table (stored, or a larger frame) holding all its columns and each of its rows.

    >>> import pandas as pd
    >>> s = Session()
    >>> s.bind("kites", pd.DataFrame({"name": ["Aria", "Bolt", "Cirrus"], "span": [2, 5, 3]}))
    >>> s.bind("big", pd.DataFrame({"name": ["Bolt"], "span": [5]}))
    >>> s.bind("spans", pd.DataFrame({"span": [2, 5]}))  # one column: a list of values, not a copy
    >>> copies(s, Catalog.read(s))
    {'big': 'kites'}
    """
    found: dict[str, str] = {}
    for frame in (t for t in catalog.tables.values() if t.is_frame):
        for source in catalog.tables.values():
            if source.name != frame.name and _holds(session, frame, source):
                found[frame.name] = source.name
                break
    return found


def _holds(session: Session, frame: Table, source: Table) -> bool:
    """Whether `source` has every column of `frame` (same names and types) and each of its rows."""
    if frame.row_count > MAX_ROWS or source.row_count < frame.row_count or len(frame.columns) < 2:
        return False  # a frame of one column is a list of values (the ones wanted), not a copy
    if source.is_frame and source.row_count == frame.row_count:
        return False  # of two frames alike, neither is the other's copy
    types = {c.name.lower(): c.type for c in source.columns}
    if any(types.get(c.name.lower()) != c.type for c in frame.columns):
        return False
    listed = ", ".join(_quoted(c.name) for c in frame.columns)
    rows = f"SELECT {listed} FROM {_quoted(frame.name)} EXCEPT ALL SELECT {listed} FROM {_quoted(source.name)}"
    sql = f"SELECT count(*) FROM ({rows})"
    try:
        return session.rows(sql) == [(0,)]
    except (ChatDBError, duckdb.Error):
        return False


def _quoted(name: str) -> str:
    """A table's name (`archive.orders` for an attached one) or a column's, quoted part by part."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in name.split("."))
