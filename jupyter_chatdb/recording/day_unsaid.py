"""A new row dated by one day of several the request gives, another left unwritten.

"Rang on 30 April: the sweep at Mill House is set for 6 May" gives two days: the day the entry was made
and the day the sweep is for. A small model may date the sweep's one date column by the first it reads,
and the day it is for is then written nowhere. Where a reading's rows hold exactly one date column set to
a day the request gives, and the request gives a day that neither a value read nor a statement written
holds (a day naming a kept row is written in its lookup), which of the days that column holds is asked
(`controller/stages/day_picked.py`); `day_in_doubt` finds such a column.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..language.dates import days_said
from .moments import leading_day
from .shapes import Shape


@dataclass(frozen=True)
class DayInDoubt:
    """The date column of one row read (`table`, the row's `index`, the `field` as read) whose day is one
    of several the request gives (`days`, in order), another held by no value read."""

    table: str
    index: int
    field: str
    column: str
    read: dt.date
    days: tuple[dt.date, ...]


def day_in_doubt(
    shapes: Mapping[str, Shape], rows: Mapping[str, object], text: str, written: Iterable[object] = ()
) -> DayInDoubt | None:
    """The one date column of the rows read (table -> rows) that holds a day `text` gives, where `text`
    gives another day that no value read, nor any of the values `written`, holds; None where there is
    none, several, or no day is left unheld.

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> sweeps = {"sweeps": Shape("sweeps", (Field("house", "house", "VARCHAR", True),
    ...                                      Field("sweep_on", "sweep_on", "DATE", True)), "", "")}
    >>> said = "Rang on 2025-04-30: the sweep at Mill House is set for 6 May 2025"
    >>> day_in_doubt(sweeps, {"sweeps": [{"house": "Mill House", "sweep_on": "2025-04-30"}]}, said).days
    (datetime.date(2025, 4, 30), datetime.date(2025, 5, 6))
    >>> day_in_doubt(sweeps, {"sweeps": [{"house": "Mill House", "sweep_on": "2025-04-30"}]}, said, ["2025-05-06"])
    >>> day_in_doubt(sweeps, {"sweeps": [{"house": "Mill House", "sweep_on": "2025-05-06"}]}, "Set for 6 May 2025")
    """
    given = sorted(days_said(text))
    if len(given) < 2:
        return None
    values = [*(v for listed in rows.values() for row in _rows(listed) for v in row.values()), *written]
    held = {day for value in values if (day := _day(value)) is not None}
    if not set(given) - held:
        return None
    dated = [
        DayInDoubt(table, index, field.name, field.column, day, tuple(given))
        for table, listed in rows.items()
        if (shape := shapes.get(table)) is not None
        for index, row in enumerate(_rows(listed))
        for field in shape.fields
        if field.reference is None
        and field.type.upper() == "DATE"
        and (day := _day(row.get(field.name))) is not None
        and day in given
    ]
    return dated[0] if len(dated) == 1 else None


def _rows(listed: object) -> list[dict]:
    return [row for row in listed if isinstance(row, dict)] if isinstance(listed, list) else []


def _day(value: object) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return leading_day(value) if isinstance(value, str) else None
