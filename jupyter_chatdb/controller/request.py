"""What a view asks the controller to do."""

from __future__ import annotations

from dataclasses import dataclass

from ..sql.approval import Preview
from ..sql.rules import Rule
from .kinds import Route
from .planned_steps import MAX_STEPS, PlannedStep


@dataclass(frozen=True)
class Request:
    text: str
    allow_writes: bool = False
    summarize: bool = True  # False: a plain answer from the result, without a second model call
    dry_run: bool = False  # plan and show what would change, change nothing
    approved: tuple[PlannedStep, ...] = ()  # a plan the user approved: run it as is, no model calls
    max_steps: int = MAX_STEPS  # the longest plan the model may write
    route: Route = Route.WRITE  # read | write: how an approved plan runs (it is not routed by the model)
    use_memory: bool = True  # recall thoughts before planning and store new ones after the answer
    expected: Preview | None = None  # an approval: the approved plan must change exactly these rows
    params: tuple[tuple[str, object], ...] = ()  # values the approved plan's $parameters are bound to
    seen: bool = False  # the user saw (approved) or wrote the approved plan: it may become a procedure
    use_procedures: bool = True  # a write of a kind a procedure was learned for runs that procedure
    rule: Rule | None = None  # the approved plan is this rule, proposed: approving it keeps the rule
    previous: str = ""  # the request asked before this one in the session: what a correction is about
    said: str = ""  # the user's own words, where `text` is the question before them asked again as they correct it
    stated: str = ""  # the request as written, where `text` leaves out a preference of units it also states
    previous_sql: str = ""  # the SELECT of the last read answered in the session: what "that query" is

    @property
    def own_words(self) -> str:
        """What the user wrote: the correction, or the request with the preference its question leaves out."""
        return self.said or self.stated or self.text
