"""SQL names and string literals, quoted for DuckDB."""

from __future__ import annotations

from sqlglot import exp


def quote_identifier(name: str) -> str:
    """A name as a DuckDB identifier, always quoted (safe for any name).

    >>> quote_identifier('my "odd" table')
    '"my ""odd"" table"'
    """
    return '"' + name.replace('"', '""') + '"'


def quote_table(name: str) -> str:
    """A table of the catalog as SQL: `database.table` for a table of an attached database.

    >>> quote_table("sales"), quote_table("archive.orders")
    ('"sales"', '"archive"."orders"')
    """
    return ".".join(quote_identifier(part) for part in name.split(".", 1))


def readable_identifier(name: str) -> str:
    """A name for the model to read: quoted only where DuckDB needs it (reserved words, spaces, dots), as
    quotes cost prompt tokens.

    >>> readable_identifier("sales"), readable_identifier("order"), readable_identifier("unit.price")
    ('sales', '"order"', '"unit.price"')
    """
    return exp.to_identifier(name).sql(dialect="duckdb")


def readable_table(name: str) -> str:
    """A table of the catalog for the model to read: `database.table` for a table of an attached database.

    >>> readable_table("archive.orders"), readable_table("group")
    ('archive.orders', '"group"')
    """
    return ".".join(readable_identifier(part) for part in name.split(".", 1))


def split_table(name: str) -> tuple[str, str]:
    """A catalog name as (database, table): the database is "" for the notebook's own tables.

    >>> split_table("archive.orders"), split_table("orders")
    (('archive', 'orders'), ('', 'orders'))
    """
    database, dot, table = name.partition(".")  # as quote_table splits it
    return (database, table) if dot else ("", name)


def quote_string(text: str) -> str:
    """A SQL string literal.

    >>> quote_string("O'Neil")
    "'O''Neil'"
    """
    return "'" + text.replace("'", "''") + "'"
