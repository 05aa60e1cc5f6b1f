"""A write the model planned after code read the request but could not write it waits for approval.

Code reads a write for what it does to rows and writes it itself (`change_rows.py`, `from_facts.py`). Where
neither reading was written (`ctx.unread`), the plan is the model's own guess at the same request: on the
tune trades such plans were never exactly right, and some applied values no record gave. The write waits,
saying why code did not write it, so the user sees its SQL before anything lands. Run after the steps,
before `finish`, on the chain's strategies (not on the one-round baseline, which is measured as the model
writes); a procedure's steps are the user's own, and an approved write runs as shown."""

from __future__ import annotations

from collections.abc import Iterator

from ..context import Context
from ..events import Event
from ..kinds import Route
from ..stage import stage


@stage
def hold_guessed_writes(ctx: Context) -> Iterator[Event]:
    """Hold for approval the rows a plan wrote after code's readings of the write were not written."""
    if ctx.route != Route.WRITE or not ctx.guessed or ctx.procedure:
        return
    if ctx.request.expected is not None or not ctx.session.in_transaction:
        return
    if any(step.rows_affected for step in ctx.running().steps):
        ctx.held.append(
            f"the model planned it after code read the request but did not write it ({'; '.join(ctx.unread)})"
        )
    yield from ()
