"""DataFrames that only repeat rows of another table: a notebook's scratch frames (`s = df[df.x > 3]`).

Shown to the model beside the table they come from, a small model joins them into unrelated questions
(a count of plants came out as a count of plants joined with a filtered copy of plants). A frame whose
columns another table has too, by the same names, and each of whose rows that table holds, says nothing
the table does not; it is left out of what the planner is shown unless the request names it.

Found without a query per pair of tables (`row_hashes.py`): a sample of each frame's row hashes is read
(one query for all frames of the same columns), every table that may hold them is asked which of those
it holds (one query for all), and only a frame whose sampled rows a table all holds is compared with it
row by row (EXCEPT ALL). What was found is kept per version of the two tables, so a read over frames that
did not change asks nothing of the data here (a stored table's version is one query).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from itertools import count

import duckdb

from ..errors import ChatDBError
from ..sql.catalog import Catalog, Table
from ..sql.session import Session
from .row_hashes import FETCH_ROWS, Hashes, Version, bottom, every, frame_version, held, samples, table_version

MAX_ROWS = 100_000  # a larger frame is not compared row by row on every request

Pair = tuple[str, int, str, int]  # a frame and a table, each at its version's number


class Copies:
    """Copies found, kept per version of the frame and of the table it repeats (a session's, across reads)."""

    def __init__(self) -> None:
        self._versions: dict[str, tuple[Version, int]] = {}  # table -> its version as last read, numbered
        self._numbers = count()
        self._held: dict[Pair, bool] = {}  # whether the table holds the frame, as last found
        self._samples: dict[tuple[str, int], Hashes] = {}  # a frame's sampled row hashes, at a version

    def find(self, session: Session, catalog: Catalog) -> dict[str, str]:
        """Frame -> the first table of the catalog (stored, or a larger frame) holding all its columns
        and each of its rows.

        >>> import pandas as pd
        >>> s, found = Session(), Copies()
        >>> s.bind("kites", pd.DataFrame({"name": ["Aria", "Bolt", "Cirrus"], "span": [2, 5, 3]}))
        >>> s.bind("big", pd.DataFrame({"name": ["Bolt"], "span": [5]}))
        >>> found.find(s, Catalog.read(s)), found.find(s, Catalog.read(s))  # the second asks nothing
        ({'big': 'kites'}, {'big': 'kites'})
        """
        numbers = _Numbers(self._number, session, catalog)
        candidates = _candidates(catalog)
        unknown = [
            (frame, source)
            for frame, sources in candidates.items()
            for source in self._unknown(frame, sources, numbers)
        ]
        may_hold = self._sampled(session, catalog, unknown, numbers)
        found: dict[str, str] = {}
        kept: dict[Pair, bool] = {}
        walks = {frame: iter(sources) for frame, sources in candidates.items()}
        while walks:  # each round: the frames' tables known, up to one each to compare row by row
            compare: dict[str, str] = {}
            for frame, sources in list(walks.items()):
                for source in sources:
                    pair = numbers.pair(frame, source)
                    known = self._known(pair)
                    if known is None and may_hold.get((frame, source), True):
                        compare[frame] = source
                        break
                    if pair is not None:
                        kept[pair] = bool(known)
                    if known:
                        found[frame] = source
                        break
                if frame not in compare:
                    del walks[frame]
            for frame, holds in _holds_all(session, catalog, compare).items():
                source = compare[frame]
                pair = numbers.pair(frame, source)
                if pair is not None:
                    kept[pair] = holds
                if holds:
                    found[frame] = source
                    del walks[frame]
        self._held = kept
        self._versions = {name: self._versions[name] for name in numbers.read if name in self._versions}
        current = {(name, number) for name, (_, number) in self._versions.items()}
        self._samples = {key: rows for key, rows in self._samples.items() if key in current}
        return {frame: found[frame] for frame in candidates if frame in found}

    def _known(self, pair: Pair | None) -> bool | None:
        return None if pair is None else self._held.get(pair)

    def _unknown(self, frame: str, sources: list[str], numbers: _Numbers) -> Iterator[str]:
        """The tables not known to hold `frame` or not, up to the first known to hold it (none after it is
        asked)."""
        for source in sources:
            known = self._known(numbers.pair(frame, source))
            if known:
                return
            if known is None:
                yield source

    def _sampled(
        self, session: Session, catalog: Catalog, pairs: list[tuple[str, str]], numbers: _Numbers
    ) -> dict[tuple[str, str], bool]:
        """(frame, table) -> False where the table lacks a row of the frame's sample. Per set of columns,
        a query for the small tables' rows (their hashes come back whole), and for larger ones, one for
        the samples not kept and one for which of the sampled rows they hold."""
        groups: dict[tuple[str, ...], list[tuple[str, str]]] = defaultdict(list)
        for frame, source in pairs:
            groups[_columns(catalog.tables[frame])].append((frame, source))
        result = {}
        for columns, group in groups.items():
            sources = list(dict.fromkeys(source for _, source in group))
            small = [t for t in sources if catalog.tables[t].row_count <= FETCH_ROWS]
            rows, whole = self._frame_samples(session, catalog, [frame for frame, _ in group], small, columns, numbers)
            wanted = set().union(*(hashes for hashes in rows.values() if hashes is not None))
            holds = {source: whole[source] for source in small}
            holds.update(held(session, [source for source in sources if source not in whole], columns, wanted))
            for frame, source in group:
                mine, there = rows[frame], holds[source]
                result[(frame, source)] = mine is None or there is None or mine <= there
        return result

    def _frame_samples(
        self,
        session: Session,
        catalog: Catalog,
        frames: list[str],
        small: list[str],
        columns: tuple[str, ...],
        numbers: _Numbers,
    ) -> tuple[dict[str, Hashes], dict[str, Hashes]]:
        """The sampled row hashes of `frames` (kept ones, or read), and all the row hashes of the `small`
        tables, read in the same query as the small frames' samples."""
        versions = {frame: numbers.of(frame) for frame in frames}
        rows = {frame: self._samples.get((frame, n)) if n is not None else None for frame, n in versions.items()}
        unread = [frame for frame, hashes in rows.items() if hashes is None]
        tables = list(dict.fromkeys([*(f for f in unread if catalog.tables[f].row_count <= FETCH_ROWS), *small]))
        whole = every(session, tables, columns)
        rows.update({frame: bottom(whole[frame]) for frame in unread if frame in whole})
        rows.update(samples(session, [frame for frame in unread if frame not in whole], columns))
        self._samples.update({(frame, n): rows[frame] for frame, n in versions.items() if n is not None})
        return rows, whole

    def _number(self, name: str, version: Version) -> int:
        """The number of `name`'s version: the one kept while the version is the same, else a new one."""
        kept = self._versions.get(name)
        if kept is None or kept[0] != version:
            kept = self._versions[name] = (version, next(self._numbers))
        return kept[1]


def copies(session: Session, catalog: Catalog) -> dict[str, str]:
    """Frame -> a table (stored, or a larger frame) holding all its columns and each of its rows.

    >>> import pandas as pd
    >>> s = Session()
    >>> s.bind("kites", pd.DataFrame({"name": ["Aria", "Bolt", "Cirrus"], "span": [2, 5, 3]}))
    >>> s.bind("big", pd.DataFrame({"name": ["Bolt"], "span": [5]}))
    >>> s.bind("spans", pd.DataFrame({"span": [2, 5]}))  # one column: a list of values, not a copy
    >>> copies(s, Catalog.read(s))
    {'big': 'kites'}
    """
    return Copies().find(session, catalog)


def copies_pair_by_pair(session: Session, catalog: Catalog) -> dict[str, str]:
    """`copies` found the slow, plain way: each frame compared row by row with each table that may hold it,
    one query a pair. The reference the fingerprints are checked and timed against, never run on a read."""
    found: dict[str, str] = {}
    for frame in (t for t in catalog.tables.values() if t.is_frame):
        for source in catalog.tables.values():
            if source.name != frame.name and _may_hold(frame, source) and _holds(session, frame, source):
                found[frame.name] = source.name
                break
    return found


class _Numbers:
    """The number of each table's version in one catalog (`Copies._number`), read when first asked."""

    def __init__(self, number: Callable[[str, Version], int], session: Session, catalog: Catalog) -> None:
        self._number, self._session, self._catalog = number, session, catalog
        self._frames = session.frames
        self.read: dict[str, int | None] = {}

    def of(self, name: str) -> int | None:
        """None: the version cannot be read (what is found for the table is then not kept)."""
        if name not in self.read:
            table, frame = self._catalog.tables[name], self._frames.get(name)
            content = frame_version(frame) if frame is not None else table_version(self._session, table)
            shape = (table.row_count, tuple((c.name, c.type) for c in table.columns))
            self.read[name] = None if content is None else self._number(name, (shape, content))
        return self.read[name]

    def pair(self, frame: str, source: str) -> Pair | None:
        first, second = self.of(frame), self.of(source)
        return None if first is None or second is None else (frame, first, source, second)


def _candidates(catalog: Catalog) -> dict[str, list[str]]:
    """Frame -> the tables that may hold it by what the catalog says, in the catalog's order."""
    tables = catalog.tables.values()
    held = {table.name: _held_columns(table) for table in tables}
    candidates = {}
    for frame in (table for table in tables if table.is_frame):
        own = _own_columns(frame)
        candidates[frame.name] = [
            s.name for s in tables if s.name != frame.name and _may_hold(frame, s, own, held[s.name])
        ]
    return candidates


def _holds_all(session: Session, catalog: Catalog, pairs: Mapping[str, str]) -> dict[str, bool]:
    """Frame -> whether its table in `pairs` holds each of its rows: one query for all, or one per pair
    when that fails."""
    if not pairs:
        return {}
    counts = " UNION ALL ".join(
        f"SELECT {index} AS p, count(*) AS n FROM ({_except(catalog.tables[frame], catalog.tables[source])})"
        for index, (frame, source) in enumerate(pairs.items())
    )
    try:
        rows = dict(session.rows(counts))
    except (ChatDBError, duckdb.Error):
        return {
            frame: _holds(session, catalog.tables[frame], catalog.tables[source]) for frame, source in pairs.items()
        }
    return {frame: rows[index] == 0 for index, frame in enumerate(pairs)}


def _columns(frame: Table) -> tuple[str, ...]:
    """A frame's columns in one order whatever their case: a table of them in another order hashes alike."""
    return tuple(sorted((c.name for c in frame.columns), key=str.lower))


Columns = frozenset[tuple[str, str]]  # (name in lower case, type)


def _own_columns(table: Table) -> Columns:
    return frozenset((c.name.lower(), c.type) for c in table.columns)


def _held_columns(table: Table) -> Columns:
    """A table's columns as another frame's are looked up in it: by name in lower case (the last wins)."""
    return frozenset({c.name.lower(): c.type for c in table.columns}.items())


def _may_hold(frame: Table, source: Table, own: Columns | None = None, held: Columns | None = None) -> bool:
    """Whether `source` may hold `frame`, by what the catalog says (no query): its size, and each column
    of the frame (`own`, read when not given) in it, by name, of the same type (`held`)."""
    if frame.row_count > MAX_ROWS or source.row_count < frame.row_count or len(frame.columns) < 2:
        return False  # a frame of one column is a list of values (the ones wanted), not a copy
    if source.is_frame and source.row_count == frame.row_count:
        return False  # of two frames alike, neither is the other's copy
    own = _own_columns(frame) if own is None else own
    return own <= (_held_columns(source) if held is None else held)


def _holds(session: Session, frame: Table, source: Table) -> bool:
    """Whether `source` holds each row of `frame` (`_may_hold` said it has its columns): one query."""
    try:
        return session.rows(f"SELECT count(*) FROM ({_except(frame, source)})") == [(0,)]
    except (ChatDBError, duckdb.Error):
        return False


def _except(frame: Table, source: Table) -> str:
    """The rows of `frame` that `source` lacks (as many times as it lacks them)."""
    listed = ", ".join(_quoted(c.name) for c in frame.columns)
    return f"SELECT {listed} FROM {_quoted(frame.name)} EXCEPT ALL SELECT {listed} FROM {_quoted(source.name)}"


def _quoted(name: str) -> str:
    """A table's name (`archive.orders` for an attached one) or a column's, quoted part by part."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in name.split("."))
