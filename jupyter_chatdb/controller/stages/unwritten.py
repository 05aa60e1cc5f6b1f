"""A write that leaves out numbers the request gives waits (`recording/unused.py`): a record written in part
is not applied as if it were all there. Run after the steps, before `finish`, on the chain's strategies
(not on the one-round baseline, which is measured as the model writes)."""

from __future__ import annotations

from collections.abc import Iterator

from ...recording.unused import sql_values, unused_numbers
from ..context import Context
from ..events import Event
from ..kinds import Route
from ..stage import stage


@stage
def hold_unwritten_numbers(ctx: Context) -> Iterator[Event]:
    """Hold the write for approval where the request gives a number (in figures or words) that no statement run
    writes or names rows by, saying which."""
    if ctx.route != Route.WRITE or ctx.request.expected is not None or not ctx.session.in_transaction:
        return
    steps = ctx.running().steps
    if not any(step.rows_affected for step in steps):
        return
    written = [value for step in steps for value in sql_values(step.sql)]
    if unused := unused_numbers(ctx.request.text, written):
        ctx.held.append(f"the request gives {', '.join(unused)}, which nothing written holds")
    yield from ()
