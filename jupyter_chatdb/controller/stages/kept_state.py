"""The state of a kept row that new rows were written under, as the record leaves it (`recording/kept_state.py`):
one short constrained call per such row whose table lists states, and an UPDATE of the one row where the
model picks a state other than its own."""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping, Sequence

from ...recording.change_choices import chosen
from ...recording.changes import Write
from ...recording.kept_state import CHOICE_MAX_TOKENS, state_question
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
        asked = state_question(ctx.request.text, name, shape, row) if row is not None else None
        if asked is None:
            continue
        messages, schema, options = asked
        completion = yield from ctx.calls("state", messages, schema, CHOICE_MAX_TOKENS)
        try:
            picked = chosen(json.loads(completion.text), options)
        except json.JSONDecodeError:
            picked = None
        setting = picked.reading.settings[0] if picked is not None and picked.reading.settings else None
        if setting is None:
            continue
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
