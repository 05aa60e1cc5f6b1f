"""The string literals a statement compares with a column, and a copy of it with some replaced: what the
data-value memory checks (`values.py`) and the value correction changes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlglot import exp

from ..sql.fixups import table_of_column


@dataclass(frozen=True)
class LiteralUse:
    """A string literal compared with a column in a statement: by =, <> or IN, or as a LIKE pattern."""

    table: str
    column: str
    literal: str
    pattern: str = ""  # "LIKE" or "ILIKE" when the literal is a pattern

    @property
    def text(self) -> str | None:
        """What to look for among the column's values: the literal, or the text between a pattern's
        leading and trailing % (None when it has wildcards inside, which are left alone).

        >>> LiteralUse("t", "city", "%Los Angeles%", "LIKE").text, LiteralUse("t", "city", "L_s%", "LIKE").text
        ('Los Angeles', None)
        """
        if not self.pattern:
            return self.literal
        core = self.literal.strip("%")
        return core if core and not re.search(r"[%_\\]", core) else None

    def found_in(self, values: Sequence[str]) -> bool:
        """Whether a stored value is the literal (or matches the pattern)."""
        if not self.pattern:
            return self.literal in values
        regex = re.compile(
            "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in self.literal),
            re.DOTALL | (re.IGNORECASE if self.pattern == "ILIKE" else 0),
        )
        return any(regex.fullmatch(v) for v in values)

    def with_value(self, value: str) -> str:
        """The literal that looks for `value` instead (a pattern keeps its wildcards).

        >>> LiteralUse("t", "city", "%Los Angeles%", "LIKE").with_value("LA")
        '%LA%'
        """
        return self.literal.replace(self.text or "", value, 1) if self.pattern else value


@dataclass(frozen=True)
class MissingValue:
    """A literal that no stored value of its column is or resembles, and the columns that hold it."""

    use: LiteralUse
    held_by: tuple[str, ...] = ()  # "table.column"

    def __str__(self) -> str:
        """Why a query that compared with the literal may have found nothing.

        >>> str(MissingValue(LiteralUse("t", "city", "%Paris%", "LIKE")))
        "no value of t.city matches '%Paris%' or is close to it"
        >>> str(MissingValue(LiteralUse("docks", "name", "Calder"), ("wharves.name",)))
        "'Calder' is not a value of docks.name, nor close to one; it is a value of wharves.name"
        """
        use = self.use
        if use.pattern:
            text = f"no value of {use.table}.{use.column} matches {use.literal!r} or is close to it"
        else:
            text = f"{use.literal!r} is not a value of {use.table}.{use.column}, nor close to one"
        return text + (f"; it is a value of {', '.join(self.held_by)}" if self.held_by else "")


def literal_uses(tree: exp.Expr, schema: Mapping[str, Sequence[str]]) -> list[LiteralUse]:
    """String literals compared (=, <>, IN, LIKE, ILIKE) with a column whose table is known, in WHERE,
    HAVING, JOIN or CASE, in a step's tree (one statement, or several joined).

    >>> from jupyter_chatdb.sql.trees import parse
    >>> tree = parse("SELECT * FROM sales AS s WHERE s.region = 'north' AND units > 3")[0]
    >>> literal_uses(tree, {"sales": ["region", "units"]})
    [LiteralUse(table='sales', column='region', literal='north', pattern='')]
    >>> literal_uses(parse("SELECT * FROM sales WHERE region ILIKE '%nor%'")[0], {"sales": ["region"]})
    [LiteralUse(table='sales', column='region', literal='%nor%', pattern='ILIKE')]
    """
    try:
        comparisons = _comparisons(tree)
    except Exception:  # sqlglot cannot walk it: no literal is checked, and the guard decides about it
        return []
    uses = []
    for column, literal, pattern in comparisons:
        table = table_of_column(column, tree, schema)
        if table is not None:
            uses.append(LiteralUse(table, column.name, literal.this, pattern))
    return uses


def replace_literals(
    tree: exp.Expr, schema: Mapping[str, Sequence[str]], changes: Mapping[tuple[str, str, str], str]
) -> exp.Expr:
    """A copy of `tree` with each (table, column, literal) of `changes` replaced by its new value (other
    literals kept).

    >>> from jupyter_chatdb.sql.trees import parse
    >>> tree = parse("SELECT * FROM t WHERE city = 'Los Angeles'")[0]
    >>> replace_literals(tree, {"t": ["city"]}, {("t", "city", "Los Angeles"): "LA"}).sql()
    "SELECT * FROM t WHERE city = 'LA'"
    """
    tree = tree.copy()
    for column, literal, _ in _comparisons(tree):
        table = table_of_column(column, tree, schema)
        new = changes.get((table or "", column.name, literal.this))
        if new is not None:
            literal.replace(exp.Literal.string(new))
    return tree


def _comparisons(tree: exp.Expr) -> list[tuple[exp.Column, exp.Literal, str]]:
    """(column, string literal, "" or the pattern operator) for each comparison of the two."""
    found = []
    for node in tree.find_all(exp.EQ, exp.NEQ):
        left, right = node.this, node.expression
        if isinstance(left, exp.Literal):
            left, right = right, left
        if isinstance(left, exp.Column) and isinstance(right, exp.Literal) and right.is_string:
            found.append((left, right, ""))
    for listed in tree.find_all(exp.In):
        if isinstance(listed.this, exp.Column):
            found += [(listed.this, e, "") for e in listed.expressions if isinstance(e, exp.Literal) and e.is_string]
    for node in tree.find_all(exp.Like, exp.ILike):
        if isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Literal) and node.expression.is_string:
            found.append((node.this, node.expression, "ILIKE" if isinstance(node, exp.ILike) else "LIKE"))
    return found
