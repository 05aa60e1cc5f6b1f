"""One statement run on the session's DuckDB connection: its rows fetched in chunks up to the fetch limit
(those past it counted, not kept), whole-number sums given back as integers, and a wait for it, on the
session's worker thread, that Ctrl-C interrupts; what it returned is a `QueryResult`."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Future, TimeoutError
from dataclasses import dataclass

import duckdb
import pandas as pd

DEFAULT_FETCH_LIMIT = 100_000
CHUNK_VECTORS = 8  # DuckDB vectors (2048 rows each) fetched per step
INTERRUPT_POLL_S = 0.1
HUGE_INTEGERS = {"HUGEINT", "UHUGEINT"}
Fetched = tuple[pd.DataFrame, int, bool]
Params = Mapping[str, object]  # named query parameters: $name -> value


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


def fetch(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, object] | None, fetch_limit: int) -> Fetched:
    """Run `sql` on `con` and fetch its rows: at most `fetch_limit` kept, all of them counted (the session's
    worker runs this)."""
    cursor = con.execute(sql, params) if params else con.execute(sql)
    if cursor.description is None:  # a statement that returns nothing
        return pd.DataFrame(), 0, False
    chunk = cursor.fetch_df_chunk(CHUNK_VECTORS)  # the first chunk carries the columns
    chunks = [chunk.head(fetch_limit)]
    kept, total = len(chunks[0]), len(chunk)
    while len(chunk) and len(chunk := cursor.fetch_df_chunk(CHUNK_VECTORS)):
        total += len(chunk)  # rows past the limit are counted, not kept
        if kept < fetch_limit:
            chunks.append(chunk.head(fetch_limit - kept))
            kept += len(chunks[-1])
    frame = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
    return _restore_integers(frame, cursor.description), total, total > kept


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


def wait_interruptibly(future: Future[Fetched]) -> Fetched:
    """Wait in short slices so Ctrl-C is seen promptly however it is delivered."""
    while True:
        try:
            return future.result(timeout=INTERRUPT_POLL_S)
        except TimeoutError:
            continue


def interrupt_until_done(con: duckdb.DuckDBPyConnection, future: Future) -> None:
    """Interrupt the connection until the statement ends: an interrupt that comes before the worker has
    started the statement stops nothing, so it is sent again while the statement runs."""
    while True:
        con.interrupt()
        try:
            future.result(timeout=INTERRUPT_POLL_S)
            return
        except TimeoutError:
            continue
        except BaseException:
            return
