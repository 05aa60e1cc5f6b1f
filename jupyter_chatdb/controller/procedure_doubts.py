"""What a procedure's values may have wrong once read by their columns (`procedure_values`): each is read
once more by the stage and, still doubtful, shown on the card while the write waits.

- a text for a free-text column that the request does not say (`unstated_texts`): a name that lost a
  letter, an address made up, the first request's value copied;
- a number for a number column that the request does not state, or with a fraction for a whole-number
  column, or that a `key: value` line gives under the words of another number column the procedure
  fills and not its own (`unfit_numbers`): the year of a day read as an amount, "9 nights, 4.5 a night"
  filled the wrong way round, "crew: 3" filled as the nights;
- a day the request gives in figures that read two ways ("09/03/2024"), put in the order its other days,
  the procedure's first request or the column's kept days settle (`ordered_days`, `day_order`); where
  none does, the write waits, saying both readings.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..language.codes import said_in_a_clause
from ..language.dates import SLASHED
from ..language.moments import slashed_days
from ..language.numbers import STATED_NUMBER
from ..language.spoken import spelled_numbers
from ..language.words import stem, words
from ..recording.agreement import label_stems
from ..recording.day_order import ordered_day
from ..recording.labelled_lines import LINE
from ..recording.moments import leading_day
from ..recording.resolve import StoredRows
from ..recording.shapes import INTEGER_TYPES, NUMBER_TYPES
from ..recording.stated import is_stated
from ..sql.catalog import TEXT_TYPES
from .procedure_values import ParameterColumns, filled, with_entry


@dataclass(frozen=True)
class Unstated:
    """A value filled for a column that the request does not say (as written, or as a code in words), or
    that its column cannot hold as said (`why`)."""

    parameter: str
    item: int | None  # the item it is of (None: a scalar)
    column: str
    said: str
    why: str = "is not in the request"

    def reason(self) -> str:
        return f"{self.column}: {self.said!r} {self.why}"


def unstated_texts(
    values: dict[str, object], request: str, columns: ParameterColumns, stored: StoredRows
) -> list[Unstated]:
    """The texts of `values` (as read by their columns) for columns that list no entries and are compared
    with nothing, that `request` says in no form: not as written (`is_stated`: case, spaces and
    punctuation aside), nor as a code said in words within a clause (`said_in_a_clause`: "kayak 7" for
    'K-07'), nor as the key of a kept row it names by another of its texts (a walker's code, where it says
    her name). A value the table holds already is no exception: a small model copies the first request's
    values, which are kept."""
    today = dt.date.today()
    found: list[Unstated] = []
    for name, value, item in filled(values):
        target = columns.targets.get(name)
        if target is None or name in columns.compared or target in columns.listed:
            continue
        if not isinstance(value, str) or not value.strip() or not columns.type_of(name).startswith(TEXT_TYPES):
            continue
        if is_stated(value, request, today) or said_in_a_clause(request, value):
            continue
        referred = columns.kept_rows_of(name)
        if referred is None or stored.named_in(referred[0], referred[2], request, referred[1]) != value:
            found.append(Unstated(name, item, target[1], value))
    return found


def unfit_numbers(values: dict[str, object], request: str, columns: ParameterColumns) -> list[Unstated]:
    """The numbers of `values` for number columns that `request` does not state (in figures or in words),
    that have a fraction where their column holds whole numbers, or that it says only as another column's
    (`labelled_as_another`). Zero is left alone: the model's "none", which `procedure_values.unsaid_steps`
    judges.

    >>> from jupyter_chatdb.controller.procedure_values import ParameterColumns
    >>> targets = {"nights": ("stays", "nights"), "rate": ("stays", "rate")}
    >>> types = {("stays", "nights"): "INTEGER", ("stays", "rate"): "DECIMAL(6,2)"}
    >>> columns = ParameterColumns(targets, types, {}, set())
    >>> [d.reason() for d in unfit_numbers({"nights": 4.5, "rate": 9}, "9 nights at 4.50 a night", columns)]
    ["nights: '4.5' is not a whole number"]
    >>> [d.reason() for d in unfit_numbers({"nights": 2024, "rate": 4.5}, "Rex, 4.50 a night from 3 May 2024", columns)]
    ["nights: '2024' is not in the request"]
    >>> [d.reason() for d in unfit_numbers({"nights": 4, "rate": 9}, "boat: Tern\\nnights: 9\\nrate: 4", columns)]
    ["nights: '4' is said as the rate", "rate: '9' is said as the nights"]
    """
    today = dt.date.today()
    found: list[Unstated] = []
    for name, value, item in filled(values):
        target, kind, number = columns.targets.get(name), columns.type_of(name), _number(value)
        if target is None or number is None or number == 0 or not kind.startswith((*INTEGER_TYPES, *NUMBER_TYPES)):
            continue
        if kind.startswith(INTEGER_TYPES) and not number.is_integer():
            found.append(Unstated(name, item, target[1], f"{number:g}", "is not a whole number"))
        elif not is_stated(number, request, today):
            found.append(Unstated(name, item, target[1], f"{number:g}"))
        elif (other := labelled_as_another(number, target, request, columns)) is not None:
            found.append(Unstated(name, item, target[1], f"{number:g}", f"is said as the {other}"))
    return found


def labelled_as_another(number: float, target: tuple[str, str], request: str, columns: ParameterColumns) -> str | None:
    """The other number column of `target`'s table that the procedure fills whose words are the key of a
    `key: value` line of `request` giving `number` ("crew: 3"), where no such line gives it under its own
    column's words; None otherwise. Only a line's key labels a number for sure: in a sentence the words
    before a number may be the last one's unit ("9 nights at 4.50")."""
    keys = [
        line.group("key")
        for line in LINE.finditer(request)
        if STATED_NUMBER.fullmatch(said := line.group("value")) and abs(float(said.replace(",", "")) - number) < 1e-9
    ]
    if not keys or any(_names(key, target[1]) for key in keys):
        return None
    others = sorted(
        column
        for name, (table, column) in columns.targets.items()
        if table == target[0]
        and column != target[1]
        and columns.type_of(name).startswith((*INTEGER_TYPES, *NUMBER_TYPES))
    )
    return next((column for column in others if any(_names(key, column) for key in keys)), None)


def _names(key: str, column: str) -> bool:
    """Whether the words of a line's `key` name `column` (a word of it, in any form, other than the generic)."""
    return bool({stem(w) for w in words(key).split()} & label_stems(column))


def read_again(
    reread: str, doubt: Unstated, columns: ParameterColumns, request: str, stored: StoredRows
) -> object | None:
    """The value `reread` (the model's second reading of the request for `doubt`'s column) gives, where
    `request` states it and its column can hold it: the one number they say for a number column, the key
    of the kept row they name for a column referring to kept rows, else the words themselves; None
    otherwise.

    >>> columns = ParameterColumns({"nights": ("stays", "nights")}, {("stays", "nights"): "INTEGER"}, {}, set())
    >>> doubt = Unstated("nights", None, "nights", "4.5", "is not a whole number")
    >>> [read_again(w, doubt, columns, "9 nights at 4.50 a night", None) for w in ("9 nights", "4.50", "nine", "")]
    [9, None, 9, None]
    """
    said = reread.strip()
    kind = columns.type_of(doubt.parameter)
    if not said:
        return None
    if not kind.startswith((*INTEGER_TYPES, *NUMBER_TYPES)):
        if not is_stated(said, request, dt.date.today()):
            return None
        referred = columns.kept_rows_of(doubt.parameter)
        return said if referred is None else stored.find(referred[0], referred[2], said, referred[1])
    numbers = {float(n.replace(",", "")) for n in STATED_NUMBER.findall(said)} | set(spelled_numbers(said))
    if len(numbers) != 1:
        return None
    number = numbers.pop()
    if (kind.startswith(INTEGER_TYPES) and not number.is_integer()) or not is_stated(number, request, dt.date.today()):
        return None
    target = columns.targets.get(doubt.parameter)
    if target is not None and labelled_as_another(number, target, request, columns) is not None:
        return None
    return int(number) if number.is_integer() else number


def ordered_days(values: dict[str, object], request: str, columns: ParameterColumns, stored: StoredRows) -> list[str]:
    """Put each day of `values` for a date or moment column that `request` gives in figures reading two
    ways in the order `day_order.ordered_day` settles (the request's other days, then the procedure's
    first request, then the days its column keeps), in place; why the write waits for those none settles."""
    if not SLASHED.search(request):
        return []
    doubts: list[str] = []
    for name, value, item in list(filled(values)):
        target = columns.targets.get(name)
        if target is None or not isinstance(value, str) or not columns.type_of(name).startswith(("DATE", "TIMESTAMP")):
            continue
        day, rest = leading_day(value), value.strip()[10:]
        if day is None and SLASHED.fullmatch(value.strip()):  # copied as written: either reading will do
            day, rest = min(slashed_days(value, True) or slashed_days(value, False), default=None), ""
        if day is None:
            continue
        settled, doubt = ordered_day(request, day, stored.span(*target), columns.day_first)
        with_entry(values, name, item, settled.isoformat() + rest)
        if doubt:
            doubts.append(f"{target[1]}: {doubt}")
    return doubts


def unheld_reference(values: dict[str, object], columns: ParameterColumns, stored: StoredRows) -> str | None:
    """The first "column 'value', which no TABLE row holds" of `values` for a column referring to kept rows
    (`ParameterColumns.kept_references`): a request of another kind filled in (a stage read as a walker),
    as a declared reference would refuse it. None where each names a kept row."""
    for name, value, _ in filled(values):
        referred = columns.kept_rows_of(name)
        if referred is None or not isinstance(value, str) or not value.strip():
            continue
        if stored.named_exactly(referred[0], (referred[1],), value, referred[1]) is None:
            return f"{columns.targets[name][1]} {value!r}, which no {referred[0]} row holds"
    return None


def _number(value: object) -> float | None:
    """`value` as a number, where it is one (or text of one)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).replace(",", ""))
    except ValueError:
        return None
