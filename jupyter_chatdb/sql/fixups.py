"""DuckDB-dialect fix-ups: SQL written with SQLite/MySQL/PostgreSQL habits, transpiled by sqlglot.

Tried only when DuckDB's dialect cannot parse a statement; the fixed SQL goes through the guard
like any other and is what the user sees.
"""

from __future__ import annotations

import sqlglot

SOURCE_DIALECTS = ("mysql", "sqlite", "postgres")


def to_duckdb(sql: str) -> str | None:
    """The statement(s) rewritten for DuckDB, or None when no dialect reads them.

    >>> to_duckdb("SELECT `name` FROM singer LIMIT 2, 5")
    'SELECT "name" FROM singer LIMIT 5 OFFSET 2'
    >>> to_duckdb("SELEKT 1") is None
    True
    """
    for dialect in SOURCE_DIALECTS:
        try:
            statements = sqlglot.transpile(sql, read=dialect, write="duckdb", unsupported_level=sqlglot.ErrorLevel.RAISE)
            fixed = "; ".join(statements)
            sqlglot.parse(fixed, read="duckdb")
        except sqlglot.errors.SqlglotError:
            continue
        if fixed and fixed != sql:
            return fixed
    return None
