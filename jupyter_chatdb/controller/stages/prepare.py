"""A step's SQL made ready to run: parsed once, fixed up as a tree, its literals grounded, then checked.

    text -> trees -> views as CTEs -> qualify tables -> quoted strings -> drop unknown joins
    -> tables read for columns they lack -> columns of the wrong table -> the tables missing columns are in
    -> SQLite's bare columns -> ties broken by the group keys -> ground literals -> numbers stored as text
    -> patterns matched against other types -> (reads) days of moments compared with days -> labels for
    keys joined only to be shown -> names for aggregate columns -> guard
    (SQL DuckDB cannot read gets one try as SQLite/MySQL/PostgreSQL SQL, with its tables qualified)

The fix-ups read a step's statements together (`fixups.joined`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator

from sqlglot import exp

from ...errors import SQLRefused, SQLSyntaxError, WriteWidened
from ...grounding.keys import links
from ...grounding.labels import label_column, names_reference
from ...sql import aliases, bare_columns, column_owners, fixups, guard, ties
from ...sql.column_owners import Link
from ...sql.labels import labels_for_keys
from ...sql.write_scope import removed_bounds
from ..context import Chain, Context, StepProblem
from ..events import Event
from .values import correct_values


def prepared(ctx: Context, chain: Chain, index: int, sql: str) -> Generator[Event, None, guard.Checked]:
    """The guard's verdict on step `index`'s `sql` (placeholders already `$name` parameters) after its
    fix-ups. A refusal the model may correct becomes a StepProblem (the plan is revised); one it may not
    is raised as it is."""
    shown = ctx.shown or ()
    try:
        given = fixups.joined(guard.parse(sql))
        tree = fixups.with_views(given, ctx.views) or given
        tree = fixups.qualify_tables(tree, chain.schema, shown) or tree  # before literals are matched
        tree = fixups.quoted_strings(tree, chain.schema) or tree
        tree = fixups.drop_unknown_joins(tree, chain.schema) or tree
        tree = column_owners.swap_tables(tree, chain.schema) or tree
        tree = column_owners.requalify_columns(tree, chain.schema) or tree
        tree = column_owners.join_owners(tree, chain.schema, lambda: _links(ctx)) or tree
        tree = bare_columns.bare_columns(tree) or tree
        tree = ties.ties_by_group(tree) or tree
        tree = yield from correct_values(ctx, chain, index, tree)
        text_columns = ctx.catalog.text_columns()
        tree = fixups.cast_text_numbers(tree, chain.schema, text_columns) or tree
        tree = fixups.like_on_non_text(tree, chain.schema, text_columns) or tree
        if not chain.writes and not ctx.request.approved:  # the model's reads; SQL a user wrote stays as written
            tree = fixups.days_of_moments(tree, chain.schema, ctx.catalog.moment_columns()) or tree
            tree = labels_for_keys(tree, chain.schema, lambda: _links(ctx), _label_of(ctx), _named(ctx)) or tree
            tree = aliases.readable_aliases(tree) or tree
        if tree is not given:
            _refuse_widening(given, tree)
            sql = guard.written(tree)
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


def _label_of(ctx: Context) -> Callable[[str], str | None]:
    return functools.cache(lambda table: label_column(ctx.catalog, ctx.session, table))


def _named(ctx: Context) -> Callable[[str, str], bool]:
    return lambda column, target: names_reference(ctx.request.text, column, target)


def _links(ctx: Context) -> list[Link]:
    """The references between the tables: declared, and implied by the data."""
    return links(ctx.catalog, ctx.services.keys.references(ctx.catalog, ctx.session))
