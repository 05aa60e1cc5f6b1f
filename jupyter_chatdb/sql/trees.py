"""SQL text as sqlglot trees (DuckDB's dialect) and back, and the tables a tree names.

What the guard checks and what the fix-ups, the labels and the remote link rewrite is the tree `parse`
returns; what runs is the statement `written` back from it. A table is known by the catalog's name of it
(`table_key`), and a CTE's name counts only where the query can see it (`is_cte_reference`).

>>> [written(tree) for tree in parse("SELECT 1 AS a; /* a note */ select name from Ferry")]
['SELECT 1 AS a', 'SELECT name FROM Ferry']
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import sqlglot
from sqlglot import exp

from ..errors import NotAllowed, SQLSyntaxError

DIALECT = "duckdb"

logging.getLogger("sqlglot").setLevel(logging.ERROR)  # it warns on every unsupported statement

READ_TYPES = (exp.Select, exp.SetOperation, exp.Subquery, exp.Describe, exp.Summarize)
WRITE_TYPES = (exp.Insert, exp.Update, exp.Delete)
DDL_TYPES = (exp.Create, exp.Drop, exp.Alter, exp.TruncateTable)


def parse(sql: str) -> list[exp.Expr]:
    """The statements of `sql` as trees (DuckDB's dialect), or SQLSyntaxError saying where it stopped."""
    try:
        # a trailing comment after the last ';' parses as an empty Semicolon statement
        trees = [
            tree
            for tree in sqlglot.parse(sql, read=DIALECT)
            if tree is not None and not isinstance(tree, exp.Semicolon)
        ]
    except sqlglot.errors.ParseError as error:
        detail = error.errors[0] if error.errors else {}
        where = f" at line {detail.get('line')}, column {detail.get('col')}" if detail else ""
        reason = detail.get("description", str(error).splitlines()[0]) if detail else str(error)
        raise SQLSyntaxError(
            f"The SQL does not parse{where}: {reason}.", line=detail.get("line"), column=detail.get("col")
        ) from None
    except sqlglot.errors.SqlglotError as error:  # the tokenizer: unclosed comments, strings, quotes
        raise SQLSyntaxError(f"The SQL does not parse: {str(error).splitlines()[0][:160]}.") from None
    except RecursionError:
        raise NotAllowed("The SQL is nested too deeply to be checked.") from None
    if not trees:
        raise SQLSyntaxError("There is no SQL statement to run.")
    return trees


def written(tree: exp.Expr) -> str:
    """The statement as it runs: written back from its tree, without comments."""
    return tree.sql(dialect=DIALECT, comments=False)


def target_table(tree: exp.Expr) -> str | None:
    """The table a write or CREATE changes.

    >>> target_table(sqlglot.parse_one("INSERT INTO t (a) SELECT a FROM s"))
    't'
    """
    if not isinstance(tree, (*WRITE_TYPES, exp.Create)):
        return None
    node = tree.this
    table = node.this if isinstance(node, exp.Schema) else node
    return table_key(table) if isinstance(table, exp.Table) else None


def table_key(table: exp.Table) -> str:
    """The catalog's name of a table: `table`, or `database.table` for one of an attached database.

    >>> tree = sqlglot.parse_one("SELECT * FROM Sales, archive.Orders, archive.main.items, main.x")
    >>> [table_key(t) for t in tree.find_all(exp.Table)]
    ['sales', 'archive.orders', 'archive.items', 'x']
    """
    qualifiers = [part for part in (table.catalog, table.db) if part and part.lower() != "main"]
    return ".".join([*qualifiers[:1], table.name]).lower()


def referenced_tables(tree: exp.Expr) -> set[str]:
    """The catalog's names of the tables a statement reads or writes, CTEs left out where they are seen.

    >>> sorted(referenced_tables(sqlglot.parse_one("SELECT * FROM a UNION SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a)")))
    ['a']
    >>> sorted(referenced_tables(sqlglot.parse_one("WITH t AS (SELECT 1) SELECT * FROM t, main.crops, arch.lots")))
    ['arch.lots', 'crops']
    """
    return {table_key(table) for table in table_references(tree) if not is_cte_reference(table)}


def table_references(tree: exp.Expr) -> Iterator[exp.Table]:
    """The tables a statement names (not table functions), CTE references included."""
    for table in tree.find_all(exp.Table):
        if isinstance(table.this, exp.Identifier) and table.name:
            yield table


def name_parts(table: exp.Table) -> list[str]:
    """The parts of a table's name as the statement writes them: database, schema, table."""
    return [part for part in (table.catalog, table.db, table.name) if part]


def as_written(table: exp.Table) -> str:
    """
    >>> as_written(sqlglot.parse_one("SELECT * FROM archive.orders").find(exp.Table))
    'archive.orders'
    """
    return ".".join(name_parts(table))


def is_cte_reference(table: exp.Table) -> bool:
    """Whether `table` names a CTE visible where it stands: CTEs of an enclosing WITH, those defined
    before it in the same WITH (and itself in a recursive one), never a CTE of another query.

    >>> tree = sqlglot.parse_one('SELECT * FROM a UNION ALL SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a)')
    >>> [is_cte_reference(t) for t in tree.find_all(exp.Table)]
    [False, True]
    """
    if table.db or table.catalog:
        return False
    name = table.name.lower()
    child: exp.Expr = table
    node = table.parent
    while node is not None:
        with_ = node.args.get("with_") or node.args.get("with")
        if isinstance(with_, exp.With):
            ctes = list(with_.expressions)
            if child is with_:
                position = next(i for i, cte in enumerate(ctes) if _contains(cte, table))
                visible = ctes[: position + (1 if with_.args.get("recursive") else 0)]
            else:
                visible = ctes
            if any(cte.alias_or_name.lower() == name for cte in visible):
                return True
        child, node = node, node.parent
    return False


def _contains(node: exp.Expr, descendant: exp.Expr) -> bool:
    parent: exp.Expr | None = descendant
    while parent is not None:
        if parent is node:
            return True
        parent = parent.parent
    return False
