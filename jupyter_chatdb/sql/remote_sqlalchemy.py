"""Any SQLAlchemy database as a remote engine (Trino, PostgreSQL, Snowflake, BigQuery, ...): its tables
read with SQLAlchemy's inspector, reads run on one connection that a Stop cancels where the driver can.

A read is sent to the driver as written (`exec_driver_sql`, no parameters): `transpiled` has already bound
the `$name` parameters as literals of the tree, and `sqlalchemy.text()` would take a `:word` inside a
string literal for a bind parameter of its own (and `\\:` for an escaped colon)."""

from __future__ import annotations

import re
import threading
from typing import Any

import pandas as pd

from ..errors import ConfigError, QueryFailed
from .remote import duckdb_type, text_where_mixed

# sqlglot's dialect for SQLAlchemy's dialect names, where they differ
DIALECTS = {"postgresql": "postgres", "mssql": "tsql", "sqlite": "sqlite", "mysql": "mysql", "mariadb": "mysql"}


class SQLAlchemyEngine:
    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.dialect = DIALECTS.get(engine.dialect.name, engine.dialect.name)
        self._running: Any = None  # the DBAPI connection of the read that runs now
        self._lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str) -> SQLAlchemyEngine:
        try:
            import sqlalchemy
        except ImportError:
            raise ConfigError("Other databases need SQLAlchemy: pip install 'jupyter-chatdb[sqlalchemy]'.") from None
        try:
            return cls(sqlalchemy.create_engine(url))
        except Exception as error:  # a URL SQLAlchemy cannot read, or a driver that is not installed
            raise ConfigError(f"Cannot use that database URL: {str(error).splitlines()[0][:200]}") from None

    def describe(self) -> str:
        url = self.engine.url
        return f"{url.get_backend_name()} at {url.host or url.database or 'local'}"  # never the password

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        """The first call that opens the database: one that cannot be opened (a missing folder, a file of
        another kind, a server that does not answer) is a ConfigError."""
        import sqlalchemy

        try:
            inspector = sqlalchemy.inspect(self.engine)
            return {
                name: [(c["name"], duckdb_type(str(c["type"]))) for c in inspector.get_columns(name)]
                for name in [*inspector.get_table_names(), *inspector.get_view_names()]
            }
        except sqlalchemy.exc.SQLAlchemyError as error:
            raise ConfigError(
                f"Cannot open {self.describe()}: {_first_line(error)}; check the URL and that the database is there."
            ) from None

    def comments(self) -> dict[tuple[str, str], str]:
        """(table, column) -> the column's comment, where the database keeps one; SQLite keeps none, so
        there the comment written after a column in its CREATE TABLE (`-- what it holds`) is read."""
        import sqlalchemy

        found: dict[tuple[str, str], str] = {}
        try:
            inspector = sqlalchemy.inspect(self.engine)
            for name in [*inspector.get_table_names(), *inspector.get_view_names()]:
                for column in inspector.get_columns(name):
                    if isinstance(column.get("comment"), str) and column["comment"].strip():
                        found[(name, column["name"])] = column["comment"].strip()
            if self.engine.dialect.name == "sqlite":
                with self.engine.connect() as connection:
                    created = connection.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")
                    for table, sql in created:
                        found |= {(table, c): text for c, text in create_comments(sql).items()}
        except sqlalchemy.exc.SQLAlchemyError:
            return {}  # comments only help: a database that will not say them is read without
        return found

    def read(self, sql: str, limit: int) -> pd.DataFrame:
        import sqlalchemy

        try:
            with self.engine.connect() as connection:
                with self._lock:
                    self._running = connection.connection
                try:
                    result = connection.execution_options(no_parameters=True).exec_driver_sql(sql)
                    rows = result.fetchmany(limit)
                    frame = pd.DataFrame.from_records([tuple(r) for r in rows], columns=list(result.keys()))
                    return text_where_mixed(frame)
                finally:
                    with self._lock:
                        self._running = None
        except sqlalchemy.exc.SQLAlchemyError as error:
            raise QueryFailed(f"The database could not run it: {_first_line(error)}") from None

    def interrupt(self) -> None:
        with self._lock:
            running = self._running
        cancel = getattr(getattr(running, "driver_connection", running), "cancel", None)
        if callable(cancel):
            cancel()

    def close(self) -> None:
        self.engine.dispose()


_COMMENTED = re.compile(r"""^\s*[`"\[]?([A-Za-z_][\w ]*?)[`"\]]?\s+[^-]*?--\s*(.+?)\s*$""")


def create_comments(sql: str) -> dict[str, str]:
    """column -> the comment written after it, on its line of a CREATE TABLE.

    >>> create_comments('CREATE TABLE t (\\n  c7 INTEGER, -- beds free\\n  "ward" TEXT -- e.g. North\\n)')
    {'c7': 'beds free', 'ward': 'e.g. North'}
    """
    found = {}
    for line in sql.splitlines()[1:]:
        match = _COMMENTED.match(line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def _first_line(error: Exception) -> str:
    """What the driver said (SQLAlchemy wraps it with the statement and a link): its first line."""
    said = str(getattr(error, "orig", None) or error).strip().splitlines() or [type(error).__name__]
    return said[0][:300]
