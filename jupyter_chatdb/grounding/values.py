"""Data-value memory: the stored values of text columns, to check and correct literals in model SQL.

For a literal compared with a text column (`WHERE city = 'Los Angeles'`, or a LIKE pattern such as
'%Los Angeles%') that the column does not hold (or that no value matches), candidates come from the
column's distinct values by, in order: case and spacing, initials ("LA" / "Los Angeles"), abbreviated
words ("R. Okafor" / "Rita Okafor"), character trigrams, and MiniLM similarity. One clear candidate is
applied; several are offered to the model as a constrained choice; every change is reported, never
silent. A column's values are read lazily and read again when a cheap fingerprint (row count and a hash
of the column) changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..language.words import forms_in_order, normal_text
from ..llm.base import Embedder
from ..sql.catalog import TEXT_TYPES
from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session
from .saved_values import SavedValues
from .spelling import abbreviates, initials, jaccard, one_typo, trigrams

MAX_VALUES = 5_000  # distinct values kept per column (the most frequent first); the cap is reported
MAX_EMBEDDED = 2_000  # values per column compared by meaning
TRIGRAM_MIN = 0.45
EMBEDDING_MIN = 0.78
TYPO_MIN_LENGTH = 5  # a value at least this long is found again with one letter wrong, missing, extra or swapped
CLEAR_SCORE = 0.9  # a candidate at least this good, and well ahead of the next, is applied without asking
CLEAR_MARGIN = 0.15


@dataclass(frozen=True)
class Candidate:
    value: str
    score: float
    how: str  # case | initials | abbreviation | spelling | meaning


@dataclass(frozen=True)
class ColumnValues:
    table: str
    column: str
    values: tuple[str, ...]
    capped: bool  # the column has more distinct values than were kept
    fingerprint: tuple[int, int]

    @cached_property
    def forms(self) -> tuple[str, ...]:
        """Each value's `forms_in_order`, one space apart, where it has two or more ("340 g squeez tube" for
        '340g squeeze tubes'); "" where it has fewer. Found once per column, not per request."""
        return tuple(" ".join(said) if len(said := forms_in_order(value)) > 1 else "" for value in self.values)


class ValueIndex:
    def __init__(
        self,
        session: Session,
        embedder: Embedder | None = None,
        max_values: int = MAX_VALUES,
        saved: SavedValues | None = None,
    ) -> None:
        """`saved`: where columns' values and vectors are kept between sessions (the notebook's memory folder)."""
        self.session, self.embedder, self.max_values, self.saved = session, embedder, max_values, saved
        self._columns: dict[tuple[str, str], ColumnValues] = {}
        self._vectors: dict[tuple[str, str], np.ndarray] = {}

    def column(self, table: str, column: str) -> ColumnValues | None:
        """The column's distinct values (None for a column that is not text), read again when it changed."""
        key = (table.lower(), column.lower())
        fingerprint = self._fingerprint(table, column)
        if fingerprint is None:
            return None
        known = self._columns.get(key)
        if known is None or known.fingerprint != fingerprint:
            self._vectors.pop(key, None)
            known = self._load(table, column, fingerprint) or self._read(table, column, fingerprint)
            self._columns[key] = known
        return known

    def _read(self, table: str, column: str, fingerprint: tuple[int, int]) -> ColumnValues:
        sql = (
            f"SELECT {quote_identifier(column)} FROM {quote_table(table)} WHERE {quote_identifier(column)} IS NOT NULL "
            f"GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT {self.max_values + 1}"
        )
        if self.session.is_remote(table):  # all of a remote table's values, not only its sample's
            rows = list(self.session.run(sql).frame.itertuples(index=False, name=None))
        else:
            rows = self.session.rows(sql)
        values = tuple(str(v) for (v,) in rows)
        read = ColumnValues(table, column, values[: self.max_values], len(values) > self.max_values, fingerprint)
        if self.saved is not None:
            self.saved.save(table, column, fingerprint, read.values, read.capped)
        return read

    def _load(self, table: str, column: str, fingerprint: tuple[int, int]) -> ColumnValues | None:
        """The column as kept by an earlier session at the same fingerprint, with its vectors if any."""
        kept = self.saved.load(table, column, fingerprint, self._embedder_name) if self.saved is not None else None
        if kept is None:
            return None
        values, capped, vectors = kept
        if vectors is not None:
            self._vectors[(table.lower(), column.lower())] = vectors
        return ColumnValues(table, column, values, capped, fingerprint)

    @property
    def _embedder_name(self) -> str | None:
        return None if self.embedder is None else self.embedder.name

    def candidates(self, table: str, column: str, literal: str, k: int = 5) -> list[Candidate]:
        """Stored values the literal may have meant, best first; empty when it is stored as written."""
        values = self.column(table, column)
        return [] if values is None else self.candidates_in(values, literal, k)

    def candidates_in(self, values: ColumnValues, literal: str, k: int = 5) -> list[Candidate]:
        """`candidates` for a column already read (so its fingerprint is not taken twice)."""
        if literal in values.values:
            return []
        found: dict[str, Candidate] = {}
        spelled = sorted(self._by_spelling(values.values, literal), key=lambda c: c.score, reverse=True)
        if spelled and spelled[0].how == "case" and clear_choice(spelled):
            return spelled[:k]  # the literal as stored but for case or spacing: nothing to look up by meaning
        for candidate in spelled + self._by_meaning(values, literal):
            if candidate.value not in found or found[candidate.value].score < candidate.score:
                found[candidate.value] = candidate
        return sorted(found.values(), key=lambda c: c.score, reverse=True)[:k]

    def spelled_like(self, values: ColumnValues, literal: str) -> bool:
        """Whether a stored value of the column is spelled like `literal`: the same but for case, its
        initials or abbreviation, or close in letters."""
        return bool(self._by_spelling(values.values, literal))

    def _by_spelling(self, values: Sequence[str], literal: str) -> list[Candidate]:
        wanted, short, grams = normal_text(literal), initials(literal), trigrams(literal)
        out = []
        for value in values:
            if normal_text(value) == wanted:
                out.append(Candidate(value, 1.0, "case"))
            elif (
                len(value) >= 2
                and (value.upper() == short or literal.upper() == initials(value))
                and (value.isupper() or literal.isupper())
            ):
                out.append(Candidate(value, 0.9, "initials"))
            elif abbreviates(literal, value) or abbreviates(value, literal):
                out.append(Candidate(value, 0.9, "abbreviation"))
            elif min(len(wanted), len(value)) >= TYPO_MIN_LENGTH and one_typo(wanted, normal_text(value)):
                out.append(Candidate(value, 0.9, "spelling"))
            else:
                score = jaccard(grams, trigrams(value))
                if score >= TRIGRAM_MIN:
                    out.append(Candidate(value, round(0.85 * score, 3), "spelling"))
        return out

    def means_like(self, values: ColumnValues, literal: str, minimum: float) -> bool:
        """Whether a stored value of the column is at least `minimum` close to `literal` in meaning."""
        return bool(self._by_meaning(values, literal, minimum))

    def _by_meaning(self, values: ColumnValues, literal: str, minimum: float = EMBEDDING_MIN) -> list[Candidate]:
        if self.embedder is None or not values.values:
            return []
        key = (values.table.lower(), values.column.lower())
        if key not in self._vectors:
            self._vectors[key] = self.embedder.embed(list(values.values[:MAX_EMBEDDED]))
            if self.saved is not None:
                self.saved.save(
                    values.table,
                    values.column,
                    values.fingerprint,
                    values.values,
                    values.capped,
                    self._vectors[key],
                    self._embedder_name,
                )
        (query,) = self.embedder.embed([literal])
        similarities = self._vectors[key] @ query
        best = np.argsort(-similarities)[:5]
        return [
            Candidate(values.values[i], round(0.85 * float(similarities[i]), 3), "meaning")
            for i in best
            if similarities[i] >= minimum
        ]

    def _fingerprint(self, table: str, column: str) -> tuple[int, int] | None:
        database, _, name = table.rpartition(".")
        types = self.session.rows(
            "SELECT data_type FROM duckdb_columns() WHERE lower(table_name) = lower(?) AND lower(column_name) = lower(?)"
            " AND database_name = CASE WHEN ? = '' THEN database_name ELSE ? END",
            [name, column, database, database],
        )
        if not types or not str(types[0][0]).upper().startswith(TEXT_TYPES):
            return None
        if self.session.remote is not None and self.session.is_remote(table):
            return self.session.remote.generation, 0  # read once per connection: a scan there costs too much
        count, digest = self.session.rows(
            f"SELECT count(*), coalesce(bit_xor(hash({quote_identifier(column)})), 0) FROM {quote_table(table)}"
        )[0]
        return int(count), int(digest)


def clear_choice(candidates: Sequence[Candidate]) -> Candidate | None:
    """The candidate to apply without asking: good enough and well ahead of the next one.

    >>> clear_choice([Candidate("LA", 0.9, "initials")]).value
    'LA'
    >>> clear_choice([Candidate("Paris", 0.8, "spelling"), Candidate("Pari", 0.75, "spelling")]) is None
    True
    """
    if not candidates or candidates[0].score < CLEAR_SCORE:
        return None
    if len(candidates) > 1 and candidates[0].score - candidates[1].score < CLEAR_MARGIN:
        return None
    return candidates[0]
