"""A new row's reference to a kept row the request does not name waits.

A small model asked for a new row whose table refers to kept rows (a repair's bike, its mechanic) fills a
reference it was not given with a row of the list it was shown, often the first. The row exists, so the
write would run and look right. A reference value counts as the request's when the request says it, says
a name or code of the row it refers to, or the number of two figures or more in its code or name that no
other row's holds ("the 250ml flasks" for 'FL-250'), or names that row some other way (`rows_named`: by a
code said in words, or described by its owner: "Ola Berg's sea kayak"); any other is a doubt, and the write
waits.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..language.numbers import DIGIT_RUN
from .named_rows import NamedRow
from .reading_errors import NotExpressible
from .resolve import StoredRows
from .shapes import CLEARED, Field, Shape
from .stated import is_stated, said_only_as_part

LONG_WORD = re.compile(r"[^\W\d_]{4,}")  # a name's word said alone that names its row ("Calder" of 'Calder Farm')


@dataclass(frozen=True)
class UnnamedReference:
    """A new row's reference (`field` of `table`, holding `value`) to a kept row the request does not name."""

    table: str
    field: Field
    value: object

    def __str__(self) -> str:
        referred = self.field.reference.table if self.field.reference is not None else "such"
        return f"{self.table}.{self.field.column} = {self.value!r}: the request names no such {referred} row"


def unnamed_references(
    shapes: Mapping[str, Shape],
    rows: Mapping[str, Sequence[Mapping[str, object]]],
    text: str,
    stored: StoredRows,
    named: Sequence[NamedRow],
    today: dt.date,
) -> list[UnnamedReference]:
    """The references of `rows` (table -> new rows, field -> value) to kept rows that `text` does not name."""
    doubts: list[UnnamedReference] = []
    for table, listed in rows.items():
        shape = shapes.get(table)
        if shape is None:
            continue
        for row in listed:
            for f in shape.fields:
                value, reference = row.get(f.name), f.reference
                if reference is None or value is None or value is CLEARED or f in shape.required_references:
                    continue
                if is_stated(value, text, today):
                    continue
                labels = reference.labels or (reference.name,)
                key = stored.find(reference.table, labels, value, reference.key)
                if key is None or _named(stored, reference.table, labels, reference.key, key, text, named):
                    continue  # a value that names no kept row is the statement's to refuse
                doubts.append(UnnamedReference(shape.table, f, value))
    return doubts


def _named(
    stored: StoredRows,
    table: str,
    labels: Sequence[str],
    wanted: str,
    key: object,
    text: str,
    named: Sequence[NamedRow],
) -> bool:
    """Whether `text` names the row of `table` whose `wanted` is `key`: by a name or code it holds (or a
    long word of one), or as one of the rows `named`."""
    if key in stored.all_named_in(table, labels, text, wanted):
        return True
    said = {w.lower() for w in LONG_WORD.findall(text)}
    for column in labels:
        held = stored.the_one(table, {wanted: key}, column)
        if held is not None and said & {w.lower() for w in LONG_WORD.findall(str(held))}:
            return True
    if any(_by_its_number(stored, table, column, wanted, key, text) for column in dict.fromkeys((wanted, *labels))):
        return True
    return any(
        n.table.lower() == table.lower() and stored.find(table, (n.column,), n.value, wanted) == key for n in named
    )


def _by_its_number(stored: StoredRows, table: str, column: str, wanted: str, key: object, text: str) -> bool:
    """Whether `text` says the number (two figures or more, not a part of a day or a time) that the row's
    `column` holds and no other row's does: "250ml flasks" for the flask coded 'FL-250'."""
    held = key if column == wanted else stored.the_one(table, {wanted: key}, column)
    own = DIGIT_RUN.search(held) if isinstance(held, str) else None  # a code or a name: text holding a number
    if own is None or len(own.group().lstrip("0")) < 2:
        return False
    number = int(own.group())
    said = {int(n) for n in DIGIT_RUN.findall(text) if len(n.lstrip("0")) >= 2 and not said_only_as_part(n, text)}
    if number not in said:
        return False
    try:
        return stored.codes_holding(table, column, [number]) == [held]
    except NotExpressible:  # a column the database cannot search as text
        return False
