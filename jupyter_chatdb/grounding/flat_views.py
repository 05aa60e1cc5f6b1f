"""Views that flatten references: each table that nothing refers to (a table of events or facts) with the
rows its keys refer to, and theirs, as one wide row. A question that needs a join then reads one view,
and joins are where small models fail most.

A view exists only in the prompt and, where the model uses it, as a CTE of its statement
(`sql.fixups.with_views`): nothing is created in the session, and the guard checks the base tables read.
The joins are LEFT JOINs on the references, so a view has exactly its table's rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..language.stop_words import GENERIC_WORDS
from ..sql.catalog import Catalog
from ..sql.names import readable_identifier, readable_table, split_table
from .keys import Reference, links

MAX_DEPTH = 2  # a reference of a referred-to row is followed too, not further
MAX_COLUMNS = 40  # a wider view costs the prompt more than it helps
SUFFIX = "_details"


@dataclass(frozen=True)
class Edge:
    table: str
    column: str
    target: str
    key: str


@dataclass(frozen=True)
class FlatView:
    name: str
    table: str
    sql: str  # its SELECT, in DuckDB's dialect


def flat_views(catalog: Catalog, implied: Sequence[Reference], shown: Sequence[str] | None = None) -> list[FlatView]:
    """The views of the tables `shown` (all when None) that refer to others and that no table refers to.

    >>> from ..sql.catalog import Column, ForeignKey, Table
    >>> cols = lambda *names: tuple(Column(n, "VARCHAR") for n in names)
    >>> catalog = Catalog.__new__(Catalog)
    >>> catalog.tables = {
    ...     "shifts": Table("shifts", cols("shift_id", "keeper_id", "day"), 3,
    ...                      foreign_keys=(ForeignKey(("keeper_id",), "keepers", ("keeper_id",)),)),
    ...     "keepers": Table("keepers", cols("keeper_id", "name"), 2),
    ... }
    >>> view = flat_views(catalog, [])[0]
    >>> print(view.name); print(view.sql)
    shifts_details
    SELECT shifts.shift_id, shifts.keeper_id, shifts.day, keepers.name AS keepers_name
    FROM shifts
    LEFT JOIN keepers ON shifts.keeper_id = keepers.keeper_id
    """
    names = [n for n in (shown if shown is not None else catalog.tables) if n in catalog.tables]
    edges = [e for e in _edges(catalog, implied) if e.table in names and e.target in names and e.table != e.target]
    referred = {e.target for e in edges}
    taken = {split_table(n)[1].lower() for n in catalog.tables}
    views = []
    for name in names:
        if name in referred or not any(e.table == name for e in edges):
            continue
        view = _view(catalog, name, edges, taken)
        if view is not None:
            views.append(view)
            taken.add(view.name.lower())
    return views


def _edges(catalog: Catalog, implied: Sequence[Reference]) -> list[Edge]:
    """The references of one column (`keys.links`), which the views join on."""
    return [
        Edge(link.table, link.columns[0], link.target, link.keys[0])
        for link in links(catalog, implied)
        if len(link.columns) == 1 and len(link.keys) == 1
    ]


def _view(catalog: Catalog, name: str, edges: Sequence[Edge], taken: set[str]) -> FlatView | None:
    start = split_table(name)[1]
    # the joins, breadth first: (alias, table, the edge that reached it, the alias it was reached from)
    joins: list[tuple[str, str, Edge, str]] = []
    frontier, depth = [(start, name)], 0
    while frontier and depth < MAX_DEPTH:
        reached = []
        for source, table in frontier:
            for edge in (e for e in edges if e.table == table):
                if edge.target == name:
                    continue  # back to the start
                short = split_table(edge.target)[1]
                used = {start.lower(), *(j[0].lower() for j in joins)}
                alias = f"{edge.column}_{short}" if short.lower() in used else short
                while alias.lower() in used:  # the same table reached twice by columns of the same name
                    alias += "_"
                joins.append((alias, edge.target, edge, source))
                reached.append((alias, edge.target))
        frontier, depth = reached, depth + 1
    if not joins:
        return None
    # each table's columns, but the key a reference already holds; a joined one keeps its name where it
    # is unique and says what it is (`city`, not `name`), else gets its table's name first
    picked = [(c.name, start, "") for c in catalog.tables[name].columns]
    for alias, table, edge, _ in joins:
        twice = sum(j[1] == table for j in joins) > 1
        prefix = edge.column if twice else split_table(table)[1]
        picked += [(c.name, alias, prefix) for c in catalog.tables[table].columns if c.name != edge.key]
    if len(picked) > MAX_COLUMNS:
        return None
    counts = Counter(column.lower() for column, _, _ in picked)
    outputs, seen = [], set()
    for column, alias, prefix in picked:
        plain = not prefix or (counts[column.lower()] == 1 and column.lower() not in GENERIC_WORDS)
        output = column if plain else f"{prefix}_{column}"
        if output.lower() in seen and alias != start:
            output = f"{alias}_{column}"  # the alias is unique
        if output.lower() in seen:
            continue
        seen.add(output.lower())
        selected = f"{readable_identifier(alias)}.{readable_identifier(column)}"
        outputs.append(selected if output == column else f"{selected} AS {readable_identifier(output)}")
    lines = [f"SELECT {', '.join(outputs)}", f"FROM {readable_table(name)}" + _as(name, start)]
    lines += [
        f"LEFT JOIN {readable_table(table)}{_as(table, alias)} ON {readable_identifier(source)}."
        f"{readable_identifier(edge.column)} = {readable_identifier(alias)}.{readable_identifier(edge.key)}"
        for alias, table, edge, source in joins
    ]
    view_name = start + SUFFIX
    while view_name.lower() in taken:
        view_name += "_"
    return FlatView(view_name, name, "\n".join(lines))


def _as(table: str, alias: str) -> str:
    """` AS alias`, unless the table is read by its own name."""
    return "" if table == alias else f" AS {readable_identifier(alias)}"
