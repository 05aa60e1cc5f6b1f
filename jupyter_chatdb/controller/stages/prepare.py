"""A step's SQL made ready to run: parsed once, fixed up as a tree, its literals grounded, then checked.

    text -> trees -> the session's fix-up rules before the values (`sql.fixup_rules.BEFORE_VALUES`)
    -> ground literals (`ground_values.correct_values`) -> the rules after them (`AFTER_VALUES`) -> guard
    (SQL DuckDB cannot read gets one try as SQLite/MySQL/PostgreSQL SQL, with its tables qualified)

The fix-ups read a step's statements together (`fixups.joined`).
"""

from __future__ import annotations

import functools
from collections.abc import Generator

from sqlglot import exp

from ...errors import SQLRefused, SQLSyntaxError, WriteWidened
from ...grounding.keys import links
from ...grounding.labels import label_column, names_reference
from ...sql import fixup_rules, fixups, guard, trees
from ...sql.column_owners import Link
from ...sql.write_scope import removed_bounds
from ..context import Chain, Context, StepProblem
from ..events import Event
from .ground_values import correct_values


def prepared(ctx: Context, chain: Chain, index: int, sql: str) -> Generator[Event, None, guard.Checked]:
    """The guard's verdict on step `index`'s `sql` (placeholders already `$name` parameters) after its
    fix-ups. A refusal the model may correct becomes a StepProblem (the plan is revised); one it may not
    is raised as it is."""
    shown = ctx.shown or ()
    try:
        given = fixups.joined(trees.parse(sql))
        scope, reads = _scope(ctx, chain), not chain.writes and not ctx.request.approved
        before, after = fixup_rules.around_values(ctx.services.fixups)
        tree = fixup_rules.rewritten(given, scope, before, reads)
        if ctx.services.correct_values:
            tree = yield from correct_values(ctx, chain, index, tree)
        tree = fixup_rules.rewritten(tree, scope, after, reads)
        if tree is not given:
            _refuse_widening(given, tree)
            sql = trees.written(tree)
        return guard.check(fixups.split(tree), chain.schema, mode=chain.mode)
    except SQLSyntaxError as error:
        problem: SQLRefused = error
    except SQLRefused as error:
        if not error.fixable:
            raise
        raise StepProblem(str(error)) from None
    fixed = fixups.to_duckdb(sql)
    if fixed is None:
        raise StepProblem(str(problem)) from None
    try:
        together = fixups.joined(fixed)
        fixed = fixups.split(fixups.with_views(together, ctx.views) or together)
        return guard.check(fixups.with_tables_qualified(fixed, chain.schema, shown), chain.schema, mode=chain.mode)
    except SQLRefused as error:
        if not error.fixable:
            raise
        raise StepProblem(str(error)) from None


def _refuse_widening(given: exp.Expr, fixed: exp.Expr) -> None:
    """A fix-up may not widen a write: one that removed a table, a join or a condition is refused, so the
    write as given fails (for the model to revise, or for the user to correct) instead of touching more rows."""
    removed = removed_bounds(given, fixed)
    if removed:
        raise WriteWidened(
            f"This write cannot run as written, and fixing it would remove {removed}, which would change the "
            "rows it touches: name only tables and columns that exist."
        )


def _scope(ctx: Context, chain: Chain) -> fixup_rules.Scope:
    """What the fix-ups read of the request, the data and the step."""
    return fixup_rules.Scope(
        chain.schema,
        ctx.shown or (),
        ctx.views,
        ctx.catalog.text_columns(),
        ctx.catalog.moment_columns(),
        links=lambda: _links(ctx),
        label_of=functools.cache(lambda table: label_column(ctx.catalog, ctx.session, table)),
        named=lambda column, target: names_reference(ctx.request.text, column, target),
    )


def _links(ctx: Context) -> list[Link]:
    """The references between the tables: declared, and implied by the data."""
    return links(ctx.catalog, ctx.services.keys.references(ctx.catalog, ctx.session))
