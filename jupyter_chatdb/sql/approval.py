"""What an approval checks: that a write runs exactly what its preview showed, and when a write needs one.

A preview runs the write in a transaction, records the rows it would change and rolls back. Approving
runs the same statements again; they may only change the same rows in the same way, compared cell by
cell by value and type, NULL matching NULL. Two things legitimately differ between the runs and are
matched, not compared: the values sequences hand out, in the columns the statements fill from a
sequence (the preview's ids are spent, DuckDB does not roll sequences back), and the transaction's
clock. random() and uuid() give the same values in both, from the seed the preview ran with.
"""

from __future__ import annotations

import datetime as dt
import math
import uuid
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .journal import TableChange
from .sequence_columns import SequenceFill, sequence_columns
from .session import Session

BULK_MIN_ROWS = 10  # below this many rows, only changing every row of a table counts as bulk


@dataclass(frozen=True)
class RunMarks:
    """What one run of a write got from the engine rather than from the data."""

    sequences: Mapping[str, tuple[int | None, int | None]] = field(default_factory=dict)  # name -> (before, after)
    clock: tuple[object, ...] = ()  # now(), current_localtimestamp(), current_date inside the transaction
    seed: float = 0.0  # the seed random() and uuid() ran with: an approved run gets the same values
    fill: SequenceFill = field(default_factory=SequenceFill)  # where its statements put a sequence's numbers
    bound: Mapping[str, Hashable] = field(default_factory=dict)  # the earlier results its steps used: $name -> value

    @classmethod
    def read(
        cls,
        session: Session,
        sequences_before: Mapping[str, int | None],
        seed: float = 0.0,
        statements: Sequence[str] = (),
        bound: Mapping[str, object] | None = None,
    ) -> RunMarks:
        """The marks of the run now in `session`'s transaction: each sequence it advanced (given their last
        values before it), the transaction's clock, read as the rows of a change are (through pandas), the
        `seed` it ran with, where its `statements` put a sequence's numbers, and the values `bound` to its
        steps' `$name` parameters."""
        used = {
            name: (sequences_before.get(name), last)
            for name, last in session.sequences().items()
            if last != sequences_before.get(name)
        }
        frame = session.frame("SELECT now() AS now, current_localtimestamp() AS local, current_date AS today")
        fill = sequence_columns(session, statements) if used else SequenceFill()
        values = {name: _plain(value) for name, value in (bound or {}).items()}
        return cls(used, tuple(_plain(value) for value in frame.iloc[0]), seed, fill, values)


@dataclass(frozen=True)
class Preview:
    """The rows a write would change, and the marks of the run that showed them."""

    changes: tuple[TableChange, ...]
    marks: RunMarks = field(default_factory=RunMarks)
    token: str = field(default_factory=lambda: uuid.uuid4().hex, compare=False)  # an approval applies it once


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
    numbers, clock = _fresh_values(preview.marks, applied.marks)
    moved = [
        name
        for name, value in preview.marks.bound.items()
        if value in numbers and numbers[value] == applied.marks.bound.get(name)
    ]
    for table, change in shown.items():
        now = done[table]
        if Counter(_rows(change.old)) != Counter(_rows(now.old)):
            return f"{table}: other rows would be removed or changed than the preview showed"
        allows = preview.marks.fill.allows
        fresh = [{**clock, **numbers} if allows(table, str(c), moved) else clock for c in change.new.columns]
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
    """A cell as a hashable value tagged with its type, so that cells compare by value and type and a
    missing value of any kind (None, NaN, NaT, pandas' NA) is None.

    >>> _plain(pd.NA) is None and _plain(float("nan")) is None and _plain(pd.NaT) is None
    True
    >>> _plain(np.int64(1)) == _plain(1) != _plain(True)
    True
    >>> _plain(np.array([1, 2])) == _plain([1, 2])
    True
    """
    if value is None or value is pd.NaT or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, (np.ndarray, list, tuple)):
        return ("list", tuple(_plain(item) for item in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), _plain(v)) for k, v in value.items()), key=repr)))
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if isinstance(value, pd.Timedelta):
        value = value.to_pytimedelta()
    try:
        hash(value)
    except TypeError:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, value)


Fresh = Mapping[Hashable, Hashable]


def _fresh_values(preview: RunMarks, applied: RunMarks) -> tuple[dict[Hashable, Hashable], dict[Hashable, Hashable]]:
    """Preview value -> the value the approved run got in its place: the sequences' numbers (stand-ins only
    in the columns filled from a sequence), and the clock's values (anywhere)."""
    numbers: dict[Hashable, Hashable] = {}
    for name, (before, after) in preview.sequences.items():
        if after is None or name not in applied.sequences:
            continue
        then, now = applied.sequences[name]
        first, first_now = (before or 0) + 1, (then or 0) + 1
        for offset in range(max(0, after - first + 1)):
            for kind in (int, float):  # a column of integers with a NULL reaches pandas as floats
                numbers.setdefault(_plain(kind(first + offset)), _plain(kind(first_now + offset)))
    clock: dict[Hashable, Hashable] = {}
    for shown, read in zip(preview.clock, applied.clock):
        clock.setdefault(shown, read)
        if isinstance(shown, tuple) and isinstance(read, tuple) and isinstance(shown[1], dt.datetime):
            naive, naive_read = shown[1].replace(tzinfo=None), read[1].replace(tzinfo=None)
            clock.setdefault(_plain(naive), _plain(naive_read))
    return numbers, clock


def _same_rows(shown: list[tuple[Hashable, ...]], done: list[tuple[Hashable, ...]], fresh: Sequence[Fresh]) -> bool:
    """Whether the rows match one to one, a cell matching when equal or when it is a fresh value's stand-in
    (`fresh`: per column, preview value -> approved value)."""
    if len(shown) != len(done):
        return False
    left = list(done)
    for row in shown:
        match = next((i for i, other in enumerate(left) if _same_row(row, other, fresh)), None)
        if match is None:
            return False
        left.pop(match)
    return True


def _same_row(row: tuple[Hashable, ...], other: tuple[Hashable, ...], fresh: Sequence[Fresh]) -> bool:
    return len(row) == len(other) and all(
        a == b or (a in stand_ins and stand_ins[a] == b) for a, b, stand_ins in zip(row, other, fresh)
    )
