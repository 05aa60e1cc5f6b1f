"""What a reading says of rows already kept, before it is held to what the request states (`stated.py`).

A small model asked for the rows a request states writes out, beside the row the request adds, the kept
rows it names, with every field filled: a member who borrows a book comes back with a made-up kind of
membership, the day of the loan as the day they joined, and the phone of another member. Written as a
change, those would overwrite kept values with guesses. And it copies one name said once into two fields
(a patient's name as the therapist too). So, read from the data:

- a row that names a kept row by a column naming one row (`naming_column`) is a change: its values equal to
  the kept ones are no change and are left out, its naming columns are never set, a date it shares with
  a new row read beside it belongs to that row, and a kept date is replaced only where the request uses a
  word of its column ("sown" for sown_on): the day a record happened is not the day a bed was sown
  (`as_changes`);
- a reference a change reads as the row it names already, where the request names one other row of that
  table, is that other row ("moved from Birchfold to Ashby");
- a change that sets only empty text on columns the request names empties them ("remove her email");
- a name said once but read into two references stays only where it names a row of the referenced
  table, kept or added by this reading (`without_copies`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ..language.cues import EMPTY_WORDS
from ..language.words import letter_words
from .resolve import StoredRows, squeezed
from .shapes import CLEARED, Field, Shape


@dataclass
class Kept:
    rows: dict[str, list[dict[str, object]]]  # the reading, less what is no change to the kept rows it names
    changes: set[tuple[str, int]]  # (table, index) of the rows that name a kept row
    left_out: list[str]  # "table.field = value", for the user


def naming_column(shape: Shape, row: Mapping[str, object], stored: StoredRows) -> tuple[str, object] | None:
    """The column of `shape.unique` by which `row` names one kept row, and that row's value in it (None when
    it names none)."""
    by_name = {f.name: f for f in shape.fields}
    for field in (by_name[n] for n in row if n in by_name):
        value = row[field.name]
        if field.column in shape.unique and value is not None and not isinstance(value, list | dict):
            kept = stored.find(shape.table, (field.column,), value, field.column)
            if kept is None:  # named by another of its naming columns: a title read as the code
                kept = stored.named_exactly(shape.table, shape.unique, value, field.column)
            if kept is not None:
                return field.column, kept
    return None


def as_changes(shapes: Mapping[str, Shape], read: Mapping[str, object], text: str, stored: StoredRows) -> Kept:
    """`read` (table -> rows) with each row that names a kept row held to what changes it."""
    found = Kept({}, set(), [])
    lists = {t: [r for r in v if isinstance(r, dict)] for t, v in read.items() if isinstance(v, list)}
    naming = {
        (table, index): naming_of
        for table, listed in lists.items()
        if table in shapes
        for index, row in enumerate(listed)
        if (naming_of := naming_column(shapes[table], row, stored)) is not None
    }
    new_values = {
        squeezed(str(value))
        for table, listed in lists.items()
        for index, row in enumerate(listed)
        if (table, index) not in naming
        for value in row.values()
        if value is not None and not isinstance(value, list | dict)
    }
    for table, listed in lists.items():
        found.rows[table] = []
        for index, row in enumerate(listed):
            named_by = naming.get((table, index))
            if named_by is None:
                found.rows[table].append(row)
                continue
            found.changes.add((table, index))
            shape = shapes[table]
            column, as_kept = named_by
            kept = stored.values_of(table, column, as_kept, [f.column for f in shape.fields])
            held = {}
            for field in shape.fields:
                if field.name not in row:
                    continue
                value = row[field.name]
                if kept is not None and field.column != column:
                    value = _moved_to(field, value, kept.get(field.column), text, stored)
                same = kept is not None and (
                    _same_value(kept.get(field.column), value)
                    or _same_row(field, value, kept.get(field.column), stored)
                )
                named = field.column in shape.unique and field.column != column
                shared = field.column != column and _is_date(value) and squeezed(str(value)) in new_values
                redated = (
                    kept is not None
                    and kept.get(field.column) is not None
                    and isinstance(kept.get(field.column), dt.date)
                    and not column_said(field.column, text)
                )
                if field.column == column or not (same or named or shared or redated):
                    held[field.name] = value
                elif not same:
                    found.left_out.append(f"{table}.{field.name} = {value!r}")
            found.rows[table].append(_cleared(shape, held, column, kept or {}, text))
    return found


def _moved_to(field: Field, value: object, kept: object, text: str, stored: StoredRows) -> object:
    """`value`, unless it names the row a kept reference already names and the request names one other
    row of that table: then that row ("moved from Birchfold to Ashby": read as Birchfold, kept at Birchfold).
    """
    reference = field.reference
    if reference is None or not _same_row(field, value, kept, stored):
        return value
    columns = reference.labels or (reference.name,)
    named = stored.values_of(reference.table, reference.key, kept, [reference.name])
    others = stored.all_named_in(reference.table, columns, text, reference.name) - {(named or {}).get(reference.name)}
    return others.pop() if len(others) == 1 else value


def _same_row(field: Field, value: object, kept: object, stored: StoredRows) -> bool:
    """Whether `value`, read for a reference, names the row the kept reference `kept` holds the key of (a
    branch read by its name, kept by its code)."""
    reference = field.reference
    if reference is None or not reference.name or kept is None or value is None:
        return False
    return stored.find(reference.table, reference.labels or (reference.name,), value, reference.key) == kept


def _cleared(
    shape: Shape, held: dict[str, object], naming: str, kept: Mapping[str, object], text: str
) -> dict[str, object]:
    """A change that sets nothing but empty text (or words that say it is empty: `says_nothing`), on
    columns that may be empty, hold a value and are named by the request ("Ada Roe, remove email"),
    empties them (`CLEARED`); empty values are never written otherwise."""
    blank = [f for f in shape.fields if isinstance(held.get(f.name), str) and says_nothing(str(held[f.name]))]
    sets = [f for f in shape.fields if f.name in held and f.column != naming and f not in blank]
    emptied = [f for f in blank if f.nullable and kept.get(f.column) is not None and column_said(f.column, text)]
    if sets or not emptied:
        return {name: value for name, value in held.items() if not any(f.name == name for f in blank)}
    return {
        **{n: v for n, v in held.items() if not any(f.name == n for f in blank)},
        **{f.name: CLEARED for f in emptied},
    }


def says_nothing(value: str) -> bool:
    """Whether a value read is empty text, or only words that say it is empty.

    >>> says_nothing(""), says_nothing("none (removed)"), says_nothing("N/A"), says_nothing("none@x.org")
    (True, True, True, False)
    """
    return set(re.findall(r"[a-z]+|[^\W_]+", value.lower())) <= EMPTY_WORDS and not re.search(r"\d|@", value)


def without_copies(
    shapes: Mapping[str, Shape], read: Mapping[str, list[dict[str, object]]], text: str, stored: StoredRows
) -> tuple[dict[str, list[dict[str, object]]], list[str]]:
    """`read` less each name said once in `text` but read into two or more references (of one row or of
    several), in those of them where it names no row of the referenced table (kept, or added by this
    reading)."""
    added = {
        (table, squeezed(str(row.get(shape.natural_key))))
        for table, listed in read.items()
        if (shape := shapes.get(table)) is not None and shape.natural_key
        for row in listed
        if row.get(shape.natural_key) is not None
    }
    references = {
        table: [f for f in shape.fields if f.reference and f.reference.name] for table, shape in shapes.items()
    }
    said = [
        squeezed(str(row[f.name]))
        for table, listed in read.items()
        for row in listed
        for f in references.get(table, [])
        if isinstance(row.get(f.name), str)
    ]
    squeezed_text = squeezed(text)
    copied = {v for v in said if v and said.count(v) > 1 and squeezed_text.count(v) == 1}
    rows: dict[str, list[dict[str, object]]] = {}
    left_out: list[str] = []
    for table, listed in read.items():
        rows[table] = []
        for row in listed:
            held = dict(row)
            for field in references.get(table, []):
                value = row.get(field.name)
                if not isinstance(value, str) or squeezed(value) not in copied:
                    continue
                assert field.reference is not None
                reference = field.reference
                names = (reference.table, squeezed(value)) in added or (
                    stored.find(reference.table, reference.labels or (reference.name,), value, reference.name)
                    is not None
                )
                if not names:
                    del held[field.name]
                    left_out.append(f"{table}.{field.name} = {value!r}")
            rows[table].append(held)
    return rows, left_out


def _is_date(value: object) -> bool:
    """Whether `value` reads as a date ('2024-03-01'): the day of the new row, copied into a kept one. A
    number may be both (a new price, kept on the item and in its history)."""
    try:
        dt.date.fromisoformat(str(value).strip()[:10])
    except ValueError:
        return False
    return True


def _same_value(kept: object, read: object) -> bool:
    """Whether a value read is the kept one: as a number, else as text, case and spacing aside ('2024-03-01'
    is a kept date).

    >>> _same_value(Decimal("2.70"), 2.7), _same_value(dt.date(2024, 3, 1), "2024-03-01"), _same_value("Bay", "grey")
    (True, True, False)
    """
    if kept is None:
        return False
    if isinstance(kept, int | float | Decimal) and not isinstance(kept, bool):
        try:
            return abs(float(kept) - float(str(read))) < 1e-9
        except ValueError:
            return False
    return squeezed(str(kept)) == squeezed(str(read))


def column_said(column: str, text: str) -> bool:
    """Whether `text` uses a word of `column`'s name (its first five letters: "sown" for sown_on).

    >>> column_said("sown_on", "Bed 4 was sown on 5 May"), column_said("opened_on", "Ann borrowed a spade")
    (True, False)
    """
    return column_said_apart(column, (), text)


def column_said_apart(column: str, others: Sequence[str], text: str) -> bool:
    """Whether `text` uses a word of `column`'s name that no column of `others` has: "home by" names
    due_home and went_home_on alike, so neither apart.

    >>> column_said_apart("went_home_on", ["due_home"], "home by 3 June"), column_said_apart("due_home", [], "home by 3 June")
    (False, True)
    """
    said = {w[:5] for w in letter_words(text) if len(w) >= 4}
    shared = {w[:5] for other in others for w in letter_words(other) if len(w) >= 4}
    return any(w[:5] in said - shared for w in letter_words(column) if len(w) >= 4)
