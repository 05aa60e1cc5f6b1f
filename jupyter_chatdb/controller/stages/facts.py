"""Writes from facts (`sql/facts.py`): for a write, one constrained call reads the rows the request states,
and code writes their statements; what that cannot express is planned as before."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator

from ...grounding.named_tables import named_tables
from ...grounding.stated_values import Stated, stated_only
from ...sql import facts
from ...sql.facts_agreement import agreed
from ...sql.facts_scope import in_scope
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
    stored = ctx.services.values if ctx.options.values else None
    shapes = in_scope(shapes, named_tables(ctx.request.text, ctx.catalog, stored))
    if not shapes:
        return
    today = dt.date.today()
    messages = prompts.facts_messages(facts.describe(shapes), ctx.request.text, today.isoformat())
    completion = yield from ctx.calls("extract", messages, facts.json_schema(shapes), FACTS_MAX_TOKENS)
    try:
        read = json.loads(completion.text)
    except json.JSONDecodeError:
        yield FactsNotUsed("the model's rows were not JSON")
        return
    stated = stated_only(read if isinstance(read, dict) else {}, ctx.request.text, today)
    rows, unstated = _without_made_up_rows(shapes, stated)
    agreement = agreed(shapes, rows, ctx.request.text)
    unstated += tuple(agreement.unlabelled)
    try:
        writes, params = facts.statements(shapes, rows)
    except facts.NotExpressible as reason:
        yield FactsNotUsed(str(reason), unstated)
        return
    ctx.steps = [PlannedStep(write.goal, write.sql, write.binds) for write in writes]
    ctx.params.update(params)
    counts = ((table, len(listed)) for table, listed in rows.items() if listed)
    yield FactsExtracted(tuple(counts), unstated, tuple(agreement.set_from_lines))


def _without_made_up_rows(shapes: dict[str, facts.Shape], stated: Stated) -> tuple[dict[str, list], tuple[str, ...]]:
    """The rows read, less those that lost a value the request does not say and so lack one their table
    needs (a price change the model made up beside a sale); and what was left out, for the user."""
    rows: dict[str, list] = {}
    dropped = []
    for table, listed in stated.rows.items():
        rows[table] = []
        for index, row in enumerate(listed):
            if (table, index) in stated.trimmed and table in shapes and facts.lacks(shapes, table, row):
                dropped.append(f"a {table} row")
            else:
                rows[table].append(row)
    return rows, (*stated.left_out, *dropped)
