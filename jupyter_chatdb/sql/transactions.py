"""The session's transactions: the session alone begins, commits and rolls back (no model-written SQL
may), and every way out of a request ends in `end_transaction`."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from ..errors import QueryFailed


class Transactions:
    """The transaction methods of `Session` (its base): they run on its connection, under its lock."""

    _con: duckdb.DuckDBPyConnection
    _lock: threading.RLock
    _transaction: bool  # a transaction begun here is open

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction begun here is open."""
        return self._transaction

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All statements inside commit together, or none does."""
        with self._lock:
            self.begin()
            try:
                yield
            except BaseException:
                self.end_transaction()
                raise
            self.commit()

    def begin(self, seed: float | None = None) -> None:
        """Open a transaction that spans several calls (a chain with model calls between statements);
        `seed` (-1 to 1) seeds random() and uuid() in it, so a run with the same seed gets the same values."""
        with self._lock:
            if self._transaction:
                raise QueryFailed("A transaction is already open in this session: finish or roll it back first.")
            self._transaction = True  # first: an interrupt after BEGIN must still find it open
            try:
                self._con.execute("BEGIN TRANSACTION")
                if seed is not None:
                    self._con.execute("SELECT setseed(?)", [seed])
            except BaseException:
                self.end_transaction()
                raise

    def commit(self) -> None:
        self._end("COMMIT")

    def rollback(self) -> None:
        self._end("ROLLBACK")

    def _end(self, statement: str) -> None:
        with self._lock:
            try:
                self._con.execute(statement)
            finally:
                self._transaction = False

    def end_transaction(self) -> bool:
        """Roll back the transaction left open, if any (a request stopped, failed or interrupted midway,
        whatever DuckDB thinks of it); True when there was one. Every way out of a request ends here."""
        with self._lock:
            was_open, self._transaction = self._transaction, False
            try:
                self._con.execute("ROLLBACK")
            except duckdb.TransactionException:  # none is open: DuckDB's own view agrees
                return was_open
            return True
