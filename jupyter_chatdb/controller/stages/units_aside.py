"""A read that also states a preference of units ("Top 3 sites by turbines, from now on show outputs in
MW"), or asks for its figures in a unit ("... in MW?"): the read is planned without it, and its figures
are converted after it runs (`shown_units`)."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import replace

from ...language.units import decimals_said, target_unit
from .. import prompts
from ..context import Context
from ..events import Event, PreferenceSetAside
from ..kinds import Route
from ..shown_units import Preference, split_preference, unit_asked, words_before
from ..stage import stage

UNITS_MAX_TOKENS = 12  # {"message": "units"}


@stage
def set_preference_aside(ctx: Context) -> Iterator[Event]:
    """Where a read's words hold a preference's cue and a unit to show figures in, in a clause apart from
    its question, and one short call agrees that clause asks for no rows, the question is planned alone
    and the preference is kept for the answer (and in the memory, in the user's words). The words alone
    take nothing out: without the model's agreement the request is planned as written. A question with no
    such clause that asks for its figures in a unit is read the same way (`_unit_asked`)."""
    request = ctx.request
    if ctx.route != Route.READ or request.approved or request.said or ctx.reply is not None:
        return
    split = split_preference(request.text)
    if split is None:
        yield from _unit_asked(ctx)
        return
    question, clause = split
    unit = target_unit(clause)
    assert unit is not None, "a preference is split off by the unit it names"
    if not (yield from only_units(ctx, clause)):
        return
    ctx.request = replace(request, text=question, stated=request.text)
    state(ctx, Preference(clause, unit, decimals_said(clause)))
    yield PreferenceSetAside(question, clause, unit.symbol)


def _unit_asked(ctx: Context) -> Iterator[Event]:
    """A question asking for figures in a unit a column's figures are not in ("What is the total output in
    MW?" of a column in kW): asked without it when the model agrees it only says the unit, its figures
    converted by code; for this question only, nothing kept."""
    request = ctx.request
    asked = unit_asked(request.text, ctx.catalog)
    if asked is None:
        return
    question, said, unit = asked
    if not (yield from only_units(ctx, f"{said} (said in: {request.text})")):
        return
    ctx.request = replace(request, text=question, stated=request.text)
    asked_of = words_before(request.text, said)  # the column a note of figures left as stored may name
    _prefer(ctx, Preference(asked_of, unit))
    yield PreferenceSetAside(question, said, unit.symbol)


def only_units(ctx: Context, clause: str) -> Generator[Event, None, bool]:
    """Whether the model agrees `clause` only says what unit figures are to be shown in."""
    messages = prompts.cue_messages("units", clause)
    completion = yield from ctx.calls("route", messages, prompts.cue_schema("units"), UNITS_MAX_TOKENS)
    return prompts.cue_confirmed("units", completion.text)


def state(ctx: Context, preference: Preference) -> None:
    """The request states `preference`: it wins over one kept for the same kind of unit, and is kept."""
    _prefer(ctx, preference)
    ctx.stated_preference = preference


def _prefer(ctx: Context, preference: Preference) -> None:
    """Figures of `preference`'s kind are shown in its unit for this request, whatever one kept says."""
    ctx.preferred = [preference, *(p for p in ctx.preferred if p.unit.kind != preference.unit.kind)]
