"""Ties in a grouped query's order, broken as SQLite breaks them: by the groups' keys.

`SELECT term FROM fairs GROUP BY term ORDER BY COUNT(*) DESC LIMIT 1` names one term even when two
terms tie. SQLite groups by sorting on the keys and gives tied groups in key order: descending where
every term of the order is descending, else ascending (NULLs the smallest). DuckDB's parallel
aggregation gives any of them, and may give another one the next time. So the group keys are added to
the order, after what it sorts by: the same question gets the same answer each time, SQLite's.
"""

from __future__ import annotations

from sqlglot import exp

from .fixups import _tolerant, expression_key


@_tolerant
def ties_by_group(tree: exp.Expr) -> exp.Expr | None:
    """A copy of `tree` whose grouped, ordered queries sort ties by their group keys; None when none
    needs it.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> written(ties_by_group(parse("SELECT term FROM fairs GROUP BY term ORDER BY COUNT(*) DESC LIMIT 1")[0]))
    'SELECT term FROM fairs GROUP BY term ORDER BY COUNT(*) DESC, term DESC LIMIT 1'
    """
    tree = tree.copy()
    changed = False
    for select in tree.find_all(exp.Select):
        group, order = select.args.get("group"), select.args.get("order")
        if group is None or order is None or select.args.get("distinct") or group.args.get("all"):
            continue
        ordered = {expression_key(o.this) for o in order.expressions}
        descending = all(o.args.get("desc") for o in order.expressions)
        for key in group.expressions:
            if expression_key(key) not in ordered:
                order.append("expressions", exp.Ordered(this=key.copy(), desc=descending, nulls_first=not descending))
                ordered.add(expression_key(key))
                changed = True
    return tree if changed else None
