"""Writes from facts (`sql/facts.py`): for a write, one constrained call reads the rows the request states,
and code writes their statements; what that cannot express is planned as before."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator

from ...sql import facts
from ...sql.rules import derived_columns
from .. import prompts
from ..context import Context
from ..events import Event, FactsExtracted, FactsNotUsed
from ..plan import PlannedStep

FACTS_MAX_TOKENS = 500


def write_from_facts(ctx: Context) -> Iterator[Event]:
    """For a write no procedure took: the rows it states, as JSON shaped by the stored tables (columns that
    rules keep true and keys from sequences left out), written by code with bound values."""
    if ctx.route != "write" or ctx.steps or ctx.request.approved:
        return
    rules = ctx.services.rules
    shapes = facts.shapes(ctx.session, ctx.catalog, derived_columns(rules) if rules is not None else {})
    shapes = {name: shape for name, shape in shapes.items() if shape.fields}
    if not shapes:
        return
    messages = prompts.facts_messages(facts.describe(shapes), ctx.request.text, dt.date.today().isoformat())
    completion = yield from ctx.calls("extract", messages, facts.json_schema(shapes), FACTS_MAX_TOKENS)
    try:
        rows = json.loads(completion.text)
        writes, params = facts.statements(shapes, rows if isinstance(rows, dict) else {})
    except json.JSONDecodeError:
        yield FactsNotUsed("the model's rows were not JSON")
        return
    except facts.NotExpressible as reason:
        yield FactsNotUsed(str(reason))
        return
    ctx.steps = [PlannedStep(write.goal, write.sql, write.binds) for write in writes]
    ctx.params.update(params)
    counts = ((table, len(listed) if isinstance(listed, list) else 1) for table, listed in rows.items() if listed)
    yield FactsExtracted(tuple(counts))
