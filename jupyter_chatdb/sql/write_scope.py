"""A fix-up never widens a write: what it may not remove from a write's tree.

A write's tables, joins and conditions (in its WHERE, ON, HAVING and QUALIFY clauses, subqueries
included) bound the rows it touches. A rewrite that removes one of them, say a join on a misspelled
table, could make a DELETE of two rows delete them all, so such a rewrite is refused, not run.
"""

from __future__ import annotations

from collections import Counter

from sqlglot import exp

from .trees import WRITE_TYPES

CONDITIONS = (exp.Where, exp.Having, exp.Qualify, exp.Predicate, exp.Connector, exp.Not)


def removed_bounds(before: exp.Expr, after: exp.Expr) -> str | None:
    """What a rewrite of the write `before` into `after` removed that bounds its rows, in words; None when it
    removed nothing or `before` writes nothing.

    >>> import sqlglot
    >>> delete = "DELETE FROM orders WHERE id IN (SELECT o.id FROM orders o JOIN refundz r ON r.id = o.id)"
    >>> fixed = "DELETE FROM orders WHERE id IN (SELECT o.id FROM orders AS o)"
    >>> removed_bounds(sqlglot.parse_one(delete), sqlglot.parse_one(fixed))
    'the table refundz, a join, a condition'
    >>> update = "UPDATE t SET a = 1 WHERE b = 'x'"
    >>> removed_bounds(sqlglot.parse_one(update), sqlglot.parse_one(update.replace("'x'", "'X'"))) is None
    True
    """
    if not any(isinstance(node, WRITE_TYPES) for node in before.walk()):
        return None
    lost_tables = _tables(before) - _tables(after)
    shape_before, shape_after = _bounds(before), _bounds(after)
    parts = [f"the table {name}" for name in sorted(lost_tables)]
    if shape_after["join"] < shape_before["join"]:
        parts.append("a join")
    if shape_after["condition"] < shape_before["condition"]:
        parts.append("a condition")
    if shape_after["limit"] < shape_before["limit"]:
        parts.append("a LIMIT")
    return ", ".join(parts) or None


def _tables(tree: exp.Expr) -> Counter[str]:
    """The tables by name (a rewrite may qualify one with its database)."""
    return Counter(table.name.lower() for table in tree.find_all(exp.Table))


def _bounds(tree: exp.Expr) -> Counter[str]:
    return Counter(
        {
            "join": sum(1 for _ in tree.find_all(exp.Join)),
            "condition": sum(1 for _ in tree.find_all(*CONDITIONS)),
            "limit": sum(1 for _ in tree.find_all(exp.Limit)),
        }
    )
