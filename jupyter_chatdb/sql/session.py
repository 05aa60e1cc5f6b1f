"""The DuckDB session: one connection, the notebook's DataFrames bound by name, interruptible queries."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from ..errors import ConfigError, QueryFailed, QueryInterrupted

DEFAULT_FETCH_LIMIT = 100_000
CHUNK_VECTORS = 8  # DuckDB vectors (2048 rows each) fetched per step
INTERRUPT_POLL_S = 0.1
HUGE_INTEGERS = {"HUGEINT", "UHUGEINT"}
_Fetched = tuple[pd.DataFrame, int, bool]


@dataclass(frozen=True)
class QueryResult:
    """What one statement returned: the rows (at most the fetch limit) and how long it took."""

    sql: str
    frame: pd.DataFrame
    row_count: int
    elapsed_ms: float
    truncated: bool = False

    def preview(self, rows: int = 10) -> pd.DataFrame:
        return self.frame.head(rows)

    @property
    def scalar(self) -> object:
        """The single value of a 1x1 result, else None."""
        return self.frame.iat[0, 0] if self.frame.shape == (1, 1) else None


@dataclass
class Binding:
    bound: list[str] = field(default_factory=list)
    shadowed: list[str] = field(default_factory=list)  # names taken by the session's own tables


class Session:
    """Owns the DuckDB connection of one kernel.

    DataFrames are bound explicitly by name (a zero-copy view; re-bind to see rows added since);
    the session's own tables, the symbolic memory, live in memory or in a `.duckdb` file.

    >>> session = Session()
    >>> _ = session.bind("sales", pd.DataFrame({"amount": [3, 4]}))
    >>> session.run("SELECT max(amount) AS top FROM sales").scalar
    np.int64(4)
    """

    def __init__(self, database: str | Path | None = None, *, fetch_limit: int = DEFAULT_FETCH_LIMIT) -> None:
        self.database = Path(database).expanduser() if database else None
        self.fetch_limit = fetch_limit
        try:
            self._con = duckdb.connect(str(self.database) if self.database else ":memory:")
        except duckdb.Error as error:
            raise ConfigError(f"Cannot open the database {self.database}: {error}") from error
        self._frames: dict[str, pd.DataFrame] = {}
        self.attached: dict[str, Path] = {}  # read-only databases: name -> file
        self._from_namespace: set[str] = set()  # bound by bind_frames, so also dropped by it
        self._lock = threading.RLock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chatdb-duckdb")

    def __repr__(self) -> str:
        return f"Session({str(self.database) if self.database else ':memory:'}, frames={sorted(self._frames)})"

    # -- DataFrames --------------------------------------------------------------------------

    @property
    def frames(self) -> dict[str, pd.DataFrame]:
        return dict(self._frames)

    def bind(self, name: str, frame: pd.DataFrame) -> None:
        """Make `frame` queryable as `name`; a name taken by a stored table is refused."""
        if not isinstance(frame, pd.DataFrame):
            raise ConfigError(f"{name!r} is a {type(frame).__name__}, not a pandas DataFrame.")
        if name in self.stored_tables():
            raise ConfigError(f"{name!r} is already a table in the database: bind the DataFrame under another name.")
        if "." in name:
            raise ConfigError(f"{name!r} has a dot, which SQL reads as database.table: bind the DataFrame under another name.")
        self._register(name, frame)
        self._from_namespace.discard(name)

    def _register(self, name: str, frame: pd.DataFrame) -> None:
        with self._lock:
            self._con.register(name, frame)
            self._frames[name] = frame

    def unbind(self, name: str) -> None:
        with self._lock:
            self._from_namespace.discard(name)
            if self._frames.pop(name, None) is not None:
                self._con.unregister(name)

    def bind_frames(self, frames: Mapping[str, object]) -> Binding:
        """Bind every DataFrame in `frames` (say, the notebook namespace) and drop its stale bindings.

        Frames bound explicitly with `bind` are left alone.
        """
        stored = self.stored_tables()
        explicit = set(self._frames) - self._from_namespace
        wanted = {
            name: value
            for name, value in frames.items()
            if isinstance(value, pd.DataFrame) and not name.startswith("_") and name not in explicit
        }
        binding = Binding()
        for name in self._from_namespace - set(wanted):
            self.unbind(name)
        for name, frame in wanted.items():
            if name in stored:
                binding.shadowed.append(name)
            else:  # always re-register: DuckDB does not see rows added to a frame after binding
                self._register(name, frame)
                self._from_namespace.add(name)
        binding.bound = sorted(self._frames)
        return binding

    def stored_tables(self) -> set[str]:
        """Names of the session's own tables and views (not bound DataFrames)."""
        rows = self.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
            " AND table_catalog = current_database()"
        )
        return {name for (name,) in rows} - set(self._frames)

    def attach(self, path: str | Path, name: str | None = None) -> str:
        """Make the tables of another DuckDB file queryable, read-only, as `name.table` (name: the file's stem)."""
        path = Path(path).expanduser()
        name = name or path.stem
        if not path.is_file():
            raise ConfigError(f"There is no DuckDB file at {path}.")
        if not name.isidentifier():
            raise ConfigError(f"{name!r} cannot name an attached database: use letters, digits and _.")
        if name in self.attached or name in self.rows("SELECT list(database_name) FROM duckdb_databases()")[0][0]:
            raise ConfigError(f"A database named {name!r} is already attached: give this one another name.")
        try:
            self.rows(f"ATTACH {quote_string(str(path))} AS {quote_identifier(name)} (READ_ONLY)")
        except duckdb.Error as error:
            raise ConfigError(f"Cannot attach {path}: {_message(error)}") from None
        self.attached[name] = path
        return name

    def attached_tables(self) -> list[str]:
        """The tables of the attached databases, as `database.table`."""
        if not self.attached:
            return []
        rows = self.rows(
            "SELECT database_name, table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            " AND list_contains(?, database_name) ORDER BY 1, 2",
            [list(self.attached)],
        )
        return [f"{database}.{table}" for database, table in rows]

    def tables(self) -> pd.DataFrame:
        """Every table a request can use, with its kind, row count and columns."""
        rows = []
        listed = [(n, "DataFrame") for n in sorted(self._frames)] + [(n, "stored") for n in sorted(self.stored_tables())]
        listed += [(n, "attached (read-only)") for n in self.attached_tables()]
        for name, kind in listed:
            columns = [c for (c,) in self.rows(f"SELECT column_name FROM (DESCRIBE {quote_table(name)})")]
            (count,) = self.rows(f"SELECT count(*) FROM {quote_table(name)}")[0]
            rows.append({"table": name, "kind": kind, "rows": count, "columns": ", ".join(columns)})
        return pd.DataFrame(rows, columns=["table", "kind", "rows", "columns"])

    # -- running SQL -------------------------------------------------------------------------

    def rows(self, sql: str, params: list[object] | None = None) -> list[tuple]:
        """Run trusted, internal SQL (catalog queries) and return all rows."""
        with self._lock:
            return self._con.execute(sql, params or []).fetchall()

    def frame(self, sql: str, params: list[object] | None = None) -> pd.DataFrame:
        """Run trusted, internal SQL and return every row as a DataFrame."""
        with self._lock:
            return self._con.execute(sql, params or []).df()

    def run(self, sql: str) -> QueryResult:
        """Run one statement; Ctrl-C (KeyboardInterrupt) interrupts it and raises QueryInterrupted."""
        with self._lock:
            started = time.perf_counter()
            future = self._worker.submit(self._fetch, sql)
            try:
                frame, row_count, truncated = _wait_interruptibly(future)
            except KeyboardInterrupt:
                self._con.interrupt()
                _wait_quietly(future)
                raise QueryInterrupted("Query interrupted; nothing was changed.") from None
            except duckdb.Error as error:
                raise QueryFailed(_message(error)) from error
            elapsed = (time.perf_counter() - started) * 1000
        return QueryResult(sql, frame, row_count, elapsed, truncated)

    def _fetch(self, sql: str) -> _Fetched:
        cursor = self._con.execute(sql)
        if cursor.description is None:  # a statement that returns nothing
            return pd.DataFrame(), 0, False
        chunk = cursor.fetch_df_chunk(CHUNK_VECTORS)  # the first chunk carries the columns
        chunks = [chunk.head(self.fetch_limit)]
        kept, total = len(chunks[0]), len(chunk)
        while len(chunk) and len(chunk := cursor.fetch_df_chunk(CHUNK_VECTORS)):
            total += len(chunk)  # rows past the limit are counted, not kept
            if kept < self.fetch_limit:
                chunks.append(chunk.head(self.fetch_limit - kept))
                kept += len(chunks[-1])
        frame = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
        return _restore_integers(frame, cursor.description), total, total > kept

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All statements inside commit together, or none does."""
        with self._lock:
            self._con.execute("BEGIN TRANSACTION")
            try:
                yield
            except BaseException:
                self._con.execute("ROLLBACK")
                raise
            self._con.execute("COMMIT")

    def begin(self) -> None:
        """Open a transaction that spans several calls (a chain with model calls between statements)."""
        self.rows("BEGIN TRANSACTION")

    def commit(self) -> None:
        self.rows("COMMIT")

    def rollback(self) -> None:
        self.rows("ROLLBACK")

    def close(self) -> None:
        self._worker.shutdown(wait=True)
        self._con.close()


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


def _restore_integers(frame: pd.DataFrame, description: list[tuple]) -> pd.DataFrame:
    """sum() of integers is HUGEINT, which pandas receives as float: give whole numbers back as ints.

    >>> import duckdb
    >>> cursor = duckdb.connect().execute("SELECT sum(x) AS s FROM range(4) t(x)")
    >>> _restore_integers(cursor.fetch_df(), cursor.description)["s"].tolist()
    [6]
    """
    for (_, type_code, *_), column in zip(description, list(frame.columns)):
        values = frame[column]
        if str(type_code) in HUGE_INTEGERS and values.dtype.kind == "f":
            present = values.dropna()
            if ((present % 1 == 0) & (present.abs() < 2**63)).all():
                frame[column] = values.astype("int64" if len(present) == len(values) else "Int64")
    return frame


def _wait_interruptibly(future: Future[_Fetched]) -> _Fetched:
    """Wait in short slices so Ctrl-C is seen promptly however it is delivered."""
    while True:
        try:
            return future.result(timeout=INTERRUPT_POLL_S)
        except TimeoutError:
            continue


def _wait_quietly(future: Future) -> None:
    try:
        future.result()
    except BaseException:
        pass


def _message(error: Exception) -> str:
    return str(error).strip() or type(error).__name__
