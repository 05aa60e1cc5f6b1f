"""Kept rows a request describes rather than names: by a row they refer to and the listed values it says
("Ola Berg's sea kayak": the one kayak whose owner is Ola Berg, of the kind `sea`, or of any kind where
the words map to no entry). A description that fits several rows, or none, names nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..language.words import stem, words
from .named_rows import CLAUSE_END, NamedRow
from .picks import entry_said
from .resolve import StoredRows
from .shapes import Shape, shape_named

MAX_BEFORE = 5  # words before the table's noun that may describe the row ("Ola Berg's old sea kayak")
WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def described(target: Shape, said: str, stored: StoredRows, wanted: str) -> object | None:
    """Column `wanted` of the one row of `target` that `said` describes by the one row each of its
    references names and the listed values it says; None where it names no referenced row, or the words
    fit no one row."""
    holding = {column: found.pop() for column, found in _referred(target, said, stored).items() if len(found) == 1}
    if not holding:
        return None  # no row it refers to is named: nothing describes the row
    for f in target.fields:
        entries = [e for e in f.allowed if entry_said(e, said)] if f.reference is None else []
        if len(entries) == 1:
            holding[f.column] = entries[0]
    return stored.the_one(target.table, holding, wanted)


def described_in(shapes: Mapping[str, Shape], table: str, said: str, stored: StoredRows, wanted: str) -> object | None:
    """`described`, for the rows of `table` (its name in the database, any case) among `shapes`; None
    where `shapes` has no such table."""
    target = shape_named(shapes, table)
    return None if target is None else described(target, said, stored, wanted)


def _referred(target: Shape, said: str, stored: StoredRows) -> dict[str, set[object]]:
    """Each reference column of `target` (to a table whose rows have a name or code) -> the keys of the
    rows `said` names of the table it refers to."""
    return {
        f.column: stored.all_named_in(
            f.reference.table, f.reference.labels or (f.reference.name,), said, f.reference.key
        )
        for f in target.fields
        if f.reference is not None and f.reference.name
    }


def rows_described(text: str, shapes: Mapping[str, Shape], stored: StoredRows) -> list[NamedRow]:
    """The rows of `shapes`' tables that `text` describes just before the table's noun, in one clause
    ("Took Ola Berg's sea kayak out": the kayaks row, said "Ola Berg's sea kayak"), each by its key.

    The shortest words before the noun that describe one row count; a row said twice counts once."""
    found: list[NamedRow] = []
    for name, shape in shapes.items():
        key = shape.naming[0] if shape.naming else shape.returned_key
        if not key or not any(f.reference is not None and f.reference.name for f in shape.fields):
            continue
        noun = stem(words(shape.table).split()[-1])
        for clause in CLAUSE_END.split(text):
            said_words = WORD.findall(clause)
            for end, word in enumerate(said_words):
                first = max(end - MAX_BEFORE, 0)
                if stem(word) != noun or not any(
                    _referred(shape, " ".join(said_words[first : end + 1]), stored).values()
                ):
                    continue  # not the noun, or no row named before it (nor, then, in fewer words)
                for start in range(end - 1, first - 1, -1):
                    said = " ".join(said_words[start : end + 1])
                    value = described(shape, said, stored, key)
                    if value is not None:
                        if all(n.value != value or n.table != name for n in found):
                            found.append(NamedRow(name, key, value, said))
                        break
    return found


def described_among(target: Shape, text: str, stored: StoredRows, at_most: int) -> list[dict[str, object]]:
    """The rows of `target` that `text` describes just before the table's noun by the row each of its
    references names, where several fit and the listed values it says settle none ("Dov Lee's box bike",
    where Dov Lee has a cargo bike and a road bike): the rows to choose among, two to `at_most`; none
    otherwise."""
    noun = stem(words(target.table).split()[-1])
    for clause in CLAUSE_END.split(text):
        said_words = WORD.findall(clause)
        for end, word in enumerate(said_words):
            if stem(word) != noun:
                continue
            said = " ".join(said_words[max(end - MAX_BEFORE, 0) : end + 1])
            holding = {
                column: found.pop() for column, found in _referred(target, said, stored).items() if len(found) == 1
            }
            rows = stored.all_holding(target.table, holding, at_most) if holding else []
            if len(rows) > 1:
                return rows
    return []
