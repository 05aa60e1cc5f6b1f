"""When a line and the row it names state the same kind of number differently, the request decides.

"Calder took 20 bales of timothy at 4.50, selling price 6": a small model may give the delivery line
`selling_price` 6 and the hay row `price` 4.50, the cost, copied from the wrong place. Both numbers are in the
request, so checking that values are stated does not catch it. But the request labels a number with
the words just before it ("selling price 6"): when the line's number is labelled with its column's words
and the named row's is not, the named row takes the line's number (`agreed`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..grounding.words import stem, words
from .facts import Shape, same_kind_of_number

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
GENERIC = frozenset({"id", "new", "old"})


def agreed(shapes: Mapping[str, Shape], rows: Mapping[str, list[dict]], text: str) -> list[str]:
    """Set, in `rows`, a named row's number that a line of it states differently and better (see the
    module); returns what was changed, "table.field = value", for the user."""
    changed = []
    for table, listed in rows.items():
        shape = shapes.get(table)
        if shape is None or not shape.required_references:
            continue
        for line in listed:
            for reference in (f for f in shape.fields if f.reference is not None and f.name in line):
                assert reference.reference is not None
                parent = shapes.get(reference.reference.table)
                if parent is None or not parent.natural_key:
                    continue
                named = [r for r in rows.get(parent.table, []) if r.get(parent.natural_key) == line[reference.name]]
                for field in shape.fields:
                    column = same_kind_of_number(field, parent) if field.reference is None else ""
                    if not column or field.name not in line:
                        continue
                    for row in named:
                        mine, theirs = line[field.name], row.get(column)
                        if theirs is None or mine == theirs:
                            continue
                        if labelled(mine, field.column, text) and not labelled(theirs, column, text):
                            row[column] = mine
                            changed.append(f"{parent.table}.{column} = {mine!r}")
    return changed


def labelled(value: object, column: str, text: str) -> bool:
    """Whether `text` says `value` just after a word of `column` (between it and the number before).

    >>> text = "20 bales of timothy bought at 4.50, selling price 6"
    >>> labelled(6, "selling_price", text), labelled(4.5, "price", text), labelled(4.5, "selling_price", text)
    (True, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    wanted = {stem(word) for word in words(column).split()} - GENERIC
    start = 0
    for found in _NUMBER.finditer(text):
        if abs(float(found.group().replace(",", "")) - value) < 1e-9:
            before = {stem(word) for word in re.findall(r"[a-z]+", text[start : found.start()].lower())}
            if wanted & before:
                return True
        start = found.end()
    return False
