"""The day a record is dated by, where a removal may leave it unused.

A removal that leaves a day of the request unused waits: "handed back: 18 March" may be a day to set
rather than a row to remove. A record is often dated by the day it was written, though: the day a log line
opens with ("9 June 2024 | delete | ..."), or a `key: value` line whose key shares no word with a column
of the table ("date: 05/06/2024"). That day says when, not what, where the rows removed have no day left
to fill (every date column of theirs holds one): `records_own_days` gives it then, and nothing otherwise.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from ..language.dates import days_in_order, opening_days
from ..language.words import stems
from ..sql.names import quote_identifier
from .labelled_lines import LINE
from .resolve import StoredRows
from .shapes import Shape, is_temporal


def records_own_days(
    text: str, shape: Shape, stored: StoredRows, where: str, params: Mapping[str, object]
) -> set[dt.date]:
    """The readings of the day `text` is dated by, where the rows of `shape` matching `where` have no
    date column left empty; none otherwise."""
    empty = " OR ".join(f"{quote_identifier(f.column)} IS NULL" for f in shape.fields if is_temporal(f) and f.nullable)
    if empty and stored.count(shape.table, f"({where}) AND ({empty})", params):
        return set()  # a loan not yet returned: the day may be its return
    return opening_days(text) | _labelled_days(text, shape)


def _labelled_days(text: str, shape: Shape) -> set[dt.date]:
    """The readings of each day on a `key: value` line whose key shares no word with a column of `shape`
    ("order of: 3 May" may name an order's day).

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> tunings = Shape("tunings", (Field("tuned_on", "tuned_on", "DATE", True),), "", "")
    >>> sorted(_labelled_days("remove\\npiano: P-4\\ndate: 05/06/2024\\ntuned: 2 May 2024", tunings))
    [datetime.date(2024, 5, 6), datetime.date(2024, 6, 5)]
    """
    columns = [stems(f.column) for f in shape.fields]
    days: set[dt.date] = set()
    for line in LINE.finditer(text):
        key = stems(line.group("key"))
        if key and not any(key & column for column in columns):
            days = days.union(*days_in_order(line.group("value")))
    return days
