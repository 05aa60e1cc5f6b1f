"""Values a record gives on `key: value` lines whose key is a field's name ("kite code: kite 11").

A record written as labelled lines says plainly which value is which, yet a small model reading it may
leave a field out, most often one whose value it would have to write in another form (a code said in
words). Where the reading has one row of a table and leaves out a field that a line of the request is
labelled with (its name's words, in any order of case and spacing), the row takes that line's value
(`filled_from_lines`), in the field's type. The model's own values are not replaced, but for a day: a
record with several days ("planned for: 26 April", "drawn on: 2024-04-20") is read with one for another
now and then, and the line labelled with the field's name says which is its.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..language.dates import DATES, day_of
from ..language.words import stem_sequence, words
from .shapes import INTEGER_TYPES, NUMBER_TYPES, Field, Shape

LINE = re.compile(r"^[ \t]*(?P<key>[^\W\d][\w .'-]{0,30}?)[ \t]*:[ \t]*(?P<value>\S.*?)[ \t]*$", re.MULTILINE)


def filled_from_lines(shapes: Mapping[str, Shape], read: Mapping[str, object], text: str) -> dict[str, object]:
    """`read` (table -> rows), each table's one row given the fields it leaves out that `text` labels a
    line with.

    >>> fields = (Field("kite_code", "kite_code", "VARCHAR", True), Field("bought_on", "bought_on", "DATE", True))
    >>> kites = Shape("kites", fields, "kite_code", "")
    >>> text = "new kite\\nKite code: kite 11\\nbought: May 1, 2025"
    >>> filled_from_lines({"kites": kites}, {"kites": [{"bought_on": "2025-05-01"}]}, text)
    {'kites': [{'bought_on': '2025-05-01', 'kite_code': 'kite 11'}]}
    >>> text = "new kite\\nkite code: K-2\\nbought on: May 1, 2025\\ndate: 2025-05-04"
    >>> filled_from_lines({"kites": kites}, {"kites": [{"kite_code": "K-2", "bought_on": "2025-05-04"}]}, text)
    {'kites': [{'kite_code': 'K-2', 'bought_on': '2025-05-01'}]}
    """
    labelled = {tuple(stem_sequence(m.group("key"))): m.group("value") for m in LINE.finditer(text)}
    if not labelled:
        return dict(read)
    filled: dict[str, object] = {}
    for table, listed in read.items():
        shape = shapes.get(table)
        if shape is None or not isinstance(listed, list) or len(listed) != 1 or not isinstance(listed[0], dict):
            filled[table] = listed
            continue
        row = dict(listed[0])
        for field in shape.fields:
            said = labelled.get(tuple(stem_sequence(words(field.name))))
            if said is None or (value := _typed(field, said)) is None:
                continue
            if row.get(field.name) is None or field.type.upper() == "DATE":  # its own line says which day
                row[field.name] = value
        filled[table] = [row]
    return filled


def _typed(field: Field, said: str) -> object | None:
    """`said` as a value of `field`'s type; None where it is not one.

    >>> _typed(Field("n", "n", "INTEGER", True), "12"), _typed(Field("n", "n", "DECIMAL(6,2)", True), "about 3")
    (12, None)
    >>> _typed(Field("d", "d", "DATE", True), "3 May 2025")
    '2025-05-03'
    """
    kind = field.type.upper()
    if kind.startswith(NUMBER_TYPES) or kind.startswith(INTEGER_TYPES):
        try:
            number = float(said.replace(",", ""))
        except ValueError:
            return None
        return int(number) if kind.startswith(INTEGER_TYPES) and number.is_integer() else number
    if kind == "DATE":
        match = DATES.fullmatch(said.strip().rstrip("."))
        day = day_of(match) if match else None
        return day.isoformat() if day else None
    if kind.startswith("TIMESTAMP") or kind in ("BOOLEAN", "TIME"):
        return None
    return said
