"""A write read for what it does to rows (`recording/row_changes.py`): one short constrained call says
whether it adds rows, changes rows it names or removes them. A change or removal is written by code as
an UPDATE or DELETE of rows that exist. Where a value it names rows by names nothing kept, the reading of
the rows the request states (`write_from_facts`) or the plan goes on, and what they write waits for
approval with the question. Where each value names something kept but no row has them all (a price
change of a kept fruit), or the rows to remove are referred to (a return of a kept sale), the data does not
bear a change out: a small model reads an event as a change now and then, and the request goes on as one
that adds rows. A change code cannot write is planned,
and a plan's new rows wait (`finish`): a change never writes new rows unseen. A value the
request does not give makes the write wait for approval, saying why. What adds rows goes on to be read
as the rows it states (`write_from_facts`). The model is shown only the tables holding a row the request
names (a stored text value, a number an integer column holds), those referring to them and those it names
by their own or a column's name; a request that names no kept row can change none, and the data settles
it without the call."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ...language.words import stem, stems, words
from ...recording import facts
from ...recording.change_reply import change_schema
from ...recording.named_rows import NamedRow
from ...recording.owning_table import (
    linked,
    on_the_table_it_names,
    on_the_table_it_sets,
    on_the_table_named,
    refer_named_row,
)
from ...recording.reading_errors import NotExpressible, Refused
from ...recording.resolve import StoredRows
from ...recording.row_changes import (
    WHOLE_NUMBER,
    ChangeWrite,
    NotBorneOut,
    Reading,
    Unanswerable,
    change_messages,
    change_write,
    is_a_new_row,
    move_between_named,
    names_no_kept_row,
    parse_reading,
    rows_met,
)
from ...recording.scope import in_scope
from ...recording.shapes import INTEGER_TYPES, Shape, shapes_of
from ...recording.undated import an_undated_new_row, values_given
from ...sql.names import quote_identifier, quote_table
from ...sql.rules import derived_columns
from ..context import Context
from ..events import ChangeRead, Event
from ..kinds import Route
from ..planned_steps import PlannedStep
from ..stage import stage
from .change_asked import (
    a_copy_from_the_other_named,
    a_copy_instead,
    a_described_row_instead,
    a_kept_row_instead,
    a_referred_row_instead,
    a_state_instead,
    asked_again,
)
from .rows_named import rows_named

CHANGE_MAX_TOKENS = 200


@stage
def read_change(ctx: Context) -> Iterator[Event]:
    """For a write no procedure took: add, change or remove, as the model reads it; a change or removal
    becomes the plan's one statement (or the question the data raises), and the rest of the chain knows
    what the request does (`ctx.does`)."""
    if ctx.route != Route.WRITE or ctx.steps or ctx.request.approved or ctx.reply is not None:
        return
    rules = ctx.services.rules
    shapes = shapes_of(ctx.session, ctx.catalog, derived_columns(rules) if rules is not None else {})
    shapes = in_scope({name: shape for name, shape in shapes.items() if shape.fields}, ctx.named_tables())
    named = rows_named(ctx, shapes) if shapes else []
    wide = shapes  # every table in scope: where the reading's table refers the change to another
    shapes = _tables_of_named_rows(ctx, shapes, named) if shapes else {}
    if not shapes:
        return
    text = ctx.request.text
    messages = change_messages(shapes, text, [n for n in named if n.table in shapes])
    completion = yield from ctx.calls("change", messages, change_schema(shapes), CHANGE_MAX_TOKENS)
    try:
        reading = parse_reading(json.loads(completion.text))
    except json.JSONDecodeError:
        reading = None
    stored = StoredRows(ctx.session)
    if reading is not None:  # the change of the row joining two rows named, or of the table having its columns
        elsewhere = (
            linked(reading, shapes, stored)
            or on_the_table_it_sets(reading, wide)
            or on_the_table_named(reading, wide, named)
        )
        if elsewhere is not None:
            reading, shapes = elsewhere, wide
    new_row = (
        reading is not None
        and (is_a_new_row(reading, shapes) or an_undated_new_row(reading, shapes, stored, text))
        and not _names_one_kept_row(stored, reading, shapes)
    )
    if reading is not None and new_row and not _a_kept_row_with_states(stored, reading, shapes, text):
        reading = replace(reading, does="add")  # the values of a new row, read as the rows it changes
    elif reading is not None and reading.does == "change" and not reading.settings:
        if not reading.which or names_no_kept_row(reading, shapes, stored, text):  # nothing to set, on no kept row
            reading = replace(reading, does="add")
    if reading is None or reading.does == "add":
        ctx.adds_to = reading.table if reading is not None and reading.table in shapes else ""
        ctx.new_row_read = values_given(reading, shapes[ctx.adds_to]) if reading is not None and ctx.adds_to else ()
        return
    reading, left_behind = on_the_table_it_names(reading, shapes, stored)
    ctx.changes_read = tuple(f"{shapes[reading.table].table}.{s.column}" for s in reading.settings)
    stated_as = ""  # the state the model picked for a change that set nothing
    referred = None  # the change of the row joining two named rows, where the model's set nothing
    try:
        write = change_write(reading, shapes, stored, text, dt.date.today(), named)
        write = replace(write, goal="; ".join([write.goal, *left_behind]))
        if write.doubts and (settled := _read_from_the_data(ctx, reading, shapes, named)) is not None:
            write = settled  # a doubtful reading, where the data reads the change the request names
    except (NotBorneOut, Unanswerable) as failed:
        moved = _moved_between_named_rows(ctx, reading, shapes, named)
        described = None  # the row of several the request describes, as the model picks it
        if moved is None and isinstance(failed, Unanswerable):
            described = yield from a_described_row_instead(ctx, reading, wide, named)
        if moved is not None:  # the data reads the one move the request names: as read from the data
            write = moved
        elif described is not None:
            write, stated_as = described
            shapes = wide
        elif isinstance(failed, NotBorneOut) or not failed.names_a_row:
            # each thing named is kept (or what is not is a count, which names nothing), but the data bears
            # no change out
            kept = yield from a_kept_row_instead(ctx, reading, shapes, named)
            if kept is None:  # a number added to rows of a kept row that none refer to: added to the row itself?
                kept = yield from a_referred_row_instead(ctx, reading, wide, named)
                shapes = wide if kept is not None else shapes
            if kept is None:
                yield ChangeRead(reading.does, reading.table)  # the reading, the request is read as adding rows
                yield ctx.not_used(f"not read as a {reading.does}: {failed}")
                return
            write, stated_as = kept  # a removal the data refuses: a value of the row cleared, or its state
        else:  # rows the reading names are not kept: a small model may have read an event as a change, or
            # the user names a row that is not there; the reading of rows or the plan goes on, and whatever
            # it writes waits, with the question
            ctx.held.append(f"it reads as a {reading.does} of kept rows, but {failed}")
            yield ChangeRead(reading.does, reading.table)
            yield ctx.not_used(f"the {reading.does} was not written: {failed}")
            return
    except NotExpressible as error:  # a change code cannot write: the plan writes it, never as new rows
        # values the database refuses are no change the request makes: a state is asked for as if it set none
        unset = replace(reading, settings=()) if isinstance(error, Refused) else reading
        # a row named by its code that sets nothing, beside a row of another table: the row joining them
        referred = _read_from_the_data(ctx, reading, wide, named) if not reading.settings else None
        stated = (
            (referred, "")
            if referred is not None
            else (yield from a_copy_instead(ctx, reading, shapes, named))
            or (yield from a_state_instead(ctx, unset, wide, named))
        )
        if stated is None and new_row:  # the kept row stays as it is: the values of a new row, as read
            ctx.adds_to = reading.table
            return
        if stated is None:
            ctx.does = reading.does
            yield ChangeRead(reading.does, reading.table)
            yield ctx.not_used(f"the {reading.does} is not code's to write ({error})")
            return
        write, stated_as = stated
        shapes = shapes if write.reading.table in shapes else wide  # a state of the rows referring to it
    set_nothing = not reading.settings and referred is None  # a change the data reads: no state to guess
    if write.doubts and not stated_as:  # a doubtful value, where the request names another row to copy it from
        copied = yield from a_copy_from_the_other_named(ctx, write, shapes, named)
        if copied is not None:
            (write, stated_as), set_nothing = copied, False  # picked among the copies: not asked again
    write, picked = yield from asked_again(ctx, write, shapes, named, set_nothing=set_nothing)
    picked = picked or stated_as
    ctx.does = write.reading.does
    ctx.steps = [PlannedStep(write.goal, write.sql)]
    ctx.params.update(write.params)
    if _one_row_with_rows_of_its_own(stored, write, wide):  # a loan returned, with its fine: read after
        ctx.lines_of = (write.reading.table, write.where)
    ctx.held += [f"{doubt}; check it before approving" for doubt in write.doubts]
    yield ChangeRead(write.reading.does, write.reading.table, write.sql, tuple(write.doubts), picked)


def _one_row_with_rows_of_its_own(stored: StoredRows, write: ChangeWrite, shapes: dict[str, Shape]) -> bool:
    """Whether `write` sets values of one kept row of a table whose rows have rows of their own: rows the
    request may bring beside the change (`from_facts`), read where it leaves numbers unwritten."""
    shape = shapes.get(write.reading.table)
    return (
        write.reading.does == "change"
        and shape is not None
        and bool(shape.returned_key)
        and bool(facts.children(shapes, write.reading.table, shapes))
        and stored.count(shape.table, write.where, write.params) == 1
    )


def _a_kept_row_with_states(stored: StoredRows, reading: Reading, shapes: dict[str, Shape], text: str) -> bool:
    """Whether the values a new row's reading gives are those of one kept row of a table with CHECK-listed
    states ("Ada's order of 15 May is gift-wrapped", read as the order's own values): a change of its state,
    asked (`change_asked.a_state_instead`), rather than a second row."""
    shape = shapes[reading.table]
    listed = any(f.allowed and f.reference is None for f in shape.fields)
    return listed and not reading.settings and rows_met(reading, shapes, stored, text) == 1


def _names_one_kept_row(stored: StoredRows, reading: Reading, shapes: dict[str, Shape]) -> bool:
    """Whether the reading names a kept row of its table by a column that names one row (its name or its
    code), whichever of them the model put the value under."""
    shape = shapes[reading.table]
    return any(
        stored.named_exactly(shape.table, (c,), p.value, c) is not None for p in reading.which for c in shape.naming
    )


def _read_from_the_data(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> ChangeWrite | None:
    """The change the data reads where the model's is doubtful, written without doubts: the one move
    between two named rows (`move_between_named`), or the one named row set to refer to the row the model
    changed (`owning_table.refer_named_row`: "yacht SG-7 | new skipper: Tam Ord"); None otherwise."""
    stored, text, today = StoredRows(ctx.session), ctx.request.text, dt.date.today()
    for found in (move_between_named(shapes, named, stored), refer_named_row(reading, shapes, named, stored)):
        if found is None or found.does != "change":
            continue
        try:
            write = change_write(found, shapes, stored, text, today, named)
        except (NotBorneOut, Unanswerable, NotExpressible):
            continue
        if not write.doubts:
            return replace(write, goal=f"{write.goal}; read from the rows the request names")
    return None


def _moved_between_named_rows(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> ChangeWrite | None:
    """Where the model's change cannot be written, the one move the data reads (`move_between_named`): a
    kept row the request names, from one named row of another table to the other."""
    stored = StoredRows(ctx.session)
    moved = move_between_named(shapes, named, stored) if reading.does == "change" else None
    if moved is None:
        return None
    try:
        return change_write(moved, shapes, stored, ctx.request.text, dt.date.today(), named)
    except (NotBorneOut, Unanswerable, NotExpressible):
        return None


def _tables_of_named_rows(ctx: Context, shapes: dict[str, Shape], named: list[NamedRow]) -> dict[str, Shape]:
    """The tables a change may be to, where the request names a kept row (`named`, or a number an integer
    column holds: "entry 4"): the tables holding one, those referring to one of those (a booking named by
    its guest), and those whose name or a column's name the request says. None where it names no kept
    row."""
    holding = {shapes[n.table].table.lower() if n.table in shapes else n.table.lower() for n in named}
    numbers: list[object] = [int(word) for word in WHOLE_NUMBER.findall(ctx.request.text)[:20]]
    for shape in shapes.values() if numbers else ():
        table = ctx.catalog.tables.get(shape.table)
        integers = [c.name for c in table.columns if c.type.upper().startswith(INTEGER_TYPES)] if table else []
        if not integers or shape.table.lower() in holding:
            continue
        listed = ", ".join("?" * len(numbers))
        held = " OR ".join(f"{quote_identifier(column)} IN ({listed})" for column in integers)
        if ctx.session.rows(
            f"SELECT 1 FROM {quote_table(shape.table)} WHERE {held} LIMIT 1", [*numbers] * len(integers)
        ):
            holding.add(shape.table.lower())
    if not holding:
        return {}
    said = stems(ctx.request.text)
    offered = {
        name
        for name, shape in shapes.items()
        if shape.table.lower() in holding
        or any(f.reference is not None and f.reference.table.lower() in holding for f in shape.fields)
        or any(_speaks_of(label, said) for label in (shape.table, *(f.column for f in shape.fields)))
    }
    return {name: shape for name, shape in shapes.items() if name in offered}


def _speaks_of(name: str, said: set[str]) -> bool:
    """Whether the request says each word of a table's or column's name, in any form ("checks" names
    `check`, "faults found" names `faults_found`)."""
    named = [stem(word) for word in words(name).split()]
    return bool(named) and all(word in said for word in named)
