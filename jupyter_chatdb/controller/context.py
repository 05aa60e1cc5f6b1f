"""One request's state, which the stages of a strategy read and fill in turn, and what they run against."""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field

from ..grounding.concepts import ConceptIndex
from ..grounding.copies import Copies
from ..grounding.joins import Links
from ..grounding.keys import ImpliedKeys
from ..grounding.literals import MissingValue
from ..grounding.named_tables import named_tables
from ..grounding.selection import Considered, SchemaIndex
from ..grounding.values import ValueIndex
from ..kernel_memory.procedures import ProcedureBook
from ..kernel_memory.thoughts import ThoughtMemory
from ..kernel_memory.verified_reads import VerifiedReads
from ..llm.base import LLM, Completion, JSONSchema, Message, Usage
from ..options import Options
from ..sql import guard
from ..sql.approval import Preview
from ..sql.catalog import Catalog
from ..sql.fixup_rules import RULES
from ..sql.fixup_rules import Rule as FixupRule
from ..sql.journal import Journal, Recorder, TableChange
from ..sql.rules import Rule, RuleBook
from ..sql.session import Session
from .events import Event, FactsNotUsed, Reply, Step
from .generate import generate
from .kinds import Form, Route
from .planned_steps import PlannedStep
from .request import Request
from .shown_units import Preference


@dataclass
class Services:
    """What every request of a session runs against."""

    model: LLM
    session: Session
    journal: Journal
    options: Options
    values: ValueIndex
    tables: SchemaIndex
    memory: ThoughtMemory | None = None
    keys: ImpliedKeys = field(default_factory=ImpliedKeys)  # references the data implies, for tables without keys
    concepts: ConceptIndex = field(default_factory=ConceptIndex)  # what requests may ask about, for honesty
    copies: Copies = field(default_factory=Copies)  # frames that repeat another table's rows, kept per version
    procedures: ProcedureBook | None = None  # writes learned or taught, run for requests of their kind
    reads: VerifiedReads | None = None  # reads the user verified, shown as examples with questions like them
    rules: RuleBook | None = None  # statements that keep derived data true, run at the end of writes
    fixups: tuple[FixupRule, ...] = RULES  # the tree rewrites a step's SQL goes through (`sql/fixup_rules.py`)
    # a step's literals grounded in stored values (`stages/ground_values.py`); off: run as the model wrote them
    correct_values: bool = True


class ModelCalls:
    """Every model call of a request goes through here: streamed as events, its usage added up."""

    def __init__(self, model: LLM) -> None:
        self.model = model
        self.usage = Usage()

    def __call__(
        self,
        purpose: str,
        messages: list[Message],
        schema: JSONSchema | None,
        max_tokens: int,
        temperature: float = 0.0,
        stop: Sequence[str] = (),
    ) -> Generator[Event, None, Completion]:
        completion = yield from generate(self.model, purpose, messages, schema, max_tokens, temperature, stop)
        self.usage += completion.usage
        return completion


class StepProblem(Exception):
    """A step that ran (or could not run) but cannot be used as planned; the plan gets revised."""


@dataclass
class Chain:
    """The state of the steps of one request while they run."""

    mode: guard.Mode  # what the user allowed: the model's route never widens it
    schema: dict[str, list[str]]
    values: dict[str, object] = field(default_factory=dict)  # bound results: <name> -> value
    steps: list[Step] = field(default_factory=list)
    done: list[PlannedStep] = field(default_factory=list)  # the steps as they ran ($name parameters)
    planned: list[str] = field(default_factory=list)  # the same steps as the model wrote them
    recorder: Recorder | None = None
    missing_values: list[MissingValue] = field(default_factory=list)  # literals no stored value resembles
    sequences: dict[str, int | None] = field(default_factory=dict)  # the sequences before a write request ran
    changes: tuple[TableChange, ...] = ()  # what the writes changed, or would change when waiting for approval
    preview: Preview | None = None  # the writes wait for approval: what approving them must change
    request_id: int | None = None  # the journal's id of the committed writes
    matched: dict[str, int] = field(default_factory=dict)  # table -> most rows one UPDATE or DELETE matched
    seed: float = 0.0  # random() and uuid() in the writes: the same in a preview and its approved run
    revisions: int = 0  # times the model revised a failed step

    @property
    def writes(self) -> bool:
        return self.mode is not guard.Mode.READ


@dataclass
class Context:
    """One request: what the stages know so far. A stage reads what earlier stages filled in."""

    request: Request
    services: Services
    catalog: Catalog
    calls: ModelCalls
    considered: list[Considered] = field(default_factory=list)  # schema selection's candidates (none: few tables)
    links: Links = field(default_factory=dict)
    route: Route = Route.READ  # without a route stage, what the user allowed (`Controller.run` sets it)
    notes: list[str] = field(default_factory=list)  # recalled thoughts
    preferred: list[Preference] = field(default_factory=list)  # units to show figures in, kept from the planner
    stated_preference: Preference | None = None  # one the request states, as the model agreed: kept after
    examples: tuple[str, ...] = ()  # the questions of the verified reads shown with the request
    recalled_aside: bool = False  # a thought came by a reference back, not by the request's own words
    doubtful: list[str] = field(default_factory=list)  # words of the request no name says (`check_concepts`)
    assumed: list[str] = field(default_factory=list)  # attributes no name says, read as a column by the model
    shown: tuple[str, ...] | None = None  # the tables the planner is shown (None: all)
    views: dict[str, str] = field(default_factory=dict)  # views shown beside them: name -> SELECT (`flat_views`)
    repair_views: dict[str, str] = field(default_factory=dict)  # views offered with the first repair instead
    does: str = ""  # what a write does to rows, as the model read it: add, change or remove (`read_change`)
    changes_read: tuple[str, ...] = ()  # "table.column" each setting of the change the model read sets
    adds_to: str = ""  # the table a write was read as adding rows to (`read_change`), its rows read by it
    new_row_read: tuple[tuple[str, object], ...] = ()  # (field, value) the change reading gave a new row of `adds_to`
    lines_of: tuple[str, str] | None = None  # (table, WHERE) the one row a change sets, for the rows it brings
    rows_of_the_change: tuple[str, ...] = ()  # the tables given rows belonging to that row, read for it
    held: list[str] = field(default_factory=list)  # why a write waits for approval even where writes are allowed
    unread: list[str] = field(default_factory=list)  # why code's readings of a write were not written (`FactsNotUsed`)
    steps: list[PlannedStep] = field(default_factory=list)  # the plan
    params: dict[str, object] = field(default_factory=dict)  # values bound to the plan's $parameters
    procedure: str = ""  # the procedure whose steps `steps` are
    rule: Rule | None = None  # the rule proposed (`Request.rule`), once drafted and checked
    messages: list[Message] = field(default_factory=list)  # the planning conversation, for revisions
    plan_reply: str = ""
    form: Form = Form.PLAN  # the form the model wrote the SQL in
    chain: Chain | None = None
    reply: Reply | None = None  # set by the stage that answers: the stages left are those after the answer
    named: set[str] | None = None  # the tables the request names its things by, once read (`named_tables`)

    @property
    def options(self) -> Options:
        return self.services.options

    @property
    def session(self) -> Session:
        return self.services.session

    @property
    def table_names(self) -> list[str]:
        """The tables routing and chat are told about: those considered, or all."""
        return [c.table for c in self.considered] if self.considered else list(self.catalog.tables)

    def named_tables(self) -> set[str]:
        """The tables (lower case) the request names its things by (`grounding.named_tables`), read once
        for the stages that choose by them (procedures, the tables a write's rows may go to)."""
        if self.named is None:
            stored = self.services.values if self.options.values else None
            self.named = named_tables(self.request.text, self.catalog, stored)
        return self.named

    @property
    def guessed(self) -> bool:
        """Whether the steps are the model's plan of a write code read but did not write (`unread`)."""
        return bool(self.unread) and bool(self.messages)

    def not_used(self, reason: str, unstated: tuple[str, ...] = ()) -> FactsNotUsed:
        """The event saying code's reading of the write was not written, and why; kept in `unread`."""
        self.unread.append(reason)
        return FactsNotUsed(reason, unstated)

    def running(self) -> Chain:
        """The chain of steps, started on first use (the guard's mode, the schema, the sequences before)."""
        if self.chain is None:
            mode = _mode(self.request, self.route)
            self.chain = Chain(mode, self.catalog.schema(), values=dict(self.params))
            if self.chain.writes:
                self.chain.sequences = self.session.sequences()
                expected = self.request.expected
                self.chain.seed = expected.marks.seed if expected is not None else random.uniform(-1, 1)
        return self.chain


def _mode(request: Request, route: Route) -> guard.Mode:
    """What the guard allows is what the user allowed: a model that routes "write" gets a preview at most.

    >>> _mode(Request("x"), "write"), _mode(Request("x", allow_writes=True), "read")
    (<Mode.PREVIEW: 'preview'>, <Mode.WRITE: 'write'>)
    """
    if request.allow_writes:
        return guard.Mode.WRITE
    return guard.Mode.PREVIEW if route == Route.WRITE else guard.Mode.READ
