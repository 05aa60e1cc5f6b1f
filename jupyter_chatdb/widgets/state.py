"""The state of one chain view, changed only by `apply(event)`; renderers read it."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..controller.events import (
    Answered,
    ApprovalNeeded,
    CandidatesVoted,
    Committed,
    Event,
    FellBack,
    ModelText,
    Reply,
    RequestStarted,
    RolledBack,
    Step,
    StepDone,
    StepFailed,
    StepPlanned,
    StepStarted,
)


@dataclass
class Card:
    index: int
    goal: str
    sql: str
    status: str = "waiting"  # waiting | running | done | failed | retrying
    attempt: int = 1
    row_count: int | None = None
    rows_affected: int | None = None
    preview: pd.DataFrame | None = None
    elapsed_ms: float | None = None
    error: str | None = None


@dataclass
class ChainState:
    request: str = ""
    model: str = ""
    cards: dict[int, Card] = field(default_factory=dict)
    generating: str = ""  # model output streaming in
    note: str | None = None
    answer: str | None = None
    result: pd.DataFrame | None = None
    preview_rows: int = 10

    def apply(self, event: Event) -> None:
        if isinstance(event, RequestStarted):
            self.request, self.model = event.request, event.model
        elif isinstance(event, ModelText):
            self.generating += event.text
        elif isinstance(event, StepPlanned):
            self.generating = ""
            self.cards[event.index] = Card(event.index, event.goal, event.sql, attempt=event.attempt)
        elif isinstance(event, StepStarted):
            card = self.cards.setdefault(event.index, Card(event.index, "", event.sql))
            card.sql, card.status = event.sql, "running"
        elif isinstance(event, (StepDone, StepFailed)):
            self._finish(event.step, "retrying" if isinstance(event, StepFailed) and event.will_retry else None)
        elif isinstance(event, RolledBack):
            self.note = f"Rolled back: {event.reason}."
        elif isinstance(event, ApprovalNeeded):
            changes = "; ".join(change.summary for change in event.changes) or "no rows"
            self.note = f"Not applied ({event.reason}): it would change {changes}."
        elif isinstance(event, Committed) and event.request_id is not None:
            self.note = f"Saved as request {event.request_id}; ChatDB.undo() takes it back."
        elif isinstance(event, FellBack):
            self.note = f"The plan did not work ({event.reason}); trying one plain SQL statement instead."
        elif isinstance(event, CandidatesVoted):
            self.note = f"{event.agreeing} of {event.candidates} candidate plans agreed on this result."
        elif isinstance(event, Answered):
            self.generating = ""
            self.answer, self.result = event.reply.answer, event.reply.result

    def _finish(self, step: Step, status: str | None) -> None:
        card = self.cards.setdefault(step.index, Card(step.index, step.goal, step.sql))
        card.sql, card.status, card.error = step.sql, status or step.status, step.error
        card.rows_affected = step.rows_affected
        if step.result is not None:
            card.row_count = step.result.row_count
            card.elapsed_ms = step.result.elapsed_ms
            if step.rows_affected is None:
                card.preview = step.result.preview(self.preview_rows)

    @classmethod
    def from_reply(cls, reply: Reply) -> "ChainState":
        state = cls(request=reply.request, model=reply.model)
        for step in reply.steps:
            state._finish(step, None)
        state.answer, state.result = reply.answer, reply.result
        return state
