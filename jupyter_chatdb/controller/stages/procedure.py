"""Procedural memory in a request: a write of a kind the user approved or taught before runs that
procedure; the model only reads its values in the request (one short constrained call)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from ...kernel_memory.procedures import ITEMS, SAME_KIND, ProcedureError
from .. import prompts
from ..context import Context
from ..events import Event, ProcedureNotUsed, ProcedureUsed
from ..plan import PlannedStep

FILL_TOKENS_PER_ITEM = 40
FILL_MAX_TOKENS = 400


def use_procedure(ctx: Context) -> Iterator[Event]:
    """For a write close in meaning to a request a procedure was learned from: its values, filled by the
    model, and its steps as the plan. When the values cannot be read, the request is planned as usual."""
    book = ctx.services.procedures
    if ctx.route != "write" or book is None or ctx.steps or not ctx.request.use_procedures:
        return
    match = book.match(ctx.request.text, ctx.options.procedure_match)
    if match is None:
        return
    procedure = match.procedure
    example = {SAME_KIND: True, **procedure.example} if procedure.example else {}
    messages = prompts.fill_messages(procedure.name, procedure.requests[0], example, ctx.request.text)
    budget = min(FILL_MAX_TOKENS, 60 + FILL_TOKENS_PER_ITEM * (1 + len(procedure.item_fields)))
    completion = yield from ctx.calls("fill", messages, procedure.values_schema(), budget)
    try:
        filled = json.loads(completion.text)
        values = procedure.checked_values(filled if isinstance(filled, dict) else {})
    except (json.JSONDecodeError, ProcedureError) as error:
        reason = str(error) if isinstance(error, ProcedureError) else "the model's values were not JSON"
        yield ProcedureNotUsed(procedure.name, reason)
        return
    steps, bound = procedure.expanded(values)
    ctx.steps = [PlannedStep(step.goal, step.sql, step.binds) for step in steps]
    ctx.params, ctx.procedure = bound, procedure.name
    shown = tuple((name, value) for name, value in values.items() if name != ITEMS)
    if ITEMS in values:
        shown += ((ITEMS, values[ITEMS]),)
    yield ProcedureUsed(procedure.name, procedure.source, shown, match.similarity)
