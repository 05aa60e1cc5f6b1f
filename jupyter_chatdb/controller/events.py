"""What the controller tells its views, as immutable events. Views only ever see these."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..llm.base import Usage
from ..sql.approval import Preview
from ..sql.journal import TableChange
from ..sql.rules import Rule
from ..sql.running import QueryResult
from .kinds import Route
from .planned_steps import PlannedStep


@dataclass(frozen=True)
class Step:
    """One SQL statement of a request, as it ended."""

    index: int
    goal: str
    sql: str  # as it ran, its parameters written as the values they were bound to (for reading and editing)
    status: str  # "done" | "failed"
    result: QueryResult | None = None
    error: str | None = None
    rows_affected: int | None = None
    params: tuple[tuple[str, object], ...] = ()  # the values bound to its $name parameters
    note: str = ""  # a tool's gist of what it observed ("no column has missing values")


@dataclass(frozen=True)
class Reply:
    """The outcome of `ChatDB.ask`: the answer, the SQL that produced it and its final result.

    Plain data: `%load_ext jupyter_chatdb` registers how IPython shows it (widgets.render).
    """

    request: str
    answer: str
    sql: list[str]
    result: pd.DataFrame | None
    steps: list[Step] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    route: Route = Route.READ  # read | write | database (answered by tools) | unsafe (refused) | chat
    plan: tuple[PlannedStep, ...] = ()  # the statements as run ($name parameters kept): what `ChatDB.apply` runs
    changes: tuple[TableChange, ...] = ()  # what the writes changed, or would change when pending
    pending: bool = False  # writes were only tried (dry run) and rolled back: they wait for approval
    preview: Preview | None = None  # of a pending reply: what approving it must change, exactly
    request_id: int | None = None  # the journal's id of an applied write request
    missing: tuple[str, ...] = ()  # what the request named that the data does not hold (then nothing ran)
    doubtful: tuple[str, ...] = ()  # words no table or column says, noted beside an answer that ran anyway
    params: tuple[tuple[str, object], ...] = ()  # the values `plan`'s procedure parameters are bound to
    procedure: str = ""  # the procedure that was run instead of a plan
    seen: bool = False  # the user approved or wrote what ran (`ChatDB.learn` may keep it as a procedure)
    rule: Rule | None = None  # the rule this reply proposes: applying it keeps the rule
    examples: tuple[str, ...] = ()  # the questions of the verified reads shown to the model as examples
    units: tuple[str, ...] = ()  # result columns shown in a unit the user prefers, not as the SQL returns them


@dataclass(frozen=True)
class Event:
    """Base class of everything `Controller.run` yields."""


@dataclass(frozen=True)
class RequestStarted(Event):
    request: str
    model: str
    tables: tuple[str, ...]
    allow_writes: bool


@dataclass(frozen=True)
class ModelText(Event):
    """A piece of model output as it is generated (`purpose`: sql, repair, answer)."""

    purpose: str
    text: str


@dataclass(frozen=True)
class Routed(Event):
    route: Route


@dataclass(frozen=True)
class PreferenceSetAside(Event):
    """A preference of units stated beside a question: the question is planned alone, its figures shown
    in `unit` after it runs."""

    question: str
    preference: str
    unit: str


@dataclass(frozen=True)
class AskedAgain(Event):
    """A correction said right after a question: that question is asked again, as corrected."""

    request: str  # the question and the correction, as one request


@dataclass(frozen=True)
class Refused(Event):
    """The request asks for something no route may do (`controller/unsafe.py`): nothing is planned or run."""

    kind: str  # destroying | sending out | secrets | running code | bypassing | unsafe
    reason: str


@dataclass(frozen=True)
class PlanMade(Event):
    """A plan, or (revision > 0) a revised rest of a plan starting at step `first`."""

    steps: tuple[PlannedStep, ...]
    first: int = 1
    revision: int = 0


@dataclass(frozen=True)
class CandidatesVoted(Event):
    """Self-consistency: how many candidate plans agreed on the chosen result."""

    candidates: int
    agreeing: int
    sql: str


@dataclass(frozen=True)
class ReadRechecked(Event):
    """A read's statement the data put in doubt (`why`) and the one kept: `before`, and `after` (the same
    where the model picked it over the other reading)."""

    why: str
    before: str
    after: str


@dataclass(frozen=True)
class StepPlanned(Event):
    index: int
    goal: str
    sql: str
    attempt: int = 1


@dataclass(frozen=True)
class StepStarted(Event):
    index: int
    sql: str


@dataclass(frozen=True)
class StepDone(Event):
    step: Step


@dataclass(frozen=True)
class StepFailed(Event):
    step: Step
    will_retry: bool


@dataclass(frozen=True)
class RolledBack(Event):
    reason: str


@dataclass(frozen=True)
class FellBack(Event):
    """The plan failed even after revision; the read is tried once more as one plain SQL statement."""

    reason: str


@dataclass(frozen=True)
class ApprovalNeeded(Event):
    """The writes were tried and rolled back; `changes` is what applying them would do."""

    reason: str
    changes: tuple[TableChange, ...]


@dataclass(frozen=True)
class Committed(Event):
    request_id: int | None
    changes: tuple[TableChange, ...]


@dataclass(frozen=True)
class Answered(Event):
    reply: Reply


@dataclass(frozen=True)
class Replayed(Event):
    """A recorded plan was run again without the model; `same_result` compares with the recording."""

    model: str  # the model that wrote the recorded plan
    same_result: bool | None  # None: there was no result to compare


@dataclass(frozen=True)
class ExamplesRecalled(Event):
    """Reads the user verified, shown to the model as worked examples for this question: (question, SQL,
    similarity of the new question to it)."""

    examples: tuple[tuple[str, str, float], ...]


@dataclass(frozen=True)
class MemoryRecalled(Event):
    """Thoughts from earlier in the notebook given to the planner: (id, sentence, similarity); `seconds`:
    what recalling and checking them took."""

    thoughts: tuple[tuple[int, str, float], ...]
    seconds: float = 0.0


@dataclass(frozen=True)
class MemoryChecked(Event):
    """Result thoughts whose tables changed since: refreshed (old id, new id, sentence now) or withheld
    from the planner since their SQL no longer runs (id, sentence, why)."""

    refreshed: tuple[tuple[int, int, str], ...]
    withheld: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True)
class MemoryStored(Event):
    """After the answer: thoughts stored (id, sentence) and older ones they replaced (contradicted)."""

    added: tuple[tuple[int, str], ...]
    replaced: tuple[int, ...]
    seconds: float = 0.0  # what storing them took, the model call for notes aside


@dataclass(frozen=True)
class ConceptsMissing(Event):
    """The request names attributes or values no table holds: it is answered with that, and no SQL runs."""

    missing: tuple[str, ...]


@dataclass(frozen=True)
class ValueCorrected(Event):
    """A literal of step `index` that its column does not hold, replaced by a stored value."""

    index: int
    table: str
    column: str
    old: str
    new: str
    how: str  # case | initials | abbreviation | spelling | meaning | model (chosen by the model among candidates)


@dataclass(frozen=True)
class TablesSelected(Event):
    """Of `total` tables, those `considered` for the request (table, score, why) and those `chosen`
    for the planning prompt, best first. `refined`: the model ordered and cut the considered ones
    (`picked`: its choice), then `changes` (table, why) made that choice consistent."""

    considered: tuple[tuple[str, float, tuple[str, ...]], ...]
    chosen: tuple[str, ...]
    total: int
    refined: bool
    picked: tuple[str, ...] = ()
    changes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ProcedureUsed(Event):
    """A procedure is run instead of a plan, with the values the model read in the request."""

    name: str
    source: str  # "taught" or "request N"
    values: tuple[tuple[str, object], ...]  # as filled: the scalars, and "items" as a list of dicts
    similarity: float  # of the request to the closest one the procedure was learned from
    left_out: tuple[str, ...] = ()  # the goals of its steps left out: the request says none of their values


@dataclass(frozen=True)
class ProcedureNotUsed(Event):
    """The closest procedure was not chosen, or its values could not be read in the request: it is planned."""

    name: str
    reason: str


@dataclass(frozen=True)
class FactsExtracted(Event):
    """The model read the rows a write request states; code wrote their statements (`recording/`)."""

    rows: tuple[tuple[str, int], ...]  # (table, rows) as stated
    unstated: tuple[str, ...] = ()  # values the model read that the request does not say, left out
    from_lines: tuple[str, ...] = ()  # a named row's values set as its line states them (`sql/facts_agreement.py`)


@dataclass(frozen=True)
class ChangeRead(Event):
    """What a write does to rows, read by the model: adds rows, changes rows it names, or removes them;
    for a change or removal, the statement code wrote and the values it doubts."""

    does: str
    table: str
    sql: str = ""
    doubts: tuple[str, ...] = ()
    asked_again: str = ""  # the option the model picked when asked again, where it changed the reading


@dataclass(frozen=True)
class FactsNotUsed(Event):
    """The rows the model read could not be written by code: the request is planned instead."""

    reason: str
    unstated: tuple[str, ...] = ()  # values the model read that the request does not say, left out
