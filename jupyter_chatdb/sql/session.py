"""The DuckDB session: one locked-down connection, the notebook's DataFrames bound by name, interruptible queries.

One statement's run and its `QueryResult` are in `running.py`; begin, commit and roll back in `transactions.py`.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from ..errors import ConfigError, QueryFailed, QueryInterrupted
from .engine import connect_locked
from .names import quote_identifier, quote_string, quote_table
from .remote import SAMPLE_ROWS, RemoteEngine
from .remote_link import RemoteLink
from .running import DEFAULT_FETCH_LIMIT, Params, QueryResult, fetch, interrupt_until_done, wait_interruptibly
from .transactions import Transactions

FRAME_MEANINGS = "column_descriptions"  # a DataFrame's attrs key: column -> what it means


@dataclass
class Binding:
    bound: list[str] = field(default_factory=list)
    shadowed: list[str] = field(default_factory=list)  # names taken by the session's own tables
    skipped: dict[str, str] = field(default_factory=dict)  # frames and tables left out: name -> why


class Session(Transactions):
    """Owns the DuckDB connection of one kernel.

    DataFrames are bound explicitly by name (a zero-copy view; re-bind to see rows added since);
    the session's own tables, the symbolic memory, live in a `.duckdb` file, or without one in a
    private temporary file removed when the session closes. The connection is locked down
    (`engine.connect_locked`): it reaches only those files and the databases the user attached.

    >>> session = Session()
    >>> _ = session.bind("sales", pd.DataFrame({"amount": [3, 4]}))
    >>> session.run("SELECT max(amount) AS top FROM sales").scalar
    np.int64(4)
    """

    def __init__(self, database: str | Path | None = None, *, fetch_limit: int = DEFAULT_FETCH_LIMIT) -> None:
        self.database = Path(database).expanduser() if database else None
        self.fetch_limit = fetch_limit
        self._private = Path(tempfile.mkdtemp(prefix="chatdb-"))  # holds the tables when there is no file
        self._cleanup = weakref.finalize(self, shutil.rmtree, self._private, True)
        self._frames: dict[str, pd.DataFrame] = {}
        self.attached: dict[str, Path] = {}  # read-only databases: name -> file
        self._from_namespace: set[str] = set()  # bound by bind_frames, so also dropped by it
        self._lock = threading.RLock()
        self._transaction = False  # a transaction begun here is open
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chatdb-duckdb")
        self.remote: RemoteLink | None = None  # a remote engine whose tables are read there
        self.described: dict[
            tuple[str, str], str
        ] = {}  # (table, column) in lower case -> its meaning, as the user said
        try:
            self._con = self._connect()
        except duckdb.ConnectionException as error:
            self._cleanup()
            raise ConfigError(
                f"Cannot open the database {self.database}: it is open in another DuckDB connection of this kernel; "
                "close that connection first (con.close())."
            ) from error
        except duckdb.Error as error:
            self._cleanup()
            raise ConfigError(f"Cannot open the database {self.database}: {error}") from error

    def _connect(self) -> duckdb.DuckDBPyConnection:
        """A locked connection that can read the attached files, with them attached and the frames bound."""
        main = self.database or self._private / "session.duckdb"
        con = connect_locked(main, list(self.attached.values()))
        try:
            for name, path in self.attached.items():
                con.execute(f"ATTACH {quote_string(str(path))} AS {quote_identifier(name)} (READ_ONLY)")
            for name, frame in self._frames.items():
                con.register(name, _wall_clock(frame))
            if self.remote is not None:
                _mirror(con, self.remote)
        except BaseException:
            con.close()
            raise
        return con

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
            raise ConfigError(
                f"{name!r} has a dot, which SQL reads as database.table: bind the DataFrame under another name."
            )
        self._register(name, frame)
        self._from_namespace.discard(name)

    def _register(self, name: str, frame: pd.DataFrame) -> None:
        """Bind `frame` as `name`, or raise ConfigError (nothing bound) when DuckDB cannot read it."""
        twice = sorted({str(column) for column in frame.columns[frame.columns.duplicated()]})
        if twice:
            raise ConfigError(
                f"DuckDB cannot read the DataFrame {name!r}: it has more than one column named "
                f"{', '.join(map(repr, twice))}; rename them."
            )
        with self._lock:
            try:
                self._con.register(name, _wall_clock(frame))
                self._con.execute(f"SELECT * FROM {quote_identifier(name)} LIMIT 0")
            except (duckdb.Error, TypeError, ValueError) as error:
                self._con.unregister(name)
                if name in self._frames:  # keep the last frame that could be read
                    self._con.register(name, _wall_clock(self._frames[name]))
                reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                raise ConfigError(f"DuckDB cannot read the DataFrame {name!r}: {reason.rstrip('.')}.") from None
            self._frames[name] = frame

    def zones(self) -> dict[str, dict[str, str]]:
        """Frame -> its time-zone-aware columns -> their zone: each is read as the wall-clock time of it."""
        zones: dict[str, dict[str, str]] = {}
        for name, frame in self._frames.items():
            for column, dtype in frame.dtypes.items():
                if isinstance(dtype, pd.DatetimeTZDtype):
                    zones.setdefault(name, {})[str(column)] = str(dtype.tz)
        return zones

    def meanings(self) -> dict[tuple[str, str], str]:
        """What columns mean, (table, column) in lower case -> text, beside the comments DuckDB keeps: a
        remote engine's column comments, a DataFrame's `attrs["column_descriptions"]` (column -> text), and,
        before them all, what the user described (`describe`)."""
        found: dict[tuple[str, str], str] = dict(self.remote.meanings) if self.remote is not None else {}
        for name, frame in self._frames.items():
            given = frame.attrs.get(FRAME_MEANINGS)
            if isinstance(given, Mapping):
                found.update(
                    {
                        (name.lower(), str(c).lower()): t.strip()
                        for c, t in given.items()
                        if isinstance(t, str) and t.strip()
                    }
                )
        return {**found, **self.described}

    def describe(self, table: str, column: str, meaning: str) -> tuple[str, str]:
        """Say what `table`.`column` holds, in words (a blank `meaning` forgets it); the table's and the
        column's names as the data spells them."""
        try:
            columns = list(self.frame(f"SELECT * FROM {quote_table(table)} LIMIT 0").columns)
        except QueryFailed:
            raise ConfigError(f"There is no table {table!r}: %chatdb tables lists them.") from None
        spelled = next((str(c) for c in columns if str(c).lower() == column.lower()), None)
        if spelled is None:
            raise ConfigError(f"{table} has no column {column!r}; it has {', '.join(map(str, columns))}.")
        key = (table.lower(), spelled.lower())
        if meaning.strip():
            self.described[key] = " ".join(meaning.split())
        else:
            self.described.pop(key, None)
        return table, spelled

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
                continue
            try:  # always re-register: DuckDB does not see rows added to a frame after binding
                self._register(name, frame)
            except ConfigError as error:  # one unreadable frame must not stop cells about the others
                self.unbind(name)
                binding.skipped[name] = str(error)
                continue
            self._from_namespace.add(name)
        for name in self.dotted_tables():
            binding.skipped[name] = (
                f"The table {name!r} has a dot in its name, which SQL reads as database.table: rename it "
                f"(ALTER TABLE {quote_identifier(name)} RENAME TO ...)."
            )
        binding.bound = sorted(self._frames)
        return binding

    def stored_tables(self) -> set[str]:
        """Names of the session's own tables and views (not bound DataFrames); a name with a dot is left out
        (`dotted_tables`)."""
        return {name for name in self._own_tables() if "." not in name} - set(self._frames)

    def dotted_tables(self) -> list[str]:
        """The session's own tables whose names hold a dot, which SQL reads as database.table: requests leave
        them out."""
        return sorted(name for name in self._own_tables() if "." in name)

    def _own_tables(self) -> list[str]:
        rows = self.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
            " AND table_catalog = current_database()"
        )
        return [name for (name,) in rows]

    def attach(self, path: str | Path, name: str | None = None) -> str:
        """Make the tables of another DuckDB file queryable, read-only, as `name.table` (name: the file's stem).

        The locked engine can only open the files it was started with, so the connection is opened
        again with this one added (the tables, the journal and the bound frames are kept).
        """
        path = Path(path).expanduser().resolve()
        name = name or path.stem
        if not path.is_file():
            raise ConfigError(f"There is no DuckDB file at {path}.")
        if not name.isidentifier():
            raise ConfigError(f"{name!r} cannot name an attached database: use letters, digits and _.")
        if name in self.attached or name in self.rows("SELECT list(database_name) FROM duckdb_databases()")[0][0]:
            raise ConfigError(f"A database named {name!r} is already attached: give this one another name.")
        with self._lock:
            self.attached[name] = path
            try:
                self._reconnect()
            except duckdb.Error as error:
                del self.attached[name]
                self._reconnect()
                raise ConfigError(f"Cannot attach {path}: {_message(error)}") from None
        return name

    def _reconnect(self) -> None:
        self._con.close()
        self._con = self._connect()

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
        listed = [(n, "DataFrame") for n in sorted(self._frames)] + [
            (n, "stored") for n in sorted(self.stored_tables())
        ]
        listed += [(n, "attached (read-only)") for n in self.attached_tables()]
        if self.remote is not None:
            listed += [
                (n, f"remote: {self.remote.engine.describe()} (read there)") for n in sorted(self.remote.columns)
            ]
        for name, kind in listed:
            columns = [c for (c,) in self.rows(f"SELECT column_name FROM (DESCRIBE {quote_table(name)})")]
            if self.remote is not None and self.is_remote(name):
                count = self.remote.row_count(name)  # counted there: the sample here is not the table
            else:
                (count,) = self.rows(f"SELECT count(*) FROM {quote_table(name)}")[0]
            rows.append({"table": name, "kind": kind, "rows": count, "columns": ", ".join(columns)})
        return pd.DataFrame(rows, columns=["table", "kind", "rows", "columns"])

    # -- a remote engine ---------------------------------------------------------------------

    def connect_remote(self, engine: RemoteEngine, sample_rows: int = SAMPLE_ROWS) -> list[str]:
        """Read `engine`'s tables (instead of the remote engine connected before): a sample of each is kept
        here, under its name, for the catalog and the prompts, and reads of them run on the engine."""
        link = RemoteLink.open(engine, sample_rows)
        taken = {name.lower() for name in (*self.stored_tables(), *self._frames)} & link.tables
        if taken:
            link.close()
            raise ConfigError(
                f"The remote engine has tables named like local ones ({', '.join(sorted(taken))}): "
                "rename or unbind those first."
            )
        self.disconnect_remote()
        with self._lock:
            _mirror(self._con, link)
            self.remote = link
        return sorted(link.columns)

    def disconnect_remote(self) -> None:
        if self.remote is None:
            return
        with self._lock:
            for table in self.remote.columns:
                self._con.execute(f"DROP TABLE IF EXISTS temp.main.{quote_identifier(table)}")
            self.remote.close()
            self.remote = None

    def is_remote(self, table: str) -> bool:
        return self.remote is not None and table.lower() in self.remote.tables

    def _run_remote(self, sql: str, params: Params | None) -> QueryResult:
        assert self.remote is not None
        started = time.perf_counter()
        frame, truncated = self.remote.read(sql, dict(params) if params else None, self.fetch_limit, self._worker)
        with self._lock:  # DuckDB names the columns as it would: the sample has the same columns
            try:
                names = [
                    d[0] for d in self._con.execute(f"SELECT * FROM ({sql}) LIMIT 0", dict(params or {})).description
                ]
            except duckdb.Error:
                names = []  # the engine's own names, then
        if len(names) == len(frame.columns):
            frame.columns = names
        elapsed = (time.perf_counter() - started) * 1000
        return QueryResult(sql, frame, len(frame), elapsed, truncated)

    # -- running SQL -------------------------------------------------------------------------

    def rows(self, sql: str, params: list[object] | None = None) -> list[tuple]:
        """Run trusted, internal SQL (catalog queries) and return all rows."""
        with self._lock:
            return self._con.execute(sql, params or []).fetchall()

    def sequences(self) -> dict[str, int | None]:
        """The last value each sequence of the session's own database gave (None: never used)."""
        rows = self.rows(
            "SELECT sequence_name, last_value FROM duckdb_sequences() WHERE database_name = current_database()"
        )
        return {name: value for name, value in rows}

    def frame(self, sql: str, params: list[object] | None = None) -> pd.DataFrame:
        """Run trusted, internal SQL and return every row as a DataFrame."""
        with self._lock:
            return self._con.execute(sql, params or []).df()

    def run(self, sql: str, params: Params | None = None) -> QueryResult:
        """Run one statement, its `$name` parameters bound from `params` (never spliced into the text);
        Ctrl-C (KeyboardInterrupt) interrupts it and raises QueryInterrupted. A read of remote tables
        runs on the remote engine."""
        if self.remote is not None and self.remote.tables_in(sql)[0]:
            return self._run_remote(sql, params)
        with self._lock:
            started = time.perf_counter()
            future = self._worker.submit(fetch, self._con, sql, dict(params) if params else None, self.fetch_limit)
            try:
                frame, row_count, truncated = wait_interruptibly(future)
            except KeyboardInterrupt:
                interrupt_until_done(self._con, future)
                raise QueryInterrupted("Query interrupted; nothing was changed.") from None
            except duckdb.Error as error:
                raise QueryFailed(_message(error)) from error
            elapsed = (time.perf_counter() - started) * 1000
        return QueryResult(sql, frame, row_count, elapsed, truncated)

    def close(self) -> None:
        self.disconnect_remote()
        self._worker.shutdown(wait=True)
        self._con.close()
        self._cleanup()


def _mirror(con: duckdb.DuckDBPyConnection, link: RemoteLink) -> None:
    """Keep each remote table's sample as a temporary table of its types, under its name."""
    for table, columns in link.columns.items():
        name = quote_identifier(table)
        typed = ", ".join(f"{quote_identifier(column)} {kind}" for column, kind in columns)
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} ({typed})")
        con.register("chatdb_remote_sample", link.samples[table])
        try:
            con.execute(f"INSERT INTO temp.main.{name} SELECT * FROM chatdb_remote_sample")
        finally:
            con.unregister("chatdb_remote_sample")


def _wall_clock(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with each time-zone-aware column as the wall-clock time of its own zone.

    DuckDB reads such a column as UTC instants, so `hour()` would answer in UTC, not in the zone
    the data was recorded in; a frame without such columns is returned as is (no copy).

    >>> oslo = pd.DataFrame({"t": pd.to_datetime(["2024-06-01 10:00"]).tz_localize("Europe/Oslo")})
    >>> str(_wall_clock(oslo)["t"].iloc[0])
    '2024-06-01 10:00:00'
    """
    aware = [c for c in frame.columns if isinstance(frame[c].dtype, pd.DatetimeTZDtype)]
    if not aware:
        return frame
    local = frame.copy(deep=False)
    for column in aware:
        local[column] = frame[column].dt.tz_localize(None)
    return local


def _message(error: Exception) -> str:
    return str(error).strip() or type(error).__name__
