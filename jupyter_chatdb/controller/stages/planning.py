"""Planning: one constrained call writes the steps; voting samples more plans for a read and keeps the
result most of them agree on."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd

from ...errors import ChatDBError, ModelOutputError
from ...sql import fixups, guard, trees
from .. import examples, prompts
from ..context import Context
from ..events import CandidatesVoted, Event
from ..kinds import Form, Route
from ..planned_steps import PlannedStep, parse_plan, plan_schema
from ..stage import stage
from ..vote import signature

PLAN_MAX_TOKENS = 900
SAMPLE_TEMPERATURE = 0.7
NO_TABLES = "(no tables yet: create the tables the request needs, with primary keys and types)"


@stage
def plan(ctx: Context) -> Iterator[Event]:
    """The steps; an unparseable plan gets one retry with the error, then the request fails."""
    if ctx.steps:  # written already, as one statement
        return
    request, writes = ctx.request, ctx.route == Route.WRITE
    if not ctx.catalog.tables and ctx.route == Route.READ:
        raise ChatDBError(
            "There is no data to query: create a pandas DataFrame, register one, or record something with writes allowed."
        )
    chosen = examples.choose(request.text, ctx.options.examples, writes=writes)
    schema_text = ctx.catalog.prompt_text(ctx.shown, writes=writes) or NO_TABLES
    messages = prompts.plan_messages(
        schema_text,
        request.text,
        [e.text() for e in chosen],
        writes=writes,
        notes=ctx.notes,
        example_tables=examples.tables_of(chosen),
    )
    for attempt in (1, 2):
        completion = yield from ctx.calls("plan", messages, plan_schema(request.max_steps), PLAN_MAX_TOKENS)
        steps = parse_plan(completion.text)
        if steps is not None and len(steps) <= request.max_steps:
            ctx.steps, ctx.messages, ctx.plan_reply = steps, messages, completion.text
            return
        problem = (
            'That is not a plan: reply with JSON {"steps": [{"goal", "sql", "binds"}]}.'
            if steps is None
            else f"That plan has {len(steps)} steps; use at most {request.max_steps}."
        )
        if attempt == 1:
            messages = prompts.repair_messages(messages, completion.text, problem)
    raise ModelOutputError(
        f"The model did not return a usable plan: {problem} (It said: {completion.text[:160]!r}.) Nothing was run."
    )


@stage
def vote(ctx: Context) -> Iterator[Event]:
    """Execution-guided self-consistency (`candidates` > 1, reads only): sample more plans, run each,
    keep the most common result."""
    if ctx.route != Route.READ or ctx.options.candidates <= 1 or ctx.form != Form.PLAN:
        return
    schema = ctx.running().schema
    candidates = [ctx.steps]
    for _ in range(ctx.options.candidates - 1):
        completion = yield from ctx.calls(
            "sample", ctx.messages, plan_schema(ctx.request.max_steps), PLAN_MAX_TOKENS, SAMPLE_TEMPERATURE
        )
        if (sampled := parse_plan(completion.text)) is not None:
            candidates.append(sampled)
    groups: dict[object, list[list[PlannedStep]]] = {}
    for candidate in candidates:
        result = _try_read(ctx, candidate, schema)
        if result is not None:
            groups.setdefault(signature(result), []).append(candidate)
    if not groups:
        return
    best = max(groups.values(), key=len)  # ties: the group met first, which holds the greedy plan if it ran
    yield CandidatesVoted(len(candidates), len(best), best[0][-1].sql)
    ctx.steps = best[0]


def _try_read(ctx: Context, steps: list[PlannedStep], schema: dict[str, list[str]]) -> pd.DataFrame | None:
    """The final result of a read-only plan without placeholders, or None if it does not run."""
    if len(steps) != 1 or steps[0].placeholders():
        return None
    try:
        checked = guard.check(fixups.with_tables_qualified(trees.parse(steps[0].sql), schema), schema)
        return ctx.session.run(checked.statements[0].sql).frame
    except ChatDBError:
        return None
