"""Second questions about a change the model read (`read_change`): where one reading is easily mistaken
for another on the same rows, or code cannot write the first, the model picks among readings shown with
the kept row, in one short constrained call (`recording/change_choices.py` makes the options). Each pick
is a `Reading`, written and checked as any reading is."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from functools import partial

from ...errors import ModelUnavailable
from ...language.words import words
from ...recording.change_choices import (
    CHOICE_MAX_TOKENS,
    MAX_OPTIONS,
    Closeness,
    Option,
    choice_messages,
    choice_schema,
    chosen,
    column_options,
    confirming_options,
    copy_options,
    emptying_options,
    entries_not_held,
    kept_row_options,
    number_options,
    options_for,
    promoted_options,
    referring_options,
    state_options,
    thing_options,
)
from ...recording.described import described_among
from ...recording.named_rows import NamedRow
from ...recording.picks import entry_said
from ...recording.reading_errors import NotExpressible
from ...recording.related import reachable
from ...recording.resolve import StoredRows
from ...recording.row_changes import (
    ChangeWrite,
    NotBorneOut,
    Pick,
    Reading,
    Setting,
    Unanswerable,
    change_write,
)
from ...recording.shapes import Shape, json_type, shape_named
from ...sql.catalog import TEXT_TYPES
from ...sql.names import quote_identifier, quote_table
from ..context import Context
from ..events import Event

_CANNOT = (NotBorneOut, Unanswerable, NotExpressible)


def asked_again(
    ctx: Context, write: ChangeWrite, shapes: dict[str, Shape], named: Sequence[NamedRow], set_nothing: bool = False
) -> Generator[Event, None, tuple[ChangeWrite, str]]:
    """The write, or the one the model picks among the readings easily mistaken for it on the same rows
    (a removal or a state, a listed value for words none of the list, a number for another number
    column, or, where the model set nothing, a state beside the new values found among its names), with
    the option picked where it differs."""
    shape = shapes[write.reading.table]
    stored = StoredRows(ctx.session)
    row = stored.one_row(shape.table, write.where, write.params)
    if row is not None and (others := entries_not_held(write.reading, shape, row)):
        return (yield from _another_entry(ctx, write, shape, row, others, shapes, named))
    closeness = _closeness(ctx)
    listed = options_for(write.reading, shape, row, closeness)
    # an entry for words none of the list is picked each way round: a small model leans to the first shown
    each_way = write.reading.does == "change" and len(listed) >= 2
    options = (
        listed or thing_options(write.reading, shape, shapes) or column_options(write.reading, shape, ctx.request.text)
    )
    guessed = not options and set_nothing  # a state beside values found among the names: a guess if picked
    if guessed:
        options = promoted_options(write.reading, shape, row)
    confirming = len(options) < 2
    if confirming and write.doubts:  # it waits already: a second question would not make it surer
        return write, ""
    if confirming:
        options = confirming_options(write.reading, shape, ctx.request.text)
    options = [o for o in options if row is None or not _holds_already(o.reading, row)]
    if len(options) < 2:
        return write, ""
    picked = yield from _picked(ctx, shape, row, options)
    if picked is None or picked.reading == write.reading:
        return write, ""
    if confirming and picked.reading.does == "remove":  # a state read, then a removal: the user says which
        removal = _written(ctx, picked, shapes, named)
        setting = next(s for s in write.reading.settings if s not in picked.reading.settings)
        doubt = f"read as setting {setting.column} to '{setting.value}', then as removing the row"
        shown = removal[0] if removal is not None else write
        return replace(shown, doubts=[*shown.doubts, doubt]), ""
    if confirming and len(picked.reading.settings) == len(write.reading.settings):
        # an entry the request does not say, read two ways: left as it is where the request says the rest
        # the write sets, else the user says which
        first, then = next(
            (a, b) for a, b in zip(write.reading.settings, picked.reading.settings, strict=True) if a != b
        )
        text = ctx.request.text
        if first.column == then.column and entry_said(then.value, text) and not entry_said(first.value, text):
            # "the kite is mended and ready", read as 'collected', then as 'ready': the entry it says
            if (said := _written(ctx, picked, shapes, named)) is not None and not said[0].doubts:
                return said
        doubt = f"the request does not say which {first.column}: read as '{first.value}', then as '{then.value}'"
        rest = tuple(s for s in write.reading.settings if s != first)
        narrower = _written(ctx, Option("", replace(write.reading, settings=rest)), shapes, named) if rest else None
        if narrower is not None and not narrower[0].doubts:  # the rest, which the request says, is written
            return replace(narrower[0], goal=f"{narrower[0].goal}; {first.column} left as it is: {doubt}"), ""
        return replace(write, doubts=[*write.doubts, doubt]), ""
    again = _written(ctx, picked, shapes, named)
    if each_way and again is not None and (doubt := (yield from _other_way_round(ctx, shape, row, options, picked))):
        return replace(again[0], doubts=[*again[0].doubts, doubt]), ""
    if each_way and again is not None and closeness is not None:
        if nearer := _nearer_in_meaning(write.reading, picked, options, closeness):
            # "being stitched now" read as 'collected' both ways round, where 'sewn' is nearer: the user says
            doubt = f"read as: {picked.text} each way round, though nearer in meaning: {' | '.join(nearer)}"
            return replace(again[0], doubts=[*again[0].doubts, doubt]), ""
    if again is not None and picked.reading.does == "remove" and write.reading.does == "change":
        # a state none of the list, read as the row's end ("called off"): removed once the user approves
        read = ", ".join(f"{s.column} to '{s.value}'" for s in write.reading.settings)
        doubt = f"read as setting {read}, which is none of its entries, then as removing the row"
        return replace(again[0], doubts=[*again[0].doubts, doubt]), again[1]
    if guessed:  # a state the model picked where its reading set none
        again = _with_unsaid_entries(again, shape, ctx.request.text)
    return again if again is not None else (write, "")  # one that cannot be written: the first reading stands


def _another_entry(
    ctx: Context,
    write: ChangeWrite,
    shape: Shape,
    row: dict[str, object],
    others: Sequence[Option],
    shapes: dict[str, Shape],
    named: Sequence[NamedRow],
) -> Generator[Event, None, tuple[ChangeWrite, str]]:
    """For a change setting one CHECK-listed column of its one kept row to the entry it holds already (a
    state read as the one the row is in: "picked up" for a kite that is 'ready'): the other entry the
    model picks, asked twice, the entries each way round. The same pick both times is the reading,
    written and checked as any; else the write waits as it is, showing both picks."""
    first = yield from _picked(ctx, shape, row, others)
    again = yield from _picked(ctx, shape, row, others[::-1])
    if first is None or again != first:
        then = again.text if again is not None else "none"
        picks = f"read again as {first.text if first is not None else 'none'}, then as {then}"
        return replace(write, doubts=[*write.doubts, picks]), ""
    written = _written(ctx, first, shapes, named)
    return written if written is not None else (write, "")


def a_described_row_instead(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> Generator[Event, None, tuple[ChangeWrite, str] | None]:
    """For a change whose row is named by a reference no row answers to ("the quote for Dov Lee's box
    bike", the bike read as 'box bike'), where the request describes several rows of the referenced table
    by the row they refer to (Dov Lee's two bikes, `described_among`): the one the model picks among them,
    asked twice, the rows in their order and the other way round; a different pick the second time makes
    the write wait, showing both. None where there is nothing to pick, or the pick cannot be written."""
    shape = shapes.get(reading.table)
    if shape is None or reading.does not in ("change", "remove"):
        return None
    stored = StoredRows(ctx.session)
    for pick in reading.which:
        field_ = shape.field(pick.column)
        reference = field_.reference if field_ is not None else None
        target = shape_named(shapes, reference.table) if reference is not None and reference.name else None
        if reference is None or target is None:
            continue
        if stored.find(reference.table, reference.labels or (reference.name,), pick.value, reference.key) is not None:
            continue  # a row answers to it
        rows = described_among(target, ctx.request.text, stored, MAX_OPTIONS)
        options = [
            Option(
                _described_row(target, row),
                replace(
                    reading,
                    which=tuple(Pick(p.column, str(row[reference.name])) if p == pick else p for p in reading.which),
                ),
            )
            for row in rows
        ]
        if len(options) < 2:
            continue
        first = yield from _picked(ctx, target, None, options)
        again = yield from _picked(ctx, target, None, options[::-1])
        if first is None:
            return None
        written = _written(ctx, first, shapes, named)
        if written is None or again == first:
            return written
        then = again.text if again is not None else "none"
        doubt = f"the request does not say which {target.table} row: read as {first.text}, then as {then}"
        return replace(written[0], doubts=[*written[0].doubts, doubt]), written[1]
    return None


def _described_row(shape: Shape, row: Mapping[str, object]) -> str:
    """A row as an option: its naming columns and listed entries ("SG-050, gilded")."""
    return ", ".join(str(row[c]) for c in shape.telling if row.get(c) is not None)


def _holds_already(reading: Reading, row: Mapping[str, object]) -> bool:
    """Whether the kept row already holds every value `reading` sets: no change, so no option."""
    return bool(reading.settings) and all(s.how == "to" and str(row.get(s.column)) == s.value for s in reading.settings)


def a_copy_instead(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> Generator[Event, None, tuple[ChangeWrite, str] | None]:
    """For a change code cannot write whose one value names another kept row of its table (a bed moved
    "to the plot of B-5"), or that is read from another kept row of it into a column that cannot hold
    what it has (a bed moved "to the same plot as B-5" read as B-5's day, empty), the column the model picks to copy
    from that row (`copy_options`), with the option picked; None where it names no other row or the
    pick cannot be written."""
    shape = shapes.get(reading.table)
    if shape is None or reading.does != "change" or len(reading.settings) != 1:
        return None
    stored = StoredRows(ctx.session)
    setting = reading.settings[0]
    said = dict.fromkeys(v for v in (setting.value, *(p.value for p in setting.source)) if v)
    found = [
        (c, value)
        for value in said
        for c in shape.naming
        if stored.named_exactly(shape.table, (c,), value, c) is not None
    ]
    if len({value for _, value in found}) != 1:
        return None
    column, value = found[0]
    if any(p.value == value for p in reading.which):
        return None
    options = copy_options(reading, shape, Pick(column, value))
    row = _the_one_row(ctx, options[0].reading, shapes, named) if len(options) >= 2 else None
    if row is None:
        return None
    picked = yield from _picked(ctx, shape, row, options)
    return _written(ctx, picked, shapes, named) if picked is not None else None


def a_copy_from_the_other_named(
    ctx: Context, write: ChangeWrite, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> Generator[Event, None, tuple[ChangeWrite, str] | None]:
    """For a doubtful change setting one column of one kept row ("ring Bo Lund's number from now on, they
    share a phone" read with the record's day for the phone), where the request names one other kept row
    of the same table: the reading as read, or that column copied from that row, as the model picks; None
    where it keeps its reading or there is nothing to ask."""
    reading = write.reading
    shape = shapes.get(reading.table)
    if shape is None or reading.does != "change" or len(reading.settings) != 1 or reading.settings[0].how != "to":
        return None
    field_ = shape.field(reading.settings[0].column)
    if (
        field_ is None
        or field_.reference is not None
        or field_.allowed
        or not field_.type.upper().startswith(TEXT_TYPES)
    ):
        return None  # a plain text (a phone, a shelf): a day, a number or an entry is read for itself
    stored = StoredRows(ctx.session)
    own = {p.value.lower() for p in reading.which}
    others = {  # kept rows of the table named by a value one row holds, other than the one changed
        (n.column, str(n.value))
        for n in named
        if n.table.lower() in (reading.table.lower(), shape.table.lower())
        and str(n.value).lower() not in own
        and stored.named_exactly(shape.table, (n.column,), n.value, n.column) is not None
    }
    row = stored.one_row(shape.table, write.where, write.params)
    setting = reading.settings[0]
    if len(others) != 1 or row is None or any(v.lower() in setting.value.lower() for _, v in others):
        return None  # a value naming the other row is read as its copy already (`row_changes`)
    column, value = others.pop()
    copied = replace(reading, settings=(Setting(setting.column, "copy", source=(Pick(column, value),)),))
    options = [
        Option(f"set {setting.column} to '{setting.value}'", reading),
        Option(f"copy {setting.column} from {value}", copied),
    ]
    picked = yield from _picked(ctx, shape, row, options)
    if picked is None or picked.reading == reading:
        return None
    return _written(ctx, picked, shapes, named)


def a_state_instead(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> Generator[Event, None, tuple[ChangeWrite, str] | None]:
    """For a change of one kept row that sets no column its table has ("the order of 15 May is
    gift-wrapped"), the state the model picks among the table's CHECK-listed entries (`state_options`)
    and those the request says of the one table referring to it (`referring_options`: "Ria's dinghy is
    out"), or a number the request gives put to one of its number columns (`number_options`: "add to
    attendance: 3"), with the option picked; None where it leaves the row as it is, or there is nothing to pick."""
    shape = shapes.get(reading.table)
    if shape is None or reading.does != "change" or any(shape.field(s.column) for s in reading.settings):
        return None
    which = tuple(p for p in reading.which if reachable(shapes, reading.table, p.column))
    bare = Reading("change", reading.table, which, ())
    emptying = emptying_options(bare, shape, shapes, ctx.request.text)
    referring = [*referring_options(bare, shape, shapes, ctx.request.text), *emptying]
    # the row is found by a change of a column the reading does not name it by ("Ada's dinghy": not its kind)
    free = [
        f for f in shape.fields if f.reference is None and f.column.lower() not in {p.column.lower() for p in which}
    ]
    listed = next((f for f in free if f.allowed), None)
    emptied = next((f for f in free if f.nullable), None)
    numbers = number_options(bare, shape, ctx.request.text, partial(_names_a_kept_row, ctx, shape))
    if listed is not None:
        probe = Setting(listed.column, "to", listed.allowed[0])
    elif numbers:
        probe = numbers[0].reading.settings[0]
    elif emptied is not None and referring:
        probe = Setting(emptied.column, "clear")
    else:
        return None
    row = _the_one_row(ctx, replace(bare, settings=(probe,)), shapes, named)
    if row is None:
        return None
    own = state_options(bare, shape, row) if listed is not None else []  # leaving it first, then its states
    leave = own[:1] or [Option(f"leave the {shape.table} row as it is", bare)]
    said = [*referring, *numbers]
    options = [*leave, *said, *own[1:]][:MAX_OPTIONS] if said or own else []  # said ones first
    if len(options) < 2:
        return None
    picked = yield from _picked(ctx, shape, row, options)
    if picked is None or picked.reading == bare:
        return None
    written = _written(ctx, picked, shapes, named)
    if picked in (*emptying, *numbers) and written is not None:
        # a value of another row emptied, or a number put to a column: asked each way round
        if doubt := (yield from _other_way_round(ctx, shape, row, options, picked)):
            return replace(written[0], doubts=[*written[0].doubts, doubt]), written[1]
    return _with_unsaid_entries(written, shapes[picked.reading.table], ctx.request.text)


def _names_a_kept_row(ctx: Context, shape: Shape, said: str, naming: set[str]) -> bool:
    """Whether a whole number the request gives is held by a kept row of the table in one of the `naming`
    columns (lowered: its keys, or one the reading names the row by): another row named, no amount."""
    if not said.isdigit():
        return False
    integers = [f.column for f in shape.fields if f.column.lower() in naming and json_type(f) == "integer"]
    return any(
        ctx.session.rows(
            f"SELECT 1 FROM {quote_table(shape.table)} WHERE {quote_identifier(c)} = ? LIMIT 1", [int(said)]
        )
        for c in integers
    )


def a_kept_row_instead(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> Generator[Event, None, tuple[ChangeWrite, str] | None]:
    """For a removal of a kept row that other rows refer to, what the model picks among keeping it, clearing
    one of its values whose column the request names, or setting a state the request says
    (`kept_row_options`: "mooring given up, delete it" clears the boat's mooring), with the option picked; None
    where it keeps the row, or there is nothing to pick."""
    shape = shapes.get(reading.table)
    if shape is None or reading.does != "remove":
        return None
    probe = next((f for f in shape.fields if f.nullable and f.reference is None), None)
    if probe is None:
        return None
    row = _the_one_row(
        ctx, Reading("change", reading.table, reading.which, (Setting(probe.column, "clear"),)), shapes, named
    )
    options = kept_row_options(reading, shape, row, ctx.request.text) if row is not None else []
    if len(options) < 2:
        return None
    picked = yield from _picked(ctx, shape, row, options)
    if picked is None or picked.reading == reading:
        return None
    return _written(ctx, picked, shapes, named)


def _with_unsaid_entries(
    written: tuple[ChangeWrite, str] | None, shape: Shape, text: str
) -> tuple[ChangeWrite, str] | None:
    """The written pick, doubtful for each listed entry it sets that the request does not say in words: a
    state the model picked where its reading set none is a guess, so the write waits, showing it."""
    if written is None:
        return None
    write, picked = written
    unsaid = [
        f"{s.column}: '{s.value}' was picked among its entries, and the request does not say it"
        for s in write.reading.settings
        if s.how == "to" and (f := shape.field(s.column)) is not None and f.allowed and not entry_said(s.value, text)
    ]
    return (replace(write, doubts=[*write.doubts, *unsaid]), picked) if unsaid else written


MEANING_RANK = 2  # an entry picked for words none of the list is among those this close in meaning to them


def _nearer_in_meaning(read: Reading, picked: Option, options: Sequence[Option], closeness: Closeness) -> list[str]:
    """The options setting an entry nearer in meaning to the words read than the one picked, where the one
    picked is not among the `MEANING_RANK` nearest (a small model agreeing with itself on an entry far
    from the words); none where the embedder tells nothing apart, or the pick is no entry for them."""
    said = {s.column: s.value for s in read.settings}
    changed = [s for s in picked.reading.settings if s.column in said and s.value != said[s.column]]
    if picked.reading.does != "change" or len(changed) != 1:
        return []
    column = changed[0].column
    entries = [
        (o, s.value)
        for o in options
        if o.reading.does == "change"
        for s in o.reading.settings
        if s.column == column and s.value != said[column]
    ]
    scores = closeness(said[column], [words(entry) for _, entry in entries])
    if len(entries) <= MEANING_RANK or max(scores) - min(scores) < 1e-9:
        return []
    ranked = sorted(range(len(entries)), key=lambda i: -scores[i])
    nearest = [entries[i][0] for i in ranked[:MEANING_RANK]]
    return [] if picked in nearest else [o.text for o in nearest]


def a_referred_row_instead(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> Generator[Event, None, tuple[ChangeWrite, str] | None]:
    """For a number added to or taken off rows named only by the one kept row of another table they refer
    to, where no such rows are kept ("PK-7 packets | +30" read as the order lines of packet PK-7, none of
    which is kept): the same number added to or taken off a number column of that row itself (`thing_options`),
    as the model picks it each way round. Two picks that differ leave the first waiting, showing both;
    None where the request names any other kept row (new rows of it, then), the row has fewer than two
    number columns to pick among, or the pick cannot be written."""
    shape = shapes.get(reading.table)
    options = thing_options(reading, shape, shapes)[1:] if shape is not None else []  # not the rows none kept
    if len(options) < 2:  # one option is no question: the model would pick it whatever the request says
        return None
    other = shapes[options[0].reading.table]
    if any(n.table.lower() not in (options[0].reading.table.lower(), other.table.lower()) for n in named):
        return None  # it names another kept row too (a customer, an order): new rows, not a count of the row
    row = _the_one_row(ctx, options[0].reading, shapes, named)
    if row is None:
        return None
    picked = yield from _picked(ctx, other, row, options)
    written = _written(ctx, picked, shapes, named) if picked is not None else None
    if picked is None or written is None:
        return None
    if doubt := (yield from _other_way_round(ctx, other, row, options, picked)):
        return replace(written[0], doubts=[*written[0].doubts, doubt]), written[1]
    return written


def _the_one_row(
    ctx: Context, reading: Reading, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> dict[str, object] | None:
    """The one kept row `reading` names, as kept; None where it names none or several, or cannot be read."""
    stored = StoredRows(ctx.session)
    try:
        probe = change_write(reading, shapes, stored, ctx.request.text, dt.date.today(), named)
    except _CANNOT:
        return None
    return stored.one_row(shapes[reading.table].table, probe.where, probe.params)


def _picked(
    ctx: Context, shape: Shape, row: dict[str, object] | None, options: Sequence[Option]
) -> Generator[Event, None, Option | None]:
    """The option the model picks, shown the request and the kept row; None where its reply names none."""
    messages = choice_messages(ctx.request.text, shape, row, options)
    completion = yield from ctx.calls("choice", messages, choice_schema(options), CHOICE_MAX_TOKENS)
    try:
        return chosen(json.loads(completion.text), options)
    except json.JSONDecodeError:
        return None


def _other_way_round(
    ctx: Context, shape: Shape, row: dict[str, object] | None, options: Sequence[Option], picked: Option
) -> Generator[Event, None, str]:
    """The model asked again with `options` the other way round (a small model leans to the first shown):
    "" where it picks `picked` again, else the doubt showing both picks."""
    again = yield from _picked(ctx, shape, row, options[::-1])
    return "" if again == picked else f"read as: {picked.text}, then as: {again.text if again is not None else 'none'}"


def _written(
    ctx: Context, picked: Option, shapes: dict[str, Shape], named: Sequence[NamedRow]
) -> tuple[ChangeWrite, str] | None:
    """The picked reading written, with the option's words; None where it cannot be."""
    try:
        write = change_write(picked.reading, shapes, StoredRows(ctx.session), ctx.request.text, dt.date.today(), named)
    except _CANNOT:
        return None
    return write, picked.text


def _closeness(ctx: Context) -> Closeness | None:
    """How close in meaning words are to each of several texts, by the session's embedder; None without one.
    An embedder that cannot be loaded tells nothing: every text is as close as the others."""
    embedder = ctx.services.values.embedder
    if embedder is None:
        return None

    def closeness(said: str, texts: Sequence[str]) -> list[float]:
        try:
            vectors = embedder.embed([said, *texts])
        except ModelUnavailable:
            return [0.0] * len(texts)
        return [float(vector @ vectors[0]) for vector in vectors[1:]]

    return closeness
