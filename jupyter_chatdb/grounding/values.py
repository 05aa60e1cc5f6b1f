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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sqlglot import exp

from ..language.words import normal_text
from ..llm.base import Embedder
from ..sql.catalog import TEXT_TYPES
from ..sql.fixups import table_of_column
from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session
from .saved_values import SavedValues

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


@dataclass(frozen=True)
class LiteralUse:
    """A string literal compared with a column in a statement: by =, <> or IN, or as a LIKE pattern."""

    table: str
    column: str
    literal: str
    pattern: str = ""  # "LIKE" or "ILIKE" when the literal is a pattern

    @property
    def text(self) -> str | None:
        """What to look for among the column's values: the literal, or the text between a pattern's
        leading and trailing % (None when it has wildcards inside, which are left alone).

        >>> LiteralUse("t", "city", "%Los Angeles%", "LIKE").text, LiteralUse("t", "city", "L_s%", "LIKE").text
        ('Los Angeles', None)
        """
        if not self.pattern:
            return self.literal
        core = self.literal.strip("%")
        return core if core and not re.search(r"[%_\\]", core) else None

    def found_in(self, values: Sequence[str]) -> bool:
        """Whether a stored value is the literal (or matches the pattern)."""
        if not self.pattern:
            return self.literal in values
        regex = re.compile(
            "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in self.literal),
            re.DOTALL | (re.IGNORECASE if self.pattern == "ILIKE" else 0),
        )
        return any(regex.fullmatch(v) for v in values)

    def with_value(self, value: str) -> str:
        """The literal that looks for `value` instead (a pattern keeps its wildcards).

        >>> LiteralUse("t", "city", "%Los Angeles%", "LIKE").with_value("LA")
        '%LA%'
        """
        return self.literal.replace(self.text or "", value, 1) if self.pattern else value


@dataclass(frozen=True)
class MissingValue:
    """A literal that no stored value of its column is or resembles, and the columns that hold it."""

    use: LiteralUse
    held_by: tuple[str, ...] = ()  # "table.column"

    def __str__(self) -> str:
        """Why a query that compared with the literal may have found nothing.

        >>> str(MissingValue(LiteralUse("t", "city", "%Paris%", "LIKE")))
        "no value of t.city matches '%Paris%' or is close to it"
        >>> str(MissingValue(LiteralUse("docks", "name", "Calder"), ("wharves.name",)))
        "'Calder' is not a value of docks.name, nor close to one; it is a value of wharves.name"
        """
        use = self.use
        if use.pattern:
            text = f"no value of {use.table}.{use.column} matches {use.literal!r} or is close to it"
        else:
            text = f"{use.literal!r} is not a value of {use.table}.{use.column}, nor close to one"
        return text + (f"; it is a value of {', '.join(self.held_by)}" if self.held_by else "")


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
        wanted, initials, grams = normal_text(literal), _initials(literal), _trigrams(literal)
        out = []
        for value in values:
            if normal_text(value) == wanted:
                out.append(Candidate(value, 1.0, "case"))
            elif (
                len(value) >= 2
                and (value.upper() == initials or literal.upper() == _initials(value))
                and (value.isupper() or literal.isupper())
            ):
                out.append(Candidate(value, 0.9, "initials"))
            elif _abbreviates(literal, value) or _abbreviates(value, literal):
                out.append(Candidate(value, 0.9, "abbreviation"))
            elif min(len(wanted), len(value)) >= TYPO_MIN_LENGTH and one_typo(wanted, normal_text(value)):
                out.append(Candidate(value, 0.9, "spelling"))
            else:
                score = _jaccard(grams, _trigrams(value))
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


def literal_uses(tree: exp.Expr, schema: Mapping[str, Sequence[str]]) -> list[LiteralUse]:
    """String literals compared (=, <>, IN, LIKE, ILIKE) with a column whose table is known, in WHERE,
    HAVING, JOIN or CASE, in a step's tree (one statement, or several joined).

    >>> from jupyter_chatdb.sql.guard import parse
    >>> tree = parse("SELECT * FROM sales AS s WHERE s.region = 'north' AND units > 3")[0]
    >>> literal_uses(tree, {"sales": ["region", "units"]})
    [LiteralUse(table='sales', column='region', literal='north', pattern='')]
    >>> literal_uses(parse("SELECT * FROM sales WHERE region ILIKE '%nor%'")[0], {"sales": ["region"]})
    [LiteralUse(table='sales', column='region', literal='%nor%', pattern='ILIKE')]
    """
    try:
        comparisons = _comparisons(tree)
    except Exception:  # sqlglot cannot walk it: no literal is checked, and the guard decides about it
        return []
    uses = []
    for column, literal, pattern in comparisons:
        table = table_of_column(column, tree, schema)
        if table is not None:
            uses.append(LiteralUse(table, column.name, literal.this, pattern))
    return uses


def replace_literals(
    tree: exp.Expr, schema: Mapping[str, Sequence[str]], changes: Mapping[tuple[str, str, str], str]
) -> exp.Expr:
    """A copy of `tree` with each (table, column, literal) of `changes` replaced by its new value (other
    literals kept).

    >>> from jupyter_chatdb.sql.guard import parse
    >>> tree = parse("SELECT * FROM t WHERE city = 'Los Angeles'")[0]
    >>> replace_literals(tree, {"t": ["city"]}, {("t", "city", "Los Angeles"): "LA"}).sql()
    "SELECT * FROM t WHERE city = 'LA'"
    """
    tree = tree.copy()
    for column, literal, _ in _comparisons(tree):
        table = table_of_column(column, tree, schema)
        new = changes.get((table or "", column.name, literal.this))
        if new is not None:
            literal.replace(exp.Literal.string(new))
    return tree


def _comparisons(tree: exp.Expr) -> list[tuple[exp.Column, exp.Literal, str]]:
    """(column, string literal, "" or the pattern operator) for each comparison of the two."""
    found = []
    for node in tree.find_all(exp.EQ, exp.NEQ):
        left, right = node.this, node.expression
        if isinstance(left, exp.Literal):
            left, right = right, left
        if isinstance(left, exp.Column) and isinstance(right, exp.Literal) and right.is_string:
            found.append((left, right, ""))
    for listed in tree.find_all(exp.In):
        if isinstance(listed.this, exp.Column):
            found += [(listed.this, e, "") for e in listed.expressions if isinstance(e, exp.Literal) and e.is_string]
    for node in tree.find_all(exp.Like, exp.ILike):
        if isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Literal) and node.expression.is_string:
            found.append((node.this, node.expression, "ILIKE" if isinstance(node, exp.ILike) else "LIKE"))
    return found


def _abbreviates(short: str, long: str) -> bool:
    """Whether `short` is `long` with some words cut to their initial ("R. Okafor") or several words
    written as their capital initials ("Welcome to NY"), and at least one word kept whole.

    >>> _abbreviates("R. Okafor", "Rita Okafor"), _abbreviates("Ferry to NY", "Ferry to New York")
    (True, True)
    >>> _abbreviates("R", "Rita"), _abbreviates("R. Okafor", "Ray Jones")
    (False, False)
    """
    a, b = re.findall(r"[A-Za-z0-9]+", short), re.findall(r"[A-Za-z0-9]+", long)
    i = j = whole = cut = 0
    while i < len(a) and j < len(b):
        word, n = a[i], len(a[i])
        if word.lower() == b[j].lower():
            whole, i, j = whole + 1, i + 1, j + 1
        elif n == 1 and b[j].lower().startswith(word.lower()) and len(b[j]) > 1:
            cut, i, j = cut + 1, i + 1, j + 1
        elif n > 1 and word.isupper() and "".join(w[0] for w in b[j : j + n]).upper() == word and j + n <= len(b):
            cut, i, j = cut + 1, i + 1, j + n
        else:
            return False
    return i == len(a) and j == len(b) and whole > 0 and cut > 0


def one_typo(a: str, b: str) -> bool:
    """Whether `a` is `b` with one letter wrong, missing, extra, or two neighbours swapped.

    >>> one_typo("wesesx", "wessex"), one_typo("carrol", "carol"), one_typo("pear", "pearl"), one_typo("ab", "ab")
    (True, True, True, False)
    """
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        wrong = [i for i in range(len(a)) if a[i] != b[i]]
        return len(wrong) == 1 or (
            len(wrong) == 2 and wrong[1] == wrong[0] + 1 and a[wrong[0]] == b[wrong[1]] and a[wrong[1]] == b[wrong[0]]
        )
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _initials(text: str) -> str:
    words = re.findall(r"[A-Za-z]+", text)
    return "".join(w[0] for w in words).upper() if len(words) > 1 else ""


def _trigrams(text: str) -> set[str]:
    padded = f"  {normal_text(text)} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
