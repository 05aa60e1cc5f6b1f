"""The settings of a change that the request does not make, left out before it is written.

A small model reading "10 April 2024 | done | SG-7" sets the state to the entry "done" stands for, and
also writes the day into the row's planned day and "done" into its brief. Each
setting here is left out only where another one stays, and the card says why:

- a column the table does not have;
- the one day the request gives, written over a kept day of a column the request does not name: it is
  the day the record is dated (a day filled into an empty column, or one the request names, stays); so
  is a day said before the column is named by the day it holds ("May 5 | gilded | SG-7 (planned
  for 29 April)");
- words written verbatim into a plain text column the request does not name, beside a listed entry
  the request does not say: they are the words that entry was read from;
- a column emptied that the request names neither by its name nor by its value ("email: none any more"
  empties no phone; "no longer fragile" empties the note that says so);
- a column read twice, emptied and set to words for nothing or to a value of none of its column's form
  ("none any more" for an e-mail address): it is emptied once;
- a column set to the very value the row holds already (its code set to the code that names it): no
  change, and the database may refuse to rewrite a key other rows refer to.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from ..language.dates import days_in_order, days_said
from ..language.words import letter_words
from .forms import said_as_nothing
from .moments import leading_day
from .shapes import Field, Shape, is_temporal
from .stated import is_stated

if TYPE_CHECKING:
    from .row_changes import Setting


def kept_settings(
    settings: Sequence[Setting],
    shape: Shape,
    current: Mapping[str, object] | None,
    text: str,
    today: dt.date,
    unlike_its_form: Callable[[str, str], Sequence[str]],
) -> tuple[list[Setting], list[str]]:
    """`settings` without those the request does not make, and a note for each left out. `current`: the
    one row changed, as kept (column -> value); `unlike_its_form(column, value)`: what every kept value of
    its column has that a value lacks (`forms.unlike_kept`).

    >>> from jupyter_chatdb.recording.row_changes import Setting
    >>> jobs = Shape("jobs", (Field("planned_for", "planned_for", "DATE", True), Field("brief", "brief", "VARCHAR", True),
    ...     Field("state", "state", "VARCHAR", False, allowed=("drawn", "fitted"))), "", "")
    >>> read = [Setting("state", "to", "fitted"), Setting("planned_for", "to", "2024-04-10"), Setting("brief", "to", "done")]
    >>> kept, notes = kept_settings(read, jobs, {"planned_for": dt.date(2024, 3, 31)}, "10 April 2024 | done | SG-7",
    ...     dt.date(2024, 5, 1), lambda column, value: ())
    >>> [s.column for s in kept]
    ['state']
    >>> notes
    ['10 April 2024 read as the day of the record, not a new planned_for', "'done' read as the state, not as brief"]
    """
    kept = _one_per_column(settings, unlike_its_form)
    change = _Change(shape, current, text, today)
    notes: list[str] = []
    for reason in (_no_such_column, _the_records_day, _words_of_an_entry, _emptied_unnamed, _held_already):
        for setting in list(kept):
            note = reason(setting, kept, change)
            if note and len(kept) > 1:
                kept.remove(setting)
                notes.append(note)
    return kept, notes


def doubts_of_the_one_left(
    kept: Sequence[Setting], shape: Shape, current: Mapping[str, object] | None, text: str, today: dt.date
) -> list[str]:
    """Why the one setting `kept_settings` left may not be meant, where a reason that leaves a setting out
    beside others holds for it (the record's day over a kept day, a column emptied the request does not
    name): it is not left out, since nothing would be written, but the write waits, saying why.

    >>> from jupyter_chatdb.recording.row_changes import Setting
    >>> signs = Shape("signs", (Field("hung_on", "hung_on", "DATE", True),), "", "")
    >>> doubts_of_the_one_left([Setting("hung_on", "to", "2024-05-30")], signs, {"hung_on": dt.date(2021, 4, 1)},
    ...     "May 30, 2024 | moved | SG-3 | to the wall of SG-5", dt.date(2024, 6, 1))
    ['the one change read may not be meant: 30 May 2024 read as the day of the record, not a new hung_on']
    """
    if len(kept) != 1:
        return []
    change = _Change(shape, current, text, today)
    notes = (reason(kept[0], kept, change) for reason in (_the_records_day, _emptied_unnamed))
    return [f"the one change read may not be meant: {note}" for note in notes if note]


def _one_per_column(settings: Sequence[Setting], unlike_its_form: Callable[[str, str], Sequence[str]]) -> list[Setting]:
    """One setting a column: a column emptied and also set to words for nothing, or to a value of none of
    its column's form, is emptied once; any other column read twice is left as read (the write fails)."""
    emptied = {s.column.lower() for s in settings if s.how == "clear"}

    def also_emptied(s: Setting) -> bool:
        return (
            s.how == "to"
            and s.column.lower() in emptied
            and (said_as_nothing(s.value) or bool(unlike_its_form(s.column, s.value)))
        )

    kept: list[Setting] = []
    for setting in settings:
        twice = setting.how == "clear" and any(
            k.how == "clear" and k.column.lower() == setting.column.lower() for k in kept
        )
        if not also_emptied(setting) and not twice:
            kept.append(setting)
    return kept


@dataclass(frozen=True)
class _Change:
    """What a reason reads a setting against: the change's table, the one row it changes as kept (column
    -> value; None where it changes several), the request and today."""

    shape: Shape
    current: Mapping[str, object] | None
    text: str
    today: dt.date


def _no_such_column(setting: Setting, kept: Sequence[Setting], change: _Change) -> str:
    shape = change.shape
    if shape.field(setting.column) is not None or setting.column.lower() in {c.lower() for c in shape.unique}:
        return ""
    return f"{shape.table} has no column {setting.column!r}"


def _the_records_day(setting: Setting, kept: Sequence[Setting], change: _Change) -> str:
    field = change.shape.field(setting.column)
    if field is None or setting.how != "to" or not is_temporal(field) or change.current is None:
        return ""
    held = _as_day(change.current.get(field.column))
    day = _day_of(setting.value)
    if held is None or day is None or day == held:
        return ""
    given = {frozenset(readings) for readings in days_in_order(change.text)}  # each day once, as its readings
    if _named(field.column, change.text):
        # "May 5 | gilded | SG-7 (planned for 29 April)": the column named only by the day it holds,
        # the record dated before it
        if (
            len(given) != 2
            or frozenset({held}) not in given
            or day not in days_before_its_name(field.column, change.text)
        ):
            return ""
    elif len(given) != 1 or day not in next(iter(given)):  # the one day the request gives
        return ""
    return f"{day.day} {day:%B %Y} read as the day of the record, not a new {field.column}"


def _words_of_an_entry(setting: Setting, kept: Sequence[Setting], change: _Change) -> str:
    field = change.shape.field(setting.column)
    if field is None or setting.how != "to" or not _is_plain_text(field) or _named(field.column, change.text):
        return ""
    value = setting.value.strip()
    if not value or value != value.lower() or any(c.isdigit() for c in value):
        return ""
    if not is_stated(value, change.text, change.today):
        return ""
    for other in kept:
        listed = change.shape.field(other.column)
        if other is setting or listed is None or not listed.allowed or other.how != "to":
            continue
        if not is_stated(other.value, change.text, change.today):
            return f"{value!r} read as the {listed.column}, not as {field.column}"
    return ""


def _emptied_unnamed(setting: Setting, kept: Sequence[Setting], change: _Change) -> str:
    field = change.shape.field(setting.column)
    if field is None or setting.how != "clear" or _named(field.column, change.text):
        return ""
    now = change.current.get(field.column) if change.current is not None else None
    if now is not None and is_stated(str(now), change.text, change.today):  # "no longer fragile": named by its value
        return ""
    return f"the request names neither {field.column} nor its value: it is not emptied"


def _held_already(setting: Setting, kept: Sequence[Setting], change: _Change) -> str:
    """A value set "to" what the one changed row holds already, as the same text, number or day.

    >>> from jupyter_chatdb.recording.row_changes import Setting
    >>> kites = Shape("kites", (Field("tag", "tag", "VARCHAR", True), Field("span_m", "span_m", "DOUBLE", True)), "", "")
    >>> row = _Change(kites, {"tag": "KT-7", "span_m": 2.5}, "KT-7 spans 2.5 m", dt.date(2024, 5, 1))
    >>> _held_already(Setting("tag", "to", "kt-7"), [], row), _held_already(Setting("span_m", "to", "2.50"), [], row)
    ("'kt-7' is the tag the kites row holds already", "'2.50' is the span_m the kites row holds already")
    >>> _held_already(Setting("span_m", "to", "3"), [], row), _held_already(Setting("tag", "clear"), [], row)
    ('', '')
    """
    field = change.shape.field(setting.column)
    if field is None or setting.how != "to" or change.current is None:
        return ""
    held = change.current.get(field.column)
    if held is None or not _same_value(setting.value, held):
        return ""
    return f"{setting.value!r} is the {field.column} the {change.shape.table} row holds already"


def _same_value(said: str, held: object) -> bool:
    """Whether a value read as text is the kept value `held`: the same text (case aside), number or day."""
    if isinstance(held, bool):
        return False
    if isinstance(held, dt.datetime):  # a moment: the same one, said in ISO
        try:
            return dt.datetime.fromisoformat(said.strip()) == held
        except ValueError:
            return False
    if isinstance(held, dt.date):
        return _day_of(said) == held
    if isinstance(held, int | float | Decimal):
        try:
            return float(said.replace(",", "")) == float(held)
        except ValueError:
            return False
    return isinstance(held, str) and said.strip().casefold() == held.strip().casefold()


def _named(column: str, text: str) -> bool:
    """Whether `text` uses a word of `column`'s name (its first five letters): its first word of three
    letters or more, or another of four or more (the "for" of planned_for is no name of it).

    >>> _named("ready_by", "SG-31 is now ready by 25 March"), _named("planned_for", "paid for the sign on 10 April")
    (True, False)
    """
    return bool(_stems(column) & {w[:5] for w in letter_words(text)})


def _stems(column: str) -> set[str]:
    """The first five letters of each word that names `column`: its first of three letters or more, and
    any other of four or more."""
    return {w[:5] for i, w in enumerate(letter_words(column)) if len(w) >= (3 if i == 0 else 4)}


def days_before_its_name(column: str, text: str) -> set[dt.date]:
    """The days `text` gives before the first word that names `column` (as `_named` reads it), each as its
    readings: where the column is named by the day a row holds, these are the days the record is dated.

    >>> days_before_its_name("planned_for", "May 5, 2024 | gilded | SG-14 (planned for 29 April 2024)")
    {datetime.date(2024, 5, 5)}
    """
    stems, words = _stems(column), re.finditer(r"[a-z]+", text.lower())
    before = text[: next((m.start() for m in words if m.group()[:5] in stems), len(text))]
    return set().union(*days_in_order(before))


def _as_day(value: object) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    return value if isinstance(value, dt.date) else leading_day(value)


def _day_of(value: str) -> dt.date | None:
    """The one day a value gives, ISO or in words.

    >>> _day_of("2024-04-17"), _day_of("April 17, 2024"), _day_of("soon")
    (datetime.date(2024, 4, 17), datetime.date(2024, 4, 17), None)
    """
    day = leading_day(value)
    if day is None and len(days := days_said(value)) == 1:
        day = next(iter(days))
    return day


def _is_plain_text(field: Field) -> bool:
    return field.reference is None and not field.allowed and field.type.upper().startswith(("VARCHAR", "TEXT"))
