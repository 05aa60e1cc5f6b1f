"""Fix-ups for values read as another type than the one stored: numbers stored as text, a pattern
matched against a date or a number, a moment compared with a day. Rules as in `fixups.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sqlglot import exp

from .fixups import Schema, TextColumns, _tolerant, lowered_columns, table_of_column

NUMBER = exp.DataType.build("DOUBLE")


@_tolerant
def cast_text_numbers(tree: exp.Expr, schema: Schema, text_columns: TextColumns) -> exp.Expr | None:
    """Numbers stored as text (common in CSVs and old databases) are read as numbers where only a number
    makes sense: summed or averaged, or compared with a number (DuckDB refuses `sum(VARCHAR)` and
    `text > 5`; SQLite forgave them); and, in a column whose values are numbers (`text_columns`),
    its largest, smallest and order, which as text would be "9" > "10". A value that is no number reads
    as NULL.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> text = {"t": {"price": True}}
    >>> written(cast_text_numbers(parse("SELECT sum(price) FROM t WHERE price > 2")[0], {"t": ["price"]}, text))
    'SELECT SUM(TRY_CAST(price AS DOUBLE)) FROM t WHERE TRY_CAST(price AS DOUBLE) > 2'
    """
    tree = tree.copy()
    known = {name.lower(): name for name in text_columns}

    def is_text(node: exp.Expr | None, holding_numbers: bool = False) -> bool:
        if not isinstance(node, exp.Column):
            return False
        table = table_of_column(node, tree, schema)
        columns = text_columns.get(known.get(table.lower(), table), {}) if table is not None else {}
        return node.name.lower() in columns and (columns[node.name.lower()] or not holding_numbers)

    wanted: list[exp.Column] = []
    for function in tree.find_all(exp.Sum, exp.Avg):
        if is_text(function.this):
            wanted.append(function.this)
    for function in tree.find_all(exp.Max, exp.Min):
        if is_text(function.this, holding_numbers=True):
            wanted.append(function.this)
    for ordered in tree.find_all(exp.Ordered):
        select = ordered.find_ancestor(exp.Select)
        if is_text(ordered.this, holding_numbers=True) and not (select is not None and select.args.get("distinct")):
            wanted.append(ordered.this)
    for comparison in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE, exp.EQ, exp.NEQ, exp.Between):
        operands = [comparison.this, comparison.args.get("expression"), comparison.args.get("low")]
        operands.append(comparison.args.get("high"))
        if any(_is_number(o) for o in operands):
            wanted += [o for o in operands if is_text(o)]
    for column in wanted:
        column.replace(exp.TryCast(this=column.copy(), to=NUMBER.copy()))
    return tree if wanted else None


@_tolerant
def like_on_non_text(tree: exp.Expr, schema: Schema, text_columns: TextColumns) -> exp.Expr | None:
    """SQLite matches a pattern against any value (`day LIKE '2024-03%'` on a date, `year LIKE '19%'`),
    DuckDB only against text: a column of another type is read as text there.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> text = {"t": {"name": False}}
    >>> written(like_on_non_text(parse("SELECT name FROM t WHERE day LIKE '2024-03%'")[0], {"t": ["name", "day"]}, text))
    "SELECT name FROM t WHERE CAST(day AS TEXT) LIKE '2024-03%'"
    """
    tree = tree.copy()
    texts = {name.lower(): set(columns) for name, columns in text_columns.items()}
    columns = lowered_columns(schema)
    wanted = []
    for pattern in tree.find_all(exp.Like, exp.ILike, exp.Glob):
        operand = pattern.this
        table = table_of_column(operand, tree, schema) if isinstance(operand, exp.Column) else None
        name = operand.name.lower()
        if table is not None and name in columns[table.lower()] and name not in texts.get(table.lower(), set()):
            wanted.append(operand)
    for operand in wanted:
        operand.replace(exp.Cast(this=operand.copy(), to=exp.DataType.build("VARCHAR")))
    return tree if wanted else None


DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # a day written alone, with no time of day


@_tolerant
def days_of_moments(tree: exp.Expr, schema: Schema, moments: Mapping[str, set[str]]) -> exp.Expr | None:
    """A moment (a TIMESTAMP column, `moments`: table -> such columns in lower case) compared with a day
    written alone compares its day: `= '2024-04-08'` means that day, not its midnight; `> '2024-05-08'`,
    after it; `BETWEEN ... AND '2024-04-27'` and `<= '2024-04-27'` include it. For reads: on a write the
    day is the wider bound, and the widening check refuses it.

    >>> from jupyter_chatdb.sql.trees import parse, written
    >>> schema, moments = {"voyages": ["id", "sets_off"]}, {"voyages": {"sets_off"}}
    >>> written(days_of_moments(parse("SELECT id FROM voyages WHERE sets_off = '2024-04-08'")[0], schema, moments))
    "SELECT id FROM voyages WHERE CAST(sets_off AS DATE) = '2024-04-08'"
    """
    tree = tree.copy()
    known = {name.lower(): {c.lower() for c in columns} for name, columns in moments.items()}

    def is_moment(node: exp.Expr | None) -> bool:
        if not isinstance(node, exp.Column):
            return False
        table = table_of_column(node, tree, schema)
        return table is not None and node.name.lower() in known.get(table.lower(), set())

    def is_day(node: exp.Expr | None) -> bool:
        if isinstance(node, exp.Cast) and node.to.is_type(exp.DataType.Type.DATE):
            node = node.this
        return isinstance(node, exp.Literal) and node.is_string and DAY.fullmatch(node.name) is not None

    wanted: list[exp.Column] = []
    for comparison in tree.find_all(exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE):
        left, right = comparison.this, comparison.expression
        wanted += [a for a, b in ((left, right), (right, left)) if is_moment(a) and is_day(b)]
    for between in tree.find_all(exp.Between):
        if is_moment(between.this) and is_day(between.args.get("low")) and is_day(between.args.get("high")):
            wanted.append(between.this)
    for listed in tree.find_all(exp.In):
        values = listed.expressions
        if is_moment(listed.this) and values and all(is_day(v) for v in values):
            wanted.append(listed.this)
    for column in wanted:
        column.replace(exp.Cast(this=column.copy(), to=exp.DataType.build("DATE")))
    return tree if wanted else None


def _is_number(node: exp.Expr | None) -> bool:
    if isinstance(node, exp.Neg):
        node = node.this
    return isinstance(node, exp.Literal) and not node.is_string
