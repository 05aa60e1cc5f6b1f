"""Readable names for a query's computed columns: `count(*)` comes back as `count`, not `count_star()`.

DuckDB names an unaliased expression after its text (`count_star()`, `round(avg(units), 2)`), which reads
badly in a result table and in a chart's legend. Each such column of the query's own SELECT gets an alias
made of its one aggregate's function and column (`sum_units`, also inside `round(...)` or a cast; else
`sum_value`), else of its one column (`units_value`), else `value`; numbered where another column has that name already.
What the query returns is unchanged; the SQL shown is the SQL that ran, alias included.
"""

from __future__ import annotations

from sqlglot import exp

from .fixups import _tolerant


@_tolerant
def readable_aliases(tree: exp.Expr) -> exp.Expr | None:
    """A copy of `tree` (one SELECT) whose unaliased aggregate columns are named; None when none is.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> written(readable_aliases(parse("SELECT stable, COUNT(*), AVG(age) FROM riders GROUP BY stable")[0]))
    'SELECT stable, COUNT(*) AS count, AVG(age) AS avg_age FROM riders GROUP BY stable'
    >>> written(readable_aliases(parse("SELECT ROUND(AVG(age), 1), age * 2, 1 + 1 FROM riders")[0]))
    'SELECT ROUND(AVG(age), 1) AS avg_age, age * 2 AS age_value, 1 + 1 AS value FROM riders'
    >>> readable_aliases(parse("SELECT stable, age AS years FROM riders")[0]) is None
    True
    """
    if not isinstance(tree, exp.Select):
        return None
    tree = tree.copy()
    taken = {p.alias_or_name.lower() for p in tree.expressions if isinstance(p, exp.Alias | exp.Column)}
    changed = False
    for projection in list(tree.expressions):
        if isinstance(projection, exp.Alias | exp.Column | exp.Star):
            continue
        name = _numbered(_computed_name(projection), taken)
        projection.replace(exp.alias_(projection.copy(), name, quoted=False))
        taken.add(name)
        changed = True
    return tree if changed else None


def _computed_name(projection: exp.Expr) -> str:
    """The name of a computed column: after its one aggregate, else its one column, else `value`."""
    aggregates = [projection] if isinstance(projection, exp.AggFunc) else list(projection.find_all(exp.AggFunc))
    if len(aggregates) == 1:
        return _name(aggregates[0]) or f"{aggregates[0].key.lower()}_value"  # sum(fee * entries): sum_value
    columns = {c.name.lower() for c in projection.find_all(exp.Column) if c.name.isidentifier()}
    return f"{columns.pop()}_value" if len(columns) == 1 else "value"


def _numbered(name: str, taken: set[str]) -> str:
    """`name`, or `name_2`, `name_3`... where it is taken."""
    number, found = 1, name
    while found in taken:
        number += 1
        found = f"{name}_{number}"
    return found


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
