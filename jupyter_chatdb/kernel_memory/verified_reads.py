"""Verified reads: questions whose SQL the user marked right or corrected, kept as worked examples.

A later question close in meaning to a verified one, over tables the session still holds, is asked with it
in the model's native prompt (the closest few, each of another SQL shape, so two wordings of one query do
not crowd out a second pattern). A question with none close enough is asked exactly as before: nothing is
added to its prompt. Kept in a SQLite file beside the notebook's other memory, so they survive a restart.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from sqlglot.errors import TokenError
from sqlglot.tokens import Tokenizer, TokenType

from ..errors import ChatDBError, NotAllowed, SQLRefused
from ..language.words import letter_words
from ..llm.base import Embedder
from ..sql import guard
from .files import connect

CLOSE_MIN = (
    0.8  # a verified question at least this close in meaning is shown with a new one (tuned: below, examples cost)
)
SHOWN = 2  # verified examples shown with one question at most
MAX_SQL_CHARS = 4000  # a longer statement is not kept as an example (it would crowd the prompt)
SCHEMA = """
CREATE TABLE IF NOT EXISTS verified_reads (
    question TEXT PRIMARY KEY,
    sql      TEXT NOT NULL,
    tables   TEXT NOT NULL,
    how      TEXT NOT NULL,
    created  TEXT NOT NULL
);
"""


class VerifiedReadError(ChatDBError):
    """A read cannot be kept as a verified example as asked."""


@dataclass(frozen=True)
class VerifiedRead:
    question: str
    sql: str  # as it ran, in DuckDB's dialect
    tables: tuple[str, ...]  # the catalog's names of the tables it reads
    how: str  # "marked right", "corrected" (an edited step) or "given" (SQL the user gave for the question)


@dataclass(frozen=True)
class Recalled:
    read: VerifiedRead
    similarity: float  # of the new question to the verified one (cosine, 0..1)


class VerifiedReads:
    def __init__(self, path: Path | None = None, embedder: Embedder | None = None) -> None:
        """`path`: the SQLite file they are kept in (None: in memory, for this session); `embedder`: how
        questions are compared by meaning (without one, by their words)."""
        self.path, self.embedder = path, embedder
        try:
            self._db = connect(path)
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise VerifiedReadError(f"The verified reads cannot be kept at {path}: {error}.") from None
        self._lock = threading.Lock()
        self._vectors: dict[str, np.ndarray] = {}  # question -> its embedding

    def keep(self, question: str, sql: str, how: str) -> VerifiedRead:
        """Keep `sql` as the right SQL for `question` (replacing what was kept for the same question).
        Only one read statement is kept: a write, several statements or SQL that does not parse is refused."""
        question, sql = " ".join(question.split()), sql.strip().rstrip(";").strip()
        if not question:
            raise VerifiedReadError("There is no question to keep the SQL for.")
        if len(sql) > MAX_SQL_CHARS:
            raise VerifiedReadError(f"The SQL is longer than {MAX_SQL_CHARS} characters: too long for an example.")
        try:  # SQL that does not parse raises, saying where
            statement = guard.check(sql, allow_writes=False).statements[0]
        except NotAllowed:
            raise VerifiedReadError("Only a read, one SELECT, is kept as a verified example.") from None
        tables = tuple(sorted(statement.tables))
        read = VerifiedRead(question, sql, tables, how)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO verified_reads VALUES (?, ?, ?, ?, ?)",
                (question, sql, json.dumps(tables), how, datetime.now(timezone.utc).isoformat(timespec="seconds")),
            )
        return read

    def forget(self, question: str) -> None:
        with self._lock:
            gone = self._db.execute("DELETE FROM verified_reads WHERE question = ?", (" ".join(question.split()),))
        if not gone.rowcount:
            raise VerifiedReadError(f"No verified read is kept for {question!r}.")

    def __iter__(self) -> Iterator[VerifiedRead]:
        rows = self._db.execute("SELECT question, sql, tables, how FROM verified_reads ORDER BY created, question")
        return iter([VerifiedRead(q, s, tuple(json.loads(t)), h) for q, s, t, h in rows.fetchall()])

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM verified_reads").fetchone()[0])

    def closest(
        self, question: str, schema: Mapping[str, Sequence[str]], k: int = SHOWN, least: float | None = None
    ) -> list[Recalled]:
        """The verified reads closest to `question` in meaning (at least `least`, by default CLOSE_MIN),
        each naming only tables and columns of `schema` (table -> columns: the session's now), at most one
        per SQL shape, closest first."""
        least = CLOSE_MIN if least is None else least
        held = {name.lower() for name in schema}
        usable = [read for read in self if set(read.tables) <= held]
        if not usable or not question.strip():
            return []
        similarities = self._similarities(question, [read.question for read in usable])
        ranked = sorted(zip(usable, similarities, strict=True), key=lambda pair: -pair[1])
        chosen: list[Recalled] = []
        shapes: set[str] = set()
        for read, similarity in ranked:
            if similarity < least or len(chosen) == k:
                break
            if (shape := sql_shape(read.sql)) not in shapes and _names_hold(read.sql, schema):
                shapes.add(shape)
                chosen.append(Recalled(read, round(float(similarity), 3)))
        return chosen

    def _similarities(self, question: str, questions: list[str]) -> list[float]:
        if self.embedder is None:
            return [word_similarity(question, other) for other in questions]
        missing = [q for q in dict.fromkeys([question, *questions]) if q not in self._vectors]
        if missing:
            self._vectors.update(zip(missing, self.embedder.embed(missing), strict=True))
        asked = self._vectors[question]
        return [float(self._vectors[q] @ asked) for q in questions]

    def close(self) -> None:
        self._db.close()


def _names_hold(sql: str, schema: Mapping[str, Sequence[str]]) -> bool:
    """Whether `sql` still names only tables and columns of `schema` (a column dropped since: no example)."""
    try:
        guard.check(sql, {table: list(columns) for table, columns in schema.items()})
    except SQLRefused:
        return False
    return True


def word_similarity(a: str, b: str) -> float:
    """Cosine of the two texts' word counts: how questions are compared without an embedder.

    >>> word_similarity("How many kites are red?", "how many KITES are red"), word_similarity("kites", "ferries")
    (1.0, 0.0)
    """
    left, right = Counter(w.lower() for w in letter_words(a)), Counter(w.lower() for w in letter_words(b))
    norm = (sum(v * v for v in left.values()) * sum(v * v for v in right.values())) ** 0.5
    return sum(left[w] * right[w] for w in left) / norm if norm else 0.0


_NAMES = {TokenType.VAR, TokenType.IDENTIFIER, TokenType.STRING, TokenType.NUMBER}


def sql_shape(sql: str) -> str:
    """The statement's keywords and operators, its names and values left out: two queries of one shape
    differ only in what they name.

    >>> sql_shape("SELECT name FROM kites WHERE colour = 'red'") == sql_shape('SELECT "span" FROM ferries WHERE port = 3')
    True
    >>> sql_shape("SELECT count(*) FROM kites")
    'SELECT _ ( * ) FROM _'
    """
    try:
        tokens = Tokenizer().tokenize(sql)
    except TokenError:  # an unclosed quote or comment
        return re.sub(r"\s+", " ", sql)
    return " ".join("_" if token.token_type in _NAMES else token.text.upper() for token in tokens)
