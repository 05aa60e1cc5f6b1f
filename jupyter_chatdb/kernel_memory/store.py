"""The durable records of one notebook's memory: a SQLite file (WAL, one transaction per write).

Every thought is also a subject-relation-object triple. A record is never deleted by the memory itself:
a contradicted or merged record gets `superseded_by` (the record that replaced it, or FORGOTTEN when the
user forgot it) and `valid_to`, so its history stays readable. The vector index can always be rebuilt
from the embeddings kept here. A crash loses at most the transaction in flight (SQLite's journal).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from ..errors import ChatDBError
from .files import connect

FORGOTTEN = -1  # superseded_by of a record the user forgot
LARGEST = 2**63 - 1  # SQLite's largest integer: no record id is larger, and no count of records
SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    id            INTEGER PRIMARY KEY,
    text          TEXT NOT NULL,
    subject       TEXT NOT NULL DEFAULT '',
    relation      TEXT NOT NULL DEFAULT '',
    object        TEXT NOT NULL DEFAULT '',
    embedding     BLOB,
    source        TEXT NOT NULL DEFAULT '',
    created       TEXT NOT NULL,
    superseded_by INTEGER,
    valid_to      TEXT
);
CREATE INDEX IF NOT EXISTS records_live ON records (superseded_by, subject, relation);
"""
# columns added after the first release: a memory file made before them gets them when opened
UNCHECKED = "unchecked"  # the kind of a note an older version took from an answer: never recalled
ADDED_COLUMNS = {
    "kind": "TEXT NOT NULL DEFAULT 'fact'",
    "terms": "TEXT NOT NULL DEFAULT '[]'",  # JSON list: the words a definition or correction is about
    "sql": "TEXT NOT NULL DEFAULT ''",  # the SELECT a result thought was read with
    "tables": "TEXT NOT NULL DEFAULT '{}'",  # JSON {table: fingerprint} when it was read or last checked
    "checked": "TEXT",  # when a result thought was last found true
}


class MemoryUnavailable(ChatDBError):
    """The memory folder cannot be used; requests still work, without memory."""


@dataclass(frozen=True)
class Record:
    id: int
    text: str
    subject: str = ""
    relation: str = ""
    object: str = ""
    source: str = ""
    created: str = ""
    superseded_by: int | None = None
    valid_to: str | None = None
    kind: str = "fact"  # fact | definition | preference | correction | result | unchecked
    terms: tuple[str, ...] = ()
    sql: str = ""
    tables: tuple[tuple[str, str], ...] = ()  # (table, fingerprint) the SQL read, when last found true
    checked: str | None = None

    @property
    def live(self) -> bool:
        return self.superseded_by is None

    @property
    def verifiable(self) -> bool:
        """A figure read from the data, with the SQL to read it again."""
        return bool(self.sql)


class Store:
    """One notebook's records. `path=None` keeps them in memory (tests, scripts)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        try:
            self._db = connect(path)
            if path is not None:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            present = {row[1] for row in self._db.execute("PRAGMA table_info(records)")}
            for column, declared in ADDED_COLUMNS.items():
                if column not in present:
                    self._db.execute(f"ALTER TABLE records ADD COLUMN {column} {declared}")
            if "kind" not in present:  # an older version noted figures of answers without their SQL
                self._db.execute(
                    "UPDATE records SET kind = ? WHERE instr(source, '%%mem add:') = 0 AND instr(source, 'import ') != 1",
                    (UNCHECKED,),
                )
        except (OSError, sqlite3.Error) as error:
            raise MemoryUnavailable(
                f"Thought memory is off: {path} cannot be used ({error}). Make the folder writable, or set "
                "%config ChatDB.memory_dir to another folder."
            ) from None
        self._lock = threading.Lock()

    # -- writes (each one transaction) ------------------------------------------------------------

    def add(
        self,
        text: str,
        triple: tuple[str, str, str] = ("", "", ""),
        embedding: np.ndarray | None = None,
        source: str = "",
        *,
        kind: str = "fact",
        terms: tuple[str, ...] = (),
        sql: str = "",
        tables: tuple[tuple[str, str], ...] = (),
    ) -> Record:
        blob = None if embedding is None else np.asarray(embedding, dtype=np.float32).tobytes()
        now = _now()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO records (text, subject, relation, object, embedding, source, created, kind, terms, sql, "
                "tables, checked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    text,
                    *triple,
                    blob,
                    source,
                    now,
                    kind,
                    json.dumps(list(terms)),
                    sql,
                    json.dumps(dict(tables)),
                    now if sql else None,
                ),
            )
            record_id = int(cursor.lastrowid or 0)
        return self.get(record_id)

    def supersede(self, record_ids: list[int], by: int) -> None:
        """Mark records replaced by `by` (contradicted or merged), or forgotten (`FORGOTTEN`)."""
        with self._transaction() as db:
            db.executemany(
                "UPDATE records SET superseded_by = ?, valid_to = ? WHERE id = ? AND superseded_by IS NULL",
                [(by, _now(), record_id) for record_id in record_ids],
            )

    def confirm(self, record_id: int, tables: tuple[tuple[str, str], ...]) -> None:
        """A result thought read again gave the same figure: it stands for the tables as they are now."""
        with self._transaction() as db:
            db.execute(
                "UPDATE records SET tables = ?, checked = ? WHERE id = ?", (json.dumps(dict(tables)), _now(), record_id)
            )

    def clear(self) -> int:
        with self._transaction() as db:
            return db.execute("DELETE FROM records").rowcount

    # -- reads --------------------------------------------------------------------------------

    def get(self, record_id: int) -> Record:
        rows = self._select("WHERE id = ?", (record_id,)) if abs(record_id) <= LARGEST else []
        if not rows:
            raise ChatDBError(f"There is no memory record {record_id}: see %mem list.")
        return rows[0]

    def with_terms(self) -> list[Record]:
        """Live records about words (definitions, corrections), newest first."""
        return self._select("WHERE superseded_by IS NULL AND terms != '[]' ORDER BY id DESC", ())

    def of_kind(self, kind: str, limit: int) -> list[Record]:
        """The newest live records of one kind."""
        return self._select("WHERE superseded_by IS NULL AND kind = ? ORDER BY id DESC LIMIT ?", (kind, limit))

    def live(self, limit: int | None = None) -> list[Record]:
        """Live records, newest first (at most `limit`: a limit past any count is every one)."""
        return self._select(
            "WHERE superseded_by IS NULL ORDER BY id DESC" + (f" LIMIT {min(int(limit), LARGEST)}" if limit else ""), ()
        )

    def all(self) -> list[Record]:
        return self._select("ORDER BY id", ())

    def matching(
        self, subject: str | None = None, relation: str | None = None, object: str | None = None
    ) -> list[Record]:
        """Live records whose given parts equal these (case-insensitive), newest first."""
        parts = {"subject": subject, "relation": relation, "object": object}
        conditions = [f"lower({column}) = lower(?)" for column, value in parts.items() if value]
        values = tuple(value for value in parts.values() if value)
        if not conditions:
            return []
        return self._select("WHERE superseded_by IS NULL AND " + " AND ".join(conditions) + " ORDER BY id DESC", values)

    def history(self, record_id: int) -> list[Record]:
        """The record and every record it was replaced by, oldest first."""
        chain, seen = [self.get(record_id)], {record_id}
        while (following := chain[-1].superseded_by) not in (None, FORGOTTEN) and following not in seen:
            seen.add(following)
            chain.append(self.get(following))
        return chain

    def vectors(self) -> dict[int, np.ndarray]:
        """The embeddings of the live records that may be recalled, for rebuilding the index."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, embedding FROM records WHERE superseded_by IS NULL AND embedding IS NOT NULL AND kind != ?",
                (UNCHECKED,),
            ).fetchall()
        return {record_id: np.frombuffer(blob, dtype=np.float32) for record_id, blob in rows}

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM records WHERE superseded_by IS NULL").fetchone()[0]

    # -- JSON Lines ---------------------------------------------------------------------------

    def export_jsonl(self, path: Path) -> int:
        records = self.all()
        with open(path, "w", encoding="utf-8") as out:
            for record in records:
                row = asdict(record)
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        return len(records)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- helpers ------------------------------------------------------------------------------

    def _select(self, where: str, values: tuple) -> list[Record]:
        """Records without their embeddings (only `vectors` needs those, and they are most of the bytes)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, text, subject, relation, object, source, created, superseded_by, valid_to, kind, terms, "
                "sql, tables, checked FROM records " + where,
                values,
            ).fetchall()
        return [_record(*row) for row in rows]

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


def _record(
    record_id: int,
    text: str,
    subject: str,
    relation: str,
    obj: str,
    source: str,
    created: str,
    superseded_by: int | None,
    valid_to: str | None,
    kind: str,
    terms: str,
    sql: str,
    tables: str,
    checked: str | None,
) -> Record:
    """A record from its row; its terms and table fingerprints are kept as JSON."""
    return Record(
        record_id,
        text,
        subject,
        relation,
        obj,
        source,
        created,
        superseded_by,
        valid_to,
        kind,
        tuple(json.loads(terms)),
        sql,
        tuple(json.loads(tables).items()),
        checked,
    )


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
