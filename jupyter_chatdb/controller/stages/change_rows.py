"""A write read for what it does to rows (`recording/row_changes.py`): one short constrained call says
whether it adds rows, changes rows it names or removes them. A change or removal is written by code as
an UPDATE or DELETE of rows that exist; rows it cannot find are left to the reading of the rows the request
states (`write_from_facts`), whose plain new rows a change refuses, and to the plan, whose new rows wait for
approval: a change never writes new rows unseen. A value the
request does not give makes the write wait for approval, saying why. What adds rows goes on to be read
as the rows it states (`write_from_facts`). A request that names no kept row (no stored text value, no
number an integer column holds) can change none: the data settles it without the call."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator

from ...recording.reading_errors import NotExpressible
from ...recording.resolve import StoredRows
from ...recording.row_changes import Unanswerable, change_messages, change_schema, change_write, parse_reading
from ...recording.scope import in_scope
from ...recording.shapes import Shape, shapes_of
from ...sql.names import quote_identifier, quote_table
from ...sql.rules import derived_columns
from ..context import Context
from ..events import ChangeRead, Event, FactsNotUsed
from ..kinds import Route
from ..planned_steps import PlannedStep
from ..stage import stage
from .ground_values import mentioned

CHANGE_MAX_TOKENS = 200
DIGITS = re.compile(r"(?<![\w.])\d{1,9}(?![\w.])")


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
    if not shapes or not _names_a_kept_row(ctx, shapes):
        return
    text = ctx.request.text
    completion = yield from ctx.calls("change", change_messages(shapes, text), change_schema(shapes), CHANGE_MAX_TOKENS)
    try:
        reading = parse_reading(json.loads(completion.text))
    except json.JSONDecodeError:
        reading = None
    if reading is None or reading.does == "add":
        return
    ctx.does = reading.does
    try:
        write = change_write(reading, shapes, StoredRows(ctx.session), text, dt.date.today())
    except Unanswerable as question:  # the rows as the model named them: the reading of rows, or the plan, may
        yield ChangeRead(reading.does, reading.table)  # find them; new rows they add wait (`finish`)
        yield FactsNotUsed(str(question))
        return
    except NotExpressible as error:
        yield ChangeRead(reading.does, reading.table)
        yield FactsNotUsed(f"the {reading.does} is not code's to write ({error})")
        return
    ctx.steps = [PlannedStep(write.goal, write.sql)]
    ctx.params.update(write.params)
    ctx.held += [f"{doubt}; check it before approving" for doubt in write.doubts]
    yield ChangeRead(reading.does, reading.table, write.sql, tuple(write.doubts))


def _names_a_kept_row(ctx: Context, shapes: dict[str, Shape]) -> bool:
    """Whether the request names a row kept in one of the tables: a stored text value, or a number an
    integer column of one holds ("entry 4")."""
    if mentioned(ctx, list(shapes)):
        return True
    numbers: list[object] = [int(word) for word in DIGITS.findall(ctx.request.text)[:20]]
    if not numbers:
        return False
    listed = ", ".join("?" * len(numbers))
    for shape in shapes.values():
        table = ctx.catalog.tables.get(shape.table)
        integers = [c.name for c in table.columns if "INT" in c.type.upper()] if table is not None else []
        if not integers:
            continue
        held = " OR ".join(f"{quote_identifier(column)} IN ({listed})" for column in integers)
        if ctx.session.rows(
            f"SELECT 1 FROM {quote_table(shape.table)} WHERE {held} LIMIT 1", [*numbers] * len(integers)
        ):
            return True
    return False
