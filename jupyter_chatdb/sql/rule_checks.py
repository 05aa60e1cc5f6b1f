"""Checks that a rule keeps each row true, before it is kept.

A rule drafted from a sentence can run once and change nothing wrong on the data of the day, yet be
wrong: an uncorrelated `SUM` gives every row the same total; a `SUM` over no rows is NULL, which a NOT
NULL column refuses, so every later write fails. So a rule's SET values are read (`shape_problem`): each
subquery must refer to the row being updated, and an aggregate that is NULL over no rows must sit in
`coalesce(..., 0)`. Then it is run on the data plus one made-up row in each table it reads (`probe_rows`,
inside the transaction the check rolls back), so a table that is empty today is tried with a row in it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlglot import exp

from ..errors import QueryFailed
from .check_lists import check_lists
from .names import quote_identifier, quote_table
from .session import Session

NULL_OVER_NO_ROWS = (exp.Sum, exp.Avg, exp.Min, exp.Max)
NULL_SAFE = (exp.Coalesce,)


def shape_problem(tree: exp.Expr, target_rows: int) -> str:
    """What keeps an UPDATE's SET values from being true for each row ("" when nothing does).
    `target_rows`: how many rows the updated table holds (a one-row table may take one total).

    >>> import sqlglot
    >>> def check(sql): return shape_problem(sqlglot.parse_one(sql, read="duckdb"), 5)
    >>> check("UPDATE yards SET hounds = coalesce((SELECT count(*) FROM hounds h WHERE h.yard_id = yards.yard_id), 0)")
    ''
    >>> check("UPDATE yards SET fed = (SELECT sum(kg) FROM feeds f WHERE f.yard_id = yards.yard_id)")
    'fed = sum(...) is NULL where there are no rows to add up: write coalesce(sum(...), 0)'
    >>> check("UPDATE yards SET fed = coalesce((SELECT sum(kg) FROM feeds), 0)")  # doctest: +ELLIPSIS
    'fed = (SELECT ...) gives every row the same value: relate the subquery to the row it updates ...'
    """
    if not isinstance(tree, exp.Update):
        return ""
    target = tree.this
    names = {target.name.lower(), (target.alias_or_name or "").lower()}
    for assignment in tree.expressions:
        if not isinstance(assignment, exp.EQ):
            continue
        column, value = assignment.this.name, assignment.expression
        for query in value.find_all(exp.Select):
            if target_rows != 1 and query.parent_select is None and not _refers_to(query, names):
                return (
                    f"{column} = (SELECT ...) gives every row the same value: relate the subquery to the row it "
                    "updates (WHERE f.yard_id = yards.yard_id)"
                )
        for aggregate in value.find_all(*NULL_OVER_NO_ROWS):
            if not _null_safe(aggregate, value):
                name = aggregate.key.lower()
                return (
                    f"{column} = {name}(...) is NULL where there are no rows to add up: write coalesce({name}(...), 0)"
                )
    return ""


def _refers_to(query: exp.Select, names: set[str]) -> bool:
    """Whether `query` (or a subquery in it) names a column of the updated table by its name or alias."""
    return any(column.table.lower() in names for column in query.find_all(exp.Column) if column.table)


def _null_safe(aggregate: exp.Expr, top: exp.Expr) -> bool:
    """Whether an aggregate sits inside coalesce(...) somewhere below the SET value `top`."""
    node = aggregate.parent
    while node is not None and node is not top.parent:
        if isinstance(node, NULL_SAFE):
            return True
        node = node.parent
    return False


def probe_rows(session: Session, tables: Iterable[str]) -> list[str]:
    """The tables of `tables` that take one made-up row (values its columns need: a referenced row's key, a
    listed value, 1, today, a text), each tried in a transaction rolled back. Call outside a transaction."""
    usable = []
    for table in tables:
        session.begin()
        try:
            session.run(_probe_insert(session, table))
            usable.append(table)
        except QueryFailed:
            pass
        finally:
            session.rollback()
    return usable


def add_probe_rows(session: Session, tables: Iterable[str]) -> None:
    """Add the made-up row to each of `tables` (inside the caller's transaction)."""
    for table in tables:
        session.run(_probe_insert(session, table))


def _probe_insert(session: Session, table: str) -> str:
    listed = check_lists(session)
    references = {
        columns[0]: (target, keys[0])
        for columns, target, keys in session.rows(
            "SELECT constraint_column_names, referenced_table, referenced_column_names FROM duckdb_constraints()"
            " WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ?"
            " AND constraint_type = 'FOREIGN KEY'",
            [table],
        )
        if len(columns) == 1
    }
    names, values = [], []
    for column, data_type, nullable, default in session.rows(
        "SELECT column_name, data_type, is_nullable, column_default FROM duckdb_columns() WHERE database_name ="
        " current_database() AND schema_name = 'main' AND table_name = ? ORDER BY column_index",
        [table],
    ):
        from_sequence = "nextval(" in str(default or "")
        if (nullable or default is not None) and not from_sequence:
            continue
        names.append(quote_identifier(column))
        kind = str(data_type).upper()
        if from_sequence:  # a key of its own, leaving the sequence as it is (sequences ignore rollbacks)
            values.append(f"(SELECT coalesce(max({quote_identifier(column)}), 0) + 1 FROM {quote_table(table)})")
        elif column in references:
            parent, key = references[column]
            values.append(f"(SELECT {quote_identifier(key)} FROM {quote_table(parent)} LIMIT 1)")
        elif (table, column) in listed:
            values.append("'" + listed[(table, column)][0].replace("'", "''") + "'")
        elif kind.startswith(("DATE", "TIMESTAMP")):
            values.append(f"CAST(current_date AS {data_type})")
        elif kind == "BOOLEAN":
            values.append("false")
        elif kind.startswith(("VARCHAR", "TEXT", "CHAR", "STRING")):
            values.append("'probe ' || CAST(random() AS VARCHAR)")
        else:
            values.append(f"CAST(1 AS {data_type})")
    listed_names = ", ".join(names)
    if not names:
        return f"INSERT INTO {quote_table(table)} DEFAULT VALUES"
    return f"INSERT INTO {quote_table(table)} ({listed_names}) SELECT {', '.join(values)}"
