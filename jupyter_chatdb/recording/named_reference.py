"""A new row read without the kept row the request names for it.

A small model reading a record leaves out a reference whose field it cannot tell by its name: the tuner
who did the work (`tuner_no`, a reference to tuners) where the request says "Ida Roos tuned PN-4 ...".
Where a new row lacks only references (and dates, left to `undated.py`), and for each the request names
exactly one kept row of the table referred to that the row does not refer to already, the row refers to it
(`referring_to_the_one_named`).

It may also fill one with a number the request gives for something else: "Paul Roy took the Pirate
Captain costume out for 5 days" read as the costume coded '5'. A reference naming no kept row, to a table this reading adds
no row to and whose rows need more than a name to add, cannot be written as read; where the request names
exactly one kept row of that table the row does not refer to already, it refers to that row instead
(`named_for_what_names_nothing`). So does a reference the request does not give at all: a small model
copies a kept row's code from the rows it is shown ('K-013' for "Ada Roy's sea kayak").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from .described import described_in
from .facts import lacks
from .named_rows import NamedRow
from .resolve import StoredRows
from .shapes import Field, Reference, Shape, shape_named
from .stated import is_stated


def referring_to_the_one_named(
    shapes: Mapping[str, Shape], table: str, row: Mapping[str, object], named: Sequence[NamedRow]
) -> dict | None:
    """`row` of `table` given, for each reference it lacks, the one kept row of the referenced table the
    request names (`named`, by its key or a label) that it does not refer to already; None where it lacks anything but references
    and dates, or no reference, or the request names no such row or several.

    >>> from jupyter_chatdb.recording.shapes import Field, Reference
    >>> tuner = Field("tuner_no", "tuner_no", "INTEGER", True, Reference("tuners", "tuner_no", "tuner_name"))
    >>> fields = (Field("piano", "piano", "VARCHAR", True), tuner, Field("cents_off", "cents_off", "INTEGER", True))
    >>> tunings = {"tunings": Shape("tunings", fields, "", "")}
    >>> ida = [NamedRow("tunings", "piano", "PN-4", "PN-4"), NamedRow("tuners", "tuner_name", "Ida Roos", "Ida Roos")]
    >>> referring_to_the_one_named(tunings, "tunings", {"piano": "PN-4", "cents_off": 6}, ida)
    {'piano': 'PN-4', 'cents_off': 6, 'tuner_no': 'Ida Roos'}
    >>> two = [*ida, NamedRow("tuners", "tuner_name", "Bo Lind", "Bo Lind")]
    >>> referring_to_the_one_named(tunings, "tunings", {"piano": "PN-4", "cents_off": 6}, two)
    >>> referring_to_the_one_named(tunings, "tunings", {"piano": "PN-4"}, ida)
    """
    shape = shapes[table]
    lacking = [shape.field(name) for name in lacks(shapes, table, row)]
    if any(field is None or (field.reference is None and field.type.upper() != "DATE") for field in lacking):
        return None
    missing = [field for field in lacking if field is not None and field.reference is not None]
    if not missing or any(field.reference is not None and not field.reference.name for field in missing):
        return None
    filled = dict(row)
    for field in missing:
        reference = field.reference
        assert reference is not None
        if (one := _the_one_named(shape, row, reference, named)) is None:
            return None
        filled[field.name] = one
    return filled


def _the_one_named(
    shape: Shape, row: Mapping[str, object], reference: Reference, named: Sequence[NamedRow]
) -> str | None:
    """The one kept row of the table `reference` refers to that the request names (`named`, by its key or a
    label) and `row` does not refer to already; None where it names none or several."""
    table = reference.table.lower()
    held = {
        str(row.get(f.name)) for f in shape.fields if f.reference is not None and f.reference.table.lower() == table
    }
    columns = {c.lower() for c in (reference.name, *reference.labels)}
    candidates = {
        str(n.value)
        for n in named
        if n.table.lower() == table and n.column.lower() in columns and str(n.value) not in held
    }
    return candidates.pop() if len(candidates) == 1 else None


def named_for_what_names_nothing(
    shapes: Mapping[str, Shape],
    rows: Mapping[str, list],
    named: Sequence[NamedRow],
    stored: StoredRows,
    text: str,
    today: dt.date,
) -> dict[str, list]:
    """`rows` (table -> rows read), each reference naming no kept row (by its name, a label or a
    description), or one the request does not give (`text`: a code copied from the rows the model was shown,
    where the request describes the row as "Ada Roy's sea kayak"), to a table no row read adds and whose rows
    need more than a name, given instead the one kept row of that table the request names (`named`) that
    its row does not refer to already; as they are where the request names none or several such rows."""
    fixed: dict[str, list] = {}
    for table, listed in rows.items():
        shape = shapes.get(table)
        fixed[table] = (
            listed
            if shape is None
            else [_with_names_for_nothing(shapes, shape, row, rows, named, stored, text, today) for row in listed]
        )
    return fixed


def _with_names_for_nothing(
    shapes: Mapping[str, Shape],
    shape: Shape,
    row: dict,
    rows: Mapping[str, list],
    named: Sequence[NamedRow],
    stored: StoredRows,
    text: str,
    today: dt.date,
) -> dict:
    filled = dict(row)
    for field in shape.fields:
        reference, value = field.reference, row.get(field.name)
        if reference is None or not reference.name or value is None:
            continue
        if not _names_nothing(shapes, field, value, stored) and not _not_given(field, value, named, text, today):
            continue
        if _added_here(shapes, reference.table, rows) or not _needs_more_than_a_name(shapes, reference.table):
            continue
        if (one := _the_one_named(shape, row, reference, named)) is not None:
            filled[field.name] = one
    return filled


def _not_given(field: Field, value: object, named: Sequence[NamedRow], text: str, today: dt.date) -> bool:
    """Whether `value`, a reference, is neither said in `text` nor a row the request names (a code said in
    words, a description)."""
    reference = field.reference
    assert reference is not None
    if is_stated(value, text, today):
        return False
    return all(str(n.value) != str(value) for n in named if n.table.lower() == reference.table.lower())


def _names_nothing(shapes: Mapping[str, Shape], field: Field, value: object, stored: StoredRows) -> bool:
    reference = field.reference
    assert reference is not None
    found = stored.find(reference.table, reference.labels or (reference.name,), value, reference.name)
    return found is None and described_in(shapes, reference.table, str(value), stored, reference.name) is None


def _added_here(shapes: Mapping[str, Shape], table: str, rows: Mapping[str, list]) -> bool:
    """Whether the reading gives rows of `table` (by its name in the database)."""
    return any(
        listed and (s := shapes.get(name)) is not None and s.table.lower() == table.lower()
        for name, listed in rows.items()
    )


def _needs_more_than_a_name(shapes: Mapping[str, Shape], table: str) -> bool:
    """Whether a row of `table` cannot be added by its name alone (or is not offered to this reading)."""
    shape = shape_named(shapes, table)
    return shape is None or any(f.required and f.column != shape.natural_key for f in shape.fields)
