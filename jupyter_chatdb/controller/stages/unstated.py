"""A change the model wrote itself (a plan's UPDATE) that sets a value the request does not give waits,
saying which: a small model planning "SG-7 gilded on 3 May" may also mark the sign fitted. Code's
own changes bind their values and note their doubts where they are read (`recording/row_changes.py`);
this looks only at the values a statement spells out. Run after the steps, before `finish`, on the
chain's strategies (not on the one-round baseline, which is measured as the model writes). A procedure's
steps are the user's: the values it spells out are kept for every request of its kind."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import sqlglot
from sqlglot import exp

from ...recording.picks import entry_said
from ...recording.stated import is_stated
from ..context import Context
from ..events import Event
from ..kinds import Route
from ..stage import stage


@stage
def hold_unstated_settings(ctx: Context) -> Iterator[Event]:
    """Hold the write for approval where a statement that changed rows sets a column to a literal the
    request says in no form (its figures, its words, a day it names)."""
    if ctx.route != Route.WRITE or ctx.request.expected is not None or not ctx.session.in_transaction:
        return
    if ctx.procedure:
        return
    chain = ctx.running()
    today = dt.date.today()
    for step, as_run in zip(chain.steps, chain.done, strict=False):
        if not step.rows_affected:
            continue
        for table, column, value in literal_settings(as_run.sql):
            if not (is_stated(value, ctx.request.text, today) or entry_said(value, ctx.request.text)):
                ctx.held.append(f"{table}.{column} is set to {value!r}, which the request does not give")
    yield from ()


def literal_settings(sql: str) -> list[tuple[str, str, object]]:
    """The (table, column, value) an UPDATE sets to a value spelled out in it (numbers as numbers).

    >>> literal_settings("UPDATE signs SET state = 'gilded', coats = CAST(3 AS INT), note = $p1, hung_on = NULL")
    [('signs', 'state', 'gilded'), ('signs', 'coats', 3)]
    """
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.ParseError:
        return []
    if not isinstance(tree, exp.Update) or not isinstance(tree.this, exp.Table):
        return []
    found: list[tuple[str, str, object]] = []
    for assignment in tree.expressions:
        if not isinstance(assignment, exp.EQ) or not isinstance(assignment.this, exp.Column):
            continue
        value = assignment.expression
        while isinstance(value, exp.Cast):
            value = value.this
        if isinstance(value, exp.Literal):
            said: object = value.this
            if value.is_number:
                number = float(value.this)
                said = int(number) if number.is_integer() else number
            found.append((tree.this.name, assignment.this.name, said))
    return found
