"""A new row's one date column, where the request gives several days and one is written nowhere
(`recording/day_unsaid.py`): the model picks which day the column holds, the days each way round; the
same pick both times is written, another makes the write wait, saying so."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping

from ...recording.day_unsaid import day_in_doubt
from ...recording.shapes import Shape
from ..context import Context
from ..events import Event
from .entry_picks import given_each_way


def day_picked(
    ctx: Context, shapes: Mapping[str, Shape], rows: dict[str, list], written: Iterable[object]
) -> Generator[Event, None, tuple[dict[str, list], list[str]]]:
    """`rows` (table -> rows read for new rows, whose statements write the values `written`), the date
    column in doubt (`day_in_doubt`) set to the day the model picks the same way both times (a new dict);
    and why the write waits where it picks two ways."""
    in_doubt = ctx.does not in ("change", "remove")
    doubt = day_in_doubt(shapes, rows, ctx.request.text, written) if in_doubt else None
    if doubt is None:
        return rows, []
    options = [day.isoformat() for day in doubt.days]
    first, again = yield from given_each_way(ctx, shapes[doubt.table].table, doubt.column, options)
    if first is None or first != again:
        picks = " and ".join(dict.fromkeys(repr(p) for p in (first, again)))
        return rows, [
            f"{shapes[doubt.table].table}.{doubt.column}: the request gives {', '.join(options)}; read as"
            f" '{doubt.read.isoformat()}', and asked again as {picks}"
        ]
    if first == doubt.read.isoformat():
        return rows, []  # the day read, picked both ways round
    fixed = {table: list(listed) for table, listed in rows.items()}
    fixed[doubt.table][doubt.index] = {**fixed[doubt.table][doubt.index], doubt.field: first}
    return fixed, []
