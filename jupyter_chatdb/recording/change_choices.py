"""A narrower second question about a change the model read, where one reading is easily mistaken for
another on the same rows: a removal of rows whose table lists the states a row may be in (a kite torn beyond
repair may be set 'retired' rather than deleted), a value read for a CHECK-listed column that is none of
its entries ("thrown on the heap"), a number added to rows named only by the row they refer to (the
lines of an item, or the item itself), and an entry the request does not say in words, asked once more to
confirm it ("torn sail" read as 'grounded'). The readings to choose among are put to the model as
options, with the kept row, and it picks one in a short constrained call. Each option is a `Reading`, so
the one chosen is checked and written as any reading is: nothing here writes or widens the rows a change
touches (every option keeps the rows the first reading named, or the one row they all refer to).

A number asked again the same way (the new value, or an amount to add or take off) was tried and left
out: on the fruit shop it turned "set the price to 0.80" into taking 0.80 off, and it fixed no tune
record (docs/benchmarks.md, issue 51, fourth session). A change read with nothing to set is another case:
a number the request gives is offered for the row's number columns (`number_options`), asked each way
round."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from ..language.words import words
from ..llm.base import JSONSchema, Message
from .kept import column_said
from .picks import entry_said, mapped
from .related import reachable
from .row_changes import Pick, Reading, Setting
from .shapes import Field, Shape, json_type
from .unused import numbers_given

CHOICE_MAX_TOKENS = 48
MAX_OPTIONS = 9
MAX_SHOWN_COLUMNS = 10
MAX_NUMBERS = 2  # the numbers a change that sets nothing is offered, in the order the request gives them

INSTRUCTIONS = """\
You check what a write request does to a kept row. Reply with JSON: "option", the one option that does \
what the request says.

Examples:
Request: 2024-06-09 kite 7 torn beyond repair, out of use for good
Row: kites kite_id 7, name 'Bolt', state 'ready'
Options: remove the kites row | set state to 'grounded' | set state to 'retired'
{"option": "set state to 'retired'"}
Request: please delete kite 9, it was entered twice
Row: kites kite_id 9, name 'Aria', state 'ready'
Options: remove the kites row | set state to 'grounded' | set state to 'retired'
{"option": "remove the kites row"}
Request: 2024-06-10 | Wisp | owner gave it up, delete the owner
Row: kites kite_id 3, name 'Wisp', owner 'Jo Hale', state 'ready'
Options: keep the kites row | clear owner
{"option": "clear owner"}
Request: kite 4 stays on the ground for a week
Row: kites kite_id 4, name 'Vega', state 'ready'
Options: set state to 'ready' | set state to 'grounded' | set state to 'retired'
{"option": "set state to 'grounded'"}"""


# how close in meaning some words are to each of several texts (cosine of their embeddings), when an
# embedder is at hand
Closeness = Callable[[str, Sequence[str]], Sequence[float]]


@dataclass(frozen=True)
class Option:
    text: str  # as the model is shown it
    reading: Reading


def options_for(
    reading: Reading, shape: Shape, row: Mapping[str, object] | None, closeness: Closeness | None = None
) -> list[Option]:
    """The readings to choose among, or none where there is nothing to ask: a removal of rows of a table
    with CHECK-listed states, or a value read for a CHECK-listed column that is none of its entries, those
    closest in meaning to the words read first where `closeness` tells, and, where it is all the change
    sets, the rows' removal last (`row`: the one kept row the reading names, None where it names
    several). The first reading is the first option, where it can be written."""
    if reading.does == "remove":
        return _removal_options(reading, shape, row)
    unlisted = [(s, f) for s in reading.settings if (f := shape.field(s.column)) and _is_unlisted(s, f)]
    if reading.does != "change" or len(unlisted) != 1:
        return []
    listed = _listed_options(reading, *unlisted[0], closeness)
    if len(reading.settings) > 1 or not listed:
        return listed
    # a state none of the list may be the row's end ("called off", "written off"): its removal, offered last
    removal = Option(
        f"remove the {shape.table} row" + ("" if row is not None else "s"), replace(reading, does="remove", settings=())
    )
    return [*listed[: MAX_OPTIONS - 1], removal]


def thing_options(reading: Reading, shape: Shape, shapes: Mapping[str, Shape]) -> list[Option]:
    """For a number added to or taken off rows named only by the one row of another table they refer to
    ("RP-2 | 6 more in" read as the lines issued of item RP-2): the first reading, and the same number
    added to or taken off each number column of that row itself (the item's count in store); none
    otherwise."""
    if reading.does != "change" or not reading.which or not reading.settings:
        return []
    if any(s.how not in ("add", "subtract") for s in reading.settings) or len(reading.settings) != 1:
        return []
    references = [f.reference for p in reading.which if (f := shape.field(p.column)) is not None]
    if len(references) != len(reading.which) or any(r is None for r in references):
        return []
    tables = {r.table for r in references if r is not None}
    other = shapes.get(next(iter(tables))) if len(tables) == 1 else None
    if other is None or other.table == shape.table:
        return []
    which = tuple(Pick(r.name or r.key, p.value) for r, p in zip(references, reading.which, strict=True) if r)
    (setting,) = reading.settings
    numbers = [f for f in other.fields if f.reference is None and json_type(f) in ("integer", "number")]
    if not numbers:
        return []
    verb, joined = ("add", "to") if setting.how == "add" else ("take", "off")
    options = [Option(f"{verb} {setting.value} {joined} {shape.table} {setting.column}", reading)]
    for f in numbers:
        moved = Reading("change", other.table, which, (replace(setting, column=f.column),))
        options.append(Option(f"{verb} {setting.value} {joined} {other.table} {f.column}", moved))
    return options[:MAX_OPTIONS]


def column_options(reading: Reading, shape: Shape, text: str) -> list[Option]:
    """For a number added to or taken off a column the request does not name, where it names another
    number column of the same table ("R-7 bottles | +6" read as adding 6 to the rack's depth): the same
    number added to or taken off each number column, the first reading last (a small model leans to
    what it read first); none otherwise."""
    if reading.does != "change" or len(reading.settings) != 1:
        return []
    (setting,) = reading.settings
    numbers = [f for f in shape.fields if f.reference is None and json_type(f) in ("integer", "number")]
    read = shape.field(setting.column)
    if setting.how not in ("add", "subtract") or read is None or read not in numbers or column_said(read.column, text):
        return []
    if not any(column_said(f.column, text) for f in numbers if f is not read):
        return []
    verb, joined = ("add", "to") if setting.how == "add" else ("take", "off")
    ordered = [f for f in numbers if f is not read] + [read]
    return [
        Option(
            f"{verb} {setting.value} {joined} {f.column}",
            replace(reading, settings=(replace(setting, column=f.column),)),
        )
        for f in ordered
    ][:MAX_OPTIONS]


def confirming_options(reading: Reading, shape: Shape, text: str) -> list[Option]:
    """For a change setting one CHECK-listed column to an entry the request does not say in words ("SG-7 |
    done" read as 'fitted'): every other entry, the last listed first, removing the row, where it sets
    other columns too leaving that one as it is, and the entry read last (a small model leans to the
    first option it is shown, which must not confirm a reading by its place); none where there is
    nothing to confirm. A different entry, or the removal, picked is a doubt, not a reading (the write
    waits, showing both); leaving it is taken (a write only ever narrower)."""
    unsaid = [
        (s, f)
        for s in reading.settings
        if s.how == "to" and (f := shape.field(s.column)) and f.allowed and f.reference is None
        and s.value in f.allowed and not entry_said(s.value, text)
    ]  # fmt: skip
    if reading.does != "change" or len(unsaid) != 1:
        return []
    setting, field_ = unsaid[0]
    others = tuple(e for e in reversed(field_.allowed) if e != setting.value)
    options = _listed_options(reading, setting, replace(field_, allowed=others))
    removed = Reading("remove", reading.table, reading.which, ())
    options.append(Option(f"remove the {shape.table} row", removed))  # a row given up may be read as a state
    rest = tuple(s for s in reading.settings if s is not setting)
    if rest:  # it may set no state at all ("hanging on rack 4" says nothing of one)
        options.append(Option(f"leave {setting.column} as it is", replace(reading, settings=rest)))
    return [*options, *_listed_options(reading, setting, replace(field_, allowed=(setting.value,)))]


def entries_not_held(reading: Reading, shape: Shape, row: Mapping[str, object]) -> list[Option]:
    """For a change setting one CHECK-listed column, and nothing else, to the entry its one kept row holds
    already (no change at all): each other entry, the last listed first; none otherwise, or where there
    are too few to choose among or too many to show."""
    if reading.does != "change" or len(reading.settings) != 1:
        return []
    (setting,) = reading.settings
    field_ = shape.field(setting.column)
    if field_ is None or not field_.allowed or field_.reference is not None or setting.how != "to":
        return []
    held = row.get(field_.column)
    if held is None or mapped(setting.value, field_.allowed) != held:
        return []
    others = tuple(e for e in reversed(field_.allowed) if e != held)
    if not 2 <= len(others) <= MAX_OPTIONS:
        return []
    return _listed_options(reading, setting, replace(field_, allowed=others))


def state_options(reading: Reading, shape: Shape, row: Mapping[str, object]) -> list[Option]:
    """For a change of one kept row that sets nothing the table has ("Ada's order of 15 May is gift-wrapped"
    read with no column to set): each entry of the table's CHECK-listed columns the row is not in (but
    of those the reading names it by), the last listed first, and leaving the row as it is (the first
    option: the reading as the model gave it, which code cannot write); none where the table lists no
    states."""
    naming = {p.column.lower() for p in reading.which}  # the smoker named among the loans is no state of one
    states = _states(reading, shape, row, last_first=True, leaving=naming)
    if reading.does != "change" or not states:
        return []
    return [Option(f"leave the {shape.table} row as it is", reading), *states][:MAX_OPTIONS]


def number_options(
    reading: Reading, shape: Shape, text: str, names_a_row: Callable[[str, set[str]], bool] = lambda n, c: False
) -> list[Option]:
    """For a change of one kept row that sets nothing its table has, where the request gives a number that
    does not name the row ("attendance correction | add to attendance: 3"): adding it to, taking it off and
    setting each number column of the row's own that names no row (no key, no reference, no listed
    column); none where the request gives no such number. `names_a_row(number, naming columns)`: whether
    a kept row holds the number in one of those columns ("goes where entry 3 is"): no amount, not offered.
    What the model picks is written as any reading is, the number the request's own."""
    if reading.does != "change" or reading.settings:
        return []
    by = {p.column.lower() for p in reading.which} | {c.lower() for c in (*shape.naming, shape.returned_key) if c}
    naming = {p.value.strip() for p in reading.which}
    numbers = [n for n in numbers_given(text) if n not in naming][:MAX_NUMBERS]
    numbers = [n for n in numbers if not names_a_row(n, by)]
    columns = [
        f.column
        for f in shape.fields
        if f.reference is None
        and not f.allowed
        and json_type(f) in ("integer", "number")
        and f.column.lower() not in by
    ]
    ways = (("add", "add {n} to {c}"), ("subtract", "take {n} off {c}"), ("to", "set {c} to {n}"))
    return [
        Option(said.format(n=n, c=c), Reading("change", reading.table, reading.which, (Setting(c, how, n),)))
        for n in numbers
        for c in columns
        for how, said in ways
    ][:MAX_OPTIONS]


def kept_row_options(reading: Reading, shape: Shape, row: Mapping[str, object], text: str) -> list[Option]:
    """For a removal of a kept row that other rows refer to, so that it cannot go ("contact | Ana Roe |
    mooring given up, delete it"): keeping the row (the first option: the reading as the model gave it,
    which the data refuses), clearing each value the row holds whose column the request names and may be
    empty, and setting each CHECK-listed entry the row is not in that the request says in words; none
    where the request names neither."""
    if reading.does != "remove":
        return []
    own = {c.lower() for c in shape.naming}
    cleared = [
        Option(f"clear {f.column}", Reading("change", reading.table, reading.which, (Setting(f.column, "clear"),)))
        for f in shape.fields
        if f.nullable and f.reference is None and f.column.lower() not in own
        and row.get(f.column) is not None and column_said(f.column, text)
    ]  # fmt: skip
    said = [o for o in _states(reading, shape, row, last_first=False) if entry_said(o.reading.settings[0].value, text)]
    if not cleared and not said:
        return []
    return [Option(f"keep the {shape.table} row", reading), *cleared, *said][:MAX_OPTIONS]


def referring_options(reading: Reading, shape: Shape, shapes: Mapping[str, Shape], text: str) -> list[Option]:
    """For a change of a kept row that sets nothing its table has: each CHECK-listed entry the request says
    in words of the one table that refers to the row's table and lists entries ("Ria's dinghy is out on
    the water": the dinghy's hire set 'out'), on its rows named through the row (`related.path_to`);
    none where no one such table is, or the request says none of its entries."""
    if reading.does != "change" or reading.settings or not reading.which:
        return []
    referring = [
        (name, other)
        for name, other in shapes.items()
        if other.table != shape.table
        and len(other.references_to(shape.table)) == 1
        and any(f.allowed and f.reference is None for f in other.fields)
    ]
    if len(referring) != 1:
        return []
    name, other = referring[0]
    if not all(reachable(shapes, name, p.column) for p in reading.which):
        return []
    return [
        Option(
            f"set {name} {f.column} to '{entry}'",
            Reading("change", name, reading.which, (Setting(f.column, "to", entry),)),
        )
        for f in other.fields
        if f.allowed and f.reference is None
        for entry in f.allowed
        if entry_said(entry, text)
    ]


def emptying_options(reading: Reading, shape: Shape, shapes: Mapping[str, Shape], text: str) -> list[Option]:
    """For a change of a kept row that sets nothing its table has: emptying each column the request names
    in words that may be empty, of a table referring to the row's table, on its rows named through the
    row ("the kite is off its peg now": the peg of the kite's booking); none where there is none."""
    if reading.does != "change" or reading.settings or not reading.which:
        return []
    return [
        Option(
            f"clear {f.column} of the {name} row", Reading("change", name, reading.which, (Setting(f.column, "clear"),))
        )
        for name, other in shapes.items()
        if other.table != shape.table
        and other.references_to(shape.table)
        and all(reachable(shapes, name, p.column) for p in reading.which)
        for f in other.fields
        if f.nullable and f.reference is None and f.column not in other.unique and column_said(f.column, text)
    ]


def promoted_options(reading: Reading, shape: Shape, row: Mapping[str, object] | None) -> list[Option]:
    """For a change that set nothing, whose new values were found among the names it read ("T-41 |
    mould all over" read with a crop of 'mould' among the names): the reading as found, and each entry of the
    table's CHECK-listed columns it does not set that the row is not in, the last listed first; none
    where the table lists no states."""
    set_columns = {s.column.lower() for s in reading.settings}
    states = _states(reading, shape, row, last_first=True, leaving=set_columns)
    if reading.does != "change" or not states or not reading.settings:
        return []
    found = "; ".join(f"set {s.column} to '{s.value}'" for s in reading.settings)
    return [Option(found, reading), *states][:MAX_OPTIONS]


def copy_options(reading: Reading, shape: Shape, other: Pick) -> list[Option]:
    """For a change setting a column to words that name another kept row of the same table, which the
    column cannot hold ("B-2 | moved | to the plot of B-5" read as B-5 for the day it was sown): a copy
    of each of that table's columns from the row named, the column read last; none where it sets
    anything else."""
    if reading.does != "change" or len(reading.settings) != 1 or reading.settings[0].how != "to":
        return []
    read = reading.settings[0].column.lower()
    own = {c.lower() for c in shape.naming}
    columns = [f.column for f in shape.fields if f.column.lower() not in own and f.column.lower() != read]
    columns += [f.column for f in shape.fields if f.column.lower() == read]
    return [
        Option(
            f"copy {column} from {other.value}", replace(reading, settings=(Setting(column, "copy", source=(other,)),))
        )
        for column in columns
    ][:MAX_OPTIONS]


def _removal_options(reading: Reading, shape: Shape, row: Mapping[str, object] | None) -> list[Option]:
    states = _states(reading, shape, row, last_first=False)
    if not states:
        return []
    first = Option(f"remove the {shape.table} row" + ("" if row is not None else "s"), reading)
    return [first, *states][:MAX_OPTIONS]


def _states(
    reading: Reading,
    shape: Shape,
    row: Mapping[str, object] | None,
    last_first: bool,
    leaving: Collection[str] = (),
) -> list[Option]:
    """Setting each entry of the table's CHECK-listed columns (but those in `leaving`) that the row is not
    in (any, where `row` is None) on the rows the reading names; each list the last entry first with
    `last_first` (a small model leans to what it reads first)."""
    return [
        Option(
            f"set {f.column} to '{entry}'",
            Reading("change", reading.table, reading.which, (Setting(f.column, "to", entry),)),
        )
        for f in shape.fields
        if f.allowed and f.reference is None and f.column.lower() not in leaving
        for entry in (reversed(f.allowed) if last_first else f.allowed)
        if row is None or row.get(f.column) != entry
    ]


def _listed_options(
    reading: Reading, setting: Setting, field_: Field, closeness: Closeness | None = None
) -> list[Option]:
    """A value read for a CHECK-listed column that is none of its entries ("thrown on the heap"): the entries,
    closest in meaning to the words read first where `closeness` tells (the first reading, which cannot be
    written, is none of the options)."""
    entries = list(field_.allowed)
    if closeness is not None and len(entries) > 1:
        scores = closeness(setting.value, [words(e) for e in entries])
        entries = [entries[i] for i in sorted(range(len(entries)), key=lambda i: -scores[i])]
    return [
        Option(
            f"set {setting.column} to '{entry}'",
            replace(reading, settings=tuple(replace(s, value=entry) if s is setting else s for s in reading.settings)),
        )
        for entry in entries
    ][:MAX_OPTIONS]


def _is_unlisted(setting: Setting, field_: Field) -> bool:
    listed = bool(field_.allowed) and field_.reference is None
    return listed and setting.how == "to" and mapped(setting.value, field_.allowed) is None


def choice_messages(
    request: str,
    shape: Shape,
    row: Mapping[str, object] | None,
    options: Sequence[Option],
    instructions: str = INSTRUCTIONS,
) -> list[Message]:
    """The choice call's messages: the request, the kept row the reading names, the options; `instructions`:
    what the choice is about (`kept_state.py` asks a row's state after rows written under it)."""
    shown = f"Row: {shape.table} {_row_text(shape, row)}" if row is not None else f"Rows: several {shape.table} rows"
    listed = " | ".join(o.text for o in options)
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": f"Request: {request}\n{shown}\nOptions: {listed}"},
    ]


def choice_schema(options: Sequence[Option]) -> JSONSchema:
    return {
        "type": "object",
        "properties": {"option": {"type": "string", "enum": [o.text for o in options]}},
        "required": ["option"],
        "additionalProperties": False,
    }


def chosen(reply: object, options: Sequence[Option]) -> Option | None:
    """The option the reply names, or None."""
    picked = reply.get("option") if isinstance(reply, dict) else None
    return next((o for o in options if o.text == picked), None)


def _row_text(shape: Shape, row: Mapping[str, object]) -> str:
    columns = list(dict.fromkeys([*shape.unique, *(f.column for f in shape.fields)]))[:MAX_SHOWN_COLUMNS]
    return ", ".join(f"{c} {_quoted(row[c])}" for c in columns if c in row and row[c] is not None)


def _quoted(value: object) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)
