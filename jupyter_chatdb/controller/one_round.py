"""The Foundation controller, kept as the benchmarks' baseline: one SQL, one repair round, one answer.

The controller never imports IPython or ipywidgets: it yields events and views render them.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from ..errors import ChatDBError, ModelOutputError
from ..llm.base import LLM
from ..sql import fixups, guard
from ..sql.catalog import Catalog
from ..sql.session import QueryResult, Session
from . import prompts
from .answer import plain_answer
from .context import ModelCalls
from .events import (
    Answered,
    Event,
    Reply,
    RequestStarted,
    RolledBack,
    Step,
    StepDone,
    StepFailed,
    StepPlanned,
    StepStarted,
)
from .phrase import phrase
from .request import Request

SQL_MAX_TOKENS = 320


class OneRoundController:
    def __init__(
        self, model: LLM, session: Session, *, repair_rounds: int = 1, tables: tuple[str, ...] | None = None
    ) -> None:
        """`tables`: the only tables the prompt shows (the chain's selection); None shows all of them."""
        self.model = model
        self.session = session
        self.repair_rounds = repair_rounds
        self.tables = tables

    def run(self, request: Request) -> Iterator[Event]:
        """Yield events while answering `request`; the last one is `Answered`.

        Raises a ChatDBError (after yielding the failed step) when the request cannot be answered.
        """
        if not request.text.strip():
            raise ChatDBError("The request is empty: write a question or an instruction.")
        catalog = Catalog.read(self.session)
        if not catalog.tables:
            raise ChatDBError("There is no data to query: create a pandas DataFrame or register one first.")
        yield RequestStarted(request.text, self.model.name, tuple(catalog.tables), request.allow_writes)
        calls = ModelCalls(self.model)
        messages = prompts.sql_messages(
            catalog.prompt_text(self.tables), request.text, allow_writes=request.allow_writes
        )
        schema = catalog.schema()
        for attempt in range(1, self.repair_rounds + 2):
            purpose = "sql" if attempt == 1 else "repair"
            completion = yield from calls(purpose, messages, prompts.SQL_SCHEMA, SQL_MAX_TOKENS)
            sql = prompts.parse_json(completion.text, "sql")
            if sql is None:
                raise ModelOutputError(f"The model did not return SQL (it said: {completion.text[:200]!r}).")
            yield StepPlanned(1, request.text, sql, attempt)
            try:
                trees = fixups.with_tables_qualified(guard.parse(sql), schema, self.tables or ())
                checked = guard.check(trees, schema, allow_writes=request.allow_writes)
                steps = yield from self._execute(checked, request.text)
                break
            except ChatDBError as error:
                retry = attempt <= self.repair_rounds and error.fixable
                yield StepFailed(Step(1, request.text, sql, "failed", error=str(error)), will_retry=retry)
                if not retry:
                    raise
                messages = prompts.repair_messages(messages, completion.text, str(error))
        reply = yield from self._answer(request, steps, calls)
        yield Answered(reply)

    def _execute(self, checked: guard.Checked, goal: str) -> Generator[Event, None, list[Step]]:
        """Run the statements in one transaction when any writes; a failure rolls back all of them."""
        if not checked.writes:
            statement = checked.statements[0]
            yield StepStarted(1, statement.sql)
            step = Step(1, goal, statement.sql, "done", result=self.session.run(statement.sql))
            yield StepDone(step)
            return [step]
        steps: list[Step] = []
        try:
            with self.session.transaction():
                for index, statement in enumerate(checked.statements, start=1):
                    yield StepStarted(index, statement.sql)
                    result = self.session.run(statement.sql)
                    steps.append(
                        Step(index, goal, statement.sql, "done", result, rows_affected=rows_changed(statement, result))
                    )
                    yield StepDone(steps[-1])
        except (ChatDBError, KeyboardInterrupt):
            yield RolledBack(f"statement {len(steps) + 1} failed, so none of the {len(checked.statements)} was applied")
            raise
        return steps

    def _answer(self, request: Request, steps: list[Step], calls: ModelCalls) -> Generator[Event, None, Reply]:
        writes = [step.rows_affected for step in steps if step.rows_affected is not None]
        affected = sum(writes) if writes else None
        last = steps[-1]
        returned_rows = last.result is not None and last.rows_affected is None and len(last.result.frame.columns)
        result = last.result.frame if returned_rows and last.result is not None else None
        sql = [step.sql for step in steps]
        answer = plain_answer(result, affected)
        if request.summarize:
            answer = (yield from phrase(calls, request.text, sql, result, affected, result)) or answer
        return Reply(request.text, answer, sql, result, steps, calls.usage, self.model.name)


def rows_changed(statement: guard.Statement, result: QueryResult) -> int | None:
    """Rows a write changed: DuckDB returns the count, or the rows themselves with RETURNING."""
    if statement.kind is not guard.Kind.WRITE:
        return None
    return result.row_count if statement.returns_rows else int(result.scalar)  # type: ignore[call-overload]
