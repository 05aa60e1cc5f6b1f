"""The state of a kept row that new rows were written under, as the record leaves it (`recording/kept_state.py`):
a short constrained call per such row whose table lists states, asked again the other way round where it
picks a state, and an UPDATE of the one row where both pick the same state other than its own."""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping, Sequence

from ...recording.change_choices import Option, chosen
from ...recording.changes import Write
from ...recording.kept_state import CHOICE_MAX_TOKENS, state_question, states_offered
from ...recording.resolve import StoredRows
from ...recording.shapes import Shape
from ...sql.names import quote_identifier, quote_table
from ..context import Context
from ..events import Event
from ..planned_steps import PlannedStep


def states_after(
    ctx: Context, shapes: Mapping[str, Shape], writes: Sequence[Write]
) -> Generator[Event, None, list[PlannedStep]]:
    """The steps setting the state the model picks for each kept row `writes` find to write rows under (none
    where it leaves the row as it is, the table lists no states, or the writes set values of its rows)."""
    steps: list[PlannedStep] = []
    stored = StoredRows(ctx.session)
    changed = {c.split(".")[0].lower() for w in writes for c in w.sets}  # tables whose kept rows it sets already
    for write in writes:
        table, where = write.finds
        name = next((n for n, s in shapes.items() if table and s.table == table), None)
        if name is None or not write.binds or table.lower() in changed:
            continue
        shape = shapes[name]
        row = stored.one_row(table, where, ctx.params)
        options = states_offered(name, shape, row) if row is not None else []
        if row is None or not options:
            continue
        first = yield from _picked(ctx, shape, row, options)
        if first is None or not first.reading.settings:
            continue  # left as it is
        again = yield from _picked(ctx, shape, row, options[::-1])
        if again != first:
            continue  # picked one way round only
        setting = first.reading.settings[0]
        parameter = f"state{len(steps) + 1}"
        ctx.params[parameter] = setting.value
        column, key = quote_identifier(setting.column), quote_identifier(shape.returned_key)
        steps.append(
            PlannedStep(
                f"set {setting.column} to '{setting.value}' on the {table} row the rows belong to",
                f"UPDATE {quote_table(table)} SET {column} = ${parameter} WHERE {key} = ${write.binds[0]}",
            )
        )
    return steps


def _picked(
    ctx: Context, shape: Shape, row: Mapping[str, object], options: Sequence[Option]
) -> Generator[Event, None, Option | None]:
    """The option the model picks for the kept row; None where its reply names none."""
    messages, schema = state_question(ctx.request.text, shape, row, options)
    completion = yield from ctx.calls("state", messages, schema, CHOICE_MAX_TOKENS)
    try:
        return chosen(json.loads(completion.text), options)
    except json.JSONDecodeError:
        return None
