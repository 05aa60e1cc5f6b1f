"""ChatDB: the composition root that wires the model, the DuckDB session and the controller."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import warnings
from collections.abc import Callable, Generator, Mapping, Sequence
from pathlib import Path

from ..controller import strategies
from ..controller.events import Event, Reply
from ..controller.generate import complete
from ..controller.kinds import Route
from ..controller.loop import Controller
from ..controller.planned_steps import MAX_STEPS, PlannedStep
from ..controller.request import Request
from ..controller.stage import Stage
from ..controller.stages.ground_values import CORRECT_VALUES
from ..errors import ChatDBError
from ..grounding.saved_values import SavedValues
from ..grounding.selection import SchemaIndex
from ..grounding.values import ValueIndex
from ..kernel_memory.procedures import Procedure, ProcedureBook
from ..kernel_memory.thoughts import (
    THOUGHTS_MAX_TOKENS,
    THOUGHTS_SCHEMA,
    Thought,
    ThoughtMemory,
    correction_thought,
    parse_thoughts,
    statement_messages,
)
from ..kernel_memory.verified_reads import VerifiedRead, VerifiedReadError, VerifiedReads
from ..llm.base import LLM, Embedder
from ..llm.minilm import LazyMiniLMEmbedder
from ..llm.minilm import installed as minilm_installed
from ..llm.select import select_backend
from ..options import Options
from ..sql import fixup_rules, guard
from ..sql.journal import Journal
from ..sql.replays import Replays
from ..sql.rules import Rule, RuleBook
from ..sql.session import Session
from . import procedure_desk, replay_desk, rule_desk
from .data_methods import DataMethods, bootstrap
from .runner import Runner, collect

STRATEGIES = tuple(strategies.STRATEGIES)


class ChatDB(DataMethods):
    """Ask questions about DataFrames and stored tables in plain language.

    >>> import pandas as pd
    >>> from jupyter_chatdb.llm import ScriptedBackend
    >>> db = ChatDB(model=ScriptedBackend(["```sql\\nSELECT sum(kg) AS kg FROM sales;\\n```"]), summarize=False)
    >>> db.register("sales", pd.DataFrame({"kg": [2.5, 4.0]}))
    >>> db.ask("How many kg are in the sales?").answer
    'kg: 6.5'
    """

    def __init__(
        self,
        model: str | LLM | None = None,
        database: str | Path | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        schema: str | Path | None = None,
        summarize: bool = True,
        strategy: str = "native",
        candidates: int = 1,
        revisions: int = 2,
        repair_rounds: int = 1,
        without: Sequence[str] = (),
        memory: ThoughtMemory | None = None,
        embedder: Embedder | None = None,
        values_path: str | Path | None = None,
        procedures: ProcedureBook | None = None,
        reads: VerifiedReads | None = None,
        engine: object | None = None,
    ) -> None:
        """`schema`: a .sql file or SQL text of CREATE statements, run when the database has no tables yet.

        `strategy`: "native" (the default: a question is one SQL statement in the model's native form,
        `controller/native_sql.py`, asked without a routing call when it plainly names the data; a write
        no procedure takes that names a kept row is first read for what it does to rows, a change or removal
        an UPDATE or DELETE by code, `recording/row_changes.py`; one that adds rows is read as the rows it
        states, its SQL written by code, `recording/`; other requests are planned as by "chain"), "chain"
        (every request a plan of steps, run one by one and revised), "flat" (native, and shown views that
        flatten joins: `grounding/flat_views.py`), "repair-flat" (native, the views shown with a failed
        read's first repair), "facts" (native, a write read only as the rows it states, as before the
        change reading), "changes" (native, by its former name) or "one-round" (one SQL and
        `repair_rounds` repairs, the baseline).
        `candidates` > 1 samples that many plans for a question and keeps the result most of them agree on.
        `revisions`: how often a failing plan is revised per request.
        `without`: stages left out of the chain (`controller/strategies.py`: "route", "vote",
        "fall_back", "post_think", ...) and fix-up rules left out (`sql/fixup_rules.py`: "labels_for_keys",
        ...) and "correct_values" (a step's literals as the model wrote them), to measure what each one gives.
        `memory`: a ThoughtMemory to recall thoughts from before planning and store new ones in after
        each answer (its triples are the table `memory_triples` for SQL the user writes).
        `embedder`: matches literals with stored values and requests with tables by meaning
        (default: the embedded MiniLM, loaded when first needed; without its packages, by spelling only).
        `values_path`: a SQLite file that keeps the columns' values (and their vectors) read for that, and
        the tables' descriptions, between sessions.
        `procedures`: where procedures learned from approved writes (`learn`) or taught (`teach`) are kept
        (default: in memory, for this session); a write request of a kind one was learned for runs it.
        `reads`: where reads the user verified (`verify`) or corrected are kept (default: in memory, for this
        session); a question close to one of them is asked with it as a worked example.
        `engine`: a remote engine whose tables are read there (`connect`).
        """
        if candidates < 1:
            raise ChatDBError("candidates must be at least 1.")
        self.model = select_backend(model, base_url=base_url, api_key=api_key)
        self.session = Session(database)
        self.journal = Journal(self.session)
        self.replays = Replays(self.session)
        self.summarize = summarize
        self._memory = memory
        self._runner = Runner(self.session, self.replays)
        self._applied: dict[str, int | None] = {}  # the token of each preview applied -> its request id
        embedder = embedder or (LazyMiniLMEmbedder() if minilm_installed() else None)  # else matching by spelling only
        saved = self._saved_values(values_path)
        self.values = ValueIndex(self.session, embedder, saved=saved)
        self.table_index = SchemaIndex(embedder, notes=saved.notes() if saved is not None else None)
        if saved is not None:
            self.session.described.update(saved.column_notes())
        self.procedures = procedures if procedures is not None else ProcedureBook(None, embedder)
        if self.procedures.embedder is None:
            self.procedures.embedder = embedder
        self.reads = reads if reads is not None else VerifiedReads(None, embedder)
        if self.reads.embedder is None:
            self.reads.embedder = embedder
        self.rules = RuleBook(self.session)
        if schema is not None:
            bootstrap(self.session, schema)
        self._strategy, self._without = strategy, tuple(without)
        self._stages = self._stages_of(strategy)
        self.options = Options(revisions=repair_rounds if strategy == "one-round" else revisions, candidates=candidates)
        self._controller = self._make_controller()
        if engine is not None:
            self.connect(engine)

    @property
    def strategy(self) -> str:
        """How a request becomes SQL ("native", "changes", "chain", "flat", "repair-flat", "facts" or "one-round"); settable,
        from the next request on."""
        return self._strategy

    @strategy.setter
    def strategy(self, strategy: str) -> None:
        if strategy != self._strategy:
            self._stages, self._strategy = self._stages_of(strategy), strategy
            self._controller = self._make_controller()

    def _stages_of(self, strategy: str) -> tuple[Stage, ...]:
        if strategy not in STRATEGIES:
            raise ChatDBError(f"Unknown strategy {strategy!r}: use one of {', '.join(STRATEGIES)}.")
        try:
            return strategies.without(strategies.STRATEGIES[strategy], *self._without)
        except ValueError as error:
            raise ChatDBError(str(error)) from None

    def _saved_values(self, path: str | Path | None) -> SavedValues | None:
        if path is None:
            return None
        try:
            return SavedValues(Path(path), str(self.session.database or ":memory:"))
        except ChatDBError as error:  # the values are then read again each session
            warnings.warn(str(error), stacklevel=3)
            return None

    def _make_controller(self) -> Controller:
        return Controller(
            self.model,
            self.session,
            self.journal,
            self.options,
            self._memory,
            values=self.values,
            tables=self.table_index,
            strategy=self._stages,
            procedures=self.procedures,
            reads=self.reads,
            rules=self.rules,
            fixups=fixup_rules.without(fixup_rules.RULES, self._without),
            correct_values=CORRECT_VALUES not in self._without,
        )

    @property
    def memory(self) -> ThoughtMemory | None:
        return self._memory

    @memory.setter
    def memory(self, memory: ThoughtMemory | None) -> None:
        """Attach (or, with None, detach) a thought memory from the next request on."""
        self._memory = memory
        self._controller = self._make_controller()

    def with_model(self, model: str | LLM | None, *, base_url: str | None = None, api_key: str | None = None) -> ChatDB:
        """A ChatDB that asks another model about the same database (sharing its session and journal)."""
        other = copy.copy(self)
        other.model = select_backend(model, base_url=base_url, api_key=api_key)
        other._runner = copy.copy(self._runner)
        other._controller = other._make_controller()
        return other

    def __repr__(self) -> str:
        return f"ChatDB(model={self.model!r}, session={self.session!r})"

    def ask(
        self,
        text: str,
        *,
        allow_writes: bool = False,
        dry_run: bool = False,
        max_steps: int = MAX_STEPS,
        use_memory: bool = True,
        use_procedures: bool = True,
        on_event: Callable[[Event], None] | None = None,
    ) -> Reply:
        """Answer or carry out `text`.

        Writes run in one transaction, journalled for `undo`. Without `allow_writes` (or with
        `dry_run`, or when they change every row of a table, or more than `approve_share` of a table of
        at least 10 rows) they are tried and rolled back:
        the reply is `pending`, lists the rows they would change, and `apply(reply)` runs them.
        `max_steps` limits the length of the model's plan; `use_memory=False` neither recalls nor stores thoughts;
        `use_procedures=False` plans a write even when a procedure was learned for its kind.
        """
        events = self.events(
            text,
            allow_writes=allow_writes,
            dry_run=dry_run,
            max_steps=max_steps,
            use_memory=use_memory,
            use_procedures=use_procedures,
        )
        return collect(events, on_event)

    def events(
        self,
        text: str,
        *,
        allow_writes: bool = False,
        dry_run: bool = False,
        max_steps: int = MAX_STEPS,
        use_memory: bool = True,
        use_procedures: bool = True,
    ) -> Generator[Event, None, None]:
        """The events of answering `text`, for views that show the work as it happens (`ask` collects them)."""
        request = self._request(text, allow_writes, dry_run, max_steps, use_memory)
        request = self._runner.asked(dataclasses.replace(request, use_procedures=use_procedures))
        yield from self._events(request, record=True)

    def _request(self, text: str, allow_writes: bool, dry_run: bool, max_steps: int, use_memory: bool) -> Request:
        if not 1 <= max_steps <= MAX_STEPS:
            raise ChatDBError(f"max_steps must be between 1 and {MAX_STEPS}, not {max_steps}.")
        return Request(
            text,
            allow_writes=allow_writes,
            summarize=self.summarize,
            dry_run=dry_run,
            max_steps=max_steps,
            use_memory=use_memory,
        )

    def apply(self, reply: Reply, *, on_event: Callable[[Event], None] | None = None) -> Reply:
        """Run the statements a pending reply previewed (no model call): the user approved them.

        They run again and must change exactly the rows the preview showed; otherwise nothing is
        applied and a ChatDBError says the data changed since the preview.
        """
        if not reply.pending or not reply.plan or reply.preview is None:
            raise ChatDBError("This reply has no pending writes to apply.")
        if reply.preview.token in self._applied:
            saved = self._applied[reply.preview.token]
            raise ChatDBError(
                f"This write was already applied{f' as request {saved}' if saved is not None else ''}: "
                "ask again to write it once more."
            )
        request = Request(
            reply.request,
            allow_writes=True,
            summarize=False,
            approved=reply.plan,
            expected=reply.preview,
            params=reply.params,
            seen=True,
        )
        request = dataclasses.replace(request, rule=reply.rule)
        applied = collect(self._events(request, record=reply.rule is None), on_event)
        self._applied[reply.preview.token] = applied.request_id
        return dataclasses.replace(applied, procedure=reply.procedure)

    def replay(
        self, text: str, *, allow_writes: bool = False, on_event: Callable[[Event], None] | None = None
    ) -> Reply:
        """Run the SQL recorded for `text` again, without the model; say whether the result is the same.

        A recorded write runs like any write: without `allow_writes` it only shows what it would change.
        """
        request, recorded = replay_desk.replay_request(self.replays, text, allow_writes)
        reply = collect(self._events(request), on_event)
        if on_event is not None:
            on_event(replay_desk.replayed(recorded, reply))
        return reply

    def run_sql(
        self,
        sql: str,
        *,
        allow_writes: bool = False,
        corrects: str = "",
        on_event: Callable[[Event], None] | None = None,
    ) -> Reply:
        """Run SQL written or edited by the user, through the same guard, transaction and journal.
        `corrects`: the request whose step the user edited into `sql`; once it runs, a read is kept as
        that question's verified SQL (`verify`), and the thought memory keeps a write's correction and
        recalls it for requests like that one."""
        route = Route.WRITE if guard.check(sql, allow_writes=True).writes else Route.READ
        request = Request(
            sql,
            allow_writes=allow_writes,
            summarize=False,
            approved=(PlannedStep("SQL as written", sql),),
            route=route,
            seen=True,
        )
        reply = collect(self._events(request), on_event)
        if not corrects.strip() or reply.pending:
            return reply
        if route == Route.READ:
            with contextlib.suppress(VerifiedReadError):  # too long for an example: it ran all the same
                self.reads.keep(corrects, sql, "corrected")
        elif self.memory is not None:
            self.memory.remember(correction_thought(corrects, sql), source=f"edited SQL of: {corrects}")
        return reply

    def verify(self, answered: Reply | str, sql: str = "") -> VerifiedRead:
        """Keep a read as a verified example: `verify(reply)` marks an answered read right; `verify(question,
        sql)` keeps the SQL that answers `question`. A later question close to it is asked with it shown
        to the model (its reply's `examples` say so); `unverify(question)` forgets it."""
        if isinstance(answered, str):
            if not sql.strip():
                raise ChatDBError("Give the SQL that answers the question: verify(question, sql).")
            return self.reads.keep(answered, sql, "given")
        if answered.route != Route.READ or answered.changes or len(answered.sql) != 1:
            raise ChatDBError("Only a read answered by one SQL statement can be marked right.")
        return self.reads.keep(answered.request, answered.sql[0], "marked right")

    def unverify(self, question: str) -> None:
        """Forget the verified read kept for `question`."""
        self.reads.forget(question)

    @property
    def model_name(self) -> str:
        return self.model.name

    def thoughts_from(self, statement: str) -> list[Thought]:
        """The thoughts (triples) the model reads in a statement the user wants remembered; the statement
        itself when it finds none."""
        completion = complete(self.model, "memory", statement_messages(statement), THOUGHTS_SCHEMA, THOUGHTS_MAX_TOKENS)
        return parse_thoughts(completion.text) or [Thought("", "", "", statement)]

    def configure(self, **changes: object) -> None:
        """Change options (`jupyter_chatdb.options.Options`) from the next request on: `configure(candidates=3)`."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(Options)})
        if unknown:
            raise ChatDBError(
                f"Unknown option {unknown[0]!r}: the options are {', '.join(f.name for f in dataclasses.fields(Options))}."
            )
        options = dataclasses.replace(self.options, **changes)  # type: ignore[arg-type]
        if options != self.options:
            self.options = options
            self._controller = self._make_controller()

    def select_tables(self, text: str) -> list[Event]:
        """How a request for `text` would choose its tables among many (a model call), as events: a
        `TablesSelected` with what was considered, picked and chosen; none with few tables."""
        controller = self._controller
        if not isinstance(controller, Controller):
            return []
        return list(controller.select_tables(text))

    def learn(self, reply: Reply, name: str) -> Procedure:
        """Keep the writes of an applied reply the user approved (or wrote) as procedure `name`: the values
        its request said become parameters, and statements repeated per item a list. A later write
        request close in meaning to it runs it, its values read by one short model call."""
        return self.procedures.keep(procedure_desk.learned(reply, name, self.session))

    def teach(
        self, name: str, sql: str, requests: Sequence[str] = (), example: Mapping[str, object] | None = None
    ) -> Procedure:
        """Keep SQL with $name parameters as procedure `name`, run for write requests like `requests`
        (statements with $item_... parameters run once per item of the list "items"). `example`: the
        values of the first request, shown to the model as how to read them."""
        return self.procedures.keep(procedure_desk.taught(self.session, name, sql, requests, example))

    def run_procedure(
        self,
        name: str,
        values: Mapping[str, object],
        *,
        allow_writes: bool = False,
        on_event: Callable[[Event], None] | None = None,
    ) -> Reply:
        """Run procedure `name` with `values` (its parameters, and "items": a list of dicts for the
        per-item ones), without the model; as any write, it only previews without `allow_writes`."""
        request = procedure_desk.run_request(self.procedures, name, values, allow_writes)
        return dataclasses.replace(collect(self._events(request), on_event), procedure=name)

    def propose_rule(self, name: str, text: str, *, on_event: Callable[[Event], None] | None = None) -> Reply:
        """A rule that keeps derived data true: `text` says it ("a hay's bales_left is what was delivered
        minus what was fed"; one model call drafts the UPDATE) or is the statement itself. The reply is
        pending: it shows the statement and what it would change now; `apply(reply)` runs it and keeps
        the rule, which from then on runs at the end of every write that changes a table it reads."""
        return collect(self._events(rule_desk.proposal(name, text)), on_event)

    def keep_rule(self, name: str, sql: str, sentence: str = "") -> Rule:
        """Keep a rule as written, without a preview (scripts): it runs now, journalled like any write, and
        from then on at the end of every write that changes a table it reads. It must change nothing
        when run twice (checked first)."""
        rule, request = rule_desk.kept(self.session, name, sql, sentence)
        collect(self._events(request), None)
        return rule

    def _events(self, request: Request, *, record: bool = False) -> Generator[Event, None, None]:
        return self._runner.events(self._controller, self.memory, request, record=record)

    def close(self) -> None:
        self.session.close()
        if self.values.saved is not None:
            self.values.saved.close()
