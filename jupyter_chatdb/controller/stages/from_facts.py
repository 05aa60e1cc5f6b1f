"""Writes from facts (`recording/facts.py`): for a write, one constrained call reads the rows the request states,
and code writes their statements; what that cannot express is planned as before."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ...language.dates import SLASHED
from ...language.numbers import STATED_NUMBER
from ...language.spoken import spelled_numbers
from ...recording import facts
from ...recording.agreement import agreed
from ...recording.day_order import ordered_day
from ...recording.forms import as_nothing, unlike_their_column
from ...recording.kept import as_changes, without_copies
from ...recording.labelled_lines import filled_from_lines
from ...recording.lengths import dated_by_length
from ...recording.lists import one_row_per_item
from ...recording.moments import leading_day, one_day_once, timed_as_said
from ...recording.named_reference import named_for_what_names_nothing, referring_to_the_one_named
from ...recording.named_rows import NamedRow, codes_said, with_codes_named
from ...recording.prompt import facts_messages
from ...recording.reading_errors import WithoutItsRows
from ...recording.references_named import unnamed_references
from ...recording.resolve import StoredRows
from ...recording.scope import around, in_scope, parents
from ...recording.shapes import Shape, describe, each_row, json_schema, shapes_of, shown_order
from ...recording.stated import Stated, says_a_date, stated_only
from ...recording.undated import dated_the_one_day
from ...recording.unused import sql_values, unused_numbers
from ...sql.rules import derived_columns
from ..context import Context
from ..events import Event, FactsExtracted, FactsNotUsed
from ..kinds import Route
from ..planned_steps import PARAMETER, PlannedStep
from ..stage import stage
from .day_picked import day_picked
from .entry_picks import entries_asked_again, listed_values, references_given
from .kept_state import states_after
from .rows_left import RowsLeft, again_for_rows_referring, named_rows_left
from .rows_named import rows_named

FACTS_MAX_TOKENS = 500


@stage
def write_from_facts(ctx: Context) -> Iterator[Event]:
    """For a write no procedure took: the rows it states, as JSON shaped by the stored tables (columns that
    rules keep true and keys from sequences left out, only the tables on the side of the party it names,
    and where the request was read as adding to a table, only it, its lines and the tables they name),
    kept to what it says, written by code with bound values. When what was read cannot be written and some
    of it was made up (rows of a table the request says nothing of), it is read once more, offered only the
    tables it read that were not made up (and those they name); a header read without its lines, once
    more for them, and so is one written without its lines where the request gives numbers that nothing
    written holds. Where none can be written, the values the change reading gave a new row
    (`ctx.new_row_read`) are written instead where they can be, kept to what the request says as any
    reading is (its references swapped: a new kayak's owner read as its rack's code).
    """
    if ctx.route != Route.WRITE or ctx.request.approved:
        return
    if ctx.lines_of is not None:
        yield from _rows_of_the_changed_row(ctx, *ctx.lines_of)
        return
    if ctx.steps:
        return
    rules = ctx.services.rules
    shapes = shapes_of(ctx.session, ctx.catalog, derived_columns(rules) if rules is not None else {})
    shapes = {name: shape for name, shape in shapes.items() if shape.fields}
    shapes = in_scope(shapes, ctx.named_tables())
    if ctx.adds_to in shapes:
        shapes = around(shapes, ctx.adds_to)
    if not shapes:
        return
    required: tuple[str, ...] = ()
    for _ in range(READS):
        read = yield from _read(ctx, shapes, required)
        if isinstance(read, _Written) and ctx.does in ("change", "remove") and _adds(read.writes):
            read = _NotWritten("it was read as new rows, where the request changes rows already kept")
        left = _unused(ctx, read) if isinstance(read, _Written) and not required else []
        if isinstance(read, _Written) and left and (header := _without_its_lines(shapes, read)):
            again = yield from _read(ctx, *_with_its_rows(shapes, header))
            if isinstance(again, _Written) and len(_unused(ctx, again)) < len(left):
                read = again  # the lines it left out the first time, where they hold the numbers it gives
        elif isinstance(read, _Written) and not required and (named_left := _rows_left(ctx, shapes, read)):
            again = yield from _read(ctx, *again_for_rows_referring(shapes, named_left, ctx.request.text))
            if (
                isinstance(again, _Written)
                and not _rows_left(ctx, shapes, again)
                and len(_unused(ctx, again)) <= len(left)
            ):
                read = again  # a new customer's first hire of a kept costume: the hire it left out
        if isinstance(read, _Written):
            _take(ctx, read)
            ctx.steps += yield from states_after(ctx, shapes, read.writes)  # a visit's jobs: the visit made
            yield FactsExtracted(read.counts, read.unstated, read.from_lines)
            return
        failed = read
        if failed.without_rows:
            shapes, required = _with_its_rows(shapes, failed.without_rows)
            continue
        if not failed.made_up:
            break  # read again only without tables it made rows up for
        shapes = _read_again_by(shapes, failed.read - failed.made_up)
        if not shapes:
            break
    if ctx.new_row_read and ctx.adds_to in shapes:  # the change reading's values of the new row, read again by code
        again = yield from _written(ctx, shapes, {ctx.adds_to: [dict(ctx.new_row_read)]})
        if isinstance(again, _Written):
            _take(ctx, again)
            ctx.steps += yield from states_after(ctx, shapes, again.writes)
            yield FactsExtracted(again.counts, again.unstated, again.from_lines)
            return
    yield ctx.not_used(failed.reason, failed.unstated)


def _rows_of_the_changed_row(ctx: Context, table: str, where: str) -> Generator[Event, None, None]:
    """A change written (`read_change`) that leaves numbers the request gives unwritten, on a table whose
    rows have rows of their own (a loan returned, ten days late, with a fine of 1.50): those rows read as
    new rows belonging to the changed row, offered only their tables (and those they name), and written
    before the change, which is kept as it is; the write waits, the rows shown for approval (it waited
    before, on the numbers it left). Where the reading writes none of the numbers left, the change stays
    alone (and waits, saying which numbers it leaves)."""
    rules = ctx.services.rules
    every = shapes_of(ctx.session, ctx.catalog, derived_columns(rules) if rules is not None else {})
    every = {name: shape for name, shape in every.items() if shape.fields}
    if table not in every:
        return
    own = facts.children(every, table, every)
    offered = {*own, *(parent for name in own for parent in parents(every[name]))} - {table}
    shapes = {name: shape for name, shape in every.items() if name in offered}
    change = list(ctx.steps)
    left = _numbers_left(ctx, ctx.params.values(), [step.sql for step in change])
    if not own or not left:
        return
    read = yield from _read(ctx, shapes, tuple(own) if len(own) == 1 else (), (every[table], where))
    if not isinstance(read, _Written) or len(_unused(ctx, read, change)) >= len(left):
        yield FactsNotUsed(read.reason if isinstance(read, _NotWritten) else "its rows hold none of the numbers left")
        return
    _take(ctx, read)
    ctx.steps = [*ctx.steps, *change]  # the rows found by the changed row as it is, then the change
    ctx.rows_of_the_change = tuple(shapes[name].table for name, _ in read.counts if name in shapes)
    if twice := _written_twice(ctx, change, read):  # "late by: 34 days" as the fine's days and the due day's shift
        ctx.held.append(
            f"the request gives {', '.join(twice)} once, which both the change and the rows beside it write"
        )
    # measured on a fresh report sample, such a write applied junk rows where it had waited before: it waits
    added = ", ".join(f"{count} {table}" for table, count in read.counts)
    ctx.held.append(f"{added} row(s) read beside the change, for the numbers it leaves; check them before approving")
    yield FactsExtracted(read.counts, read.unstated, read.from_lines)


def _written_twice(ctx: Context, change: Sequence[PlannedStep], read: _Written) -> list[str]:
    """The numbers the request gives (in figures or words, counts of days too) that both the values `change`
    sets and the rows `read` beside it write."""
    set_parts = [step.sql.split(" WHERE ")[0] for step in change]
    setting = [
        *(value for part in set_parts for value in sql_values(part)),
        *(ctx.params[name] for part in set_parts for name in PARAMETER.findall(part) if name in ctx.params),
    ]
    own = [write for write in read.writes if not write.finds[0]]  # not the lookup of the changed row
    rows = [*read.params.values(), *(value for write in own for value in sql_values(write.sql))]
    text = ctx.request.text
    said = {float(n) for n in STATED_NUMBER.findall(text.replace(",", ""))} | set(spelled_numbers(text))
    both = (_numbers(setting) & _numbers(rows) & said) - {0.0}
    return [f"{n:g}" for n in sorted(both)]


def _numbers(values: Sequence[object]) -> set[float]:
    return {float(v) for v in values if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)}


def _take(ctx: Context, read: _Written) -> None:
    """The writes of `read` as the plan, with the reasons it waits."""
    ctx.steps = [PlannedStep(write.goal, write.sql, write.binds) for write in read.writes]
    ctx.params.update(read.params)
    ctx.held += [f"{guess}: the request does not say it; check it before approving" for guess in read.guessed]
    ctx.held += [f"{doubt}; check it before approving" for doubt in read.doubts]
    ctx.held += _sets_other_columns(ctx, read.writes)


def _unused(ctx: Context, read: _Written, beside: Sequence[PlannedStep] = ()) -> list[str]:
    """The numbers the request gives that nothing `read` writes holds (`recording/unused.py`), nor the
    steps `beside` it (with the values bound for them)."""
    bound = [*read.params.values(), *(ctx.params.values() if beside else ())]
    return _numbers_left(ctx, bound, [write.sql for write in read.writes] + [step.sql for step in beside])


def _numbers_left(ctx: Context, bound: Iterable[object], statements: Sequence[str]) -> list[str]:
    """The numbers the request gives that neither the values `bound` nor the `statements` hold."""
    return unused_numbers(ctx.request.text, [*bound, *(value for sql in statements for value in sql_values(sql))])


def _rows_left(ctx: Context, shapes: dict[str, Shape], read: _Written) -> RowsLeft | None:
    """The kept rows the request names that rows referring to a row `read` writes would refer to, where
    nothing it writes refers to them (`rows_left.py`)."""
    return named_rows_left(ctx, shapes, dict(read.counts), [write.sql for write in read.writes])


def _without_its_lines(shapes: dict[str, Shape], read: _Written) -> str:
    """A table `read` writes whose lines it does not (a visit written without the treatments and fees
    the request lists): to read once more for its lines; "" when there is none."""
    written = [table for table, _ in read.counts]
    return next((t for t in written if set(facts.children(shapes, t, shapes)) - set(written)), "")


def _sets_other_columns(ctx: Context, writes: list[facts.Write]) -> list[str]:
    """Why the write waits where it changes kept rows in columns none of which the change the model read
    sets (a hirer's words written into a hire's note, where the change read set its state): two
    readings of one request that disagree on what it changes; none where they agree or there is no such
    reading."""
    sets = {column.lower(): column for write in writes for column in write.sets}
    read = {column.lower() for column in ctx.changes_read}
    if ctx.does != "change" or not read or not sets or read & set(sets):
        return []
    return [
        f"the change was read as setting {', '.join(ctx.changes_read)}, but the values read set"
        f" {', '.join(sets.values())} instead; check it before approving"
    ]


def _adds(writes: list[facts.Write]) -> bool:
    """Whether some write only adds a row: a plain INSERT, not one that adds a row only when none is kept."""
    return any(w.sql.lstrip().upper().startswith("INSERT") and " WHERE NOT EXISTS" not in w.sql.upper() for w in writes)


READS = 2  # a first reading, and one without the tables it made rows up for or for a header's rows


def _read_again_by(shapes: dict[str, Shape], tables: frozenset[str]) -> dict[str, Shape]:
    """The tables to read a request again by: `tables` (those a reading gave rows for that were not made
    up) and the tables they name rows of; none where there are none. Offered tables it did not read, a
    small model reading again fills them in: a charge nobody made, beside a change it could not read."""
    named = {parent for name in tables for parent in parents(shapes[name])}
    return {name: shape for name, shape in shapes.items() if name in tables | named} if tables else {}


def _with_its_rows(shapes: dict[str, Shape], header: str) -> tuple[dict[str, Shape], tuple[str, ...]]:
    """The tables to read a new `header` row by: it, the tables whose rows belong to it, and the tables
    those name rows of; and the tables the reading must give rows for (the header, and its rows where one
    table holds them)."""
    children = facts.children(shapes, header, shapes)
    named = {parent for name in (header, *children) for parent in parents(shapes[name])}
    kept = {name: shape for name, shape in shapes.items() if name in {header, *children} | named}
    return kept, (header, *children) if len(children) == 1 else (header,)


@dataclass(frozen=True)
class _Written:
    writes: list[facts.Write]
    params: dict[str, object]
    counts: tuple[tuple[str, int], ...]
    unstated: tuple[str, ...]
    from_lines: tuple[str, ...]
    guessed: tuple[str, ...] = ()  # listed values a change sets that the request does not say
    doubts: tuple[str, ...] = ()  # values the model picked two ways, days read two ways, values unlike their column


@dataclass(frozen=True)
class _NotWritten:
    reason: str
    unstated: tuple[str, ...] = ()
    made_up: frozenset[str] = frozenset()  # tables every row read for was made up
    read: frozenset[str] = frozenset()  # tables the reading gave rows for
    without_rows: str = ""  # a new record's header read without the rows that belong to it


def _read(
    ctx: Context,
    shapes: dict[str, Shape],
    required: tuple[str, ...] = (),
    belongs_to: tuple[Shape, str] | None = None,
) -> Generator[Event, None, _Written | _NotWritten]:
    """One constrained call for the rows the request states, kept to what it says, and their statements;
    `required`: tables it must give a row for, read again for a header's rows. A first reading of a request
    read as adding a row to a table, with its values (`ctx.adds_to`, `ctx.new_row_read`), must give one of
    its rows: a small model otherwise fills the table beside it (a new kayak's words read as a hire of
    it). Read as adding to a table without values, it need not: lines of a kept header are read so too.
    `belongs_to`: the kept row the rows read belong to (`facts.statements`)."""
    today = dt.date.today()
    shown = shown_order(shapes)
    text = ctx.request.text
    messages = facts_messages(describe(shown), text, "" if says_a_date(text) else today.isoformat())
    wanted = required or ((ctx.adds_to,) if ctx.adds_to in shapes and ctx.new_row_read else ())
    completion = yield from ctx.calls("extract", messages, json_schema(shown, wanted), FACTS_MAX_TOKENS)
    read, was_cut = rows_read(completion.text)
    if read is None:
        return _NotWritten("the model's rows were not JSON")
    return (yield from _written(ctx, shapes, read, was_cut, required, belongs_to))


def _written(
    ctx: Context,
    shapes: dict[str, Shape],
    read: object,
    was_cut: bool = False,
    required: tuple[str, ...] = (),
    belongs_to: tuple[Shape, str] | None = None,
) -> Generator[Event, None, _Written | _NotWritten]:
    """The rows `read` (table -> rows, as the model gave them), kept to what the request says, and their
    statements; `was_cut`: the reading ran out of tokens."""
    today = dt.date.today()
    text = ctx.request.text
    cut = ("what the reading held after its last complete row (it was cut off)",) if was_cut else ()
    stored = StoredRows(ctx.session)
    read = as_nothing(shapes, filled_from_lines(shapes, read if isinstance(read, dict) else {}, text))
    read, codes = with_codes_named(shapes, read, codes_said(text, shapes, stored))  # '18' of "shelf no. 18"
    read = facts.with_codes_said(shapes, read, text, stored)
    said, unsure, chosen = yield from listed_values(ctx, shapes, read, today)
    said |= codes
    try:
        # a day in figures ordered before a length counts from it ("05/06/2025 ..., for 14 days"), and after
        read, first_doubts = _days_in_order(shapes, read, text, stored)
        read, two_ways = _days_in_order(shapes, _dates_as_said(shapes, read, text, today), text, stored)
        two_ways = list(dict.fromkeys([*first_doubts, *two_ways]))
        kept = as_changes(shapes, read, text, stored)
        uncopied, copies = without_copies(shapes, kept.rows, text, stored)
    except facts.NotExpressible as reason:
        return _NotWritten(str(reason))
    picks = {(s.table, f.name): f.required for s in shapes.values() for f in s.fields if f.allowed}
    changes = kept.changes | {
        (table, index)
        for table, listed in uncopied.items()
        if table in shapes
        for index, row in enumerate(listed)
        if facts.lacks(shapes, table, row)
    }
    optional = {(s.table, f.name) for s in shapes.values() for f in s.fields if not f.required}
    naming = {(s.table, f.name) for s in shapes.values() for f in s.fields if f.column in s.unique}
    stated = stated_only(uncopied, text, today, picks, changes, said, optional, kept.changes, naming)
    became = _now_changes(shapes, stated, changes, stored, text)
    if became:  # rows that, without what the request does not say, change a kept row: read as changes
        stated = stated_only(uncopied, text, today, picks, changes | became, said, optional, kept.changes, naming)
    named = rows_named(ctx, shapes)
    rows, unstated = _without_made_up_rows(shapes, stated, kept.changes, stored, text, named)
    # '5' of "5 days": the costume named; a kayak's code copied from the rows shown: the kayak described
    rows = named_for_what_names_nothing(shapes, rows, named, stored, text, today)
    unstated = (*kept.left_out, *copies, *unstated)
    made_up = frozenset(table for table, listed in stated.rows.items() if listed and not rows.get(table))
    gave = frozenset(table for table, listed in stated.rows.items() if listed and table in shapes)
    agreement = agreed(shapes, rows, text)
    unstated += tuple(agreement.unlabelled) + cut
    set_aside: list[str] = []
    try:
        rows = one_row_per_item(shapes, rows, text, stored, today)
        writes, params = facts.statements(shapes, rows, stored, set_aside, text, bool(required), named, belongs_to)
    except WithoutItsRows as reason:
        again = reason.table if not required else ""  # a header read for its rows is read once only
        return _NotWritten(str(reason), unstated, made_up & set(shapes), gave, again)
    except facts.NotExpressible as reason:
        return _NotWritten(str(reason), unstated, made_up & set(shapes), gave)
    values_written = [*params.values(), *(value for write in writes for value in sql_values(write.sql))]
    picked, days_doubted = yield from day_picked(ctx, shapes, rows, values_written)  # set on 30 April for 6 May
    if picked is not rows:  # the day picked, written instead
        try:
            writes, params = facts.statements(shapes, picked, stored, [], text, bool(required), named, belongs_to)
            rows = picked
        except (WithoutItsRows, facts.NotExpressible):
            days_doubted = ["the day picked for a new row could not be written; check the day before approving"]
    counts = tuple((table, len(listed)) for table, listed in rows.items() if listed)
    written = {table for table, _ in counts}
    guessed = tuple(g for g in stated.guessed if g.split(".")[0] in written)
    asked = yield from entries_asked_again(ctx, shapes, rows, chosen)
    unnamed = yield from references_given(ctx, unnamed_references(shapes, rows, text, stored, named, today))
    picked_two_ways = [doubt.why for doubt in unsure if doubt.holds_in(rows)]  # not of a value left out
    doubts = (*two_ways, *picked_two_ways, *days_doubted, *asked, *unlike_their_column(shapes, rows, stored), *unnamed)
    return _Written(writes, params, counts, (*unstated, *set_aside), tuple(agreement.set_from_lines), guessed, doubts)


def _now_changes(
    shapes: dict[str, Shape], stated: Stated, changes: set[tuple[str, int]], stored: StoredRows, text: str
) -> set[tuple[str, int]]:
    """The (table, index) of rows not read as changes that, kept to what the request says, lack what a new
    row needs and name a kept row by all their values but one: changes; but for a row lacking only its day
    that, dated the one day the request gives, names none (a second survey of a boat, its first kept on
    another day). A listed value such a row was given because a new row needs one is no value the
    request sets (a room for a kept appointment)."""
    return {
        (table, index)
        for table, listed in stated.rows.items()
        if table in shapes
        for index, row in enumerate(listed)
        if (table, index) not in changes
        and facts.lacks(shapes, table, row)
        and _changes_a_kept_row(shapes, table, row, stored, text)
    }


def _changes_a_kept_row(shapes: dict[str, Shape], table: str, row: dict, stored: StoredRows, text: str) -> bool:
    """Whether `row` names a kept row by all its values but one (`facts.changes_a_kept_row`), and still does
    dated the one day the request gives where it lacks only its day (`undated.py`): a second survey of a
    boat, its first kept on another day, is a new row."""
    dated = dated_the_one_day(shapes, table, row, text, stored) or row
    return facts.changes_a_kept_row(shapes, table, row, stored) and facts.changes_a_kept_row(
        shapes, table, dated, stored
    )


def rows_read(text: str) -> tuple[object | None, bool]:
    """The reading's JSON, and whether it was cut off (a reading that ran out of tokens): then its complete
    rows.

    >>> rows_read('{"runs": [{"fee": 3}, {"fee": 4}], "stops": [{"code": "E1"}, {"co')
    ({'runs': [{'fee': 3}, {'fee': 4}], 'stops': [{'code': 'E1'}]}, True)
    >>> rows_read("not json")
    (None, True)
    """
    try:
        return json.loads(text), False
    except json.JSONDecodeError:
        pass
    ends = [i for i, c in enumerate(text) if c == "}"][::-1][:MAX_CUTS]
    for end in ends:
        kept = text[: end + 1]
        try:
            return json.loads(kept + _closing(kept)), True
        except json.JSONDecodeError:
            continue
    return None, True


MAX_CUTS = 40


def _closing(text: str) -> str:
    """The brackets that close what `text` leaves open (outside strings)."""
    stack, quoted, escaped = [], False, False
    for c in text:
        if quoted:
            escaped, quoted = (not escaped and c == "\\"), quoted and (escaped or c != '"')
        elif c == '"':
            quoted = True
        elif c in "[{":
            stack.append("]" if c == "[" else "}")
        elif c in "]}" and stack:
            stack.pop()
    return "".join(reversed(stack))


def _dates_as_said(shapes: dict[str, Shape], read: dict, text: str, today: dt.date) -> dict[str, object]:
    """The reading, with the dates it gives as a length of time from another counted by code (`lengths.py`),
    its moments on the day the request says with their time of day, and a day said once in one date field
    of a row, not several (`moments.py`)."""
    return each_row(
        shapes,
        read,
        lambda shape, row: one_day_once(
            shape, timed_as_said(shape, dated_by_length(shape, row, text, today), text), text
        ),
    )


def _days_in_order(
    shapes: dict[str, Shape], read: dict[str, object], text: str, stored: StoredRows
) -> tuple[dict[str, object], list[str]]:
    """The reading, with each day the request gives in figures that read two ways ("09/03/2024") as
    `day_order.ordered_day` settles it; and, for those it does not settle, why the write waits."""
    doubts: list[str] = []
    if not SLASHED.search(text):
        return read, doubts

    def ordered(shape: Shape, row: dict) -> dict:
        row = dict(row)
        for field in shape.fields:
            value = row.get(field.name)
            if field.reference is not None or not field.type.upper().startswith(("DATE", "TIMESTAMP")):
                continue
            if (day := leading_day(value)) is None:
                continue
            settled, doubt = ordered_day(text, day, stored.span(shape.table, field.column))
            row[field.name] = settled.isoformat() + str(value).strip()[10:]
            if doubt:
                doubts.append(f"{shape.table}.{field.column}: {doubt}")
        return row

    return each_row(shapes, read, ordered), doubts


def _dated_the_day_said(
    shapes: dict[str, Shape], table: str, row: dict, read: dict[str, list], text: str, stored: StoredRows, new: bool
) -> dict:
    """`row`, where it belongs to a row read beside it (a line of it) or is `new` (a row that changes no
    kept row), and lacks only dates, with them set to the one day `text` gives (`undated.py`)."""
    belongs = any(f.reference is not None and read.get(f.reference.table) for f in shapes[table].required_references)
    if not belongs and not new:
        return row
    return dated_the_one_day(shapes, table, row, text, stored) or row


def _without_made_up_rows(
    shapes: dict[str, Shape],
    stated: Stated,
    named: set[tuple[str, int]],
    stored: StoredRows,
    text: str,
    kept_named: list[NamedRow],
) -> tuple[dict[str, list], tuple[str, ...]]:
    """The rows read, less those that lost a value the request does not say and so lack one their table
    needs (a hay price change the model made up beside an order), and those of which the request says
    nothing (a tail of the listed colour beside a new kite), but for those that name a kept row
    (`named`, or by all their values but one: changes to it) and those other rows read belong to; and what
    was left out, for the user. A new row (one that changes no kept row) lacking references is given the one
    kept row of each that the request names (`kept_named`, `named_reference.py`); a new row, or one that
    belongs to a row read beside it, that lacks only dates is dated the one day the request gives (a charge
    made on the day of the change)."""
    rows: dict[str, list] = {}
    dropped = []
    for table, listed in stated.rows.items():
        rows[table] = []
        owns_rows = table in shapes and bool(facts.children(shapes, table, stated.rows))
        for index, given in enumerate(listed):
            made_up = table in shapes and (table, index) not in named
            lacking = made_up and bool(facts.lacks(shapes, table, given))  # what the two fill-ins act on
            new = lacking and not _changes_a_kept_row(shapes, table, given, stored, text)
            if new:
                given = referring_to_the_one_named(shapes, table, given, kept_named) or given
            row = (
                _dated_the_day_said(shapes, table, given, stated.rows, text, stored, new) if table in shapes else given
            )
            if made_up and not owns_rows and (table, index) in stated.unsaid:
                dropped.append(f"a {table} row the request says nothing of")
            elif (
                made_up
                and (table, index) in stated.trimmed
                and facts.lacks(shapes, table, row)
                and not facts.may_fill_in(shapes[table], row)
                and not facts.changes_a_kept_row(shapes, table, row, stored)
            ):
                dropped.append(f"a {table} row")
            else:
                rows[table].append(row)
    return rows, (*stated.left_out, *dropped)
