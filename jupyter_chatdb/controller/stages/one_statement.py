"""A request as one statement instead of a plan of steps, in one of two forms, each repaired in its own:

- `native_read`, for reads: the model's native form (`native_sql.py`), SQLite in a code block;
- `foundation_sql`: the Foundation's prompt, JSON {"sql"} (several statements when writes are allowed),
  the one-round baseline and the fallback of a read the plan could not answer.

The plan stage then has nothing left to do; the statement runs as the plan's one step.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from ...errors import ChatDBError, ModelOutputError
from ...kernel_memory.verified_reads import Recalled
from ...sql import fixups
from ...sql.trees import written
from .. import native_sql, prompts, sql_prompt
from ..context import Context
from ..events import Event, ExamplesRecalled
from ..kinds import Form, Route
from ..planned_steps import PlannedStep
from ..stage import stage
from .ground_values import mentioned

SQL_MAX_TOKENS = 320
REPEAT_TEMPERATURE = 0.7


@stage
def native_read(ctx: Context) -> Iterator[Event]:
    """For a read: one SQL statement, written as SQLite in a code block and read into DuckDB's dialect."""
    if ctx.route != Route.READ or ctx.steps:
        return
    _need_tables(ctx)
    examples = verified_examples(ctx)
    if examples:
        yield ExamplesRecalled(tuple((e.read.question, e.read.sql, e.similarity) for e in examples))
    implied = ctx.services.keys.references(ctx.catalog, ctx.session)
    schema = native_sql.schema_text(ctx.catalog, ctx.session, ctx.shown, implied, ctx.views)
    messages = native_sql.sql_messages(
        schema,
        ctx.request.text,
        ctx.notes,
        mentioned(ctx, ctx.shown),
        [(e.read.question, e.read.sql) for e in examples],
    )
    completion = yield from ctx.calls("sql", messages, None, SQL_MAX_TOKENS, stop=native_sql.STOP)
    ctx.steps = [native_step(ctx, completion.text)]
    ctx.messages, ctx.plan_reply, ctx.form = messages, completion.text, Form.NATIVE


@stage
def foundation_sql(ctx: Context) -> Iterator[Event]:
    """One SQL statement (or several writes) as JSON, from the tables as compact CREATE TABLEs."""
    if ctx.steps:
        return
    _need_tables(ctx)
    messages = sql_prompt.sql_messages(
        ctx.catalog.prompt_text(ctx.shown, writes=ctx.request.allow_writes),
        ctx.request.text,
        allow_writes=ctx.request.allow_writes,
    )
    completion = yield from ctx.calls("sql", messages, sql_prompt.SQL_SCHEMA, SQL_MAX_TOKENS)
    ctx.steps = [_json_step(ctx, completion.text)]
    ctx.messages, ctx.plan_reply, ctx.form = messages, completion.text, Form.SQL


def repaired(ctx: Context, sql: str, problem: str) -> Generator[Event, None, list[PlannedStep]]:
    """The failed statement rewritten by the model in the form it was written, told what went wrong."""
    if ctx.form == Form.NATIVE:
        views, ctx.repair_views = ctx.repair_views, {}  # offered once, then read like the views shown
        ctx.views.update(views)
        messages = native_sql.repair_messages(ctx.messages, ctx.plan_reply, sql, problem, views)
        completion = yield from ctx.calls("repair", messages, None, SQL_MAX_TOKENS, stop=native_sql.STOP)
        step = native_step(ctx, completion.text)
        if step.sql == sql:  # greedy decoding repeated what failed: one sample instead, which may differ
            completion = yield from ctx.calls(
                "repair", messages, None, SQL_MAX_TOKENS, temperature=REPEAT_TEMPERATURE, stop=native_sql.STOP
            )
            step = native_step(ctx, completion.text)
    else:
        messages = prompts.repair_messages(ctx.messages, ctx.plan_reply, problem)
        completion = yield from ctx.calls("repair", messages, sql_prompt.SQL_SCHEMA, SQL_MAX_TOKENS)
        step = _json_step(ctx, completion.text)
    ctx.plan_reply = completion.text
    return [step]


def verified_examples(ctx: Context) -> list[Recalled]:
    """The reads the user verified that are closest to the request, over tables the session holds; the
    tables they read are shown to the model whatever schema selection chose."""
    reads = ctx.services.reads
    if reads is None or not ctx.request.use_memory or not len(reads):
        return []
    held = {name.lower(): name for name in ctx.catalog.tables}  # a statement names tables in lower case
    examples = reads.closest(ctx.request.text, ctx.catalog.schema())
    if ctx.shown is not None:
        ctx.shown = tuple(dict.fromkeys([*ctx.shown, *(held[t] for e in examples for t in e.read.tables)]))
    ctx.examples = tuple(e.read.question for e in examples)
    return examples


def _need_tables(ctx: Context) -> None:
    if not ctx.catalog.tables:
        raise ChatDBError("There is no data to query: create a pandas DataFrame or register one first.")


def native_step(ctx: Context, reply: str) -> PlannedStep:
    """The step of a native reply, its SQLite read as DuckDB SQL (as written when SQLite's dialect cannot
    read it: the step's preparation then decides)."""
    sql = native_sql.reply_sql(reply)
    if not sql:
        raise ModelOutputError(f"The model did not write SQL (it said: {reply[:200]!r}).")
    trees = fixups.from_sqlite(sql)
    return PlannedStep(ctx.request.text, "; ".join(map(written, trees)) if trees else sql)


def _json_step(ctx: Context, reply: str) -> PlannedStep:
    sql = prompts.parse_json(reply, "sql")
    if not sql:
        raise ModelOutputError(f"The model did not return SQL (it said: {reply[:200]!r}).")
    return PlannedStep(ctx.request.text, sql)
