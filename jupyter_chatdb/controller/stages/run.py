"""Running the plan step by step: each step's placeholders are bound as parameters, it is prepared (fixed
up, its literals grounded, checked by the guard: `prepare.py`) and DuckDB runs it; a step that fails, finds
nothing to bind or changes nothing gets the rest of the plan revised by the model (at most `revisions`
times). Writes open one transaction."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from numbers import Number

import pandas as pd

from ...errors import ModelOutputError, QueryFailed, SQLRefused
from ...sql import guard
from ...sql.catalog import Catalog
from ...sql.running import QueryResult
from .. import prompts
from ..context import Chain, Context, StepProblem
from ..events import Event, PlanMade, Step, StepDone, StepFailed, StepPlanned, StepStarted
from ..kinds import Form
from ..planned_steps import PlannedStep, bound_values, fill, parameterized, parse_plan, plan_schema, with_values
from ..stage import stage
from .one_statement import repaired
from .planning import PLAN_MAX_TOKENS
from .prepare import prepared


@stage(may_fall_back=True)
def run_steps(ctx: Context) -> Iterator[Event]:
    chain = ctx.running()
    yield PlanMade(tuple(ctx.steps))
    for index, planned in enumerate(ctx.steps, start=1):
        yield StepPlanned(index, planned.goal, planned.sql)
    pending = list(ctx.steps)
    revision = 0
    while pending:
        planned = pending.pop(0)
        index = len(chain.steps) + 1
        # a read saying a word the model found no meaning for is not repaired: it fails to what the data lacks;
        # nor is a plan of a write code read but could not write (`ctx.guessed`): revising it rescued no record
        # of the trades while it took minutes (docs/benchmarks.md)
        can_revise = revision < ctx.options.revisions and bool(ctx.messages) and not ctx.doubtful and not ctx.guessed
        try:
            step, as_run = yield from run_step(ctx, chain, index, planned, can_revise)
        except StepProblem as problem:
            failed_sql = fill(planned.sql, chain.values)
            yield StepFailed(Step(index, planned.goal, failed_sql, "failed", error=str(problem)), will_retry=can_revise)
            if not can_revise:
                unread = (
                    f"\nCode read the request but did not write it: {'; '.join(ctx.unread)}." if ctx.guessed else ""
                )
                raise QueryFailed(f"Step {index} ({planned.goal}) failed: {problem}{unread}") from None
            revision += 1
            chain.revisions = revision
            pending = yield from _revise(ctx, chain, index, failed_sql, str(problem), revision)
            continue
        chain.steps.append(step)
        chain.done.append(as_run)
        chain.planned.append(planned.sql)
        yield StepDone(step)


def run_step(
    ctx: Context, chain: Chain, index: int, planned: PlannedStep, can_revise: bool
) -> Generator[Event, None, tuple[Step, PlannedStep]]:
    """Run one step; returns it and its statements as they ran (corrected literals, $name parameters),
    which an approval runs again."""
    sql = parameterized(planned.sql)  # earlier results are bound as parameters, never spliced in
    missing_before = len(chain.missing_values)
    checked = yield from prepared(ctx, chain, index, sql)
    unbound = [name for statement in checked.statements for name in statement.parameters if name not in chain.values]
    if unbound:
        raise StepProblem(f"it uses <{unbound[0]}>, which no earlier step binds")
    result, affected = None, None
    params: dict[str, object] = {}
    for statement in checked.statements:
        if statement.is_write:
            _before_write(ctx, chain, statement)
        bound = {name: chain.values[name] for name in statement.parameters}
        params.update(bound)
        yield StepStarted(index, with_values(statement.sql, bound))
        result = _execute(ctx, chain, statement, bound)
        if statement.is_write:
            changed = rows_changed(statement, result) or 0
            affected = (affected or 0) + changed
            if statement.matches_rows and statement.target is not None:
                chain.matched[statement.target] = max(chain.matched.get(statement.target, 0), changed)
            if affected == 0 and not statement.conditional and statement.kind is guard.Kind.WRITE and not ctx.rule:
                raise StepProblem(
                    "it changed no row: what its WHERE clause looks for is not in the table yet; "
                    "add the missing row in a step before it, or fix the name"
                )
        if statement.kind is guard.Kind.DDL:
            chain.schema = Catalog.read(ctx.session, samples=0).schema()
    assert result is not None
    missing = chain.missing_values[missing_before:]
    if ctx.form != Form.PLAN and can_revise and missing and affected is None and found_nothing(result.frame):
        found = "no rows" if result.frame.empty else "nothing (0 or NULL)"
        raise StepProblem(f"it returned {found}: {missing[0]}; compare with the example rows")
    values, problem = bound_values(planned.binds, result.frame)
    if problem:
        raise StepProblem(problem)
    chain.values.update(values)
    ran = "; ".join(statement.sql for statement in checked.statements)
    step = Step(
        index,
        planned.goal,
        with_values(ran, params),
        "done",
        result,
        rows_affected=affected,
        params=tuple(params.items()),
    )
    return step, PlannedStep(planned.goal, ran, planned.binds)


def rows_changed(statement: guard.Statement, result: QueryResult) -> int | None:
    """Rows a write changed: DuckDB returns the count, or the rows themselves with RETURNING."""
    if statement.kind is not guard.Kind.WRITE:
        return None
    return result.row_count if statement.returns_rows else int(result.scalar)  # type: ignore[call-overload]


def _before_write(ctx: Context, chain: Chain, statement: guard.Statement) -> None:
    if statement.target in ctx.session.frames:
        raise SQLRefused(
            f"{statement.target} is a DataFrame of the notebook: change it with pandas, "
            "or store it as a table (CREATE TABLE ... AS SELECT) to change it here."
        )
    if not ctx.session.in_transaction:
        ctx.session.begin(seed=chain.seed)
        chain.recorder = ctx.services.journal.recorder()
    assert chain.recorder is not None
    chain.recorder.before(statement)


def _execute(ctx: Context, chain: Chain, statement: guard.Statement, params: Mapping[str, object]) -> QueryResult:
    try:
        return ctx.session.run(statement.sql, params)
    except QueryFailed as error:
        if ctx.session.in_transaction:  # DuckDB aborts the transaction: start again with the steps done
            _replay(ctx, chain)
        raise StepProblem(_with_hint(str(error))) from None


def _replay(ctx: Context, chain: Chain) -> None:
    """Roll back and run the steps already done again, so the revised rest starts from their state.

    Ids from sequences are not rolled back, so results are bound afresh.
    """
    session = ctx.session
    session.rollback()
    session.begin(seed=chain.seed)
    chain.recorder = ctx.services.journal.recorder()
    chain.values.clear()
    chain.values.update(ctx.params)  # the request's own values stay; the steps' results are bound again
    for planned in chain.done:
        for statement in guard.check(planned.sql, chain.schema, mode=chain.mode).statements:
            if statement.is_write:
                chain.recorder.before(statement)
            result = session.run(statement.sql, {name: chain.values[name] for name in statement.parameters})
        chain.values.update(bound_values(planned.binds, result.frame)[0])


def found_nothing(frame: pd.DataFrame) -> bool:
    """No rows, or one row of zeros and NULLs (a count or sum over no rows).

    >>> found_nothing(pd.DataFrame({"n": [0]})), found_nothing(pd.DataFrame({"n": [2]}))
    (True, False)
    """
    if frame.empty:
        return True
    if len(frame) > 1:
        return False
    return all(pd.isna(v) or (isinstance(v, Number) and not isinstance(v, bool) and v == 0) for v in frame.iloc[0])


def _revise(
    ctx: Context, chain: Chain, index: int, sql: str, problem: str, revision: int
) -> Generator[Event, None, list[PlannedStep]]:
    """The rest of the plan (or the one statement, in its own form) rewritten by the model."""
    if ctx.form == Form.PLAN:
        steps = yield from _revised_plan(ctx, chain, index, sql, problem)
    else:
        steps = yield from repaired(ctx, sql, problem)
    steps = _without_steps_done(steps, chain.planned)
    if not steps:
        raise QueryFailed(f"Step {index} failed: {problem}; the revised plan only repeated the steps done.")
    yield PlanMade(tuple(steps), first=index, revision=revision)
    for offset, revised in enumerate(steps):
        yield StepPlanned(index + offset, revised.goal, revised.sql, attempt=revision + 1)
    return steps


def _revised_plan(
    ctx: Context, chain: Chain, index: int, sql: str, problem: str
) -> Generator[Event, None, list[PlannedStep]]:
    """The rest of the plan, rewritten by the model given the results so far."""
    results = "\n".join(
        f"step {s.index} ({s.goal}): " + (_result_line(s.result) if s.result is not None else "done")
        for s in chain.steps
    )
    bound = ", ".join(f"<{k}> = {v}" for k, v in chain.values.items())
    revise = prompts.revise_messages(
        ctx.messages, ctx.plan_reply, index, sql, problem, results + (f"\nBound: {bound}" if bound else "")
    )
    completion = yield from ctx.calls("revise", revise, plan_schema(ctx.request.max_steps), PLAN_MAX_TOKENS)
    steps = parse_plan(completion.text)
    if steps is None:
        raise ModelOutputError(f"The model did not return a usable revision (it said: {completion.text[:200]!r}).")
    ctx.plan_reply = completion.text
    return steps


def _with_hint(error: str) -> str:
    """DuckDB's message plus what to do about the errors small models make most in write chains.

    >>> error = 'Constraint Error: Violates foreign key constraint because key "hive_id: 7" does not exist'
    >>> _with_hint(error).removeprefix(error)
    '; add that row first or look its id up by name instead of writing a number'
    """
    if "foreign key" in error and "does not exist" in error:
        return error + "; add that row first or look its id up by name instead of writing a number"
    if "NOT NULL constraint failed" in error:
        return error + "; give that column a value (look it up in an earlier step and bind it)"
    return error


def _without_steps_done(steps: list[PlannedStep], done: list[str]) -> list[PlannedStep]:
    """Small models often restate the whole plan when asked for the rest: drop the leading steps already
    run, as the model wrote them (what ran is written back by the guard and reads differently).

    >>> a, b = PlannedStep("a", "SELECT max(x) FROM t"), PlannedStep("b", "SELECT 2")
    >>> _without_steps_done([a, b], ["SELECT max(x) FROM t"])
    [PlannedStep(goal='b', sql='SELECT 2', binds=())]
    """
    done_sql = set(done)
    first_new = next((i for i, step in enumerate(steps) if step.sql not in done_sql), len(steps))
    return steps[first_new:]


def _result_line(result: QueryResult) -> str:
    return prompts.result_text(result.frame, rows=3).replace("\n", " | ")
