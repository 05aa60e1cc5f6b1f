"""A new row read without the kept row the request names for it.

A small model reading a record leaves out a reference whose field it cannot tell by its name: the tuner
who did the work (`tuner_no`, a reference to tuners) where the request says "Ida Roos tuned PN-4 ...".
Where a new row lacks only references (and dates, left to `undated.py`), and for each the request names
exactly one kept row of the table referred to that the row does not refer to already, the row refers to it
(`referring_to_the_one_named`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .facts import lacks
from .named_rows import NamedRow
from .shapes import Shape


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
        held = {
            str(row.get(other.name))
            for other in shape.fields
            if other.reference is not None and other.reference.table.lower() == reference.table.lower()
        }
        candidates = {
            str(n.value)
            for n in named
            if n.table.lower() == reference.table.lower()
            and n.column.lower() in {c.lower() for c in (reference.name, *reference.labels)}
            and str(n.value) not in held
        }
        if len(candidates) != 1:
            return None
        filled[field.name] = candidates.pop()
    return filled
