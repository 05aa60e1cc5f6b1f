"""Remote engines: where a team's data lives past one machine (Spark, or any SQLAlchemy database).

A remote engine only reads. The session keeps a sample of each remote table in DuckDB, so the catalog,
the prompts and the guard work as for local tables; a checked read of remote tables is then written in
the engine's dialect (`transpile.py`: the same meaning, or refused) and runs there, with a row cap.
Writes, and reads that join remote tables with local ones, stay refused with a sentence saying why.
"""

from __future__ import annotations

import datetime
import numbers
from collections.abc import Mapping
from typing import Protocol, runtime_checkable

import pandas as pd

from ..errors import ConfigError

SAMPLE_ROWS = 1000  # rows of each remote table kept in DuckDB for the catalog and the prompts


@runtime_checkable
class RemoteEngine(Protocol):
    """What the session needs of a remote engine. One that keeps column comments also has `comments()`:
    (table, column) -> comment, shown beside the column (`RemoteLink.meanings`)."""

    dialect: str  # sqlglot's name for its SQL dialect

    def describe(self) -> str:
        """What it is, for `%chatdb` status: no credentials."""
        ...

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        """table -> its (column, DuckDB type) pairs."""
        ...

    def read(self, sql: str, limit: int) -> pd.DataFrame:
        """Run one read in the engine's dialect; at most `limit` rows."""
        ...

    def interrupt(self) -> None:
        """Stop what `read` runs now (from another thread)."""
        ...

    def close(self) -> None: ...


def connect(target: object) -> RemoteEngine:
    """A remote engine for `target`: a SparkSession, a Spark Connect URL (sc://host:port, or spark://
    host:port for a cluster's master), an SQLAlchemy Engine or an SQLAlchemy URL."""
    if isinstance(target, str):
        if target.startswith(("sc://", "spark://", "local")):
            from .remote_spark import SparkEngine

            return SparkEngine.from_url(target)
        from .remote_sqlalchemy import SQLAlchemyEngine

        return SQLAlchemyEngine.from_url(target)
    kind = f"{type(target).__module__}.{type(target).__name__}"
    if kind.startswith("pyspark."):
        from .remote_spark import SparkEngine

        return SparkEngine(target)
    if kind.startswith("sqlalchemy."):
        from .remote_sqlalchemy import SQLAlchemyEngine

        return SQLAlchemyEngine(target)
    raise ConfigError(
        f"Cannot connect to a {type(target).__name__}: pass a SparkSession, a Spark URL (sc://host:15002), "
        "an SQLAlchemy engine or an SQLAlchemy URL."
    )


# DuckDB types for the types engines report (lower case, without their parameters)
DUCKDB_TYPES: Mapping[str, str] = {
    "string": "VARCHAR",
    "varchar": "VARCHAR",
    "char": "VARCHAR",
    "text": "VARCHAR",
    "int": "INTEGER",
    "integer": "INTEGER",
    "tinyint": "TINYINT",
    "byte": "TINYINT",
    "smallint": "SMALLINT",
    "short": "SMALLINT",
    "bigint": "BIGINT",
    "long": "BIGINT",
    "float": "FLOAT",
    "real": "FLOAT",
    "double": "DOUBLE",
    "double precision": "DOUBLE",
    "numeric": "DECIMAL",
    "decimal": "DECIMAL",
    "boolean": "BOOLEAN",
    "bool": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
    "timestamp_ntz": "TIMESTAMP",
    "datetime": "TIMESTAMP",
    "timestamp_ltz": "TIMESTAMPTZ",
}


def duckdb_type(remote: str) -> str:
    """The DuckDB type for an engine's type name ("decimal(8,2)" keeps its parameters); VARCHAR when unknown.

    >>> duckdb_type("decimal(8,2)"), duckdb_type("StringType()"), duckdb_type("array<int>")
    ('DECIMAL(8,2)', 'VARCHAR', 'VARCHAR')
    """
    text = remote.strip().lower().removesuffix("()")
    text = text[: -len("type")] if text.endswith("type") else text
    base, _, rest = text.partition("(")
    mapped = DUCKDB_TYPES.get(base.strip())
    if mapped is None:
        return "VARCHAR"
    return f"{mapped}({rest.replace(' ', '')}" if rest and mapped == "DECIMAL" else mapped


def text_where_mixed(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with each column that holds values of several kinds (text beside numbers: SQLite keeps any
    value in any column) as text; missing values stay missing. A frame without such columns is returned as is.

    >>> text_where_mixed(pd.DataFrame({"qty": [1, "two", 3.5], "kg": [1, 2.5, 4]})).to_dict("list")
    {'qty': ['1', 'two', '3.5'], 'kg': [1.0, 2.5, 4.0]}
    """
    mixed = [
        position
        for position in range(frame.shape[1])
        if pd.api.types.is_object_dtype(frame.dtypes.iloc[position])
        and len({_kind(v) for v in frame.iloc[:, position]} - {None}) > 1
    ]
    if not mixed:
        return frame
    frame = frame.copy()
    for position in mixed:
        frame.isetitem(position, as_text(frame.iloc[:, position]))
    return frame


def as_text(values: pd.Series) -> list[str | None]:
    """Each value as text; missing ones stay missing (None).

    >>> as_text(pd.Series([1, 2.5, None, float("nan"), "x"], dtype=object))
    ['1', '2.5', None, None, 'x']
    """
    return [None if _kind(v) is None else str(v) for v in values]


def _kind(value: object) -> str | None:
    """What a value is, as far as its column's type goes: a number, text, a time, ...; None when missing."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return "number"
    if isinstance(value, datetime.date):
        return "time"
    return type(value).__name__
