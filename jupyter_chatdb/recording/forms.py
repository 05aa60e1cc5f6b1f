"""The form of a value beside the values its column keeps: a check of what the model read against the data.

A small model reading a request fills a field with the nearest words: a person's name for a phone, "none"
for an e-mail address, "31" for a code kept as 'F-031'. Written, those are junk that looks like a record.
Where every value a text column keeps shows a mark (mostly digits, a letter, an '@') and the value read
lacks it, the value is not of its column's form (`unlike_kept`): the write waits, saying so. A value said as nothing
("email: none", "n/a") is no value: a column that may be empty is left empty (`as_nothing`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ..language.dates import DATES, SLASHED
from ..language.words import stems, words
from ..sql.catalog import TEXT_TYPES
from .resolve import StoredRows
from .shapes import Field, Shape, each_row


def _mostly_digits(value: str) -> bool:
    """Whether digits are at least half of `value`'s characters (spaces aside): a phone, a code 'F-031'."""
    shown = [c for c in value if not c.isspace()]
    return 2 * sum(c.isdigit() for c in shown) >= len(shown) > 0


def _holds(test: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda value: any(test(c) for c in value)


def _not_a_day(value: str) -> bool:
    """Whether `value` is something other than a day written out ("May 13, 2024", "13/05/2024")."""
    stripped = value.strip().rstrip(".")
    return DATES.fullmatch(stripped) is None and SLASHED.fullmatch(stripped) is None


NOT_A_DAY = "not a day"
# (what a value has, whether a kept value shows it, whether the value read has it): "Kite 7" beside
# "Kite 3" says nothing of a new kite's name, "0770 12" beside "0771 98" says a phone holds digits, and
# no phone kept is a day
MARKS: tuple[tuple[str, Callable[[str], bool], Callable[[str], bool]], ...] = (
    ("a digit", _mostly_digits, _holds(str.isdigit)),
    ("a letter", _holds(str.isalpha), _holds(str.isalpha)),
    ("'@'", _holds("@".__eq__), _holds("@".__eq__)),
    (NOT_A_DAY, _not_a_day, _not_a_day),
)
LEAST_KEPT = 3  # kept values it takes to say what a column's values look like
NOTHING = re.compile(r"^\s*(?:none|n/?a|nil|nothing|-+|\u2014)\s*\.?\s*$", re.IGNORECASE)  # a hint: it only empties


def unlike_kept(kept: Sequence[str], said: str, least: int = LEAST_KEPT) -> tuple[str, ...]:
    """What every one of at least `least` `kept` values has that `said` lacks ("a digit"); () when `said`
    is of their form, or too few are kept to say.

    >>> phones = ["0770 12", "0771 98", "0113 4"]
    >>> unlike_kept(phones, "Ann Roe"), unlike_kept(phones, "0770 13"), unlike_kept(phones[:2], "Ann Roe")
    (('a digit',), (), ())
    >>> unlike_kept(["F-012", "N-104", "F-007"], "31"), unlike_kept(["a@x.io", "b@y.io", "c@z.io"], "none")
    (('a letter',), ("'@'",))
    >>> unlike_kept(["Kite 1", "Kite 2", "Kite 3"], "Osprey"), unlike_kept(["F-012", "N-104", "F-007"], "Osprey")
    ((), ('a digit',))
    >>> unlike_kept(phones, "May 13, 2024")
    ('not a day',)
    """
    if len(kept) < least:
        return ()
    return tuple(mark for mark, shows, has in MARKS if all(shows(value) for value in kept) and not has(said))


def lacking(marks: Sequence[str], column: str) -> str:
    """The words saying a value lacks `marks`, as every kept value of `column` has them.

    >>> lacking(("a digit",), "phone"), lacking((NOT_A_DAY,), "phone")
    ('has no digit, as every phone kept has', 'is a day, as no phone kept is')
    """
    if NOT_A_DAY in marks:
        return f"is a day, as no {column} kept is"
    return f"has no {' or '.join(m.removeprefix('a ') for m in marks)}, as every {column} kept has"


def said_as_nothing(value: object) -> bool:
    """Whether `value` is words for no value ("none", "n/a", "-").

    >>> [said_as_nothing(v) for v in ("none", " N/A ", "-", "nonesuch", 0, None)]
    [True, True, True, False, False, False]
    """
    return isinstance(value, str) and NOTHING.match(value) is not None


def no_such_value(value: object, column: str) -> bool:
    """Whether `value` says its column has none: "no" and the column's own words ("no remarks").

    >>> no_such_value("no remarks", "remarks"), no_such_value("No notes.", "vet_notes"), no_such_value("no", "notes")
    (True, False, False)
    >>> no_such_value("no nuts, extra oats", "notes")
    False
    """
    said = NO_SUCH.match(value) if isinstance(value, str) else None
    return said is not None and stems(said.group(1)) == stems(words(column))


NO_SUCH = re.compile(r"^\s*no\s+([a-z][a-z ]*?)\s*\.?\s*$", re.IGNORECASE)


def as_nothing(shapes: Mapping[str, Shape], read: Mapping[str, object]) -> dict[str, object]:
    """`read` (table -> rows), with each value said as nothing of a plain text field that may be empty set to
    None (written NULL): words for nothing, or "no" and the column's own words.

    >>> members = Shape("members", (Field("email", "email", "VARCHAR", False),), "", "")
    >>> as_nothing({"members": members}, {"members": [{"email": "none"}, {"email": "no email"}]})
    {'members': [{'email': None}, {'email': None}]}
    """

    def emptied(shape: Shape, row: dict) -> dict:
        return {
            name: None
            if field is not None
            and not field.required
            and (said_as_nothing(value) or no_such_value(value, field.column))
            else value
            for name, value in row.items()
            for field in (_plain_text(shape, name),)
        }

    return each_row(shapes, read, emptied)


def unlike_their_column(
    shapes: Mapping[str, Shape], rows: Mapping[str, Sequence[Mapping[str, object]]], stored: StoredRows
) -> list[str]:
    """For each plain text value of `rows` that is not of the form of the values its column keeps, why:
    "members.phone: 'Ann Roe' has no digit, as every phone kept has"."""
    doubts = []
    for table, listed in rows.items():
        shape = shapes.get(table)
        if shape is None:
            continue
        for row in listed:
            for name, value in row.items():
                field = _plain_text(shape, name)
                if field is None or not isinstance(value, str):
                    continue
                kept = stored.some_values(table, field.column)
                named = field.column in shape.unique and _names_or_codes(stored, table, field.column, value)
                if value in kept or named:
                    continue
                marks = unlike_kept(kept, value)
                if marks:
                    doubts.append(f"{table}.{field.column}: {value!r} {lacking(marks, field.column)}")
    return doubts


def _names_or_codes(stored: StoredRows, table: str, column: str, value: str) -> bool:
    """Whether `value` names a kept row by `column`, or is written as a new code of it ("glasshouse 7")."""
    return stored.find(table, (column,), value, column) is not None or stored.composed(table, column, value) is not None


def _plain_text(shape: Shape, name: str) -> Field | None:
    """The text field `name` of `shape` that refers to no table and lists no values; None if it is not one."""
    field = next((f for f in shape.fields if f.name == name), None)
    if field is None or field.reference is not None or field.allowed or not field.type.upper().startswith(TEXT_TYPES):
        return None
    return field
