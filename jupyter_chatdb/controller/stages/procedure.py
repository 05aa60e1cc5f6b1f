"""Procedural memory in a request: a write of a kind the user approved or taught before runs that
procedure; the model only chooses it and reads its values in the request (two short constrained calls).
Procedures that touch none of the tables the request names its things by, while others do, are not
offered: a customer who "purchased" is no supplier's delivery."""

from __future__ import annotations

import json
from collections.abc import Iterator

from ...grounding.named_tables import named_tables
from ...kernel_memory.procedures import CANDIDATES, ProcedureError
from .. import prompts
from ..context import Context
from ..events import Event, ProcedureNotUsed, ProcedureUsed
from ..plan import PlannedStep

CHOOSE_MAX_TOKENS = 16 + 12 * CANDIDATES
PICK_MAX_TOKENS = 24
FILL_TOKENS_PER_ITEM = 40
FILL_MAX_TOKENS = 400


def use_procedure(ctx: Context) -> Iterator[Event]:
    """For a write close in meaning to requests procedures were learned from: the model chooses one of
    them (or none), then reads its values; its steps are the plan. When none is chosen, or its values
    cannot be read, the request is planned as usual."""
    book = ctx.services.procedures
    if ctx.route != "write" or book is None or ctx.steps or not ctx.request.use_procedures:
        return
    stored = ctx.services.values if ctx.options.values else None
    named = named_tables(ctx.request.text, ctx.catalog, stored)
    matches = book.candidates(ctx.request.text, ctx.options.procedure_match, named=named)
    if not matches:
        return
    offered = [(m.procedure.name, m.request, m.procedure.summary()) for m in matches]
    names = [name for name, _, _ in offered]
    messages = prompts.choose_messages(ctx.request.text, offered)
    schema = prompts.choose_schema(names)
    completion = yield from ctx.calls("procedure", messages, schema, CHOOSE_MAX_TOKENS)
    said = _json_object(completion.text)
    match = next((m for m in matches if said.get(m.procedure.name) is True), None)  # the closest one it says
    if match is None and prompts.NONE_PICKED not in names:  # a no to each: asked once more, for one or none
        messages = prompts.pick_messages(ctx.request.text, offered)
        completion = yield from ctx.calls("procedure", messages, prompts.pick_schema(names), PICK_MAX_TOKENS)
        picked = prompts.parse_json(completion.text, "procedure")
        match = next((m for m in matches if m.procedure.name == picked), None)
    if match is None:
        yield ProcedureNotUsed(matches[0].procedure.name, "the model found it another kind of change")
        return
    procedure = match.procedure
    messages = prompts.fill_messages(procedure.name, procedure.requests[0], procedure.example, ctx.request.text)
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
    yield ProcedureUsed(procedure.name, procedure.source, tuple(values.items()), match.similarity)


def _json_object(text: str) -> dict[str, object]:
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return parsed if isinstance(parsed, dict) else {}
