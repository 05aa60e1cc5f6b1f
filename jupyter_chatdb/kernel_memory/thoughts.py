"""Think-in-Memory for one notebook: recall thoughts before answering, store new ones after.

Every thought is a sentence and a subject-relation-object triple (RET-LLM). Storing one looks at the
live thoughts with the same subject and relation: the same object is a duplicate (nothing stored), a
different object contradicts them (they are superseded by the new thought, and kept as history).
Lookups by triple parts try an exact, case-insensitive match first and the embedding second.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..language.terms import uses_terms
from ..language.words import lower_words
from ..llm.base import Embedder, Message
from .files import MemoryFiles
from .index import IndexOptions, VectorIndex
from .store import FORGOTTEN, Record, Store

LOG = logging.getLogger(__name__)
RECALL_K = 5
MIN_SIMILARITY = 0.35  # MiniLM cosine below this is rarely about the same thing
MAX_THOUGHTS = 3
PREFERENCES = 3  # the newest preferences are recalled for every request
NEIGHBOURS = 5  # recalled thoughts checked for a contradiction with a new one
THOUGHT_SCHEMA = {
    "type": "object",
    "properties": {
        "subject": {"type": "string"},
        "relation": {"type": "string"},
        "object": {"type": "string"},
        "sentence": {"type": "string"},
    },
    "required": ["subject", "relation", "object", "sentence"],
    "additionalProperties": False,
}
THOUGHTS_MAX_TOKENS = 220
THOUGHTS_SCHEMA = {
    "type": "object",
    "properties": {"thoughts": {"type": "array", "items": THOUGHT_SCHEMA, "maxItems": MAX_THOUGHTS}},
    "required": ["thoughts"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class Thought:
    subject: str
    relation: str
    object: str
    sentence: str
    kind: str = "fact"  # fact | definition | preference | correction | result
    terms: tuple[str, ...] = ()  # the words it is about: recalled for any request that uses them
    sql: str = ""  # a result: the SELECT that read it, run again when its tables change
    tables: tuple[tuple[str, str], ...] = ()  # a result: (table, fingerprint) of what the SQL read

    @property
    def triple(self) -> tuple[str, str, str]:
        return (self.subject.strip(), self.relation.strip(), self.object.strip())


@dataclass(frozen=True)
class Recalled:
    record: Record
    similarity: float
    by_words: bool = False  # its defined words are used, or it is a standing preference


@dataclass(frozen=True)
class Stored:
    """What remembering one thought did."""

    record: Record | None  # the new record; None for a duplicate
    duplicate_of: int | None = None
    superseded: tuple[int, ...] = ()


class ThoughtMemory:
    def __init__(
        self, store: Store, embedder: Embedder, index_path: Path | None = None, options: IndexOptions | None = None
    ) -> None:
        self.store, self.embedder = store, embedder
        self.index = VectorIndex(embedder.dimensions, index_path, options)
        self._sync_index()

    # -- recall -------------------------------------------------------------------------------

    def recall(self, text: str, k: int = RECALL_K, min_similarity: float = MIN_SIMILARITY) -> list[Recalled]:
        """The live thoughts about words `text` uses (definitions, corrections) and the newest preferences
        (how every answer should be given), with similarity 1.0; then the others most related to `text`
        in meaning, best first."""
        if not len(self.index):
            return []
        about = [record for record in self.store.with_terms() if uses_terms(text, record.terms)]
        about += self.store.of_kind("preference", PREFERENCES)
        by_id = {
            record.id: Recalled(record, 1.0, by_words=True) for record in about
        }  # a preference may use the words too
        (query,) = self.embedder.embed([text])
        worded = list(by_id.values())
        hits = [h for h in self.index.search(query, k) if h.similarity >= min_similarity and h.item not in by_id]
        return worded + [Recalled(self.store.get(h.item), h.similarity) for h in hits][: max(0, k - len(worded))]

    def lookup(
        self, subject: str | None = None, relation: str | None = None, object: str | None = None, k: int = RECALL_K
    ) -> list[Record]:
        """Live thoughts by one or two triple parts: exact (case-insensitive) first, else by meaning."""
        exact = self.store.matching(subject, relation, object)
        if exact:
            return exact[:k]
        text = " ".join(part for part in (subject, relation, object) if part)
        return [r.record for r in self.recall(text, k)] if text else []

    # -- changes ------------------------------------------------------------------------------

    def remember(self, thought: Thought, source: str = "", together: frozenset[int] = frozenset()) -> Stored:
        """Store `thought`; a live thought with its subject and relation and another object is replaced
        (kept as history), unless it is one of `together`: stored from the same statement or answer."""
        subject, relation, obj = thought.triple
        sentence = thought.sentence.strip() or " ".join(thought.triple)
        (vector,) = self.embedder.embed([sentence])
        same = [record for record in self._same_fact(subject, relation, vector) if record.id not in together]
        for record in same:
            if record.object.lower() == obj.lower():
                return Stored(None, duplicate_of=record.id)
        record = self.store.add(
            sentence,
            (subject, relation, obj),
            vector,
            source,
            kind=thought.kind,
            terms=thought.terms,
            sql=thought.sql,
            tables=thought.tables,
        )
        superseded = tuple(r.id for r in same)
        if superseded:
            self.store.supersede(list(superseded), record.id)
            for record_id in superseded:
                self.index.remove(record_id)
        self.index.add(record.id, vector)
        return Stored(record, superseded=superseded)

    def _same_fact(self, subject: str, relation: str, vector: np.ndarray) -> list[Record]:
        """Live thoughts about the same subject and relation: exact (case-insensitive), or among the
        recalled neighbours, the same subject with a relation that contains the other ("price", "selling price")."""
        if not subject or not relation:
            return []
        same = {r.id: r for r in self.store.matching(subject, relation)}
        for hit in self.index.search(vector, NEIGHBOURS):
            record = self.store.get(hit.item)
            if record.subject.lower() == subject.lower() and same_relation(record.relation, relation):
                same.setdefault(record.id, record)
        return list(same.values())

    def remember_all(self, thoughts: Sequence[Thought], source: str = "") -> list[Stored]:
        """Store the thoughts of one statement or answer: they never replace one another ("Calder eats
        hay", "Calder eats oats"), only older thoughts."""
        stored: list[Stored] = []
        for thought in thoughts:
            together = frozenset(s.record.id for s in stored if s.record is not None)
            stored.append(self.remember(thought, source, together))
        return stored

    def retire_results_using(self, terms: tuple[str, ...], by: int) -> list[int]:
        """Result thoughts whose request used `terms`, replaced by `by`: a new definition of those words,
        under which their figures were not read."""
        retired = [r.id for r in self.store.live() if r.verifiable and uses_terms(r.subject, terms)]
        self.store.supersede(retired, by)
        for record_id in retired:
            self.index.remove(record_id)
        return retired

    def refresh(self, record: Record, figures: str, tables: tuple[tuple[str, str], ...]) -> Record:
        """A new version of a result thought with the figures read now; the old one stays as history."""
        thought = Thought(
            record.subject,
            record.relation,
            figures,
            f"{record.subject} {figures}",
            record.kind,
            record.terms,
            record.sql,
            tables,
        )
        stored = self.remember(thought, source=record.source)
        return stored.record if stored.record is not None else record

    def forget(self, record_ids: list[int]) -> list[int]:
        live = [i for i in record_ids if self.store.get(i).live]
        self.store.supersede(live, FORGOTTEN)
        for record_id in live:
            self.index.remove(record_id)
        return live

    def forget_matching(self, text: str) -> list[int]:
        """Forget the live thought most like `text` (one, so a vague text cannot wipe many)."""
        recalled = self.recall(text, k=1, min_similarity=0.5)
        return self.forget([recalled[0].record.id]) if recalled else []

    def merge(self) -> int:
        """Consolidate now: of live thoughts with the same subject and relation keep the newest; returns how many went."""
        newest: dict[tuple[str, str], Record] = {}
        merged = 0
        for record in self.store.live():  # newest first
            key = (record.subject.lower(), record.relation.lower())
            if not record.subject or key not in newest:
                newest.setdefault(key, record)
                continue
            self.store.supersede([record.id], newest[key].id)
            self.index.remove(record.id)
            merged += 1
        return merged

    def clear(self) -> int:
        removed = self.store.clear()
        self.index.clear()
        return removed

    def rebuild(self) -> int:
        vectors = self.store.vectors()
        self.index.rebuild(vectors)
        return len(vectors)

    # -- views --------------------------------------------------------------------------------

    def triples(self) -> pd.DataFrame:
        """Every triple, current and past: what `memory_triples` shows to SQL."""
        rows = [
            {
                "subject": r.subject,
                "relation": r.relation,
                "object": r.object,
                "valid_from": r.created,
                "valid_to": r.valid_to,
                "source": r.source,
                "id": r.id,
            }
            for r in self.store.all()
            if r.subject or r.relation or r.object
        ]
        frame = pd.DataFrame(rows, columns=["subject", "relation", "object", "valid_from", "valid_to", "source", "id"])
        for column in ("valid_from", "valid_to"):
            frame[column] = pd.to_datetime(frame[column], utc=True).dt.tz_localize(None)
        return frame

    def _sync_index(self) -> None:
        """Load the saved index and bring it up to date with the records; rebuild it if it cannot be read."""
        vectors = self.store.vectors()
        if not self.index.load():
            if self.index.path is not None and self.index.path.exists():
                LOG.warning(
                    "jupyter-chatdb: the memory index %s could not be read; rebuilt from the records", self.index.path
                )
            self.index.rebuild(vectors)
            return
        indexed = self.index.items()
        for record_id in indexed - set(vectors):
            self.index.remove(record_id)
        for record_id in set(vectors) - indexed:
            self.index.add(record_id, vectors[record_id])


def same_relation(a: str, b: str) -> bool:
    """Whether two relation names say the same: equal, or one's words contain the other's.

    (Embeddings of one- or two-word names do not separate these: MiniLM puts "phone" nearer "email"
    than one would like.)

    >>> same_relation("price", "Selling price"), same_relation("phone", "phone number"), same_relation("phone", "email")
    (True, True, False)
    """
    left, right = set(lower_words(a)), set(lower_words(b))
    return bool(left and right) and (left <= right or right <= left)


def correction_thought(request: str, sql: str) -> Thought:
    """The SQL the user edited a step of `request` into: recalled for requests like it.

    >>> correction_thought("Units per month?", "SELECT month, sum(units)\\n FROM sales GROUP BY month").sentence
    'For "Units per month?" the user corrected the SQL to: SELECT month, sum(units) FROM sales GROUP BY month'
    """
    written = " ".join(sql.split())
    sentence = f'For "{request.strip()}" the user corrected the SQL to: {written}'
    return Thought(request.strip(), "correction", written, sentence, "correction")


def open_memory(database: Path, embedder: Embedder | None = None) -> ThoughtMemory:
    """The memory whose records are in `database` (a .memory.sqlite file) and its index beside it."""
    from ..llm.minilm import MiniLMEmbedder

    index = MemoryFiles.of_thoughts(database).index
    return ThoughtMemory(Store(database), embedder or MiniLMEmbedder(), index)


STATEMENT_INSTRUCTIONS = """\
Turn the user's statement into 1 to 3 facts: each a subject, a relation, an object and one plain sentence, \
e.g. {"subject": "Harbour Kilns", "relation": "phone", "object": "58214", "sentence": "Harbour Kilns' phone is 58214."}. \
Reply with JSON {"thoughts": [...]}."""


def statement_messages(statement: str) -> list[Message]:
    """The prompt that turns a statement the user wants remembered into thoughts (`%%mem add`)."""
    return [{"role": "system", "content": STATEMENT_INSTRUCTIONS}, {"role": "user", "content": statement}]


def parse_thoughts(text: str) -> list[Thought]:
    """
    >>> fact = {"subject": "pear", "relation": "stock", "object": "12 kg", "sentence": "Pear stock is 12 kg."}
    >>> [(t.triple, t.sentence) for t in parse_thoughts(json.dumps({"thoughts": [fact]}))]
    [(('pear', 'stock', '12 kg'), 'Pear stock is 12 kg.')]
    >>> parse_thoughts("not json")
    []
    """
    try:
        items = json.loads(text)["thoughts"]
        return [Thought(str(t["subject"]), str(t["relation"]), str(t["object"]), str(t["sentence"])) for t in items][
            :MAX_THOUGHTS
        ]
    except (ValueError, KeyError, TypeError):
        return []
