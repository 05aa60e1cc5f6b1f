"""Two repairs of a drafted rule (`UPDATE t SET c = ...`) that a small model needs again and again.

- A difference of sums written with one SELECT: `(SELECT sum(a) FROM x WHERE ...) - sum(b) FROM y WHERE ...`.
  The second sum has a FROM of its own but no SELECT, so the statement does not parse, or parses as an
  UPDATE ... FROM whose SET holds an aggregate. `own_subqueries` gives each such sum its own subquery.
- A sum over no rows is NULL, not 0: `coalesced_sums` wraps each scalar subquery of a sum in
  `coalesce(..., 0)`, as the sentence "what was paid, minus ..." means.

Neither changes which rows the rule updates; the repaired rule is checked and shown as any other.
"""

from __future__ import annotations

import re

from sqlglot import exp

# an operator and an aggregate after it: "- sum(", "+ coalesce(sum("
LOOSE = re.compile(r"([-+])\s*((?:coalesce\s*\(\s*)?(?:sum|count|avg|min|max)\s*\()", re.IGNORECASE)
FROM = re.compile(r"\bfrom\b", re.IGNORECASE)
SELECT = re.compile(r"\s*select\b", re.IGNORECASE)


def own_subqueries(sql: str) -> str:
    """`sql` with each aggregate that has a FROM of its own but no SELECT made a subquery of its own.

    >>> own_subqueries("UPDATE p SET owed = (SELECT sum(f.fee) FROM f WHERE f.p = p.id) - sum(x.amt) FROM x WHERE x.p = p.id")
    'UPDATE p SET owed = (SELECT sum(f.fee) FROM f WHERE f.p = p.id) - (SELECT sum(x.amt) FROM x WHERE x.p = p.id)'
    >>> own_subqueries("UPDATE p SET o = (SELECT sum(f.fee) FROM f WHERE f.p IN (SELECT 1) - sum(x.amt) FROM x WHERE x.p = p.id)")
    'UPDATE p SET o = (SELECT sum(f.fee) FROM f WHERE f.p IN (SELECT 1)) - (SELECT sum(x.amt) FROM x WHERE x.p = p.id)'
    >>> own_subqueries("UPDATE p SET n = (SELECT count(*) FROM f WHERE f.p = p.id) - 1")
    'UPDATE p SET n = (SELECT count(*) FROM f WHERE f.p = p.id) - 1'
    """
    for _ in range(MAX_REPAIRS):
        repaired = _first_repaired(sql)
        if repaired is None:
            return sql
        sql = repaired
    return sql


MAX_REPAIRS = 4


def _first_repaired(sql: str) -> str | None:
    depths, groups = _depths(sql)
    for match in LOOSE.finditer(sql):
        at = match.start(2)
        if _quoted(sql, at):
            continue
        depth, opened = depths[at], groups[at]
        end = next((i for i in range(at, len(sql)) if depths[i] < depth or sql[i] == ";"), len(sql))
        own_from = any(depths[m.start()] == depth for m in FROM.finditer(sql, at, end))
        if not own_from:
            continue
        tail = sql[at:end].rstrip()
        if opened >= 0 and SELECT.match(sql, opened + 1):  # inside the SELECT before it: close that one first
            return f"{sql[: match.start()].rstrip()}) {match.group(1)} (SELECT {tail}{sql[at + len(tail) :]}"
        return f"{sql[: match.start()].rstrip()} {match.group(1)} (SELECT {tail}){sql[at + len(tail) :]}"
    return None


def _depths(sql: str) -> tuple[list[int], list[int]]:
    """Per character, its parenthesis depth, and where the parenthesis holding it opened (-1 at the top)."""
    depths: list[int] = []
    groups: list[int] = []
    stack: list[int] = []
    quoted = False
    for i, c in enumerate(sql):
        if c == "'":
            quoted = not quoted
        if not quoted and c == ")" and stack:
            stack.pop()
        depths.append(len(stack))
        groups.append(stack[-1] if stack else -1)
        if not quoted and c == "(":
            stack.append(i)
    return depths, groups


def _quoted(sql: str, at: int) -> bool:
    return sql[:at].count("'") % 2 == 1


def coalesced_sums(tree: exp.Expr) -> exp.Expr | None:
    """`tree` (an UPDATE) with each scalar subquery of a sum in its SET not under coalesce wrapped in
    `coalesce(..., 0)`; None when there is none.

    >>> import sqlglot
    >>> tree = sqlglot.parse_one(
    ...     "UPDATE p SET o = (SELECT sum(f.fee) FROM f WHERE f.p = p.id) - coalesce((SELECT sum(x.a) FROM x), 0)",
    ...     read="duckdb")
    >>> coalesced_sums(tree).sql()
    'UPDATE p SET o = COALESCE((SELECT SUM(f.fee) FROM f WHERE f.p = p.id), 0) - COALESCE((SELECT SUM(x.a) FROM x), 0)'
    """
    if not isinstance(tree, exp.Update):
        return None
    tree = tree.copy()
    changed = False
    for assignment in tree.expressions:
        for subquery in list(assignment.find_all(exp.Subquery)):
            select = subquery.this
            if not isinstance(select, exp.Select) or len(select.expressions) != 1:
                continue
            if not isinstance(select.expressions[0].unalias(), exp.Sum) or _under_coalesce(subquery, assignment):
                continue
            subquery.replace(exp.Coalesce(this=subquery.copy(), expressions=[exp.Literal.number(0)]))
            changed = True
    return tree if changed else None


def _under_coalesce(node: exp.Expr, top: exp.Expr) -> bool:
    parent = node.parent
    while parent is not None and parent is not top:
        if isinstance(parent, exp.Coalesce):
            return True
        parent = parent.parent
    return False
