"""The state of one chain view, changed only by `apply(event)` (and the user's decisions); renderers read it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd
from sqlglot import exp

from ..controller.events import (
    Answered,
    ApprovalNeeded,
    AskedAgain,
    CandidatesVoted,
    ChangeRead,
    Committed,
    ConceptsMissing,
    Event,
    ExamplesRecalled,
    FactsExtracted,
    FactsNotUsed,
    FellBack,
    MemoryChecked,
    MemoryRecalled,
    MemoryStored,
    ModelText,
    PlanMade,
    PreferenceSetAside,
    ProcedureNotUsed,
    ProcedureUsed,
    ReadRechecked,
    Refused,
    Replayed,
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
from ..controller.kinds import Route
from ..controller.planned_steps import PlannedStep
from ..kernel_memory.procedure_sql import parse_statements
from ..llm.base import Usage
from ..sql.journal import TableChange
from ..sql.trees import target_table

# what a model call of each purpose is doing, for the progress line
ACTIVITIES = {
    "route": "Deciding whether this reads, writes or asks about the tables",
    "tool": "Choosing a tool",
    "tables": "Choosing the tables",
    "target": "Checking which table this changes",
    "concept": "Checking that the data holds what was asked",
    "plan": "Planning the SQL steps",
    "revise": "Revising the plan",
    "sql": "Writing SQL",
    "repair": "Repairing the SQL",
    "sample": "Writing another query to check a doubtful answer",
    "choose": "Choosing among the queries' answers",
    "value": "Matching a value with the stored ones",
    "procedure": "Choosing a kept procedure",
    "fill": "Reading the procedure's values in the request",
    "rule": "Drafting the rule's SQL",
    "extract": "Reading the facts to record",
    "change": "Reading what the write does to rows",
    "answer": "Phrasing the answer",
    "memory": "Noting what this answer says, for later (the answer is above)",
}
KEEP_HINT = "%chatdb keep NAME keeps these writes as a procedure for later requests like this one."
NOT_MEANT = "Not what you meant? Run the cell again with --no-procedure to have it planned."
FAILED_NOTE = "Nothing was written. Edit a step's SQL and run it again, or ask in other words."


@dataclass
class Card:
    index: int
    goal: str
    sql: str
    # waiting | running | done | failed | retrying | not run | waiting for approval | rolled back
    status: str = "waiting"
    attempt: int = 1
    row_count: int | None = None
    rows_affected: int | None = None
    preview: pd.DataFrame | None = None
    elapsed_ms: float | None = None
    error: str | None = None
    started_at: float | None = None  # wall-clock seconds when it started running (the view ticks from it)
    is_cell_value: bool = False  # its result is the cell's value, shown just below: not again in the card
    note: str = ""  # a tool's gist of what it observed


@dataclass
class ChainState:
    request: str = ""
    model: str = ""
    cards: dict[int, Card] = field(default_factory=dict)
    generating: str = ""  # model output streaming in
    phase: str = "running"  # running | pending (writes wait for approval) | done | failed | rejected
    note: str | None = None
    decisions: list[str] = field(default_factory=list)  # routing, plans, votes: shown when verbose
    recalled: tuple[tuple[int, str, float], ...] = ()  # thoughts given to the planner
    checked: tuple[str, ...] = ()  # what recall did to result thoughts whose tables changed
    remembered: tuple[tuple[int, str], ...] = ()  # thoughts stored after the answer
    replaced: tuple[int, ...] = ()  # older thoughts those contradicted
    corrections: list[ValueCorrected] = field(default_factory=list)  # literals replaced by stored values
    selection: TablesSelected | None = None  # the tables chosen for the planning prompt, with many tables
    procedure: str = ""  # the procedure run instead of a plan, with its values; or why a matching one was not
    examples: tuple[tuple[str, str, float], ...] = ()  # verified reads shown to the model: (question, SQL, similarity)
    verifiable: bool = False  # a read answered by one statement: the user may mark it right
    keep_name: str = ""  # a pending write's name as a procedure, proposed to keep it with its approval
    changes: tuple[TableChange, ...] = ()  # rows the writes changed, or would change when pending
    committed: bool = False  # the writes were saved: a failure after that takes nothing back
    activity: str = ""  # what the model is doing now, in words ("Writing SQL")
    activity_since: float | None = None  # wall-clock seconds when it started (the view ticks from it)
    started_at: float | None = None  # when the request started
    ended_at: float | None = None  # when it was answered, or failed (post-thinking moves it on)
    answer: str | None = None
    result: pd.DataFrame | None = None
    usage: Usage = field(default_factory=Usage)  # model tokens and calls of the whole request
    preview_rows: int = 10
    verbose: bool = False

    def apply(self, event: Event) -> None:
        if isinstance(event, RequestStarted):
            self.request, self.model, self.started_at = event.request, event.model, time.time()
        elif isinstance(event, ModelText):
            activity = ACTIVITIES.get(event.purpose, event.purpose)
            if activity != self.activity:  # another call: its text alone
                self.activity, self.activity_since, self.generating = activity, time.time(), ""
            self.generating += event.text
        elif isinstance(event, StepPlanned):
            self.generating = ""
            self.cards[event.index] = Card(event.index, event.goal, event.sql, attempt=event.attempt)
        elif isinstance(event, StepStarted):
            self.activity = ""
            card = self.cards.setdefault(event.index, Card(event.index, "", event.sql))
            card.sql, card.status, card.started_at = event.sql, "running", time.time()
        elif isinstance(event, (StepDone, StepFailed)):
            self._finish(event.step, "retrying" if isinstance(event, StepFailed) and event.will_retry else None)
        elif isinstance(event, Answered):
            self._answered(event.reply)
        else:
            self._decision(event)

    def _decision(self, event: Event) -> None:
        """Events that change the note or the log of the controller's decisions."""
        if isinstance(event, Routed):
            self.decisions.append(f"Routed as a {event.route} request.")
        elif isinstance(event, AskedAgain):
            self.note = f"Asked again, as corrected: {event.request}"
            self.decisions.append(self.note)
        elif isinstance(event, PreferenceSetAside):
            self.decisions.append(
                f"Asked without {event.preference!r}: figures are shown in {event.unit} after the query runs,"
                " converted from each column's unit."
            )
        elif isinstance(event, PlanMade):
            self.generating = ""
            self._drop_cards_from(event.first)
            kind = f"Revised plan from step {event.first}" if event.revision else "Plan"
            self.decisions.append(f"{kind}: {len(event.steps)} step{'s' if len(event.steps) != 1 else ''}.")
        elif isinstance(event, ReadRechecked):
            kept = "the ranking of single rows" if event.after == event.before else f"each one's total: {event.after}"
            self.decisions.append(f"Checked the query against the data: {event.why}; the model picked {kept}.")
        elif isinstance(event, CandidatesVoted):
            self.note = f"{event.agreeing} of {event.candidates} candidate queries agreed on this result."
            self.decisions.append(self.note)
        elif isinstance(event, FellBack):
            self.note = "That SQL did not work; asking once more for one plain statement."
            self.decisions.append(f"Fell back to one plain statement: {event.reason}")
        elif isinstance(event, RolledBack):
            self.phase, self.note = "failed", f"Rolled back: {event.reason}."
            self._writes_rolled_back()
        elif isinstance(event, ApprovalNeeded):
            self.phase, self.changes = "pending", event.changes
            changes = "; ".join(change.summary for change in event.changes) or "no rows"
            self.note = f"Not applied ({event.reason}): it would change {changes}."
        elif isinstance(event, ValueCorrected):
            self.corrections.append(event)
        elif isinstance(event, Refused):  # the answer says why, once
            self.decisions.append(f"Refused ({event.kind}); nothing was planned or run.")
        elif isinstance(event, ConceptsMissing):
            self.decisions.append(f"Not answered, since {'; '.join(event.missing)}.")
        elif isinstance(event, TablesSelected):
            self.selection = event
        elif isinstance(event, ProcedureUsed):
            self.procedure = procedure_text(event)
        elif isinstance(event, FactsExtracted):
            rows = ", ".join(f"{table} {count}" for table, count in event.rows)
            self.decisions.append(f"Read the rows to record from the request ({rows}); the SQL is written from them.")
            self.decisions += unstated_text(event.unstated)
            if event.from_lines:
                self.decisions.append(f"Set as the request labels them on its lines: {', '.join(event.from_lines)}.")
        elif isinstance(event, ChangeRead):
            self.decisions.append(
                f"Read as a {event.does} of {event.table} rows" + (f": {event.sql}" if event.sql else ".")
            )
            if event.asked_again:
                self.decisions.append(f"Asked again among the readings of the same rows: {event.asked_again}.")
            self.decisions += [f"Doubtful value: {doubt}." for doubt in event.doubts]
        elif isinstance(event, FactsNotUsed):
            self.decisions.append(f"Planned instead of written from the facts: {event.reason}.")
            self.decisions += unstated_text(event.unstated)
        elif isinstance(event, ProcedureNotUsed):
            self.procedure = f"Procedure {event.name!r} not used ({event.reason}); planned instead."
        elif isinstance(event, ExamplesRecalled):
            self.examples = event.examples
        elif isinstance(event, MemoryRecalled):
            self.recalled = event.thoughts
        elif isinstance(event, MemoryChecked):
            self.checked = memory_checked_text(event)
        elif isinstance(event, MemoryStored):
            self.generating, self.remembered, self.replaced = "", event.added, event.replaced
            self.activity, self.ended_at = "", time.time()
        elif isinstance(event, Replayed):
            same = {True: "same result as recorded", False: "the result differs from the recorded one", None: ""}
            self.note = f"Replayed the SQL recorded from {event.model}, without the model" + (
                f": {same[event.same_result]}." if event.same_result is not None else "."
            )
        elif isinstance(event, Committed):
            self.changes, self.committed = event.changes, True
            if event.request_id is not None:
                self.note = f"Saved as request {event.request_id}; %chatdb undo (or ChatDB.undo()) takes it back."

    def _writes_rolled_back(self) -> None:
        """A request that ends before its writes are saved keeps none of them: no card says they were made."""
        if self.committed:
            return
        for card in self.cards.values():
            if card.status == "done" and card.rows_affected is not None:
                card.status = "rolled back"

    def _drop_cards_from(self, first: int) -> None:
        """A revised plan replaces the cards of the steps it re-plans."""
        for index in [i for i in self.cards if i >= first and self.cards[i].status in ("waiting", "retrying")]:
            del self.cards[index]

    def _answered(self, reply: Reply) -> None:
        self.generating, self.activity, self.ended_at = "", "", time.time()
        self.answer, self.result = reply.answer, reply.result
        self.usage = reply.usage
        if self.phase == "running":
            self.phase = "pending" if reply.pending else "done"
        if reply.seen and reply.request_id is not None and not reply.procedure and reply.rule is None:
            self.note = f"{self.note or ''} {KEEP_HINT}".strip()
        if reply.pending and not reply.procedure and reply.rule is None and reply.plan:
            self.keep_name = proposed_name(reply.plan)
        self.verifiable = reply.route == Route.READ and len(reply.sql) == 1 and not reply.changes and not reply.seen
        if reply.pending:  # tried and rolled back: nothing is changed until approved
            for card in self.cards.values():
                if card.status == "done" and card.rows_affected is not None:
                    card.status = "waiting for approval"

    def _finish(self, step: Step, status: str | None) -> None:
        card = self.cards.setdefault(step.index, Card(step.index, step.goal, step.sql))
        card.sql, card.status, card.error = step.sql, status or step.status, step.error
        card.rows_affected, card.started_at, card.note = step.rows_affected, None, step.note
        if step.result is not None:
            card.row_count = step.result.row_count
            card.elapsed_ms = step.result.elapsed_ms
            if step.rows_affected is None:
                card.preview = step.result.preview(self.preview_rows)

    # -- the user's decisions and failures the view is told about ------------------------------

    def failed(self, message: str, shown_below: bool = False) -> None:
        """The request ended with an error: mark the running step (if any) and show the message, or,
        when the cell shows it as its error just below (`shown_below`), say only what it means."""
        for card in self.cards.values():
            if card.status == "running":
                card.status, card.error, card.started_at = "failed", None if shown_below else message, None
            elif card.status == "waiting":
                card.status = "not run"
            elif shown_below and card.error and card.error in message:
                card.error = None  # said once, by the cell's error
        self._writes_rolled_back()
        self.phase, self.generating, self.activity, self.ended_at = "failed", "", "", time.time()
        self.note = (FAILED_NOTE if self.cards else "Nothing was written.") if shown_below else message

    def result_is_cell_value(self) -> None:
        """The final result is the cell's value: the card it came from says so instead of showing it."""
        done = [card for card in self.cards.values() if card.status == "done" and card.preview is not None]
        if done and self.result is not None:
            done[-1].is_cell_value = True

    def rejected(self) -> None:
        self.phase, self.note = "rejected", "Rejected: nothing was written."

    def approving(self) -> None:
        self.phase, self.note, self.committed = "running", "Approved: applying the writes.", False
        self.keep_name = ""

    def kept(self, said: str) -> None:
        """The applied writes were kept as a procedure with their approval (or could not be): `said`, in
        place of the hint to keep them."""
        self.note = f"{(self.note or '').replace(KEEP_HINT, '').strip()} {said}".strip()

    def verified(self, said: str) -> None:
        """The read was kept as a verified example (or could not be): `said`; it is not offered again."""
        self.verifiable = False
        self.note = f"{self.note or ''} {said}".strip()

    def rerun(self, index: int, reply: Reply) -> None:
        """Step `index` was edited and run again as one statement; its card shows the new outcome."""
        self.verifiable = False  # what the user wrote is theirs: an edited read is kept as corrected
        if reply.steps:
            step = reply.steps[-1]
            self._finish(
                Step(
                    index,
                    self.cards[index].goal if index in self.cards else step.goal,
                    step.sql,
                    step.status,
                    step.result,
                    step.error,
                    step.rows_affected,
                ),
                None,
            )
        self.changes = reply.changes
        self.answer, self.result = reply.answer, reply.result
        self.phase = "pending" if reply.pending else "done"
        card = self.cards.get(index)
        if reply.pending and card is not None and card.rows_affected is not None:
            card.status = "waiting for approval"
        changes = "; ".join(change.summary for change in reply.changes) or "no rows"
        self.note = f"Step {index} was edited and run again" + (
            f": not applied yet, it would change {changes}." if reply.pending else "."
        )

    def rerun_failed(self, index: int, sql: str, message: str) -> None:
        card = self.cards.setdefault(index, Card(index, "", sql))
        card.sql, card.status, card.error = sql, "failed", message
        card.preview = card.row_count = card.rows_affected = card.elapsed_ms = None
        self.note = f"Step {index} was edited and did not run; nothing was written."

    @classmethod
    def from_reply(cls, reply: Reply) -> ChainState:
        state = cls(request=reply.request, model=reply.model)
        for step in reply.steps:
            state._finish(step, None)
        state.changes = reply.changes
        state._answered(reply)
        return state


def proposed_name(plan: Sequence[PlannedStep]) -> str:
    """A name for a write kept as a procedure, from what its statements do ("add hires", "change racks").

    >>> proposed_name([PlannedStep("", "INSERT INTO hires VALUES (1)"), PlannedStep("", 'UPDATE "racks" SET n = 1')])
    'add hires and change racks'
    """
    doing: dict[type, str] = {exp.Insert: "add", exp.Update: "change", exp.Delete: "remove from"}
    said = [
        f"{verb} {target_table(tree)}"
        for step in plan
        for tree in parse_statements(step.sql)
        if (verb := doing.get(type(tree))) and target_table(tree)
    ]
    return " and ".join(dict.fromkeys(said)) or "record this"


def procedure_text(event: ProcedureUsed) -> str:
    """
    >>> used = ProcedureUsed("feed", "request 3", (("supplier", "Calder"), ("items", [{"horse": "Tansy", "kg": 8}])), 0.9)
    >>> procedure_text(used).removesuffix(NOT_MEANT)
    "Using procedure 'feed' (learned from request 3): supplier 'Calder'; items: Tansy, 8. "
    >>> procedure_text(ProcedureUsed("back", "taught", (("boat", "Heron"),), 0.8, ("step 1",))).removesuffix(NOT_MEANT)
    "Using procedure 'back' (taught): boat 'Heron'. Left out, as the request gives none of its values: step 1. "
    """
    values = []
    for name, value in event.values:
        if isinstance(value, list):
            listed = "; ".join(", ".join(str(v) for v in item.values()) for item in value if isinstance(item, dict))
            values.append(f"{name}: {listed}")
        else:
            values.append(f"{name} {value!r}")
    origin = "taught" if event.source == "taught" else f"learned from {event.source}"
    left_out = (
        f"Left out, as the request gives none of its values: {', '.join(event.left_out)}. " if event.left_out else ""
    )
    return f"Using procedure {event.name!r} ({origin}): {'; '.join(values)}. {left_out}{NOT_MEANT}"


def memory_checked_text(event: MemoryChecked) -> tuple[str, ...]:
    """
    >>> for line in memory_checked_text(MemoryChecked(((3, 7, "How many? n: 9"),), ((4, "Units? u: 2", "no u"),))):
    ...     print(line)
    Refreshed #3 as #7, since its tables changed: How many? n: 9
    Withheld #4, since its SQL no longer runs (no u): Units? u: 2
    """
    refreshed = [f"Refreshed #{old} as #{new}, since its tables changed: {text}" for old, new, text in event.refreshed]
    withheld = [f"Withheld #{i}, since its SQL no longer runs ({why}): {text}" for i, text, why in event.withheld]
    return (*refreshed, *withheld)


def unstated_text(unstated: tuple[str, ...]) -> list[str]:
    """What the model read that the request does not say, as a decision line (none when nothing)."""
    return [f"Left out, as the request does not state it so: {', '.join(unstated)}."] if unstated else []
