"""The chain-of-memory controller: a request runs as a strategy of stages (`strategies.py`).

    request -> consider tables -> route (read | write | chat) -> recall -> [chat] -> pick tables
    -> plan {goal, sql, binds}... -> [vote] -> run steps (bind <names> as parameters -> ground literals
    -> guard -> run; revise when a step fails, finds nothing to bind or changes nothing)
    -> finish (commit, journalled, or roll back for approval) -> answer -> [fall back] -> post-think

The controller never imports IPython or ipywidgets: it yields events and views render them.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from ..errors import ChatDBError
from ..grounding.selection import SchemaIndex
from ..grounding.values import ValueIndex
from ..kernel_memory.procedures import ProcedureBook
from ..kernel_memory.thoughts import ThoughtMemory
from ..kernel_memory.verified_reads import VerifiedReads
from ..llm.base import LLM, Embedder
from ..sql.catalog import Catalog
from ..sql.fixup_rules import RULES
from ..sql.fixup_rules import Rule as FixupRule
from ..sql.journal import Journal
from ..sql.rules import RuleBook
from ..sql.session import Session
from .context import Context, ModelCalls, Options, Services
from .events import Event, RequestStarted
from .kinds import Route
from .pipeline import run_pipeline
from .request import Request
from .stage import Stage
from .stages.table_choice import consider_tables, pick_tables
from .strategies import APPROVED, ASK, RULE


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
        strategy: tuple[Stage, ...] = ASK,
        procedures: ProcedureBook | None = None,
        rules: RuleBook | None = None,
        reads: VerifiedReads | None = None,
        fixups: tuple[FixupRule, ...] = RULES,
        correct_values: bool = True,
    ) -> None:
        """`embedder` matches values and tables by meaning (default: the memory's, else by spelling only);
        `values` and `tables` are the data-value and schema-selection memories (default: new ones);
        `strategy` the stages a request runs (`strategies.without(ASK, "vote")` leaves one out);
        `procedures` the writes learned or taught, run for requests of their kind; `rules` the statements
        that keep derived data true (default: those kept in the database); `reads` the reads the user
        verified, shown as examples with questions close to them; `fixups` the tree rewrites a
        step's SQL goes through (`sql/fixup_rules.py`: leaving one out switches it off); `correct_values`
        False leaves a step's literals as the model wrote them."""
        embedder = embedder or (memory.embedder if memory is not None else None)
        self.services = Services(
            model,
            session,
            journal or Journal(session),
            options or Options(),
            values or ValueIndex(session, embedder),
            tables or SchemaIndex(embedder),
            memory,
            procedures=procedures,
            reads=reads,
            rules=rules if rules is not None else RuleBook(session),
            fixups=fixups,
            correct_values=correct_values,
        )
        self.strategy = strategy

    def run(self, request: Request) -> Iterator[Event]:
        """Yield events while carrying out `request`: `Answered` comes last, or just before `MemoryStored`
        when a memory is attached.

        Raises a ChatDBError (after yielding the failed step) when the request cannot be carried out;
        then nothing was written.
        """
        if not request.text.strip():
            raise ChatDBError("The request is empty: write a question or an instruction.")
        session = self.services.session
        session.end_transaction()  # one an earlier request could not end (the interrupt hit its cleanup)
        try:
            ctx = self._context(request)
            yield RequestStarted(
                request.text, self.services.model.name, tuple(ctx.catalog.tables), request.allow_writes
            )
            ctx.rule = request.rule
            if request.approved:
                ctx.route, ctx.steps, ctx.params = request.route, list(request.approved), dict(request.params)
            else:  # what the route stage decides, when it is left out
                ctx.route = Route.WRITE if request.allow_writes else Route.READ
            yield from run_pipeline(ctx, APPROVED if request.approved else RULE if request.rule else self.strategy)
        finally:  # every way out (answer, failure, fallback, Ctrl-C, a view that stopped listening) ends here
            session.end_transaction()

    def select_tables(self, text: str) -> Generator[Event, None, tuple[str, ...] | None]:
        """The tables a request would be planned with (None: all of them), as a request selects them."""
        ctx = self._context(Request(text))
        yield from consider_tables(ctx)
        if not ctx.considered:
            return None
        yield from pick_tables(ctx)
        return ctx.shown

    def _context(self, request: Request) -> Context:
        return Context(request, self.services, Catalog.read(self.services.session), ModelCalls(self.services.model))
