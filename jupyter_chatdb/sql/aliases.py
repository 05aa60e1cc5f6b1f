"""Readable names for a query's aggregate columns: `count(*)` comes back as `count`, not `count_star()`.

DuckDB names an unaliased aggregate after its text (`count_star()`, `sum(units)`), which reads badly in
a result table and in a chart's legend. Each such column of the query's own SELECT gets an alias made
of the function and its column (`sum_units`), unless another column already has that name. What the
query returns is unchanged; the SQL shown is the SQL that ran, alias included.
"""

from __future__ import annotations

from sqlglot import exp

from .fixups import _tolerant


@_tolerant
def readable_aliases(tree: exp.Expr) -> exp.Expr | None:
    """A copy of `tree` (one SELECT) whose unaliased aggregate columns are named; None when none is.

    >>> from jupyter_chatdb.sql.guard import parse, written
    >>> written(readable_aliases(parse("SELECT stable, COUNT(*), AVG(age) FROM riders GROUP BY stable")[0]))
    'SELECT stable, COUNT(*) AS count, AVG(age) AS avg_age FROM riders GROUP BY stable'
    """
    if not isinstance(tree, exp.Select):
        return None
    tree = tree.copy()
    taken = {p.alias_or_name.lower() for p in tree.expressions}
    changed = False
    for projection in list(tree.expressions):
        if not isinstance(projection, exp.AggFunc):
            continue
        name = _name(projection)
        if name is None or name in taken:
            continue
        projection.replace(exp.alias_(projection.copy(), name, quoted=False))
        taken.add(name)
        changed = True
    return tree if changed else None


def _name(aggregate: exp.AggFunc) -> str | None:
    """`count`, `count_kg`, `count_distinct_kg`, `sum_kg`... or None for an expression of several columns."""
    function = aggregate.key.lower()
    argument = aggregate.this
    distinct = isinstance(argument, exp.Distinct)
    if distinct:
        expressions = argument.expressions
        argument = expressions[0] if len(expressions) == 1 else None
    if isinstance(argument, exp.Star) or (function == "count" and argument is None and not distinct):
        return "count"
    if isinstance(argument, exp.Cast):  # a number stored as text, read as one
        argument = argument.this
    if isinstance(argument, exp.Column) and argument.name.isidentifier():
        return f"{function}_{'distinct_' if distinct else ''}{argument.name.lower()}"
    return None
