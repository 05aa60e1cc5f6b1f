"""Spark as a remote engine: a SparkSession the user passes, or one made for a Spark Connect URL or a
cluster's master URL. Reads run under a tag, so a Stop interrupts exactly them."""

from __future__ import annotations

import uuid
from typing import Any

import pandas as pd

from ..errors import ConfigError, QueryFailed
from .remote import duckdb_type


class SparkEngine:
    dialect = "spark"

    def __init__(self, spark: Any, *, owned: bool = False) -> None:
        self.spark, self._owned = spark, owned
        self._tag = f"chatdb-{uuid.uuid4().hex[:8]}"

    @classmethod
    def from_url(cls, url: str) -> SparkEngine:
        """sc://host:port (Spark Connect), spark://host:port or local[n] (a master)."""
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            raise ConfigError("Spark needs pyspark: pip install 'jupyter-chatdb[spark]'.") from None
        builder = SparkSession.builder.appName("jupyter-chatdb").config("spark.ui.showConsoleProgress", "false")
        builder = builder.remote(url) if url.startswith("sc://") else builder.master(url)
        try:
            return cls(builder.getOrCreate(), owned=True)
        except Exception as error:  # pyspark raises many kinds: JVM, gRPC, configuration
            raise ConfigError(f"Cannot reach Spark at {url}: {_first_line(error)}") from None

    def describe(self) -> str:
        return f"Spark {self.spark.version}"

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        found: dict[str, list[tuple[str, str]]] = {}
        for table in self.spark.catalog.listTables():
            fields = self.spark.table(table.name).schema.fields
            found[table.name] = [(f.name, duckdb_type(f.dataType.simpleString())) for f in fields]
        return found

    def comments(self) -> dict[tuple[str, str], str]:
        """(table, column) -> the column's comment (`COMMENT 'what it holds'` in Spark SQL)."""
        return {
            (table.name, f.name): f.metadata["comment"]
            for table in self.spark.catalog.listTables()
            for f in self.spark.table(table.name).schema.fields
            if isinstance(f.metadata.get("comment"), str) and f.metadata["comment"].strip()
        }

    def read(self, sql: str, limit: int) -> pd.DataFrame:
        self.spark.addTag(self._tag)
        try:
            frame = self.spark.sql(sql).limit(limit)
            rows = frame.collect()
        except Exception as error:
            raise QueryFailed(f"Spark could not run it: {_first_line(error)}") from None
        finally:
            self.spark.removeTag(self._tag)
        return pd.DataFrame.from_records([tuple(row) for row in rows], columns=frame.columns)

    def interrupt(self) -> None:
        self.spark.interruptTag(self._tag)

    def close(self) -> None:
        if self._owned:
            self.spark.stop()


def _first_line(error: Exception) -> str:
    """Spark's errors carry a JVM stack: the first line says what went wrong."""
    return str(error).strip().splitlines()[0][:300] if str(error).strip() else type(error).__name__
