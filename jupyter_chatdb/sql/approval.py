"""What an approval checks: that a write runs exactly what its preview showed, and when a write needs one.

A preview runs the write in a transaction, records the rows it would change and rolls back. Approving
runs the same statements again; they may only change the same rows in the same way. Two things
legitimately differ between the runs and are matched, not compared: the values sequences hand out
(the preview's ids are spent, DuckDB does not roll sequences back) and the transaction's clock.
random() and uuid() give the same values in both, from the seed the preview ran with.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from .journal import TableChange
from .session import Session

BULK_MIN_ROWS = 10  # below this many rows, only changing every row of a table counts as bulk


@dataclass(frozen=True)
class RunMarks:
    """What one run of a write got from the engine rather than from the data."""

    sequences: Mapping[str, tuple[int | None, int | None]] = field(default_factory=dict)  # name -> (before, after)
    clock: tuple[object, ...] = ()  # now(), current_localtimestamp(), current_date inside the transaction
    seed: float = 0.0  # the seed random() and uuid() ran with: an approved run gets the same values

    @classmethod
    def read(cls, session: Session, sequences_before: Mapping[str, int | None], seed: float = 0.0) -> RunMarks:
        """The marks of the run now in `session`'s transaction: each sequence it advanced (given their last
        values before it), the transaction's clock, read as the rows of a change are (through pandas), and
        the `seed` it ran with."""
        used = {
            name: (sequences_before.get(name), last)
            for name, last in session.sequences().items()
            if last != sequences_before.get(name)
        }
        frame = session.frame("SELECT now() AS now, current_localtimestamp() AS local, current_date AS today")
        return cls(used, tuple(_plain(value) for value in frame.iloc[0]), seed)


@dataclass(frozen=True)
class Preview:
    """The rows a write would change, and the marks of the run that showed them."""

    changes: tuple[TableChange, ...]
    marks: RunMarks = field(default_factory=RunMarks)


def differences(preview: Preview, applied: Preview) -> str | None:
    """Why `applied` did not change the rows `preview` showed, or None when it changed exactly those.

    >>> old = TableChange("t", pd.DataFrame({"id": [1], "fruit": ["apple"]}), pd.DataFrame({"id": [], "fruit": []}))
    >>> other = TableChange("t", pd.DataFrame({"id": [2], "fruit": ["pear"]}), pd.DataFrame({"id": [], "fruit": []}))
    >>> differences(Preview((old,)), Preview((old,))) is None
    True
    >>> differences(Preview((old,)), Preview((other,)))
    't: other rows would be removed or changed than the preview showed'
    """
    shown = {change.table: change for change in preview.changes}
    done = {change.table: change for change in applied.changes}
    if set(shown) != set(done):
        tables = ", ".join(sorted(set(shown) ^ set(done)))
        return f"it would change other tables than the preview showed ({tables})"
    fresh = _fresh_values(preview.marks, applied.marks)
    for table, change in shown.items():
        now = done[table]
        if Counter(_rows(change.old)) != Counter(_rows(now.old)):
            return f"{table}: other rows would be removed or changed than the preview showed"
        if not _same_rows(_rows(change.new), _rows(now.new), fresh):
            return f"{table}: the rows it would add or change differ from the preview"
    return None


def bulk_change(changes: Sequence[TableChange], share: float, matched: Mapping[str, int] | None = None) -> str | None:
    """Why these changes need an approval even with writes allowed: they remove or change every row of
    a table, or more than `share` of a table of at least BULK_MIN_ROWS rows; None when they do not.
    `matched`: table -> the most rows one UPDATE or DELETE of it matched, counted whether or not their
    values changed (an UPDATE of every row that changes four of five still touches five).

    >>> t = TableChange("t", pd.DataFrame({"id": [1, 2]}), pd.DataFrame({"id": [1, 2]}), ("id",), rows_before=2)
    >>> bulk_change([t], 0.5)
    'it changes every row of t (2)'
    >>> one = TableChange("t", pd.DataFrame({"id": [1]}), pd.DataFrame({"id": [1]}), ("id",), rows_before=2)
    >>> bulk_change([one], 0.5, {"t": 2})
    'it changes every row of t (2)'
    """
    matched = matched or {}
    for change in changes:
        if change.created or not change.rows_before:
            continue
        touched, before = max(len(change.old), matched.get(change.table, 0)), change.rows_before
        if before > 1 and touched >= before:
            return f"it changes every row of {change.table} ({before})"
        if before >= BULK_MIN_ROWS and touched > share * before:
            return f"it changes {touched} of the {before} rows of {change.table} (more than {share:.0%})"
    return None


# -- comparing rows ------------------------------------------------------------------------------


def _rows(frame: pd.DataFrame) -> list[tuple[Hashable, ...]]:
    return [tuple(_plain(value) for value in row) for row in frame.itertuples(index=False, name=None)]


def _plain(value: object) -> Hashable:
    if value is None or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return None
    if hasattr(value, "item") and not isinstance(value, (pd.Timestamp, str)):
        value = value.item()
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    try:
        hash(value)
    except TypeError:
        return repr(value)  # lists, dicts: compared by their text
    return value


def _fresh_values(preview: RunMarks, applied: RunMarks) -> dict[Hashable, Hashable]:
    """Preview value -> the value the approved run got in its place (sequence values, the clock)."""
    fresh: dict[Hashable, Hashable] = {}
    for name, (before, after) in preview.sequences.items():
        if after is None or name not in applied.sequences:
            continue
        then, now = applied.sequences[name]
        first, first_now = (before or 0) + 1, (then or 0) + 1
        for offset in range(max(0, after - first + 1)):
            fresh.setdefault(first + offset, first_now + offset)
    for shown, read in zip(preview.clock, applied.clock):
        fresh.setdefault(_plain(shown), _plain(read))
        if isinstance(shown, dt.datetime) and isinstance(read, dt.datetime):
            fresh.setdefault(shown.replace(tzinfo=None), read.replace(tzinfo=None))
    return fresh


def _same_rows(
    shown: list[tuple[Hashable, ...]], done: list[tuple[Hashable, ...]], fresh: Mapping[Hashable, Hashable]
) -> bool:
    """Whether the rows match one to one, a cell matching when equal or when it is a fresh value's stand-in."""
    if len(shown) != len(done):
        return False
    left = list(done)
    for row in shown:
        match = next((i for i, other in enumerate(left) if _same_row(row, other, fresh)), None)
        if match is None:
            return False
        left.pop(match)
    return True


def _same_row(row: tuple[Hashable, ...], other: tuple[Hashable, ...], fresh: Mapping[Hashable, Hashable]) -> bool:
    return len(row) == len(other) and all(a == b or (a in fresh and fresh[a] == b) for a, b in zip(row, other))
