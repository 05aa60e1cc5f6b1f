"""A row per item of a list: "kites: Swift, Osprey" hires out two kites, not one.

A small model reading a record that lists several kept rows for one reference ("took the red kite, the
box kite and kite K-3") often writes one new row, for the first item. Where a new row (of a table whose
rows no column names) names a kept row in one item of a list the request writes (items parted by commas,
semicolons, "and", "&" or "+"), and the items next to it each name another one kept row of that table, the
row is written once per item (`one_row_per_item`). Only where nothing else of the row is said inside its
item: "10 bolts, 5 nuts" gives each line its own count, which a copy would get wrong.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping

from ..language.codes import code_fit
from .facts import lacks
from .resolve import StoredRows, squeezed
from .shapes import Field, Shape
from .stated import is_stated

# what parts the items of a list ("A, B and C", "A; B", "A & B", "A + B")
SEPARATOR = re.compile(r"\s*(?:,|;|\s&\s|\s\+\s|\band\b)\s*", re.IGNORECASE)
# a sentence's end (not "no. 8"), and the label of a "key: value" line
SENTENCE_END = re.compile(r"(?<!\bno)(?<!\bnr)\.(?=\s|$)", re.IGNORECASE)
LABEL = re.compile(r"^[^:]{1,40}:\s")


def one_row_per_item(
    shapes: Mapping[str, Shape], rows: Mapping[str, list], text: str, stored: StoredRows, today: dt.date
) -> dict[str, list]:
    """`rows`, with a copy of each new row (one that gives all its table needs) for every other kept
    row the list its reference is said in names, that no row read names already."""
    listed: dict[str, list] = {table: list(given) for table, given in rows.items()}
    for table, given in rows.items():
        shape = shapes.get(table)
        if shape is None or shape.natural_key:
            continue  # a row that names itself is one row
        for row in given:
            if lacks(shapes, table, row):
                continue
            for field in shape.fields:
                found = _other_items(field, row, text, stored, today)
                used = {str(r.get(field.name)) for r in listed[table]}
                listed[table] += [{**row, field.name: item} for item in found if item not in used]
    return listed


def _other_items(field: Field, row: Mapping[str, object], text: str, stored: StoredRows, today: dt.date) -> list[str]:
    """The other items of the list in `text` whose item names the kept row `field` refers to, each naming
    another one kept row (as said); [] when there is no such list or something else of `row` is said in
    its item."""
    reference, value = field.reference, row.get(field.name)
    if reference is None or not reference.name or not isinstance(value, str) or not squeezed(value):
        return []
    columns = reference.labels or (reference.name,)
    kept = stored.find(reference.table, columns, value, reference.name)
    if kept is None:
        return []
    for part in _parts(text):
        items = [item for item in SEPARATOR.split(part) if item.strip()]
        at = next((i for i, item in enumerate(items) if _names(item, value)), None)
        if at is None or len(items) < 2:
            continue
        others = [v for name, v in row.items() if name != field.name and v is not None]
        if any(is_stated(other, items[at], today) for other in others):
            return []  # the item says more of its row than the reference: not a copy's to write
        found, named = [], {kept}
        for item in items[:at][::-1] + items[at + 1 :]:
            other = stored.find(reference.table, columns, item.strip(), reference.name)
            if other is None:
                other = stored.named_in(reference.table, columns, item, reference.name)
            if other is None or other in named:
                continue
            named.add(other)
            found.append(str(other))
        return found
    return []


def _names(item: str, value: str) -> bool:
    """Whether a list's `item` says `value`: as written, or as a code said in words ("magazine 7" for
    'M-007').

    >>> _names("magazine 7", "M-007"), _names("the M-007 copy", "M-007"), _names("7 magazines", "M-007")
    (True, True, False)
    """
    return squeezed(value) in squeezed(item) or code_fit(item, value) > 0


def _parts(text: str) -> list[str]:
    """`text` cut where a list cannot go on: at a line's end, a sentence's end, a line's label.

    >>> _parts("hire\\nflyer: Ida\\nkites: Swift, Osprey")
    ['hire', 'Ida', 'Swift, Osprey']
    >>> _parts("Ida took kite no. 8 and Osprey. She paid.")
    ['Ida took kite no. 8 and Osprey', 'She paid']
    """
    lines = [LABEL.sub("", line.strip()) for line in text.splitlines()]
    return [part.strip() for line in lines for part in SENTENCE_END.split(line) if part.strip()]
