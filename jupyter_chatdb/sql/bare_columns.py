"""SQLite's bare columns, read with SQLite's meaning.

SQLite lets a grouped or aggregating query select a column that is neither grouped nor aggregated (a
"bare" column): `SELECT name, MAX(age) FROM t` gives the name of the oldest row. DuckDB refuses it
("must appear in the GROUP BY clause"), and small models write it often, since SQLite is what they learnt.
`bare_columns` writes each such column as SQLite reads it: with exactly one `min()` or `max()` in the
query, the value of the row where it occurs (`arg_min`/`arg_max`); otherwise the value of any row of
the group (`any_value`, which a column the group's key decides gets right).
"""

from __future__ import annotations

from sqlglot import exp

from .fixups import _tolerant, expression_key


@_tolerant
def bare_columns(tree: exp.Expr) -> exp.Expr | None:
    """A copy of `tree` with the bare columns of its aggregating queries written as SQLite reads them,
    or None when it has none.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> written(bare_columns(parse("SELECT rider, MAX(points) FROM ribbons")[0]))
    'SELECT ARG_MAX(rider, points) AS rider, MAX(points) FROM ribbons'
    >>> written(bare_columns(parse("SELECT s.name FROM stables AS s GROUP BY s.id ORDER BY COUNT(*)")[0]))
    'SELECT ANY_VALUE(s.name) AS name FROM stables AS s GROUP BY s.id ORDER BY COUNT(*)'
    """
    tree = tree.copy()
    changed = False
    for select in list(tree.find_all(exp.Select)):
        changed |= _fix_select(select)
    return tree if changed else None


def _fix_select(select: exp.Select) -> bool:
    group = select.args.get("group")
    aggregates = [
        a for e in select.expressions for a in _own(select, e, exp.AggFunc) if not a.find_ancestor(exp.Window)
    ]
    if group is None and not aggregates:
        return False
    if group is not None and (group.args.get("all") or not group.expressions):
        return False
    grouping = _Grouping(select)
    order = select.args.get("order")
    extremes = [
        a
        for part in (*select.expressions, select.args.get("having"), order)
        if part is not None
        for a in _own(select, part, exp.Max, exp.Min)
        if not a.find_ancestor(exp.Window)
    ]
    changed = False
    for projection in list(select.expressions):
        value = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(value, exp.Star) or grouping.holds(value):
            continue
        for column in grouping.bare(value):
            replacement = _as_sqlite_reads(column, extremes)
            whole = column is projection  # keeps its name as the result's column
            column.replace(exp.alias_(replacement, column.name) if whole else replacement)
            changed = True
    named = {p.alias_or_name.lower() for p in select.expressions}
    for ordered in order.expressions if order is not None else ():
        item = ordered.this
        if grouping.holds(item) or (isinstance(item, exp.Column) and not item.table and item.name.lower() in named):
            continue  # grouped, or a projection's name
        for column in grouping.bare(item):
            column.replace(_as_sqlite_reads(column, extremes))
            changed = True
    return changed


class _Grouping:
    """What a query groups by: its GROUP BY expressions, and the projections they name by alias or
    position. A column counts as grouped under its table's name or its own where either is left out."""

    def __init__(self, select: exp.Select) -> None:
        self.select = select
        projections = select.expressions
        aliases = {p.alias.lower(): p.this for p in projections if isinstance(p, exp.Alias)}
        self.keys: set[str] = set()
        self.names: set[str] = set()  # of grouped columns
        self.unqualified: set[str] = set()  # of grouped columns written without their table
        group = select.args.get("group")
        for item in group.expressions if group is not None else ():
            if isinstance(item, exp.Literal) and item.is_int and 0 < int(item.this) <= len(projections):
                chosen = projections[int(item.this) - 1]
                item = chosen.this if isinstance(chosen, exp.Alias) else chosen
            elif isinstance(item, exp.Column) and not item.table and item.name.lower() in aliases:
                item = aliases[item.name.lower()]
            self.keys.add(expression_key(item))
            if isinstance(item, exp.Column):
                self.names.add(item.name.lower())
                if not item.table:
                    self.unqualified.add(item.name.lower())

    def holds(self, node: exp.Expr) -> bool:
        if expression_key(node) in self.keys:
            return True
        if not isinstance(node, exp.Column):
            return False
        return node.name.lower() in (self.unqualified if node.table else self.names)

    def bare(self, node: exp.Expr) -> list[exp.Column]:
        """The columns of `node` outside any aggregate, window or subquery that are not grouped."""
        columns = [c for c in _own(self.select, node, exp.Column) if isinstance(c, exp.Column)]
        return [c for c in columns if not c.find_ancestor(exp.AggFunc, exp.Window) and not self.holds(c)]


def _as_sqlite_reads(column: exp.Column, extremes: list[exp.Expr]) -> exp.Expr:
    if len(extremes) == 1 and extremes[0].this is not None:
        function = "ARG_MAX" if isinstance(extremes[0], exp.Max) else "ARG_MIN"
        return exp.func(function, column.copy(), extremes[0].this.copy())
    return exp.func("ANY_VALUE", column.copy())


def _own(select: exp.Select, node: exp.Expr, *kinds: type[exp.Expr]) -> list[exp.Expr]:
    """The nodes of `kinds` in `node`, a part of `select`, that belong to `select`, not to a subquery."""
    return [found for found in node.find_all(*kinds) if found.find_ancestor(exp.Select) is select]
