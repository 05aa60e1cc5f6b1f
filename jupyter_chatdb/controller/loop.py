"""The chain-of-memory controller: route, plan, run step by step with revision, answer.

    request -> route (read | write | chat) -> plan {goal, sql, binds}... -> for each step:
    fill <names> from earlier results -> guard -> run -> bind its one-row result
    -> when a step fails, finds nothing to bind or changes nothing: revise the rest (bounded)
    -> commit (journalled) or, for unapproved writes, roll back and show what would change.

The controller never imports IPython or ipywidgets: it yields events and views render them.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace

import pandas as pd

from ..errors import ChatDBError, ModelOutputError, QueryFailed, SQLRefused, SQLSyntaxError
from ..grounding.joins import Links, joined_tables
from ..grounding.selection import Considered, SchemaIndex, settle
from ..kernel_memory.thoughts import THOUGHTS_SCHEMA, ThoughtMemory, parse_thoughts, post_think_messages
from ..grounding.values import Candidate, LiteralUse, ValueIndex, clear_choice, literal_uses, replace_literals
from ..llm.base import LLM, Embedder, Message, Usage
from ..sql import fixups, guard
from ..sql.approval import Preview, RunMarks, bulk_change, differences
from ..sql.catalog import Catalog
from ..sql.journal import Journal, Recorder, TableChange
from ..sql.session import QueryResult, Session
from . import examples, prompts
from .answer import is_grounded, plain_answer
from .events import (
    Answered,
    ApprovalNeeded,
    CandidatesVoted,
    Committed,
    Event,
    FellBack,
    MemoryRecalled,
    MemoryStored,
    PlanMade,
    Reply,
    RequestStarted,
    RolledBack,
    Routed,
    Step,
    StepDone,
    StepFailed,
    StepPlanned,
    StepStarted,
    TablesSelected,
    ValueCorrected,
)
from .generate import generate
from .one_round import OneRoundController, rows_changed
from .plan import PlannedStep, bound_values, fill, parameterized, parse_plan, plan_schema, with_values
from .request import Request
from .vote import signature

ROUTE_MAX_TOKENS = 12
PLAN_MAX_TOKENS = 900
ANSWER_MAX_TOKENS = 120
THOUGHTS_MAX_TOKENS = 220
TABLES_MAX_TOKENS = 120
SAMPLE_TEMPERATURE = 0.7


@dataclass
class Options:
    revisions: int = 2  # model revisions of a failing plan per request
    candidates: int = 1  # >1: sample that many plans for a read and vote on their results
    examples: int = 6  # worked examples per planning prompt: all of the built-in ones, so the prompt's prefix is cached
    route: bool = True  # False: treat every request as a read, or a write when writes are allowed
    fallback: bool = True  # a read whose plan fails even after revision gets one more try as one plain SQL
    post_think: bool = True  # with a memory: after the answer, one more model call stores 0-3 thoughts
    values: bool = True  # check literals against the stored values of their columns and correct them
    top_tables: int = 5  # schema selection: the K tables most like the request, plus the tables joined to them
    select_over: int = 12  # select tables only when there are more than this many (else all go into the prompt)
    refine_tables: bool = True  # one model call orders the selected tables and keeps only those needed
    approve_share: float = 0.5  # a write changing more than this share of a table's rows waits for approval


class StepProblem(Exception):
    """A step that ran (or could not run) but cannot be used as planned; the plan gets revised."""


@dataclass
class Chain:
    """The state of one request while its steps run."""

    request: Request
    mode: guard.Mode  # what the user allowed: the model's route never widens it
    schema: dict[str, list[str]]
    values: dict[str, object] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    done: list[PlannedStep] = field(default_factory=list)
    recorder: Recorder | None = None
    in_transaction: bool = False
    usage: Usage = field(default_factory=Usage)
    missing_values: list[LiteralUse] = field(default_factory=list)  # literals no stored value resembles
    shown: tuple[str, ...] = ()  # the tables schema selection showed the planner (none: all)
    sequences: dict[str, int | None] = field(default_factory=dict)  # the sequences before a write request ran

    @property
    def writes(self) -> bool:
        return self.mode is not guard.Mode.READ


class Controller:
    def __init__(
        self,
        model: LLM,
        session: Session,
        journal: Journal | None = None,
        options: Options | None = None,
        memory: ThoughtMemory | None = None,
        embedder: Embedder | None = None,
        values: ValueIndex | None = None,
        tables: SchemaIndex | None = None,
    ) -> None:
        """`embedder` matches values and tables by meaning (default: the memory's, else by spelling only);
        `values` and `tables` are the data-value and schema-selection memories (default: new ones)."""
        self.model = model
        self.session = session
        self.journal = journal or Journal(session)
        self.options = options or Options()
        self.memory = memory
        embedder = embedder or (memory.embedder if memory is not None else None)
        self.values = values or ValueIndex(session, embedder)
        self.tables = tables or SchemaIndex(embedder)

    def run(self, request: Request) -> Iterator[Event]:
        """Yield events while carrying out `request`: `Answered` comes last, or just before `MemoryStored`
        when a memory is attached.

        Raises a ChatDBError (after yielding the failed step) when the request cannot be carried out;
        then nothing was written.
        """
        if not request.text.strip():
            raise ChatDBError("The request is empty: write a question or an instruction.")
        catalog = Catalog.read(self.session)
        yield RequestStarted(request.text, self.model.name, tuple(catalog.tables), request.allow_writes)
        usage = Usage()
        messages: list[Message] = []
        reply_text = ""
        shown: tuple[str, ...] | None = None  # the tables the planning prompt shows (None: all)
        if request.approved:
            route, steps = request.route, list(request.approved)
        else:
            considered, links = self._considered(request.text, catalog)
            names = [c.table for c in considered] if considered else list(catalog.tables)
            route, usage = yield from self._route(request, names, usage)
            yield Routed(route)
            notes = yield from self._recall(request)
            if route == "chat":
                reply = yield from self._chat(request, names, usage, notes)
                yield Answered(reply)
                yield from self._post_think(request, reply)
                return
            if not catalog.tables and route == "read":
                raise ChatDBError("There is no data to query: create a pandas DataFrame, register one, or record something with writes allowed.")
            if considered:
                shown, usage = yield from self._select(request.text, catalog, considered, links, usage)
            steps, messages, reply_text, usage = yield from self._plan(request, catalog, route == "write", usage, notes, shown)
        chain = Chain(request, _mode(request, route), catalog.schema(), usage=usage, shown=shown or ())
        if chain.writes:
            chain.sequences = self.session.sequences()
        if not request.approved and route == "read" and self.options.candidates > 1:
            steps, chain.usage = yield from self._vote(steps, messages, chain)
        yield PlanMade(tuple(steps))
        for index, step in enumerate(steps, start=1):
            yield StepPlanned(index, step.goal, step.sql)
        try:
            try:
                yield from self._run_steps(chain, steps, messages, reply_text)
                reply = yield from self._finish(chain, route)
            except (QueryFailed, ModelOutputError) as error:
                if route != "read" or chain.in_transaction or not self.options.fallback or request.approved:
                    raise
                yield FellBack(str(error))
                reply = yield from self._one_round(request, chain.usage, shown)
        except GeneratorExit:  # the view stopped listening: roll back quietly
            if chain.in_transaction:
                self.session.rollback()
            raise
        except BaseException:
            if chain.in_transaction:
                self.session.rollback()
                yield RolledBack(self._rollback_reason(chain))
            raise
        yield Answered(reply)
        yield from self._post_think(request, reply)

    # -- thought memory -----------------------------------------------------------------------

    def _recall(self, request: Request) -> Generator[Event, None, list[str]]:
        if self.memory is None or not request.use_memory:
            return []
        recalled = self.memory.recall(request.text)
        if recalled:
            yield MemoryRecalled(tuple((r.record.id, r.record.text, round(r.similarity, 3)) for r in recalled))
        return [r.record.text for r in recalled]

    def _post_think(self, request: Request, reply: Reply) -> Generator[Event, None, None]:
        """Store what is worth remembering from an answered (not pending, not replayed) request."""
        if self.memory is None or not request.use_memory or not self.options.post_think or reply.pending or request.approved:
            return
        messages = post_think_messages(request.text, reply.result, reply.answer)
        try:
            completion = yield from generate(self.model, "memory", messages, THOUGHTS_SCHEMA, THOUGHTS_MAX_TOKENS)
            thoughts = parse_thoughts(completion.text)
        except ChatDBError:  # the answer stands; this request just leaves no thoughts
            thoughts = []
        stored = [self.memory.remember(thought, source=request.text) for thought in thoughts]
        added = tuple((s.record.id, s.record.text) for s in stored if s.record is not None)
        yield MemoryStored(added, tuple(i for s in stored for i in s.superseded))

    # -- schema selection -------------------------------------------------------------------

    def _considered(self, text: str, catalog: Catalog) -> tuple[list[Considered], Links]:
        """With many tables: the top K most like the request and the tables joined to them (no model call),
        and the catalog's joins; with few, nothing."""
        if not self.options.top_tables or len(catalog) <= self.options.select_over:
            return [], {}
        links = joined_tables(catalog)
        return self.tables.candidates(text, catalog, self.options.top_tables, self.values, links), links

    def _select(
        self, text: str, catalog: Catalog, considered: list[Considered], links: Links, usage: Usage
    ) -> Generator[Event, None, tuple[tuple[str, ...], Usage]]:
        """One constrained call orders the considered tables and stops when they are enough."""
        names = [c.table for c in considered]
        picked: list[str] = []
        if self.options.refine_tables and len(names) > 1:
            listed = [(name, [c.name for c in catalog.tables[name].columns]) for name in names]
            messages = prompts.table_choice_messages(text, listed)
            completion = yield from generate(self.model, "tables", messages, prompts.table_choice_schema(names), TABLES_MAX_TOKENS)
            usage += completion.usage
            picked = prompts.parse_tables(completion.text, names)
        chosen, changes = settle(picked, considered, links) if picked else (names, [])
        yield TablesSelected(
            tuple((c.table, c.score, c.reasons) for c in considered), tuple(chosen), len(catalog),
            refined=bool(picked), picked=tuple(picked), changes=tuple(changes),
        )
        return tuple(chosen), usage

    def select_tables(self, text: str, catalog: Catalog) -> Generator[Event, None, tuple[str, ...] | None]:
        """The tables a request would be planned with (None: all of them), as a request selects them."""
        considered, links = self._considered(text, catalog)
        if not considered:
            return None
        shown, _ = yield from self._select(text, catalog, considered, links, Usage())
        return shown

    # -- routing and planning ---------------------------------------------------------------

    def _route(self, request: Request, tables: list[str], usage: Usage) -> Generator[Event, None, tuple[str, Usage]]:
        if not self.options.route:
            return ("write" if request.allow_writes else "read"), usage
        messages = prompts.route_messages(request.text, tables)
        completion = yield from generate(self.model, "route", messages, prompts.ROUTE_SCHEMA, ROUTE_MAX_TOKENS)
        route = prompts.parse_json(completion.text, "route")
        return (route if route in ("read", "write", "chat") else "read"), usage + completion.usage

    def _plan(
        self, request: Request, catalog: Catalog, writes: bool, usage: Usage, notes: list[str], shown: tuple[str, ...] | None
    ) -> Generator[Event, None, tuple[list[PlannedStep], list[Message], str, Usage]]:
        """One constrained call; an unparseable plan gets one retry with the error, then fails."""
        chosen = examples.choose(request.text, self.options.examples, writes=writes)
        schema_text = catalog.prompt_text(shown) or "(no tables yet: create the tables the request needs, with primary keys and types)"
        messages = prompts.plan_messages(schema_text, request.text, [e.text() for e in chosen], writes=writes, notes=notes)
        for attempt in (1, 2):
            completion = yield from generate(self.model, "plan", messages, plan_schema(request.max_steps), PLAN_MAX_TOKENS)
            usage += completion.usage
            steps = parse_plan(completion.text)
            if steps is not None and len(steps) <= request.max_steps:
                return steps, messages, completion.text, usage
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

    def _vote(
        self, steps: list[PlannedStep], messages: list[Message], chain: Chain
    ) -> Generator[Event, None, tuple[list[PlannedStep], Usage]]:
        """Execution-guided self-consistency: sample more plans, run each, keep the most common result."""
        usage = chain.usage
        candidates = [steps]
        for _ in range(self.options.candidates - 1):
            completion = yield from generate(self.model, "sample", messages, plan_schema(chain.request.max_steps), PLAN_MAX_TOKENS, SAMPLE_TEMPERATURE)
            usage += completion.usage
            if (sampled := parse_plan(completion.text)) is not None:
                candidates.append(sampled)
        groups: dict[object, list[list[PlannedStep]]] = {}
        for candidate in candidates:
            result = self._try_read(candidate, chain.schema)
            if result is not None:
                groups.setdefault(signature(result), []).append(candidate)
        if not groups:
            return steps, usage
        best = max(groups.values(), key=len)  # ties: the group met first, which holds the greedy plan if it ran
        yield CandidatesVoted(len(candidates), len(best), best[0][-1].sql)
        return best[0], usage

    def _try_read(self, steps: list[PlannedStep], schema: dict[str, list[str]]) -> pd.DataFrame | None:
        """The final result of a read-only plan without placeholders, or None if it does not run."""
        if len(steps) != 1 or steps[0].placeholders():
            return None
        try:
            checked = guard.check(fixups.qualify_tables(steps[0].sql, schema) or steps[0].sql, schema, allow_writes=False)
            return self.session.run(checked.statements[0].sql).frame
        except ChatDBError:
            return None

    # -- running the chain ------------------------------------------------------------------

    def _run_steps(
        self, chain: Chain, steps: list[PlannedStep], messages: list[Message], plan_reply: str
    ) -> Generator[Event, None, None]:
        pending = list(steps)
        revision = 0
        while pending:
            planned = pending.pop(0)
            index = len(chain.steps) + 1
            try:
                step, as_run = yield from self._run_step(chain, index, planned)
            except StepProblem as problem:
                can_revise = revision < self.options.revisions and bool(messages)
                yield StepFailed(Step(index, planned.goal, fill(planned.sql, chain.values), "failed", error=str(problem)), will_retry=can_revise)
                if not can_revise:
                    raise QueryFailed(f"Step {index} ({planned.goal}) failed: {problem}") from None
                revision += 1
                failed_sql = fill(planned.sql, chain.values)
                pending, plan_reply = yield from self._revise(chain, messages, plan_reply, index, failed_sql, str(problem), revision)
                continue
            chain.steps.append(step)
            chain.done.append(as_run)
            yield StepDone(step)

    def _run_step(self, chain: Chain, index: int, planned: PlannedStep) -> Generator[Event, None, tuple[Step, PlannedStep]]:
        """Run one step; returns it and its statements as they ran (corrected literals, $name parameters),
        which an approval runs again."""
        sql = parameterized(planned.sql)  # earlier results are bound as parameters, never spliced in
        sql = fixups.qualify_tables(sql, chain.schema, chain.shown) or sql  # before literals are matched to tables
        sql = yield from self._correct_values(chain, index, sql)
        checked = _checked(sql, chain)
        unbound = [name for statement in checked.statements for name in statement.parameters if name not in chain.values]
        if unbound:
            raise StepProblem(f"it uses <{unbound[0]}>, which no earlier step binds")
        result, affected = None, None
        params: dict[str, object] = {}
        for statement in checked.statements:
            if statement.is_write:
                self._before_write(chain, statement)
            bound = {name: chain.values[name] for name in statement.parameters}
            params.update(bound)
            yield StepStarted(index, with_values(statement.sql, bound))
            result = self._execute(chain, statement, bound)
            if statement.is_write:
                affected = (affected or 0) + (rows_changed(statement, result) or 0)
                if affected == 0 and not statement.conditional and statement.kind is guard.Kind.WRITE:
                    raise StepProblem(
                        "it changed no row: what its WHERE clause looks for is not in the table yet; "
                        "add the missing row in a step before it, or fix the name"
                    )
            if statement.kind is guard.Kind.DDL:
                chain.schema = Catalog.read(self.session, samples=0).schema()
        assert result is not None
        values, problem = bound_values(planned.binds, result.frame)
        if problem:
            raise StepProblem(problem)
        chain.values.update(values)
        ran = "; ".join(statement.sql for statement in checked.statements)
        step = Step(index, planned.goal, with_values(ran, params), "done", result, rows_affected=affected, params=tuple(params.items()))
        return step, PlannedStep(planned.goal, ran, planned.binds)

    # -- data-value memory -------------------------------------------------------------------

    def _correct_values(self, chain: Chain, index: int, sql: str) -> Generator[Event, None, str]:
        """Replace literals their columns do not hold by the stored value meant, saying so (never for
        approved SQL); returns the SQL with the corrected literals."""
        if not self.options.values or chain.request.approved:
            return sql
        changes: dict[tuple[str, str, str], str] = {}
        for use in literal_uses(sql, chain.schema):
            values = self.values.column(use.table, use.column)
            if values is None or use.text is None or use.found_in(values.values):
                continue  # not a text column, a pattern with inner wildcards, or a value it holds
            candidates = self.values.candidates_in(values, use.text)
            if not candidates:
                if not values.capped:  # a capped column cannot say the value is not there
                    chain.missing_values.append(use)
                continue
            choice = clear_choice(candidates) or (yield from self._choose_value(chain, use, candidates))
            if choice is not None:
                new = changes[(use.table, use.column, use.literal)] = use.with_value(choice.value)
                yield ValueCorrected(index, use.table, use.column, use.literal, new, choice.how)
        return replace_literals(sql, chain.schema, changes) if changes else sql

    def _choose_value(self, chain: Chain, use: LiteralUse, candidates: list[Candidate]) -> Generator[Event, None, Candidate | None]:
        """Several stored values resemble the literal: one constrained call picks one (or keeps the literal)."""
        options = [c.value for c in candidates]
        messages = prompts.value_choice_messages(chain.request.text, use.table, use.column, use.text or use.literal, options)
        schema = {"type": "object", "properties": {"value": {"enum": [*options, use.text or use.literal]}}, "required": ["value"]}
        completion = yield from generate(self.model, "value", messages, schema, 40)
        chain.usage += completion.usage
        chosen = prompts.parse_json(completion.text, "value")
        return next((Candidate(c.value, c.score, "model") for c in candidates if c.value == chosen), None)

    def _before_write(self, chain: Chain, statement: guard.Statement) -> None:
        if statement.target in self.session.frames:
            raise SQLRefused(
                f"{statement.target} is a DataFrame of the notebook: change it with pandas, "
                "or store it as a table (CREATE TABLE ... AS SELECT) to change it here."
            )
        if not chain.in_transaction:
            self.session.begin()
            chain.in_transaction = True
            chain.recorder = self.journal.recorder()
        assert chain.recorder is not None
        chain.recorder.before(statement)

    def _execute(self, chain: Chain, statement: guard.Statement, params: Mapping[str, object]) -> QueryResult:
        try:
            return self.session.run(statement.sql, params)
        except QueryFailed as error:
            if chain.in_transaction:  # DuckDB aborts the transaction: start again with the steps done
                self._replay(chain)
            raise StepProblem(_with_hint(str(error))) from None

    def _replay(self, chain: Chain) -> None:
        """Roll back and run the steps already done again, so the revised rest starts from their state.

        Ids from sequences are not rolled back, so results are bound afresh.
        """
        self.session.rollback()
        self.session.begin()
        chain.recorder = self.journal.recorder()
        chain.values.clear()
        for planned in chain.done:
            for statement in guard.check(planned.sql, chain.schema, mode=chain.mode).statements:
                if statement.is_write:
                    chain.recorder.before(statement)
                result = self.session.run(statement.sql, {name: chain.values[name] for name in statement.parameters})
            chain.values.update(bound_values(planned.binds, result.frame)[0])

    def _revise(
        self, chain: Chain, messages: list[Message], plan_reply: str, index: int, sql: str, problem: str, revision: int
    ) -> Generator[Event, None, tuple[list[PlannedStep], str]]:
        results = "\n".join(
            f"step {s.index} ({s.goal}): " + (_result_line(s.result) if s.result is not None else "done")
            for s in chain.steps
        )
        bound = ", ".join(f"<{k}> = {v}" for k, v in chain.values.items())
        revise = prompts.revise_messages(messages, plan_reply, index, sql, problem, results + (f"\nBound: {bound}" if bound else ""))
        completion = yield from generate(self.model, "revise", revise, plan_schema(chain.request.max_steps), PLAN_MAX_TOKENS)
        chain.usage += completion.usage
        steps = parse_plan(completion.text)
        if steps is None:
            raise ModelOutputError(f"The model did not return a usable revision (it said: {completion.text[:200]!r}).")
        steps = _without_steps_done(steps, chain.done)
        if not steps:
            raise QueryFailed(f"Step {index} failed: {problem}; the revised plan only repeated the steps done.")
        yield PlanMade(tuple(steps), first=index, revision=revision)
        for offset, step in enumerate(steps):
            yield StepPlanned(index + offset, step.goal, step.sql, attempt=revision + 1)
        return steps, completion.text

    # -- finishing --------------------------------------------------------------------------

    def _finish(self, chain: Chain, route: str) -> Generator[Event, None, Reply]:
        changes: tuple[TableChange, ...] = ()
        request_id, preview = None, None
        if chain.in_transaction:
            assert chain.recorder is not None
            request = chain.request
            changes = tuple(chain.recorder.changes())
            ran = Preview(changes, RunMarks(self._sequences_used(chain), RunMarks.clock_of(self.session)))
            if request.expected is not None and (difference := differences(request.expected, ran)):
                raise ChatDBError(
                    f"The data changed since the preview: {difference}. Nothing was applied; ask again for a new preview."
                )
            approval = None if request.allow_writes else "writes are not allowed"
            if request.dry_run:
                approval = approval or "this is a dry run"
            if not request.approved:
                approval = approval or bulk_change(changes, self.options.approve_share)
            if approval:
                self.session.rollback()
                chain.in_transaction, preview = False, ran
                yield ApprovalNeeded(approval, changes)
            else:
                request_id = chain.recorder.commit(request.text, [s.sql for s in chain.steps], changes)
                self.session.commit()
                chain.in_transaction = False
                yield Committed(request_id, changes)
        reply = yield from self._answer(chain, route, changes, preview is not None)
        return replace(reply, request_id=request_id, preview=preview)

    def _sequences_used(self, chain: Chain) -> dict[str, tuple[int | None, int | None]]:
        """Each sequence this request advanced: its last value before and after."""
        now = self.session.sequences()
        return {name: (chain.sequences.get(name), last) for name, last in now.items() if last != chain.sequences.get(name)}

    def _answer(
        self, chain: Chain, route: str, changes: tuple[TableChange, ...], pending: bool
    ) -> Generator[Event, None, Reply]:
        request, steps = chain.request, chain.steps
        reads = [s for s in steps if s.result is not None and s.rows_affected is None and len(s.result.frame.columns)]
        result = reads[-1].result.frame if reads else None  # type: ignore[union-attr]
        writes = [s.rows_affected for s in steps if s.rows_affected is not None]
        affected = sum(writes) if writes else None
        sql = [s.sql for s in steps]
        if changes or affected is not None:
            answer = _changes_answer(changes, pending)
        else:
            answer = plain_answer(result, None)
            if result is not None and result.empty and chain.missing_values:
                use = chain.missing_values[0]
                answer += f" (No rows: {missing_value(use)}.)"
            if request.summarize and result is not None:
                messages = prompts.answer_messages(request.text, sql, result, None)
                completion = yield from generate(self.model, "answer", messages, prompts.ANSWER_SCHEMA, ANSWER_MAX_TOKENS)
                chain.usage += completion.usage
                phrased = prompts.parse_json(completion.text, "answer")
                known = pd.concat([s.result.frame for s in reads], ignore_index=True)  # type: ignore[union-attr]
                if phrased and is_grounded(phrased, known, None, request.text):
                    answer = phrased  # otherwise the model did its own arithmetic: keep the plain answer
        return Reply(
            request.text, answer, sql, result, steps, chain.usage, self.model.name,
            route=route, plan=tuple(chain.done), changes=changes, pending=pending,
        )

    def _one_round(self, request: Request, usage: Usage, shown: tuple[str, ...] | None) -> Generator[Event, None, Reply]:
        """The Foundation's one-SQL prompt (with its repair round), for reads the chain could not answer."""
        reply = None
        for event in OneRoundController(self.model, self.session, tables=shown).run(request):
            if isinstance(event, Answered):
                reply = event.reply
            elif not isinstance(event, RequestStarted):
                yield event
        assert reply is not None
        return replace(reply, usage=reply.usage + usage)

    def _chat(self, request: Request, tables: list[str], usage: Usage, notes: list[str]) -> Generator[Event, None, Reply]:
        messages = prompts.chat_messages(request.text, tables, notes)
        completion = yield from generate(self.model, "answer", messages, prompts.ANSWER_SCHEMA, ANSWER_MAX_TOKENS)
        answer = prompts.parse_json(completion.text, "answer") or completion.text
        return Reply(request.text, answer, [], None, [], usage + completion.usage, self.model.name, route="chat")

    @staticmethod
    def _rollback_reason(chain: Chain) -> str:
        return f"step {len(chain.steps) + 1} did not complete, so none of the {len(chain.steps)} steps before it was kept"


def _mode(request: Request, route: str) -> guard.Mode:
    """What the guard allows is what the user allowed: a model that routes "write" gets a preview at most.

    >>> _mode(Request("x"), "write"), _mode(Request("x", allow_writes=True), "read")
    (<Mode.PREVIEW: 'preview'>, <Mode.WRITE: 'write'>)
    """
    if request.allow_writes:
        return guard.Mode.WRITE
    return guard.Mode.PREVIEW if route == "write" else guard.Mode.READ


def _checked(sql: str, chain: Chain) -> guard.Checked:
    """The guard's verdict; SQL DuckDB cannot parse gets one try as SQLite/MySQL/PostgreSQL SQL.

    Joins of tables that do not exist and columns of undefined aliases are dropped first when the
    query's own table has those columns (the step then shows the SQL that ran).
    """
    sql = fixups.drop_unknown_joins(sql, chain.schema) or sql
    try:
        return guard.check(sql, chain.schema, mode=chain.mode)
    except SQLRefused as error:
        if not error.fixable:
            raise
        fixed = fixups.to_duckdb(sql) if isinstance(error, SQLSyntaxError) else None
        if fixed is None:
            raise StepProblem(str(error)) from None
        fixed = fixups.qualify_tables(fixed, chain.schema, chain.shown) or fixed
    try:
        return guard.check(fixed, chain.schema, mode=chain.mode)
    except SQLRefused as error:
        if not error.fixable:
            raise
        raise StepProblem(str(error)) from None


def _with_hint(error: str) -> str:
    """DuckDB's message plus what to do about the errors small models make most in write chains.

    >>> _with_hint('Constraint Error: Violates foreign key constraint because key "fruit_id: 7" does not exist in the referenced table')
    'Constraint Error: Violates foreign key constraint because key "fruit_id: 7" does not exist in the referenced table; add that row first or look its id up by name instead of writing a number'
    """
    if "foreign key" in error and "does not exist" in error:
        return error + "; add that row first or look its id up by name instead of writing a number"
    if "NOT NULL constraint failed" in error:
        return error + "; give that column a value (look it up in an earlier step and bind it)"
    return error


def _without_steps_done(steps: list[PlannedStep], done: list[PlannedStep]) -> list[PlannedStep]:
    """Small models often restate the whole plan when asked for the rest: drop the leading steps already run.

    >>> a, b = PlannedStep("a", "SELECT 1"), PlannedStep("b", "SELECT 2")
    >>> _without_steps_done([a, b], [a])
    [PlannedStep(goal='b', sql='SELECT 2', binds=())]
    """
    done_sql = {step.sql for step in done}
    first_new = next((i for i, step in enumerate(steps) if step.sql not in done_sql), len(steps))
    return steps[first_new:]


def _result_line(result: QueryResult) -> str:
    return prompts.result_text(result.frame, rows=3).replace("\n", " | ")


def _changes_answer(changes: tuple[TableChange, ...], pending: bool) -> str:
    """
    >>> _changes_answer((), False)
    'Nothing changed.'
    """
    if not changes:
        return "Nothing would change." if pending else "Nothing changed."
    listed = "; ".join(change.summary for change in changes)
    return f"Would change (not applied yet): {listed}." if pending else f"Recorded: {listed}."


def missing_value(use: LiteralUse) -> str:
    """Why a query that compared with `use` may have found nothing.

    >>> missing_value(LiteralUse("t", "city", "%Paris%", "LIKE"))
    "no value of t.city matches '%Paris%' or is close to it"
    """
    if use.pattern:
        return f"no value of {use.table}.{use.column} matches {use.literal!r} or is close to it"
    return f"{use.literal!r} is not a value of {use.table}.{use.column}, nor close to one"
