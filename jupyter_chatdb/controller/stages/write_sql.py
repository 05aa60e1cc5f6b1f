"""A read as one statement in the model's native form (`native_sql.py`): the planner's JSON steps are
for requests that need several (writes, or reads that bind one result into the next)."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import ChatDBError, ModelOutputError
from ...sql import fixups, guard
from .. import native_sql
from ..context import Context
from ..events import Event
from ..plan import PlannedStep

SQL_MAX_TOKENS = 320


def write_sql(ctx: Context) -> Iterator[Event]:
    """For a read: one SQL statement, written as SQLite in a code block and read into DuckDB's dialect.
    The plan stage then has nothing left to do; a failed step is repaired in the same form."""
    if ctx.route != "read" or ctx.steps:
        return
    if not ctx.catalog.tables:
        raise ChatDBError("There is no data to query: create a pandas DataFrame or register one first.")
    schema = native_sql.schema_text(ctx.catalog, ctx.session, ctx.shown, ctx.links)
    messages = native_sql.sql_messages(schema, ctx.request.text, ctx.notes)
    completion = yield from ctx.calls("sql", messages, None, SQL_MAX_TOKENS)
    ctx.steps = [step_of(ctx, completion.text)]
    ctx.messages, ctx.plan_reply, ctx.native = messages, completion.text, True


def step_of(ctx: Context, reply: str) -> PlannedStep:
    """The one step of a native reply, its SQLite read as DuckDB SQL (as written when SQLite's dialect
    cannot read it: the step's preparation then decides)."""
    sql = native_sql.reply_sql(reply)
    if not sql:
        raise ModelOutputError(f"The model did not write SQL (it said: {reply[:200]!r}).")
    trees = fixups.from_sqlite(sql)
    return PlannedStep(ctx.request.text, "; ".join(map(guard.written, trees)) if trees else sql)
