"""A new row read without its day.

A small model reading a record often leaves out the one date a new row needs where the request gives it in
a form unlike the field's name: a `key: value` line labelled "date" for a column `cast_on`, the day a log
line opens with. Without it the row lacks a value its table needs and reads as a change of a kept row,
which names none. Where a row lacks only dates its table needs and the request gives exactly one day that
none of the row's values holds, the row is dated that day (`dated_the_one_day`); a day in figures that
reads two ways ("12/05/2024") is that day where the days its column keeps settle the order
(`day_order.py`). A change the model read whose values, so dated, make such a row and name no kept row is a
new row (`an_undated_new_row`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import replace

from ..language.dates import DATES, SLASHED, day_or_none, each_day_said
from .day_order import ordered_day
from .facts import lacks
from .moments import leading_day
from .resolve import StoredRows
from .row_changes import MIN_NEEDED, Pick, Reading, rows_met
from .shapes import Shape


def dated_the_one_day(
    shapes: Mapping[str, Shape], table: str, row: Mapping[str, object], text: str, stored: StoredRows | None = None
) -> dict | None:
    """`row` of `table` with the dates it lacks set to the one day `text` gives; None where it lacks more
    than dates, or nothing, or the request gives no day, several, or one the row holds already. `stored`:
    the kept rows, to settle a day in figures that reads two ways by the days its one lacking column keeps.

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> fields = (Field("mould", "mould", "VARCHAR", True), Field("cast_on", "cast_on", "DATE", True),
    ...           Field("weight_kg", "weight_kg", "DOUBLE", True), Field("sold_on", "sold_on", "DATE", False))
    >>> bells = {"bells": Shape("bells", fields, "", "")}
    >>> cast = "cast\\nmould: M-3\\nweight: 40 kg\\ndate: 3 May 2025"
    >>> dated_the_one_day(bells, "bells", {"mould": "M-3", "weight_kg": 40}, cast)
    {'mould': 'M-3', 'weight_kg': 40, 'cast_on': '2025-05-03'}
    >>> dated_the_one_day(bells, "bells", {"mould": "M-3", "weight_kg": 40}, "12/05/2025 | M-3 | 40 kg | sold 30/05/2025")
    >>> dated_the_one_day(bells, "bells", {"mould": "M-3"}, "M-3 cast on 3 May 2025")
    >>> dated_the_one_day(bells, "bells", {"mould": "M-3", "weight_kg": 40}, "12/05/2025 | M-3 | 40 kg")
    """
    shape = shapes[table]
    missing = lacks(shapes, table, row)
    dates = {f.name for f in shape.fields if f.type.upper() == "DATE" and f.reference is None}
    if not missing or not set(missing) <= dates:
        return None
    said, mentions = each_day_said(text), len(DATES.findall(text)) + len(SLASHED.findall(text))
    days = set(said) if len(said) == mentions else set()  # none where a day reads two ways
    if mentions == 1 and not said and stored is not None and len(missing) == 1:
        days = _settled(text, stored, shape.table, shape.field(missing[0]).column)  # type: ignore[union-attr]
    if len(days) != 1 or days & {leading_day(value) for value in row.values()}:
        return None
    day = next(iter(days)).isoformat()
    return {**row, **{name: day for name in missing}}


def _settled(text: str, stored: StoredRows, table: str, column: str) -> set[dt.date]:
    """The day `text` gives, its one day, in figures that read two ways, where the days `column` keeps
    settle which; none otherwise."""
    first, second, year = (int(part) for part in SLASHED.findall(text)[0])
    read = day_or_none(year, second, first)
    if read is None:
        return set()
    day, doubt = ordered_day(text, read, stored.span(table, column))
    return set() if doubt else {day}


def an_undated_new_row(reading: Reading, shapes: Mapping[str, Shape], stored: StoredRows, text: str) -> bool:
    """Whether a change the model read gives a new row's values but its day: every value it names rows by
    or sets is one of its table's columns, set "to" a value, and they name no kept row together, or one
    that holds another day (a member's second payment by card, read as changing the amount of the first);
    dated the one day the request gives, they are every value a new row needs (a log line of a hull check,
    read as setting the remark of the check its other values name)."""
    shape = shapes.get(reading.table)
    if reading.does != "change" or shape is None or not reading.which:
        return False
    if sum(f.required for f in shape.fields) < MIN_NEEDED:
        return False
    given = values_given(reading, shape)
    row = dict(given)
    if len(given) != len(reading.which) + len(reading.settings) or len(row) != len(given):
        return False  # a setting other than "to", a column not its table's, or one field twice
    dated = dated_the_one_day(shapes, reading.table, row, text, stored)
    if dated is None:
        return False
    met = rows_met(reading, shapes, stored, text)
    days = [Pick(field.column, day) for name, day in dated.items() if name not in row and (field := shape.field(name))]
    on_the_day = (*reading.which, *days)  # the kept row it names, on the day given
    return met == 0 or (met == 1 and rows_met(replace(reading, which=on_the_day), shapes, stored, text) == 0)


def values_given(reading: Reading, shape: Shape) -> tuple[tuple[str, object], ...]:
    """The (field, value) a reading gives a row of `shape`: the values it names rows by, and those it sets
    "to"; a column the table lacks left out."""
    given = [(p.column, p.value) for p in reading.which]
    given += [(s.column, s.value) for s in reading.settings if s.how == "to"]
    return tuple((field.name, value) for column, value in given if (field := shape.field(column)) is not None)
