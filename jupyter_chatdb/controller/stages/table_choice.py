"""Schema selection with many tables: the tables most like the request, then the model's pick, settled."""

from __future__ import annotations

from collections.abc import Iterator

from ...grounding.flat_views import flat_views
from ...grounding.joins import joined_tables
from ...grounding.selection import settle
from ...language.words import named_in
from .. import prompts
from ..context import Context
from ..events import Event, TablesSelected
from ..kinds import Route
from ..stage import stage

TABLES_MAX_TOKENS = 120


@stage
def consider_tables(ctx: Context) -> Iterator[Event]:
    """With more than `select_over` tables: the top K most like the request and the tables joined to them
    (no model call), and the catalog's joins; with few, nothing (every table is shown)."""
    options, catalog = ctx.options, ctx.catalog
    if not options.top_tables or len(catalog) <= options.select_over:
        return
    ctx.links = joined_tables(catalog)
    ctx.considered = ctx.services.tables.candidates(
        ctx.request.text, catalog, options.top_tables, ctx.services.values, ctx.links
    )
    yield from ()


@stage
def pick_tables(ctx: Context) -> Iterator[Event]:
    """One constrained call orders the considered tables and stops when they are enough; `settle` makes
    the pick consistent with the request. The tables chosen are all the planner is shown."""
    if not ctx.considered:
        return
    names = [c.table for c in ctx.considered]
    picked: list[str] = []
    if len(names) > 1:
        listed = [(name, [c.name for c in ctx.catalog.tables[name].columns]) for name in names]
        messages = prompts.table_choice_messages(ctx.request.text, listed)
        completion = yield from ctx.calls("tables", messages, prompts.table_choice_schema(names), TABLES_MAX_TOKENS)
        picked = prompts.parse_tables(completion.text, names)
    chosen, changes = settle(picked, ctx.considered, ctx.links) if picked else (names, [])
    yield TablesSelected(
        tuple((c.table, c.score, c.reasons) for c in ctx.considered),
        tuple(chosen),
        len(ctx.catalog),
        refined=bool(picked),
        picked=tuple(picked),
        changes=tuple(changes),
    )
    ctx.shown = tuple(chosen)


@stage
def leave_out_copies(ctx: Context) -> Iterator[Event]:
    """For a read: the DataFrames that only repeat rows of another table (`grounding/copies.py`, a
    notebook's scratch slices) are not shown to the planner, unless the request names them."""
    if ctx.route != Route.READ or ctx.request.approved:
        return
    found = ctx.services.copies.find(ctx.session, ctx.catalog)
    left_out = {frame for frame in found if not named_in(ctx.request.text, frame)}
    if left_out:
        ctx.shown = tuple(name for name in ctx.shown or ctx.catalog.tables if name not in left_out)
    yield from ()


@stage
def flatten_joins(ctx: Context) -> Iterator[Event]:
    """For a read: each table of the ones shown that nothing refers to, joined with the rows it refers to,
    as a view the model may read instead of writing the joins (`grounding.flat_views`)."""
    if ctx.route != Route.READ or ctx.steps:
        return
    ctx.views = _views(ctx)
    yield from ()


@stage
def flatten_joins_on_repair(ctx: Context) -> Iterator[Event]:
    """The same views, kept back for a read's first repair: a first try that failed is most often a join
    gone wrong, and the views are shown only then (they cost the other questions accuracy)."""
    if ctx.route != Route.READ or ctx.steps:
        return
    ctx.repair_views = _views(ctx)
    yield from ()


def _views(ctx: Context) -> dict[str, str]:
    implied = ctx.services.keys.references(ctx.catalog, ctx.session)
    return {view.name: view.sql for view in flat_views(ctx.catalog, implied, ctx.shown)}
