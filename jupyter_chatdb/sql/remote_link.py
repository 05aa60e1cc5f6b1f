"""A session's link to a remote engine: which tables are remote, their samples, and how a read of them
runs there (transpiled, capped, interruptible); writes and reads mixing remote and local tables are
refused with a sentence saying why."""

from __future__ import annotations

import warnings
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError
from dataclasses import dataclass, field
from itertools import count

import duckdb
import pandas as pd
import sqlglot
from sqlglot import exp

from ..errors import QueryFailed, QueryInterrupted
from .remote import SAMPLE_ROWS, RemoteEngine, as_text, text_where_mixed
from .transpile import transpiled
from .trees import DDL_TYPES, DIALECT, WRITE_TYPES, referenced_tables

INTERRUPT_POLL_S = 0.1
_generations = count(1)


@dataclass
class RemoteLink:
    engine: RemoteEngine
    columns: dict[str, list[tuple[str, str]]]  # table -> (column, DuckDB type)
    samples: dict[str, pd.DataFrame] = field(default_factory=dict)  # what DuckDB keeps of each
    meanings: dict[tuple[str, str], str] = field(default_factory=dict)  # (table, column) lower case -> its comment
    generation: int = field(default_factory=lambda: next(_generations))  # remote values are read once per link
    _counts: dict[str, int] = field(default_factory=dict)

    @classmethod
    def open(cls, engine: RemoteEngine, sample_rows: int = SAMPLE_ROWS) -> RemoteLink:
        """Read the engine's tables and a sample of each. A column whose values are not all of its declared
        type (SQLite keeps any value in any column) is read as text, with one warning per table; a table
        whose name holds a dot is left out, with one warning naming it (as a stored table of the session)."""
        try:
            link = cls(engine, _undotted(engine.tables()))
            link._sample(sample_rows)
            link.meanings = _comments(engine)
        except BaseException:
            engine.close()  # nothing of it is kept: a connection pool, or a Spark session made for it
            raise
        return link

    def _sample(self, sample_rows: int) -> None:
        engine = self.engine
        for table, columns in list(self.columns.items()):
            sample = exp.select("*").from_(table_node(table)).limit(sample_rows).sql(engine.dialect)
            self.samples[table], self.columns[table], texts = _typed(engine.read(sample, sample_rows), columns)
            if texts:
                named = ", ".join(f"{table}.{column} ({kind})" for column, kind in texts)
                warnings.warn(
                    f"{named} {'holds' if len(texts) == 1 else 'hold'} values not of the declared type: read as "
                    "text; cast in SQL where a number or a date is meant.",
                    stacklevel=5,
                )

    @property
    def tables(self) -> set[str]:
        return {name.lower() for name in self.columns}

    def tables_in(self, sql: str) -> tuple[set[str], set[str]]:
        """The remote and the other tables `sql` reads or writes (the catalog's names; common table
        expressions left out where they are seen)."""
        try:
            trees = [tree for tree in sqlglot.parse(sql, read=DIALECT) if tree is not None]
        except sqlglot.errors.ParseError:
            return set(), set()
        named = set().union(*(referenced_tables(tree) for tree in trees))
        return named & self.tables, named - self.tables

    def read(
        self, sql: str, params: dict[str, object] | None, limit: int, worker: ThreadPoolExecutor
    ) -> tuple[pd.DataFrame, bool]:
        """Run a checked read of remote tables on the engine: its rows (at most `limit`) and whether
        there were more. Ctrl-C interrupts it there."""
        self.check(sql)
        types = {table: dict(columns) for table, columns in self.columns.items()}
        text = transpiled(sql, self.engine.dialect, types, params)
        future: Future[pd.DataFrame] = worker.submit(self.engine.read, text, limit + 1)
        try:
            frame = _wait(future)
        except KeyboardInterrupt:
            self.engine.interrupt()
            raise QueryInterrupted("Query interrupted on the remote engine; nothing was changed.") from None
        return frame.head(limit), len(frame) > limit

    def check(self, sql: str) -> None:
        """Refuse a write to remote tables, and a read joining them with local ones."""
        remote, local = self.tables_in(sql)
        tree = sqlglot.parse_one(sql, read=DIALECT)
        if isinstance(tree, (*WRITE_TYPES, *DDL_TYPES)):
            raise QueryFailed(
                f"{', '.join(sorted(remote))} live on the remote engine, which is only read: writes there are refused."
            )
        if not isinstance(tree, (exp.Select, exp.SetOperation, exp.Subquery)):
            raise QueryFailed("Only a SELECT runs on the remote engine: this works on local tables only.")
        if local:
            raise QueryFailed(
                f"This query joins remote tables ({', '.join(sorted(remote))}) with local ones "
                f"({', '.join(sorted(local))}), which cannot run in one place: ask about each apart."
            )

    def row_count(self, table: str) -> int:
        """The remote table's rows, counted there once per link."""
        key = table.lower()
        if key not in self._counts:
            counted = exp.select("count(*)").from_(table_node(table)).sql(self.engine.dialect)
            self._counts[key] = int(str(self.engine.read(counted, 1).iat[0, 0]))
        return self._counts[key]

    def close(self) -> None:
        self.engine.close()


def _comments(engine: RemoteEngine) -> dict[tuple[str, str], str]:
    """(table, column) in lower case -> its comment, where the engine says them (`comments()`); none where
    it cannot: comments only help, and a database that will not say them is read without."""
    commented = getattr(engine, "comments", None)
    if not callable(commented):
        return {}
    try:
        return {(t.lower(), c.lower()): text for (t, c), text in commented().items()}
    except Exception:  # any engine's own errors (JVM, driver): the tables are read all the same
        return {}


def _undotted(columns: dict[str, list[tuple[str, str]]]) -> dict[str, list[tuple[str, str]]]:
    """The tables whose names hold no dot: SQL reads `a.b` as database.table, so the catalog, the guard and
    the session's lists would each read such a table as another one. Each left out is said in one warning."""
    for name in sorted(name for name in columns if "." in name):
        warnings.warn(
            f"The remote table {name!r} has a dot in its name, which SQL reads as database.table: it is left out; "
            "rename it there to ask about it.",
            stacklevel=5,
        )
    return {name: kinds for name, kinds in columns.items() if "." not in name}


def table_node(name: str) -> exp.Table:
    """A remote table by its name as the engine lists it, never parsed: quotes, dots and spaces stay in it
    (quoted where they are; a plain name stays unquoted, so the engine folds its case as it listed it).

    >>> table_node('we"ird').sql("sqlite"), table_node("a.b").sql("spark"), table_node("bales").sql("postgres")
    ('"we""ird"', '`a.b`', 'bales')
    """
    return exp.Table(this=exp.to_identifier(name))


def _typed(
    sample: pd.DataFrame, columns: list[tuple[str, str]]
) -> tuple[pd.DataFrame, list[tuple[str, str]], list[tuple[str, str]]]:
    """The sample and its columns, those whose values DuckDB cannot cast to the declared type made text
    (and these, with their declared types).

    >>> sample = pd.DataFrame({"id": [1, 2], "qty": [1, "two"], "day": ["2024-01-02", None]})
    >>> typed, columns, texts = _typed(sample, [("id", "INTEGER"), ("qty", "INTEGER"), ("day", "DATE")])
    >>> columns, texts, typed["qty"].tolist()
    ([('id', 'INTEGER'), ('qty', 'VARCHAR'), ('day', 'DATE')], [('qty', 'INTEGER')], ['1', 'two'])
    """
    sample = text_where_mixed(sample)
    if sample.shape[1] != len(columns):
        return sample, columns, []  # the engine's own columns: DuckDB's insert says what is wrong
    texts: list[int] = []
    with duckdb.connect() as con:
        for position, (_, kind) in enumerate(columns):
            if kind == "VARCHAR":
                continue
            con.register("chatdb_values", pd.DataFrame({"v": sample.iloc[:, position]}))
            try:
                con.execute(f"SELECT CAST(v AS {kind}) FROM chatdb_values").fetchall()
            except duckdb.Error:
                texts.append(position)
            finally:
                con.unregister("chatdb_values")
    if not texts:
        return sample, columns, []
    sample = sample.copy()
    for position in texts:
        sample.isetitem(position, as_text(sample.iloc[:, position]))
    typed = [(column, "VARCHAR" if position in texts else kind) for position, (column, kind) in enumerate(columns)]
    return sample, typed, [columns[position] for position in texts]


def _wait(future: Future[pd.DataFrame]) -> pd.DataFrame:
    while True:
        try:
            return future.result(timeout=INTERRUPT_POLL_S)
        except TimeoutError:
            continue
