"""The data-value memory on disk: columns' distinct values and their vectors, kept between kernel
sessions, and the users' descriptions of tables and columns (`%chatdb describe`), which schema selection
and the prompts read.

One SQLite file in the notebook's memory folder (`.chatdb/<notebook>.values.sqlite`); rows are keyed by
database, table and column and carry the fingerprint they were read at, so a column that changed is
read again. Nothing here is needed for correctness: a file that cannot be used only means reading again
(and descriptions that last only the session).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import numpy as np

from ..kernel_memory.store import MemoryUnavailable

SCHEMA = """
CREATE TABLE IF NOT EXISTS column_values (
    database TEXT NOT NULL,
    table_name TEXT NOT NULL,
    column_name TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    digest INTEGER NOT NULL,
    capped INTEGER NOT NULL,
    distinct_values TEXT NOT NULL,  -- JSON list, the most frequent first
    vectors BLOB,  -- float32, one row per embedded value (the first ones), or NULL
    embedder TEXT,  -- the embedder that made them
    dimensions INTEGER,
    PRIMARY KEY (database, table_name, column_name)
);
CREATE TABLE IF NOT EXISTS table_notes (
    database TEXT NOT NULL,
    table_name TEXT NOT NULL,
    note TEXT NOT NULL,
    PRIMARY KEY (database, table_name)
);
CREATE TABLE IF NOT EXISTS column_notes (
    database TEXT NOT NULL,
    table_name TEXT NOT NULL,
    column_name TEXT NOT NULL,
    note TEXT NOT NULL,
    PRIMARY KEY (database, table_name, column_name)
);
"""


class SavedValues:
    """`load` what `save` kept for a column, if it was read at the same fingerprint."""

    def __init__(self, path: Path, database: str) -> None:
        self.path, self.database = path, database
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise MemoryUnavailable(
                f"The value memory cannot be kept in {path} ({error}): values are read again each session."
            ) from None
        self._lock = threading.Lock()

    def load(
        self, table: str, column: str, fingerprint: tuple[int, int], embedder: str | None
    ) -> tuple[tuple[str, ...], bool, np.ndarray | None] | None:
        """(values, capped, vectors made by `embedder` or None), or None when nothing is kept for that fingerprint."""
        with self._lock:
            row = self._db.execute(
                "SELECT distinct_values, capped, vectors, embedder, dimensions FROM column_values"
                " WHERE database = ? AND table_name = ? AND column_name = ? AND row_count = ? AND digest = ?",
                (self.database, table.lower(), column.lower(), *_signed(fingerprint)),
            ).fetchone()
        if row is None:
            return None
        values, capped, blob, made_by, dimensions = row
        vectors = None
        if blob is not None and made_by == embedder:
            vectors = np.frombuffer(blob, dtype=np.float32).reshape(-1, dimensions)
        return tuple(json.loads(values)), bool(capped), vectors

    def save(
        self,
        table: str,
        column: str,
        fingerprint: tuple[int, int],
        values: tuple[str, ...],
        capped: bool,
        vectors: np.ndarray | None = None,
        embedder: str | None = None,
    ) -> None:
        blob = None if vectors is None else np.ascontiguousarray(vectors, dtype=np.float32).tobytes()
        dimensions = None if vectors is None else int(vectors.shape[1])
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO column_values VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    self.database,
                    table.lower(),
                    column.lower(),
                    *_signed(fingerprint),
                    int(capped),
                    json.dumps(list(values)),
                    blob,
                    embedder,
                    dimensions,
                ),
            )

    def notes(self) -> dict[str, str]:
        """The tables' descriptions kept for this database: table -> note."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_name, note FROM table_notes WHERE database = ?", (self.database,)
            ).fetchall()
        return dict(rows)

    def save_note(self, table: str, note: str) -> None:
        """Keep `table`'s description (an empty one removes it)."""
        with self._lock:
            if note.strip():
                self._db.execute(
                    "INSERT OR REPLACE INTO table_notes VALUES (?, ?, ?)", (self.database, table, note.strip())
                )
            else:
                self._db.execute(
                    "DELETE FROM table_notes WHERE database = ? AND table_name = ?", (self.database, table)
                )

    def column_notes(self) -> dict[tuple[str, str], str]:
        """The columns' descriptions kept for this database: (table, column) in lower case -> note."""
        with self._lock:
            rows = self._db.execute(
                "SELECT table_name, column_name, note FROM column_notes WHERE database = ?", (self.database,)
            ).fetchall()
        return {(table, column): note for table, column, note in rows}

    def save_column_note(self, table: str, column: str, note: str) -> None:
        """Keep what `table`.`column` means (an empty note removes it)."""
        key = (self.database, table.lower(), column.lower())
        with self._lock:
            if note.strip():
                self._db.execute("INSERT OR REPLACE INTO column_notes VALUES (?, ?, ?, ?)", (*key, note.strip()))
            else:
                self._db.execute(
                    "DELETE FROM column_notes WHERE database = ? AND table_name = ? AND column_name = ?", key
                )

    def close(self) -> None:
        self._db.close()


def _signed(fingerprint: tuple[int, int]) -> tuple[int, int]:
    """SQLite integers are signed 64-bit; DuckDB's hashes are unsigned."""
    count, digest = fingerprint
    return count, digest - (1 << 64) if digest >= 1 << 63 else digest
