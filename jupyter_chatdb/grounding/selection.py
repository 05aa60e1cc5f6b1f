"""Schema-selection memory: which of many tables a request needs, so only those reach the planner.

Each table gets a short description (its user note, name, columns and a few values; adding types and
keys made retrieval slightly worse on Spider). For a request, every table is scored by the MiniLM
similarity of request and description plus the words they share (table and column names); the top K
and the tables joined to them by keys are the candidates; one constrained model call then orders the
candidates and stops when it has enough, and `settle` makes that pick consistent with the request.
Tables are few (tens to hundreds), so scores are exact dot products: an approximate index would only
lose recall here. Descriptions are embedded once (the embedder caches by text) and again when they change.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from ..language.stop_words import DETERMINER_STEMS, GENERIC_WORDS
from ..language.words import stem, stem_sequence, stems, tokens, words
from ..llm.base import Embedder
from ..sql.catalog import Catalog, Table
from ..sql.names import split_table
from .joins import Links, database_of, is_key, joined_tables, referred_as
from .values import ValueIndex

NAME_WEIGHT = 0.35  # all of a table's name words in the request adds this much (a share of them, a share)
COLUMN_WEIGHT = 0.06  # per column-name word in the request, up to COLUMN_HITS of them
COLUMN_HITS = 3
NAMED_THINGS = frozenset(
    {"name"}
)  # generic in a table's name, but a request asking for names needs a table that holds them


@dataclass(frozen=True)
class Considered:
    """A table offered to the model, with its score and why it was offered."""

    table: str
    score: float
    reasons: tuple[str, ...]
    mentions: frozenset[str] = frozenset()  # words of the request its own name, columns, description or values hold
    context: frozenset[str] = frozenset()  # words of the request its attached database's name holds


def describe(table: Table, note: str = "") -> str:
    """The text a table is found by.

    >>> from jupyter_chatdb.sql.catalog import Column
    >>> describe(Table("sales_2024", (Column("fruitName", "VARCHAR", ("apple",)), Column("kg", "DOUBLE")), 3), "daily sales")
    'daily sales. sales 2024: fruit name (apple), kg'
    """
    columns = ", ".join(words(c.name) + (f" ({', '.join(c.samples)})" if c.samples else "") for c in table.columns)
    text = f"{words(table.name)}: {columns}"
    return f"{note.rstrip('.')}. {text}" if note else text


class SchemaIndex:
    """Scores a catalog's tables against a request; holds the users' table descriptions."""

    def __init__(self, embedder: Embedder | None, notes: Mapping[str, str] | None = None) -> None:
        self.embedder = embedder
        self.notes: dict[str, str] = dict(notes or {})

    def describe(self, table: str, note: str) -> None:
        """Set (or, with an empty note, remove) the user's description of `table`."""
        if note.strip():
            self.notes[table] = note.strip()
        else:
            self.notes.pop(table, None)

    def candidates(
        self,
        request: str,
        catalog: Catalog,
        top: int,
        values: ValueIndex | None = None,
        links: Links | None = None,
    ) -> list[Considered]:
        """The `top` tables most like the request, then the tables joined to them (`links`, default
        `joined_tables(catalog)`), best first. With `values`, a table whose column holds a value the
        request quotes ("Padstow") says so."""
        scored = self.scores(request, catalog)
        ranked = sorted(scored, key=lambda name: -scored[name].score)
        best = ranked[:top]
        chosen = {name: scored[name] for name in best}
        links = joined_tables(catalog) if links is None else links
        for name in best:
            for neighbour, column in links[name].items():
                if neighbour not in chosen:
                    found = scored[neighbour]
                    chosen[neighbour] = replace(found, reasons=(*found.reasons, f"joined to {name} by {column}"))
        if values is not None:
            phrases = _phrases(request)
            chosen = {
                name: _with_values(found, catalog.tables[name], phrases, values) for name, found in chosen.items()
            }
        return sorted(chosen.values(), key=lambda c: -c.score)

    def scores(self, request: str, catalog: Catalog) -> dict[str, Considered]:
        names = list(catalog.tables)
        similarity = self._similarity(request, [describe(catalog.tables[n], self.notes.get(n, "")) for n in names])
        said = stem_sequence(request)
        heard = _heard(said)
        aliases = referred_as(catalog)
        return {
            name: self._score(catalog.tables[name], float(meaning), said, heard, aliases.get(name, {}))
            for name, meaning in zip(names, similarity)
        }

    def _score(
        self, table: Table, meaning: float, said: list[str], heard: set[str], aliases: Mapping[str, str]
    ) -> Considered:
        """Similarity plus shared words (`heard`): all of the name's words (or a share; an attached table's
        name includes its database's), and up to COLUMN_HITS column words. The words of the keys that
        refer to the table (`aliases`) are mentions too, but add nothing to the score."""
        reasons = [f"similar to the request ({meaning:.2f})"] if self.embedder is not None else []
        database, own_name = split_table(table.name)
        own_words = stems(own_name) - GENERIC_WORDS
        name_words = own_words | stems(database) - GENERIC_WORDS
        named = len(name_words & heard) / len(name_words) if name_words else 0.0
        if named:
            reasons.append("named in the request" if named == 1 else "partly named in the request")
        written = {
            stem: w for c in table.columns if not is_key(c.name) for stem, w in _column_words(c.name).items()
        }  # keys name other tables
        as_written = _initialisms(list(written.values()), said) | written
        holds = set(as_written)
        columns = sorted((holds - GENERIC_WORDS) & heard)
        if columns:
            reasons.append("its columns are mentioned: " + ", ".join(as_written[w] for w in columns[:COLUMN_HITS]))
        described = stems(self.notes.get(table.name, "")) & heard - GENERIC_WORDS
        if described:
            reasons.append("its description matches")
        called = sorted(set(aliases) & heard - own_words)
        if called:
            reasons.append(
                "keys referring to it are named in the request: " + ", ".join(dict.fromkeys(aliases[w] for w in called))
            )
        score = meaning + NAME_WEIGHT * named + COLUMN_WEIGHT * min(len(columns), COLUMN_HITS)
        known_as = own_words | set(called)
        mentions = (
            known_as & heard
            | set(columns)
            | described
            | holds & heard & NAMED_THINGS
            | _attributes(known_as, holds, said)
        )
        context = name_words & heard - own_words
        return Considered(table.name, round(score, 3), tuple(reasons), frozenset(mentions), frozenset(context))

    def _similarity(self, request: str, descriptions: list[str]) -> np.ndarray:
        if self.embedder is None:
            return np.zeros(len(descriptions), dtype=np.float32)
        vectors = self.embedder.embed([request, *descriptions])
        return vectors[1:] @ vectors[0]


def _heard(said: list[str]) -> set[str]:
    """The request's word stems, a number with the word before it ("line 1"), and two words run
    together, for compound names ("hay loft" for `Hayloft`).

    >>> sorted(_heard(stem_sequence("hay loft bay 2")))
    ['2', 'bay', 'bay 2', 'bay2', 'hay', 'hayloft', 'loft', 'loftbay']
    """
    pairs = list(zip(said, said[1:]))
    return (
        set(said)
        | {f"{word} {number}" for word, number in pairs if number.isdigit()}
        | {first + second for first, second in pairs}
    )


def _attributes(own_words: set[str], holds: set[str], said: list[str]) -> frozenset[str]:
    """The request's phrases that name one of the table's columns together with the table ("hound names",
    "age of the hounds"), as "hound name": tables that hold both words apart do not hold these.

    >>> sorted(_attributes({"hound"}, {"name", "age"}, stem_sequence("List hound names and the age of each hound")))
    ['hound age', 'hound name']
    """
    found = set()
    for i, word in enumerate(said):
        following = said[i + 1 : i + 2]
        if word in own_words and following and following[0] in holds - {word}:
            found.add(f"{word} {following[0]}")
        if word in holds and following == ["of"]:
            owner = next((w for w in said[i + 2 : i + 4] if w not in DETERMINER_STEMS), "")
            if owner in own_words - {word}:
                found.add(f"{owner} {word}")
    return frozenset(found)


def _column_words(column: str) -> dict[str, str]:
    """A column's words by their stems; a number only with the word before it, as requests say it ("line 1").

    >>> _column_words("mooring_lines_2")
    {'moor': 'mooring', 'line': 'lines', 'line 2': 'lines 2'}
    """
    parts = tokens(column)
    found: dict[str, str] = {}
    for before, token in zip(["", *parts], parts):
        if not token.isdigit():
            found[stem(token)] = token
        elif before:
            found[f"{stem(before)} {token}"] = f"{before} {token}"
    return found


def _initialisms(column_words: list[str], said: list[str]) -> dict[str, str]:
    """Stems of the request's two-word phrases that a column abbreviates to an initial and a word
    ("departure port" for `Dport`), each to the column word.

    >>> _initialisms(["dport", "aport", "tons"], stem_sequence("the departure ports and tons"))
    {'departur': 'dport', 'port': 'dport'}
    """
    found: dict[str, str] = {}
    for first, second in zip(said, said[1:]):
        for word in column_words:
            if len(word) > 3 and word[0] == first[0] and stem(word[1:]) == second and first != word:
                found.update({first: word, second: word})
    return found


def _phrases(text: str, longest: int = 4) -> set[str]:
    """The request's runs of 1 to `longest` words, lower case, for matching stored values.

    Words are taken as written ("st.") and bare: without quotes, a closing period or a possessive 's:

    >>> sorted(_phrases("Sail to St. Ives, 'PZN' or Maud's Padstow.", 1))
    ["'pzn'", 'ives', 'maud', "maud's", 'or', 'padstow', 'padstow.', 'pzn', 'sail', 'st', 'st.', 'to']
    """
    written = re.findall(r"[\w'.&-]+", text.lower())
    bare = [w.strip("'").rstrip(".").removesuffix("'s").strip("'") for w in written]
    return {
        " ".join(tokens[i : i + n])
        for tokens in (written, bare)
        for n in range(1, longest + 1)
        for i in range(len(tokens) - n + 1)
    }


def _with_values(found: Considered, table: Table, phrases: set[str], values: ValueIndex) -> Considered:
    """`found` with the stored values of its text columns that the request quotes, as mentions and a reason."""
    quoted = []
    for column in table.columns:
        stored = values.column(table.name, column.name)
        if stored is None:
            continue
        quoted += [
            (v, column.name)
            for v in stored.values
            if len(v) > 2 and not v.isdigit() and " ".join(v.lower().split()) in phrases
        ]
    if not quoted:
        return found
    reason = "holds " + ", ".join(f"{v!r} ({c})" for v, c in quoted[:3])
    return replace(
        found, reasons=(*found.reasons, reason), mentions=found.mentions | {f"'{v.lower()}'" for v, _ in quoted}
    )


def settle(picked: list[str], considered: list[Considered], links: Links) -> tuple[list[str], list[tuple[str, str]]]:
    """The model's pick made consistent with the request's words (`Considered.mentions`), weighing the
    table most like the request as if it were picked last: picked tables that hold none of the words are
    dropped, and so are those that cannot join the tables holding most of the words and add none to them;
    a table linking two of the rest is added, and so is a considered table that joins them (or is of their
    attached database) and holds words of the request they lack. Returns the tables and (table, why)
    changes, as `%chatdb tables` shows them."""
    found = {c.table: c for c in considered}
    pool = [c.table for c in considered]
    best = considered[0].table  # the table most like the request is weighed as if the model had picked it last
    keep = _anchors(picked + ([best] if best not in picked else []), found, pool, links)
    changes = [(best, "added: the table most like the request")] if best in keep and best not in picked else []
    for table in list(keep[1:]):
        for bridge in _path(table, keep, pool, links):
            if bridge not in keep:
                keep.append(bridge)
                changes.append((bridge, f"added: it joins {table} to the other chosen tables"))
    for table in picked:
        if table not in keep:
            why = (
                "holds nothing the request mentions"
                if not found[table].mentions
                else "the other tables hold what it does, and it joins none of them"
            )
            changes.insert(0, (table, f"dropped: {why}"))
    keep.sort(key=lambda t: picked.index(t) if t in picked else len(picked))
    for candidate in considered:
        if (
            candidate.table not in keep
            and candidate.mentions - _held(keep, found)
            and any(_near(candidate.table, t, links) for t in keep)
        ):
            keep.append(candidate.table)
            how = "joins them" if any(t in links[candidate.table] for t in keep) else "is of their database"
            changes.append((candidate.table, f"added: it holds words of the request the others lack, and {how}"))
    return keep, changes


def _anchors(picked: list[str], found: Mapping[str, Considered], pool: list[str], links: Links) -> list[str]:
    """The picked tables that hold words of the request (else the first pick). When they fall into groups
    that neither join one another nor share an attached database, one group leads: the one whose considered
    tables hold most of the request's words (then the one whose picks do, then the earlier pick). Another
    group's table stays only for words the lead's group cannot supply; `settle` adds those it can."""
    anchors = [t for t in picked if found[t].mentions] or picked[:1]
    groups: list[list[str]] = []
    for table in anchors:
        group = next((g for g in groups if _together(table, g[0], pool, links)), None)
        if group is None:
            groups.append([table])
        else:
            group.append(table)
    supply = {g[0]: _held([t for t in pool if _together(t, g[0], pool, links)], found, context=True) for g in groups}
    lead = max(groups, key=lambda g: (len(supply[g[0]]), len(_held(g, found))))
    return [t for t in anchors if t in lead or found[t].mentions - supply[lead[0]]]


def _together(a: str, b: str, pool: list[str], links: Links) -> bool:
    """Whether two tables belong to one group: an attached database's tables do, even where no key joins them."""
    return _same_attached(a, b) or _reachable(a, b, pool, links)


def _near(a: str, b: str, links: Links) -> bool:
    """Whether a key joins two tables, or they are of one attached database."""
    return b in links[a] or _same_attached(a, b)


def _same_attached(a: str, b: str) -> bool:
    return database_of(a) == database_of(b) != ""


def _held(tables: list[str], found: Mapping[str, Considered], context: bool = False) -> frozenset[str]:
    """The request's words the tables hold; with `context`, counting their databases' names too."""
    return frozenset[str]().union(*(found[t].mentions | (found[t].context if context else frozenset()) for t in tables))


def _reachable(start: str, goal: str, pool: list[str], links: Links) -> bool:
    seen, frontier = {start}, [start]
    while frontier:
        table = frontier.pop()
        if table == goal:
            return True
        for neighbour in links[table]:
            if neighbour in pool and neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return False


def _path(table: str, keep: list[str], pool: list[str], links: Links) -> list[str]:
    """[the table of `pool` that joins `table` to another kept table], as a link table of a many-to-many
    join does; [] when it joins one directly, or only through longer paths (too loose to guess)."""
    others = set(keep) - {table}
    if others & set(links[table]):
        return []
    bridges = [t for t in pool if t in links[table] and others & set(links[t])]
    return bridges[:1]
