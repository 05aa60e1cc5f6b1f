"""A read that also states a preference of units ("Top 3 sites by turbines, from now on show outputs in
MW"): the read is planned without it, and its figures are converted after it runs (`shown_units`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ...language.units import target_unit
from .. import prompts
from ..context import Context
from ..events import Event, PreferenceSetAside
from ..kinds import Route
from ..shown_units import Preference, split_preference
from ..stage import stage
from .route import ROUTE_MAX_TOKENS


@stage
def set_preference_aside(ctx: Context) -> Iterator[Event]:
    """Where a read's words hold a preference's cue and a unit to show figures in, in a clause apart from
    its question, and one short call agrees that clause asks for no rows, the question is planned alone
    and the preference is kept for the answer (and noted after it, in the user's words). The words alone
    take nothing out: without the model's agreement the request is planned as written."""
    request = ctx.request
    if ctx.route != Route.READ or request.approved or request.said or ctx.reply is not None:
        return
    split = split_preference(request.text)
    if split is None:
        return
    question, clause = split
    unit = target_unit(clause)
    assert unit is not None, "a preference is split off by the unit it names"
    messages = prompts.cue_messages("note", clause)
    completion = yield from ctx.calls("route", messages, prompts.cue_schema("note"), ROUTE_MAX_TOKENS)
    if not prompts.cue_confirmed("note", completion.text):
        return
    ctx.request = replace(request, text=question, stated=request.text)
    ctx.preferred = [Preference(clause, unit), *(p for p in ctx.preferred if p.unit.kind != unit.kind)]
    yield PreferenceSetAside(question, clause, unit.symbol)
