"""What a write does to rows already kept, and its SQL: an UPDATE or a DELETE of the rows it names, never
an INSERT.

The model reads the request once, constrained by the tables' columns (`schema`): whether it adds rows,
changes rows it names, or removes them; for a change, each column and how (to a value the request gives,
cleared, copied from another row it names, or a number added or taken off). Code then writes the
statement and checks it against the request and the data before anything runs:

- the rows it names exist (none is a question to the user, never a new row), a day in words naming a
  date; several are narrowed by a kept row the request names that they refer to, or wait for approval;
- a value copied from another row is read from that row in SQL, and that row is exactly one; a value
  read "to" that names another row ("same as Ann Roe", "the region of order 3") is such a copy; a
  reference read as the row it refers to now, or copied, where the request names two rows of the table
  referred to ("now with Mo Berg (was Ines Roth)"), is the other one;
- every value written is one the request states (dates, numbers and lengths of time in any form; a day in
  figures that reads two ways, "07/06/2025", as the column's kept days and the request's others settle it), an
  entry of the column's CHECK list its words map to, or a row of a referenced table it names; any other
  value (a phrase such as 'region of the newest order') is kept, but the write waits for approval with
  the value and why.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from ..language.dates import SLASHED, days_said, slashed_readings
from ..language.moments import moments_said
from ..language.spoken import durations, spelled_numbers
from ..language.words import stem, stems, word_forms, words
from ..llm.base import Message
from ..sql.catalog import TEXT_TYPES
from ..sql.names import quote_identifier, quote_table
from .change_reply import DOES, HOW
from .day_order import ordered_day
from .described import described
from .facts import lacks
from .forms import lacking, unlike_kept
from .named_rows import NamedRow
from .picks import mapped
from .reading_errors import NotExpressible, Refused
from .records_day import records_own_days
from .related import path_to, through
from .resolve import StoredRows, squeezed
from .settings_kept import days_before_its_name, doubts_of_the_one_left, kept_settings
from .shapes import Field, Reference, Shape, is_temporal, json_type, shape_named
from .stated import is_stated, said_only_as_part, says_date

KEPT_ONLY = ("clear", "copy", "add", "subtract")  # ways only a kept row's value changes
MAX_NAMED = 8  # kept rows listed for the model, at most
WHOLE_NUMBER = re.compile(r"(?<![\w.])\d{1,9}(?![\w.])")  # "entry 4", not "4.5" or "B4"
COPY_WORDS = frozenset({"same", "as", "like", "of", "the", "a", "its", "their", "match", "one", "that", "to"})
NONE_SAID = re.compile(r"\b(?:no|none|zero|nothing|nil)\b", re.IGNORECASE)  # a count of none: a hint, never a refusal

INSTRUCTIONS = """\
You read what a write request does to the rows of the tables. Reply with JSON:
- "does": "add" when it records something new (an event, a visit, a payment, a new person or thing), even \
one that names rows already kept; "change" when it changes values of rows already kept; "remove" when it \
deletes rows already kept.
- "table": the table it adds to, changes or removes from.
- "which": for a change or a removal, the column values that name the rows, as the request says them.
- "set": for a change, each column it changes and how: "to" a value the request gives; "clear" to empty it; \
"copy" to take the value another row has, that row named in "from" by its column values; "add" or \
"subtract" a number the request gives to or from the kept one.

The kept rows the request names are listed after the tables, each with the words that name it; name \
rows by the values listed.

Example tables:
kites: kite_id (integer), tag (text), name (text), colour (one of: red, blue, green), state (one of: \
ready, grounded, retired), span_m (number), owner (text)
flights: kite (the name of a kites row), pilot (text), flown_on (date), minutes (integer)
Request: Bolt is blue now
{"does": "change", "table": "kites", "which": [{"column": "name", "value": "Bolt"}], "set": [{"column": \
"colour", "how": "to", "value": "blue"}]}
Request: 2024-06-03 flight: Bolt, Jo Hale, 40 min
{"does": "add", "table": "flights", "which": [], "set": []}
Request: kite 7 should have the same owner as kite 2
{"does": "change", "table": "kites", "which": [{"column": "kite_id", "value": "7"}], "set": [{"column": \
"owner", "how": "copy", "value": "", "from": [{"column": "kite_id", "value": "2"}]}]}
Request: 2024-06-04 repaint: kite 7, red -> green
{"does": "change", "table": "kites", "which": [{"column": "kite_id", "value": "7"}], "set": [{"column": \
"colour", "how": "to", "value": "green"}]}
Request: Aria has no owner any more; its span grew by 0.5
{"does": "change", "table": "kites", "which": [{"column": "name", "value": "Aria"}], "set": [{"column": \
"owner", "how": "clear", "value": ""}, {"column": "span_m", "how": "add", "value": "0.5"}]}
Request: Bolt: span logged 0.3 too long, fix it
{"does": "change", "table": "kites", "which": [{"column": "name", "value": "Bolt"}], "set": [{"column": \
"span_m", "how": "subtract", "value": "0.3"}]}
Request: Jo Hale flew Aria on 5 June 2024 for an hour
{"does": "add", "table": "flights", "which": [], "set": []}
Request: delete kite 9
{"does": "remove", "table": "kites", "which": [{"column": "kite_id", "value": "9"}], "set": []}
Kept rows named: kites tag 'KT-012' (said: box kite no. 12)
Request: 2024-06-09 torn sail, box kite no. 12 stays on the ground
{"does": "change", "table": "kites", "which": [{"column": "tag", "value": "KT-012"}], "set": [{"column": \
"state", "how": "to", "value": "grounded"}]}"""


def change_messages(shapes: Mapping[str, Shape], request: str, named: Sequence[NamedRow] = ()) -> list[Message]:
    """The change call's messages: the tables, the kept rows the request names (`named_rows`), the request."""
    tables = "\n".join(f"{name}: {', '.join(_described(shape))}" for name, shape in shapes.items())
    rows = "; ".join(
        f"{n.table} {n.column} {_quoted(n.value)}" + (f" (said: {n.said})" if str(n.value) != n.said else "")
        for n in named[:MAX_NAMED]
    )
    listed = f"\nKept rows named: {rows}" if rows else ""
    return [
        {"role": "system", "content": INSTRUCTIONS},
        {"role": "user", "content": f"Tables:\n{tables}{listed}\nRequest: {request}"},
    ]


def _quoted(value: object) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)


# -- the reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    column: str
    value: str


@dataclass(frozen=True)
class Setting:
    column: str
    how: str
    value: str = ""
    source: tuple[Pick, ...] = ()  # the row a copied value comes from


@dataclass(frozen=True)
class Reading:
    does: str
    table: str
    which: tuple[Pick, ...] = ()
    settings: tuple[Setting, ...] = ()


def parse_reading(reply: object) -> Reading | None:
    """The model's JSON reply as a `Reading`, or None when it is not one.

    >>> parse_reading({"does": "change", "table": "kites", "which": [{"column": "name", "value": "Bolt"}],
    ...                "set": [{"column": "colour", "how": "to", "value": "blue"}]}).settings
    (Setting(column='colour', how='to', value='blue', source=()),)
    >>> parse_reading({"does": "add", "table": "kites", "which": [{"column": "name", "value": "Bolt"}],
    ...                "set": [{"column": "span_m", "how": "add", "value": "0.5"}]}).does
    'change'
    >>> len(parse_reading({"does": "change", "table": "kites", "which": [],
    ...                    "set": [{"column": "colour", "how": "to", "value": "red"}] * 2}).settings)
    1
    """
    if not isinstance(reply, dict) or reply.get("does") not in DOES or not isinstance(reply.get("table"), str):
        return None

    def picks(items: object) -> tuple[Pick, ...]:
        listed = items if isinstance(items, list) else []
        return tuple(
            Pick(str(i["column"]), str(i["value"]).strip())
            for i in listed
            if isinstance(i, dict) and "column" in i and "value" in i
        )

    listed = reply.get("set")
    settings = tuple(
        dict.fromkeys(  # a setting said twice is one
            Setting(str(s["column"]), str(s.get("how")), str(s.get("value") or "").strip(), picks(s.get("from")))
            for s in (listed if isinstance(listed, list) else [])
            if isinstance(s, dict) and "column" in s and s.get("how") in HOW
        )
    )
    which = picks(reply.get("which"))
    does = str(reply["does"])
    if does == "add" and which and any(s.how in KEPT_ONLY for s in settings):
        does = "change"  # "6 more crates came in" read as adding, with the kept row and the number added
    return Reading(does, reply["table"], which, settings)


def is_a_new_row(reading: Reading, shapes: Mapping[str, Shape]) -> bool:
    """Whether a change the model read gives a new row's values: it sets nothing, and the values it names
    rows by are every one a new row of its table needs (a payment's payer, day, amount and method); or it
    names the row by its name and sets the rest to values given ("Eda Voss joined ...", where no row is
    Eda Voss: `read_change` asks the data); or it names the row only by what it refers to, not by its own
    key, and sets two or more values, every other one a new row needs (a kept member's new payment); or it
    sets every value a new row needs, whatever it names. A
    change that only misplaced its new value ("Bolt is blue now" with the colour among the names) names
    too little for any.

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> fields = (Field("name", "name", "VARCHAR", True), Field("colour", "colour", "VARCHAR", True))
    >>> kites = {"kites": Shape("kites", (*fields, Field("span_m", "span_m", "DOUBLE", True)), "", "")}
    >>> row = Reading("change", "kites", (Pick("name", "Aria"), Pick("colour", "red"), Pick("span_m", "2.5")))
    >>> is_a_new_row(row, kites), is_a_new_row(replace(row, which=row.which[:2]), kites)
    (True, False)
    >>> named = {"kites": replace(kites["kites"], natural_key="name")}
    >>> is_a_new_row(Reading("change", "kites", row.which[:1], (Setting("colour", "to", "red"),
    ...     Setting("span_m", "to", "2.5"))), named)
    True
    >>> every = tuple(Setting(p.column, "to", p.value) for p in row.which)
    >>> jos = (Pick("name", "Jo's kite"),)
    >>> is_a_new_row(Reading("change", "kites", (), every), kites), is_a_new_row(Reading("change", "kites", jos, every), kites)
    (True, True)
    """
    shape = shapes.get(reading.table)
    if reading.does != "change" or shape is None:
        return False
    settings = {f.name: s.value for s in reading.settings if s.how == "to" and (f := shape.field(s.column))}
    if len(settings) == len(reading.settings) >= MIN_NEEDED and not lacks(shapes, reading.table, settings):
        return True  # every value a new row needs set "to" one (a payment's day, amount and way), whatever names it
    if not reading.which:
        return False
    values = [(p.column, p.value) for p in reading.which]
    own = {c.lower() for c in (shape.natural_key, shape.returned_key, *shape.unique) if c}
    needed = [f for f in shape.fields if f.required]
    named_by_others = own and not own & _columns_of(shape, values)
    if (
        named_by_others
        and len(needed) >= MIN_NEEDED
        and reading.settings
        and all(s.how == "to" for s in reading.settings)
    ):
        # named by what it refers to, not by its own key, with every other value set: a new row of that
        # member ("payment / member: Ann Roe / amount: 17.60 / paid: cash"), not a change of Ann's kept one
        every = values + [(s.column, s.value) for s in reading.settings]
        given = {field_.name: value for column, value in every if (field_ := shape.field(column)) is not None}
        set_columns = {s.column.lower() for s in reading.settings}  # a column set twice is one value given
        if len(set_columns) >= MIN_NEEDED and not lacks(shapes, reading.table, given):
            return True
    if reading.settings:
        by_name = any(
            p.column.lower() in (shape.natural_key.lower(), *map(str.lower, shape.unique)) for p in reading.which
        )
        if not by_name or not shape.natural_key or any(s.how not in ("to", "clear") for s in reading.settings):
            return False
        values += [(s.column, s.value) for s in reading.settings if s.how == "to"]
    given = {field_.name: value for column, value in values if (field_ := shape.field(column)) is not None}
    return len(needed) >= MIN_NEEDED and not lacks(shapes, reading.table, given)


def _columns_of(shape: Shape, values: Sequence[tuple[str, str]]) -> set[str]:
    """The lower-case columns of `shape` that `values` (column as read, value) are given for."""
    return {field_.column.lower() for column, _ in values if (field_ := shape.field(column)) is not None}


def names_no_kept_row(reading: Reading, shapes: Mapping[str, Shape], stored: StoredRows, text: str) -> bool:
    """Whether each value a reading names rows by is held by no kept row (a value some row holds may name
    the rows beside a new value misplaced among the names: `_naming_picks`)."""
    shape = shapes.get(reading.table)
    if shape is None or not reading.which:
        return False
    return not any(_meets(_Writer(shape, stored, text, dt.date.today(), shapes=shapes), [p]) for p in reading.which)


def rows_met(reading: Reading, shapes: Mapping[str, Shape], stored: StoredRows, text: str) -> int:
    """The kept rows meeting every value the reading names rows by that is a column of its table (0 where
    one cannot be looked up)."""
    shape = shapes.get(reading.table)
    known = [p for p in reading.which if shape is not None and shape.field(p.column) is not None]
    if shape is None or not known:
        return 0
    return _meets(_Writer(shape, stored, text, dt.date.today(), shapes=shapes), known)


MIN_NEEDED = 2  # values a new row must need for a change naming them all to be one (a table with none needs none)


# -- the statement ----------------------------------------------------------------------------------


@dataclass
class ChangeWrite:
    """The statement of a change or removal, its values, and what about it is doubtful."""

    goal: str
    sql: str
    reading: Reading  # as written: the picks that name the rows, and the settings
    where: str  # the rows it changes or removes, with $parameters from `params`
    params: dict[str, object] = field(default_factory=dict)
    doubts: list[str] = field(default_factory=list)  # values the request does not give, and why


class Unanswerable(Exception):
    """Why a change cannot be written as read: the rows it names are not kept, or are not one (a question
    for the user, before anything is written); `names_a_row`: False where the value no row holds is a
    count or an amount, which names no row the user may mean (a new record's values read as names)."""

    def __init__(self, reason: str, *, names_a_row: bool = True) -> None:
        super().__init__(reason)
        self.names_a_row = names_a_row


class NotBorneOut(Exception):
    """The data does not bear the reading out, though each thing it names is kept: no row of the table has
    them together (a new event about kept things: a price change of a kept fruit), or the rows to remove
    are referred to by others (a return of a kept sale). The request is read as adding rows."""


def change_write(
    reading: Reading,
    shapes: Mapping[str, Shape],
    stored: StoredRows,
    text: str,
    today: dt.date,
    named: Sequence[NamedRow] = (),
) -> ChangeWrite:
    """The UPDATE or DELETE of `reading` (a change or a removal), checked against the data: Unanswerable
    when the rows it names are not there; NotExpressible when code cannot write it."""
    shape = shapes.get(reading.table)
    if shape is None:
        raise NotExpressible(f"it names no table it may change ({reading.table!r})")
    writer = _Writer(shape, stored, text, today, named, shapes)
    scratch = partial(_Writer, shape, stored, text, today, named, shapes)
    reading = _without_the_row_copied_from(reading)
    reading = _named_otherwise(reading, scratch)
    reading = replace(reading, which=_said_or_related(_in_their_columns(reading.which, writer), scratch))
    if not any(writer.field(s.column) for s in reading.settings):  # "set the rack" on an order: read for its names
        reading = replace(reading, settings=())
    which, settings = _naming_picks(reading, scratch)
    which = _narrowed(which, scratch)
    which, settings = _a_required_value_naming_the_row(which, settings, scratch)
    which = _on_the_day_given(which, settings, scratch)
    where = writer.where(which, "the rows to change" if reading.does == "change" else "the rows to remove")
    table = quote_table(shape.table)
    matched = stored.count(shape.table, where, writer.params)
    if matched == 0:  # each value names something kept (else `where` said so), but no row has them all
        said = ", ".join(f"{p.column} {p.value!r}" for p in which)
        raise NotBorneOut(f"no row of {shape.table} has {said}")
    if matched > 1:  # the request may mean them all, or one it names too loosely: the user says which
        writer.doubts.append(f"it would {reading.does} {matched} rows of {shape.table}, not one")
    if reading.does == "remove":
        if (referring := stored.referring(shape.table, where, writer.params)) is not None:
            raise NotBorneOut(f"rows of {referring} refer to the {shape.table} rows it would remove")
        naming = {found[1] for p in which if (found := _day_or_moment(p.value, "TIMESTAMP")) is not None}
        unused = _days_unused(text, naming)
        if unused:  # "9 June 2024 | delete | ...": the record's own day is no day to set
            unused = _days_unused(text, naming | records_own_days(text, shape, stored, where, writer.params))
        for day in unused:
            # "handed back: 18 March": a day the removal leaves unused may be one to set instead
            writer.doubts.append(f"the request gives {day}, which removing rows does not use")
        for column, entry in _listed_values_said(shape, text, which):  # "closing": a state to set?
            writer.doubts.append(f"the request says {entry!r}, a {column} a kept row may have, rather than removing it")
        return ChangeWrite(
            f"remove {matched} {shape.table} row{'s' if matched != 1 else ''}",
            f"DELETE FROM {table} WHERE {where}",
            replace(reading, which=which, settings=()),
            where,
            writer.params,
            writer.doubts,
        )
    if not settings:
        raise NotExpressible("it says no column to change")
    writer.current = stored.one_row(shape.table, where, writer.params) if matched == 1 else None
    settings = tuple(writer.in_their_order(setting) for setting in settings)
    kept, left_out = kept_settings(settings, shape, writer.current, text, today, writer.unlike_kept)
    writer.doubts += doubts_of_the_one_left(kept, shape, writer.current, text, today)
    settings = tuple(kept)
    if matched == 1 and (own := [s for s in settings if _copied_from_the_row_itself(s, which, scratch)]):
        if len(own) == len(settings):  # "Ada's dinghy is in the shed" read as the dinghy's code copied from itself
            raise Refused(f"it copies {shape.table}.{own[0].column} from the very row it changes: it sets nothing")
        settings = tuple(s for s in settings if s not in own)
    emptied = [f for s in settings if s.how == "clear" and (f := writer.field(s.column)) is not None]
    if emptied and len(emptied) == len(settings) and not any(f.nullable for f in emptied):
        # it empties only columns that must hold a value: it sets nothing the database takes
        raise Refused(f"{shape.table}.{emptied[0].column} cannot be empty")
    assigned = [writer.assigned(setting, which) for setting in settings]
    assignments = [f"{column} = {value}" for column, value in assigned]
    same = " AND ".join(f"{column} IS NOT DISTINCT FROM ({value})" for column, value in assigned)
    if assigned and stored.count(shape.table, f"({where}) AND NOT ({same})", writer.params) == 0:
        writer.doubts.append(f"it changes nothing: the {shape.table} row already holds what it sets")
    goal = f"change {', '.join(s.column for s in settings)} of {matched} {shape.table} row{'s' if matched != 1 else ''}"
    goal += "".join(f"; {note}" for note in left_out)
    sql = f"UPDATE {table} SET {', '.join(assignments)} WHERE {where}"
    # tried where nothing is in doubt: a doubtful write is asked again (an entry for words none of the list) or waits
    if not writer.doubts and (refused := stored.refusal(sql, writer.params)) is not None:
        raise Refused(f"the database refuses it: {refused}")
    return ChangeWrite(goal, sql, replace(reading, which=which, settings=settings), where, writer.params, writer.doubts)


def move_between_named(shapes: Mapping[str, Shape], named: Sequence[NamedRow], stored: StoredRows) -> Reading | None:
    """The change the data reads where the model's cannot be written: a kept row the request names by its
    own name or code refers to one of two rows of another table the request names, and moves to the other
    ("transfer: crate 7, Eastgate -> Northfield"). None unless the data reads exactly one such move."""
    found = []
    for name, shape in shapes.items():
        own = (shape.natural_key, *shape.unique)
        for row in named:
            if row.table.lower() not in (name.lower(), shape.table.lower()) or row.column not in own:
                continue
            for field_ in shape.fields:
                reference = field_.reference
                kept = stored.values_of(shape.table, row.column, row.value, [field_.column]) if reference else None
                if reference is None or not reference.name or kept is None:
                    continue
                keys = {
                    key: str(other.value)
                    for other in named
                    if other.table.lower() == reference.table.lower()
                    and (
                        key := stored.find(
                            reference.table, reference.labels or (reference.name,), other.value, reference.key
                        )
                    )
                    is not None
                }
                if len(keys) == 2 and kept[field_.column] in keys:
                    to = next(said for key, said in keys.items() if key != kept[field_.column])
                    found.append(
                        Reading("change", name, (Pick(row.column, str(row.value)),), (Setting(field_.name, "to", to),))
                    )
    return found[0] if len(found) == 1 else None


def _in_their_columns(which: Sequence[Pick], writer: _Writer) -> tuple[Pick, ...]:
    """The picks, each whose value no row holds in the column it names (nor nearly) but some row holds in
    exactly one other text column of the table given that column ("skipper_no: Ann Roe": the row named Ann
    Roe), where no other pick names rows by that column. The data settles it; a value held nowhere, or
    in several columns, stays as read."""
    text_columns = [
        f.column for f in writer.shape.fields if f.reference is None and f.type.upper().startswith(TEXT_TYPES)
    ]
    aimed = []
    for pick in which:
        field_ = writer.field(pick.column)
        if field_ is not None and field_.reference is None and not is_temporal(field_):
            own = writer.stored.find(writer.shape.table, [field_.column], pick.value, field_.column)
            if own is None:
                holding = [
                    column
                    for column in text_columns
                    if column != field_.column
                    and writer.stored.named_exactly(writer.shape.table, [column], pick.value, column) is not None
                ]
                others = {p.column.lower() for p in which if p is not pick}
                if len(holding) == 1 and holding[0].lower() not in others:  # a column named twice is a new value
                    pick = replace(pick, column=holding[0])
        aimed.append(pick)
    return tuple(aimed)


def _said_or_related(which: Sequence[Pick], scratch: Callable[[], _Writer]) -> tuple[Pick, ...]:
    """The picks naming the rows, without those no row meets whose value the request does not say (a key a
    small model made up: "lesson_no 4471") and those it says only as part of a day ("job 15" from
    "15 May"); where none is left, the kept rows the request names of tables the rows refer to, through
    their references ("the topic of Ria's lesson": the lessons on Ria's boats), where together they meet
    some row."""
    writer = scratch()
    kept = tuple(
        p
        for p in which
        if (is_stated(p.value, writer.text, writer.today) or _meets(scratch(), [p]))
        and not said_only_as_part(p.value, writer.text)  # "job 15" from "15 May"
    )
    if kept or not which:  # no name read at all: none is made up here
        return kept
    own = writer.shape.table.lower()
    related = tuple(
        Pick(n.column, str(n.value))
        for n in writer.named
        if n.table.lower() != own and path_to(writer.shapes, writer.shape.table, n.column) is not None
    )
    return related if related and _meets(scratch(), related) else tuple(which)


def _naming_picks(reading: Reading, scratch: Callable[[], _Writer]) -> tuple[tuple[Pick, ...], tuple[Setting, ...]]:
    """The picks that name the rows, and the settings: a pick no row meets, where others are left to name
    the rows, is the new value a small model wrote among the names ("phone: same as Ann"): left out of
    them, and the setting of its column where the reading sets none. A pick of the very value its column
    is set to is left out of them too."""
    changed = {s.column.lower() for s in reading.settings}
    setting_to = {(s.column.lower(), s.value.lower()) for s in reading.settings if s.how == "to"}
    kept, unmet = [], []
    for pick in reading.which:
        if len(reading.which) > 1 and (pick.column.lower(), pick.value.lower()) in setting_to:
            # "hive 7 is queenless" read with the state queenless among the names: rows holding it already
            # are no change, so the value set names no row
            continue
        if len(reading.which) > 1 and (pick.column.lower() in changed or not reading.settings):
            writer = scratch()
            try:
                met = writer.stored.count(writer.shape.table, writer.condition(pick), writer.params) > 0
            except (Unanswerable, NotExpressible):
                met = False
            if not met:
                unmet.append(pick)
                continue
        kept.append(pick)
    if not kept:
        return reading.which, reading.settings
    if not reading.settings and len(kept) >= 2 and _meets(scratch(), kept) == 0:
        # each is met, but no row meets them all: the one whose leaving out names one row is the new value
        # ("hire: Kestrel, 3 June 09:00, new jetty: North", read with North among the names); a value met
        # nowhere read for its column as well is not ("coats: 3" read again from the record's day)
        lone = [p for p in kept if _meets(scratch(), _narrowed([q for q in kept if q is not p], scratch)) == 1]
        if len(lone) > 1:  # the row left must be one of the kept rows the request names ("Mo's lesson")
            lone = [p for p in lone if _agrees([q for q in kept if q is not p], scratch)]
        if len(lone) == 1:
            column = lone[0].column.lower()
            kept, unmet = (
                [p for p in kept if p is not lone[0]],
                [*lone, *(p for p in unmet if p.column.lower() != column)],
            )
    promoted: dict[str, Setting] = {}
    for pick in unmet:
        if pick.column.lower() not in changed:
            promoted.setdefault(pick.column.lower(), Setting(pick.column, "to", pick.value))
    return tuple(kept), reading.settings or tuple(promoted.values())


def _narrowed(picks: Sequence[Pick], scratch: Callable[[], _Writer]) -> tuple[Pick, ...]:
    """`picks`, and where they meet several rows, the kept row of a table it refers to that the request
    names and that leaves one of them ("Mo's 9:00 lesson": Mo's among the lessons at 9:00). Only
    ever narrower."""
    writer = scratch()
    if _meets(writer, picks) < 2:
        return tuple(picks)
    for field_, said in _named_references(writer, picks):
        for row in said:
            extra = Pick(field_.name, str(row.value))
            if _meets(scratch(), [*picks, extra]) == 1:
                return (*picks, extra)
    return tuple(picks)


def _on_the_day_given(
    picks: Sequence[Pick], settings: Sequence[Setting], scratch: Callable[[], _Writer]
) -> tuple[Pick, ...]:
    """`picks`, and where they meet several rows, the one day the request gives that a date column they do
    not name holds on exactly one of them ("SG-2's job planned for 3 May": SG-2's jobs, the one that day),
    where the change sets that column to no other day but the one the record is dated (said before the
    column is named), or moves it to another day (its old day said: "the booking for FR-5 (booked for 29
    May) to 31 May"). A day in figures that reads two ways ("05/03/2024") is tried each way: the data
    settles which. Only ever narrower; as they are where two days, or two columns, each leave a row."""
    writer = scratch()
    if _meets(writer, picks) < 2:
        return tuple(picks)
    named = {p.column.lower() for p in picks}
    either_way = {day for match in SLASHED.finditer(writer.text) for day in slashed_readings(match)}
    days = sorted(days_said(writer.text) | either_way)
    leaving = []
    for field_ in writer.shape.fields:
        if field_.reference is not None or not is_temporal(field_) or field_.column.lower() in named:
            continue
        set_to = {
            found[1]
            for s in settings
            if s.column.lower() in (field_.name.lower(), field_.column.lower())
            and (found := _day_or_moment(s.value, "DATE")) is not None
        }
        if any(s.column.lower() in (field_.name.lower(), field_.column.lower()) for s in settings) and not set_to:
            continue  # set another way (cleared, moved on): not a value naming the row
        dated = days_before_its_name(field_.column, writer.text)  # "May 5 | gilded | SG-7 (planned for 29 April)"
        for day in days:
            if set_to and day in set_to:
                continue  # the day it is moved to names no row it is moved from
            if set_to and day in dated:
                continue  # "moved from 3 May to 9 May", no column named: both may be the record's days
            extra = Pick(field_.column, day.isoformat())
            if _meets(scratch(), [*picks, extra]) == 1:
                leaving.append(extra)
    return (*picks, leaving[0]) if len(leaving) == 1 else tuple(picks)


def _a_required_value_naming_the_row(
    picks: Sequence[Pick], settings: Sequence[Setting], scratch: Callable[[], _Writer]
) -> tuple[tuple[Pick, ...], tuple[Setting, ...]]:
    """`picks` and `settings`, but where a column that must hold a value is read as cleared beside other
    settings ("sail: SL-4 (came in 21/05/2024) / stage: stitched" read with that day emptied), and
    the request gives the value it holds in the one row the picks meet, or a day that names one row of
    several they meet (`_on_the_day_given`): the value names the row, and the clear, which the database
    would refuse, is no setting. Only ever narrower; as they are otherwise."""
    writer = scratch()
    for setting in settings if len(settings) > 1 else ():
        field_ = writer.field(setting.column)
        if setting.how != "clear" or field_ is None or field_.nullable:
            continue
        rest = tuple(s for s in settings if s is not setting)
        narrowed = _on_the_day_given(picks, rest, scratch)
        if len(narrowed) > len(picks) and narrowed[-1].column.lower() == field_.column.lower():
            return narrowed, rest
        finder = scratch()
        try:  # the one row the picks meet (None where they meet none or several)
            row = finder.stored.one_row(finder.shape.table, finder.where(picks, "the rows to change"), finder.params)
        except (Unanswerable, NotExpressible):
            row = None
        held = row.get(field_.column) if row is not None else None
        said = held if isinstance(held, int | float) else str(held)  # a day or a text as the request may say it
        if held is not None and not isinstance(held, bool) and is_stated(said, writer.text, writer.today):
            return tuple(picks), rest
    return tuple(picks), tuple(settings)


def _without_the_row_copied_from(reading: Reading) -> Reading:
    """`reading` without the values naming the row a value is copied from among those naming the rows it
    changes, where they name those rows by another value of the same column too: "Ines uses Paul's phone
    now" read as changing the customer named both 'Ines' and 'Paul' (no row is both).

    >>> paul, ines = Pick("name", "Paul"), Pick("name", "Ines")
    >>> copy = Setting("phone", "copy", "", (paul,))
    >>> _without_the_row_copied_from(Reading("change", "customers", (ines, paul), (copy,))).which
    (Pick(column='name', value='Ines'),)
    >>> _without_the_row_copied_from(Reading("change", "customers", (paul,), (copy,))).which
    (Pick(column='name', value='Paul'),)
    """
    sources = {(p.column.lower(), p.value.lower()) for s in reading.settings if s.how == "copy" for p in s.source}
    values: dict[str, set[str]] = {}
    for pick in reading.which:
        values.setdefault(pick.column.lower(), set()).add(pick.value.lower())
    kept = tuple(
        p
        for p in reading.which
        if (p.column.lower(), p.value.lower()) not in sources or len(values[p.column.lower()]) < 2
    )
    return replace(reading, which=kept) if kept != reading.which else reading


def _named_otherwise(reading: Reading, scratch: Callable[[], _Writer]) -> Reading:
    """A change naming its rows only by the very values it sets, which no row holds ("from now on write to
    me at ada@example.org" read as the row whose e-mail is that address): a row is not named by what it is
    about to hold. The rows are the kept ones of its table the request names, where together they meet
    exactly one; else as read."""
    setting_to = {(s.column.lower(), s.value.lower()) for s in reading.settings if s.how == "to"}
    if not reading.which or any((p.column.lower(), p.value.lower()) not in setting_to for p in reading.which):
        return reading
    writer = scratch()
    if _meets(writer, reading.which):
        return reading
    own = {writer.shape.table.lower(), reading.table.lower()}
    named = {Pick(n.column, str(n.value)) for n in writer.named if n.table.lower() in own}
    picks = tuple(sorted((p for p in named if _meets(scratch(), [p]) == 1), key=lambda p: (p.column, p.value)))
    return replace(reading, which=picks) if picks and _meets(scratch(), picks) == 1 else reading


def _copied_from_the_row_itself(setting: Setting, which: Sequence[Pick], scratch: Callable[[], _Writer]) -> bool:
    """Whether `setting` copies a value from the one row `which` names, the row it changes: no change at
    all (and DuckDB refuses to rewrite a key other rows refer to, even to itself). A reference is left to
    `_Writer.assigned`, which reads such a copy as a move to the other row the request names."""
    writer = scratch()
    field_ = writer.field(setting.column)
    if setting.how != "copy" or not setting.source or field_ is None or field_.reference is not None:
        return False
    where = " AND ".join(map(writer.condition, (*which, *setting.source)))
    return writer.stored.count(writer.shape.table, where, writer.params) == 1


def _agrees(picks: Sequence[Pick], scratch: Callable[[], _Writer]) -> bool:
    """Whether the row `picks` name refers, by each reference it names none by, to a kept row the request
    names, where it names one of that table."""
    for field_, said in _named_references(scratch(), picks):
        if said and not any(_meets(scratch(), [*picks, Pick(field_.name, str(row.value))]) for row in said):
            return False
    return True


def _named_references(writer: _Writer, picks: Sequence[Pick]) -> list[tuple[Field, list[NamedRow]]]:
    """Each reference of the table that `picks` name no row by, with the kept rows the request names of
    the table it refers to."""
    used = {p.column.lower() for p in picks}
    return [
        (f, [row for row in writer.named if row.table.lower() == f.reference.table.lower()])
        for f in writer.shape.fields
        if f.reference is not None and f.reference.name and not {f.name.lower(), f.column.lower()} & used
    ]


def _meets(writer: _Writer, picks: Sequence[Pick]) -> int:
    """The rows meeting each of `picks` (0 where one cannot be looked up)."""
    try:
        return writer.stored.count(writer.shape.table, writer.where(picks, "the rows"), writer.params)
    except (Unanswerable, NotExpressible):
        return 0


@dataclass
class _Writer:
    shape: Shape
    stored: StoredRows
    text: str
    today: dt.date
    named: Sequence[NamedRow] = ()  # the kept rows the request names by a code said in words
    shapes: Mapping[str, Shape] = field(default_factory=dict)  # the tables in scope, for rows named by others
    params: dict[str, object] = field(default_factory=dict)
    doubts: list[str] = field(default_factory=list)
    current: Mapping[str, object] | None = None  # the one row changed, as kept

    def bind(self, value: object) -> str:
        name = f"c{len(self.params) + 1}"
        self.params[name] = value
        return f"${name}"

    def where(self, picks: Sequence[Pick], what: str) -> str:
        """The condition the picked rows meet: each column holds the stored value the request names."""
        if not picks:
            raise NotExpressible(f"it names {what} by no value")
        return " AND ".join(map(self.condition, picks))

    def condition(self, pick: Pick) -> str:
        """What a row the pick names holds: its column the stored value meant, or for a date or a moment
        the one the value says (a day alone for a moment: any time that day)."""
        field_ = self.field(pick.column)
        if field_ is None and (related := path_to(self.shapes, self.shape.table, pick.column)) is not None:
            hops, _ = related  # "the lesson on Ria's boat": a column of a row it refers to, through its references
            return through(hops, replace(self, shape=self.shapes[hops[-1].to], params=self.params).condition(pick))
        if field_ is not None and field_.reference is None and is_temporal(field_):
            return self.on_day_or_moment(field_.column, field_.type.upper(), pick.value)
        column, stored = self.found(pick)
        return f"{quote_identifier(column)} = {self.bind(stored)}"

    def on_day_or_moment(self, column: str, kind: str, said: str) -> str:
        found = _day_or_moment(said, kind)
        if found is None:
            raise Unanswerable(f"{said!r} is no day of {self.shape.table}.{column}")
        value, day = found
        if isinstance(value, dt.datetime) and value not in (said_moments := moments_said(self.text)):
            # a moment the request does not say (its time with the log line's day): the one it says at that time
            at_that_time = [moment for moment in said_moments if moment.time() == value.time()]
            if len(at_that_time) == 1:
                value, day = at_that_time[0], at_that_time[0].date()
        quoted = quote_identifier(column)
        if value is not day or kind == "DATE":  # a moment for a moment, or a day for a date
            return f"{quoted} = {self.bind(value)}"
        return f"CAST({quoted} AS DATE) = {self.bind(day)}"  # a day alone for a moment: any time that day

    def found(self, pick: Pick) -> tuple[str, object]:
        """The column a pick names and the stored value it means (a referenced row's key for a reference)."""
        field_ = self.field(pick.column)
        reference = field_.reference if field_ is not None else None
        if field_ is not None and reference is not None and reference.name:
            key = self.referenced_key(reference, pick.value)
            if key is None:
                raise Unanswerable(f"no {reference.table} row is {pick.value!r}")
            return field_.column, key
        column = field_.column if field_ is not None else pick.column
        value = self.stored.find(self.shape.table, [column], pick.value, column)
        if value is None and column in self.shape.naming:  # "5kg puppy kibbles": the one labelled so
            value = self.held_in_words(self.shape, pick.value, column)
        if value is None:
            # a count or an amount names no row the user means: "12 mites" read among a new check's names
            named = field_ is None or not _is_numeric(field_) or column in self.shape.naming
            raise Unanswerable(f"no row of {self.shape.table} has {column} {pick.value!r}", names_a_row=named)
        return column, value

    def assigned(self, setting: Setting, which: Sequence[Pick] = ()) -> tuple[str, str]:
        """The column a setting sets, quoted, and the SQL of the value it gets."""
        field_ = self.field(setting.column)
        if field_ is None:
            raise NotExpressible(f"{self.shape.table} has no column {setting.column!r} it may change")
        column = quote_identifier(field_.column)
        if field_.reference is not None and setting.how in ("to", "copy") and (moved := self.other_named(field_)):
            said = self.referenced_key(field_.reference, setting.value) if setting.how == "to" else None
            if said is None or said == self.current_key(field_):  # the row it refers to now, or a copy: the other
                return column, self.bind(moved[0])
        plain = field_.reference is None and not field_.allowed and not is_temporal(field_) and not _is_numeric(field_)
        if setting.how == "to" and plain and (other := self.other_row_named(setting.value, which, field_.column)):
            if _says_more_than_a_copy(setting.value, other, field_, self.shape):  # "call Ann Roe back"
                self.doubts.append(f"{field_.column}: {setting.value!r} read as the {field_.column} of {other.value}")
            setting = replace(setting, how="copy", source=(other,))  # "same as Ann's": that row's value
        if setting.how == "clear":
            if not field_.nullable:
                raise NotExpressible(f"{self.shape.table}.{field_.column} cannot be empty")
            return column, "NULL"
        if setting.how == "copy":
            source = " AND ".join(map(self.condition, setting.source))
            if not source:
                raise NotExpressible(f"it copies {field_.column} from no row it names")
            if self.stored.count(self.shape.table, source, self.params) != 1:
                raise Unanswerable(f"the row to copy {field_.column} from is not one row of {self.shape.table}")
            return column, f"(SELECT {column} FROM {quote_table(self.shape.table)} WHERE {source})"
        if setting.how in ("add", "subtract") and is_temporal(field_):
            return column, self.moved_day(field_, setting)
        if setting.how in ("add", "subtract"):
            number = _number(setting.value)
            if number is None or not is_stated(number, self.text, self.today):
                self.doubts.append(f"{field_.column}: {setting.value!r} is no number the request gives")
            sign = "+" if setting.how == "add" else "-"
            return column, f"{column} {sign} {self.bind(number if number is not None else setting.value)}"
        return column, self.value(field_, setting.value)

    def other_named(self, field_: Field) -> tuple[object] | None:
        """For a reference of the one row changed, where the request names two rows of the referenced table
        and the row refers to one of them: the other one's key ("now Mo Berg (was Ines Roth)")."""
        reference, now = field_.reference, self.current_key(field_)
        if reference is None or not reference.name or now is None:
            return None
        keys = {
            key
            for row in self.named
            if row.table.lower() == reference.table.lower()
            and (key := self.referenced_key(reference, str(row.value))) is not None
        }
        return (next(k for k in keys if k != now),) if len(keys) == 2 and now in keys else None

    def current_key(self, field_: Field) -> object | None:
        return self.current.get(field_.column) if self.current is not None else None

    def other_row_named(self, said: str, which: Sequence[Pick], setting_column: str) -> Pick | None:
        """Another row of the table that a value names within more words ("same as Ann Roe"), or by its
        name alone where the column set never holds a value of that form (a name for a phone), by a
        column that names the rows changed, or the table's natural key."""
        columns = dict.fromkeys([*(p.column for p in which), self.shape.natural_key])
        for name in (c for c in columns if c):
            field_ = self.field(name)
            if field_ is None or field_.reference is not None or is_temporal(field_):
                continue
            other: object = None
            if _is_numeric(field_):  # "same as entry 3": the one row numbered so
                numbers: list[object] = [int(n) for n in WHOLE_NUMBER.findall(said)]
                condition = f"{quote_identifier(field_.column)} = ?"
                if len(numbers) == 1 and self.stored.count(self.shape.table, condition, {}, numbers) == 1:
                    other = numbers[0]
            else:
                other = self.stored.named_in(self.shape.table, [field_.column], said, field_.column)
            if other is None or (squeezed(str(other)) == squeezed(said) and self.of_its_form(setting_column, said)):
                continue  # "Ann Roe" for a contact: a value; for a phone that only ever holds digits, Ann's phone
            if not any(squeezed(p.value) == squeezed(str(other)) for p in which):
                return Pick(field_.column, str(other))
        return None

    def of_its_form(self, column: str, said: str) -> bool:
        """Whether `said` may be a value of `column`: unless every kept value of it is mostly digits or has
        an '@', and `said` has none (a name given for a phone or an e-mail address: `forms.unlike_kept`).

        >>> from jupyter_chatdb.sql.session import Session
        >>> session = Session()
        >>> _ = session.rows("CREATE TABLE t (phone VARCHAR, who VARCHAR); INSERT INTO t VALUES ('0770 12', 'Ann')")
        >>> writer = _Writer(Shape("t", (), "", ""), StoredRows(session), "", dt.date.today())
        >>> writer.of_its_form("phone", "Ann Roe"), writer.of_its_form("who", "Ann Roe"), writer.of_its_form("phone", "0770 13")
        (False, True, True)
        """
        missing = unlike_kept(self.stored.some_values(self.shape.table, column), said, least=1)
        return not set(missing) - {"a letter"}

    def unlike_kept(self, column: str, said: str) -> tuple[str, ...]:
        """What every kept value of `column` has that `said` lacks (`forms.unlike_kept`)."""
        kept = self.stored.some_values(self.shape.table, column)
        return () if said in kept else unlike_kept(kept, said)

    def moved_day(self, field_: Field, setting: Setting) -> str:
        """A date or moment moved on or back by a length of time the request gives ("extend by a week")."""
        said = durations(self.text)
        lengths = durations(setting.value) or (durations(f"{setting.value} days") if _number(setting.value) else [])
        if not lengths and len(said) == 1:  # a day the model worked out ("April 19"): the length the request gives
            lengths = said
        if len(lengths) != 1 or lengths[0].minutes:
            raise NotExpressible(f"{setting.value!r} is no length of days to move {field_.column} by")
        length = lengths[0]
        if length not in said:
            self.doubts.append(f"{field_.column}: the request does not say {setting.value!r}")
        sign = "+" if setting.how == "add" else "-"
        column = quote_identifier(field_.column)
        moved = f"{column} {sign} to_months({self.bind(length.months)}) {sign} to_days({self.bind(length.days)})"
        return f"CAST({moved} AS {field_.type})"

    def value(self, field_: Field, said: str) -> str:
        """A value the request gives for `field_`, typed by its column; a doubt noted where it is none."""
        if is_temporal(field_) and field_.reference is None:
            return self.day_or_moment(field_, said)
        reference = field_.reference
        if reference is not None and reference.name:
            key = self.referenced_key(reference, said)
            if key is None and field_.allowed and (listed := mapped(said, field_.allowed)) is not None:
                key = self.referenced_key(reference, listed)  # "4" for the one rack numbered 4
            if key is None:
                self.doubts.append(f"{field_.name}: no {reference.table} row is {said!r}")
                return f"CAST({self.bind(said)} AS {field_.type})"
            return self.bind(key)
        if field_.allowed:
            listed = mapped(said, field_.allowed)
            if listed is None:
                self.doubts.append(f"{field_.column}: {said!r} is none of {', '.join(field_.allowed)}")
            return f"CAST({self.bind(listed if listed is not None else said)} AS {field_.type})"
        number = _number(said)
        if _is_numeric(field_) and number is not None:  # "3", "three", "1,200"; "none" for a count
            if not (is_stated(number, self.text, self.today) or (number == 0 and NONE_SAID.search(self.text))):
                self.doubts.append(f"{field_.column}: the request does not say {said!r}")
            return f"CAST({self.bind(number)} AS {field_.type})"
        if not is_stated(said, self.text, self.today):
            self.doubts.append(f"{field_.column}: the request does not say {said!r}")
        elif _names_its_column(said, field_, self.shape):
            self.doubts.append(f"{field_.column}: {said!r} describes a value rather than giving one")
        elif field_.type.upper().startswith(TEXT_TYPES) and (marks := self.unlike_kept(field_.column, said)):
            self.doubts.append(f"{field_.column}: {said!r} {lacking(marks, field_.column)}")
        return f"CAST({self.bind(said)} AS {field_.type})"

    def referenced_key(self, reference: Reference, said: str) -> object | None:
        """The key of the row of a referenced table that `said` names: by its name or code, or as part of
        the words that name a kept row by its code ("3" of "over to bench 3", the row coded 'B-3')."""
        key = self.stored.find(reference.table, reference.labels or (reference.name,), said, reference.key)
        if key is not None or not said:
            return key
        part = re.compile(rf"(?<!\w){re.escape(said)}(?!\w)", re.IGNORECASE)
        within = [n for n in self.named if n.table.lower() == reference.table.lower() and part.search(n.said)]
        if len(within) != 1:
            return self.described_key(reference, said)
        return self.stored.find(reference.table, (within[0].column,), within[0].value, reference.key)

    def described_key(self, reference: Reference, said: str) -> object | None:
        """The key of the one referenced row `said` describes (`described`): "Ola Berg's sea kayak", else
        whose names hold its every word (`held_in_words`): "10mm braided rope"."""
        target = shape_named(self.shapes, reference.table)
        if target is None:
            return None
        found = described(target, said, self.stored, reference.key)
        return found if found is not None else self.held_in_words(target, said, reference.key)

    def held_in_words(self, shape: Shape, said: str, wanted: str) -> object | None:
        """Column `wanted` of the one row of `shape` whose names and listed entries hold every word and number
        of `said`, but for its table's noun ("5kg puppy kibbles": the row labelled '5 kg puppy kibble'), where
        the request says them all; None otherwise."""
        if not word_forms(said) <= word_forms(self.text):
            return None  # words the model gave, not the request
        noun = word_forms(words(shape.table))
        return self.stored.held_in_words(shape.table, shape.telling, said, wanted, aside=noun)

    def day_or_moment(self, field_: Field, said: str) -> str:
        """A date or moment the request gives in any form ("19 March 2024", "2024-03-19 10:30")."""
        found = _day_or_moment(said, field_.type.upper())
        if found is None:
            raise NotExpressible(f"{said!r} is no day for {field_.column}")
        value, day = found
        if not says_date(self.text, day, self.today):
            self.doubts.append(f"{field_.column}: the request does not say {said!r}")
        return f"CAST({self.bind(value)} AS {field_.type})"

    def in_their_order(self, setting: Setting) -> Setting:
        """`setting`, where it sets a date or moment to a day in figures that reads two ways ("to 07/06/2025",
        read month first), set to the day the column's kept days and the request's other days settle
        (`day_order.ordered_day`); a doubt noted where they do not."""
        field_ = self.field(setting.column)
        if setting.how != "to" or field_ is None or field_.reference is not None or not is_temporal(field_):
            return setting
        if not SLASHED.search(self.text):  # no day in figures to read two ways: no kept days to look up
            return setting
        if (found := _day_or_moment(setting.value, field_.type.upper())) is None:
            return setting
        value, day = found
        settled, doubt = ordered_day(self.text, day, self.stored.span(self.shape.table, field_.column))
        if doubt:
            self.doubts.append(f"{field_.column}: {doubt}")
        if settled == day:
            return setting
        if isinstance(value, dt.datetime):
            return replace(setting, value=dt.datetime.combine(settled, value.time()).isoformat(sep=" "))
        return replace(setting, value=settled.isoformat())

    def field(self, name: str) -> Field | None:
        lowered = name.lower()
        return self.shape.field(name) or (
            Field(name, name, "VARCHAR", required=False) if lowered in {c.lower() for c in self.shape.unique} else None
        )


def _day_or_moment(said: str, kind: str) -> tuple[object, dt.date] | None:
    """The moment a value gives for a TIMESTAMP column (else the day), with its day; None where it gives
    neither, or more than one.

    >>> _day_or_moment("on 3 May 2024 at 10:30", "TIMESTAMP")
    (datetime.datetime(2024, 5, 3, 10, 30), datetime.date(2024, 5, 3))
    >>> _day_or_moment("3 May 2024", "TIMESTAMP"), _day_or_moment("May", "DATE")
    ((datetime.date(2024, 5, 3), datetime.date(2024, 5, 3)), None)
    """
    moments, days = moments_said(said), days_said(said)
    if kind.startswith("TIMESTAMP") and len(moments) == 1:
        return moments[0], moments[0].date()
    if len(days) == 1:
        (day,) = days
        return day, day
    return None


def _days_unused(text: str, naming: set[dt.date]) -> list[str]:
    """The days `text` gives that are none of `naming`, as said; a day in figures that reads as two days
    ("09/03/2024") counts where neither is one of them.

    >>> _days_unused("09/03/2024 gone: tray 20; 18 March 2024", set()), _days_unused("09/03/2024", {dt.date(2024, 3, 9)})
    (['18 March 2024', '09/03/2024'], [])
    """
    unused = [f"{day.day} {day:%B %Y}" for day in sorted(days_said(text) - naming)]
    for match in SLASHED.finditer(text):
        readings = slashed_readings(match)
        if len(readings) == 2 and not readings & naming:
            unused.append(match.group())
    return unused


def _listed_values_said(shape: Shape, text: str, which: Sequence[Pick]) -> list[tuple[str, str]]:
    """The entries of the table's CHECK lists the request says in any form ("closing" says 'closed'), but
    not as a value naming the rows.

    >>> shape = Shape("stalls", (Field("state", "state", "VARCHAR", False, allowed=("open", "closed")),), "", "")
    >>> _listed_values_said(shape, "closing: Ann, 3 May", ()), _listed_values_said(shape, "delete Ann's stall", ())
    ([('state', 'closed')], [])
    >>> _listed_values_said(shape, "delete the closed stalls", (Pick("state", "closed"),))
    []
    """
    said = stems(text)
    naming = {(p.column.lower(), squeezed(p.value)) for p in which}
    return [
        (f.column, entry)
        for f in shape.fields
        for entry in f.allowed
        if (f.column.lower(), squeezed(entry)) not in naming
        and (entry_stems := {stem(word) for word in words(entry).split()})
        and entry_stems <= said
    ]


def _described(shape: Shape) -> list[str]:
    described = [f"{column} (names a row)" for column in shape.unique if column not in {f.name for f in shape.fields}]
    for f in shape.fields:
        kind = f"one of: {', '.join(f.allowed)}" if f.allowed else f.type.lower()
        if f.reference is not None and f.reference.name:
            kind = f"the {f.reference.name} of a {f.reference.table} row"
        described.append(f"{f.name} ({kind})")
    return described


def _number(said: str) -> float | int | None:
    """The number a value gives, in figures or in words.

    >>> _number("1,200"), _number("three"), _number("none"), _number("Low")
    (1200, 3, 0, None)
    """
    try:
        number = float(said.replace(",", ""))
    except ValueError:
        spelled = spelled_numbers(said)
        if len(spelled) != 1:
            return 0 if NONE_SAID.fullmatch(said.strip()) else None
        number = spelled[0]
    return int(number) if number.is_integer() else number


def _is_numeric(field_: Field) -> bool:
    return json_type(field_) in ("integer", "number")  # an INTERVAL is none, though it holds "INT"


def _says_more_than_a_copy(said: str, other: Pick, field_: Field, shape: Shape) -> bool:
    """Whether a value naming another row says more than "the same as that row's" (a hint: it only makes
    the write wait).

    >>> shape, phone, ann = Shape("members", (), "", ""), Field("phone", "phone", "VARCHAR", False), Pick("name", "Ann Roe")
    >>> [_says_more_than_a_copy(v, ann, phone, shape) for v in ("same as Ann Roe", "Ann Roe's phone", "call Ann Roe back")]
    [False, False, True]
    >>> _says_more_than_a_copy("the same as entry 3", Pick("entry_no", "3"), phone, shape)
    False
    """
    named = f"{other.value} {other.column} {field_.name} {field_.column} {shape.table}"
    own = {stem(w) for w in words(named).split()} | {stem(w) for w in COPY_WORDS}
    return any(stem(w) not in own for w in words(said.replace("'s", "")).split())


def _names_its_column(said: str, field_: Field, shape: Shape) -> bool:
    """Whether a value reads as a description naming its own column or table ("the region of order 3"
    for a region), not a value: a phrase of several words holding the column's name.

    >>> shape = Shape("orders", (), "", "")
    >>> _names_its_column("region of order 3", Field("region", "region", "VARCHAR", False), shape)
    True
    >>> _names_its_column("North", Field("region", "region", "VARCHAR", False), shape)
    False
    """
    words = said.lower().split()
    names = {field_.name.lower(), field_.column.lower(), shape.table.lower(), shape.table.lower().rstrip("s")}
    return len(words) > 1 and bool(names & set(words))
