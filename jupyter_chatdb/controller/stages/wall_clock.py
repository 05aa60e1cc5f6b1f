"""What a read of a time-zone-aware DataFrame column should say: DuckDB is given such a column as the
wall-clock time of its own zone (`sql/session.py`), so `hour()` is the hour there, not in UTC."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlglot import exp

from ...errors import ChatDBError
from ...sql.trees import parse, referenced_tables


def wall_clock_note(zones: Mapping[str, Mapping[str, str]], statements: Sequence[str]) -> str:
    """The note for the zone-aware columns `statements` read (`zones`: frame -> column -> zone), or "".

    >>> wall_clock_note({"flights": {"landed": "Europe/Oslo"}}, ["SELECT hour(landed) FROM flights"])
    'flights.landed is read as the wall-clock time of Europe/Oslo'
    >>> wall_clock_note({"flights": {"landed": "Europe/Oslo"}}, ["SELECT count(*) FROM flights"])
    ''
    """
    if not zones:
        return ""
    read: list[str] = []
    for sql in statements:
        try:
            trees = parse(sql)
        except ChatDBError:
            continue
        for tree in trees:
            named = {column.name.lower() for column in tree.find_all(exp.Column)}
            every = any(isinstance(star.parent, (exp.Select, exp.Column)) for star in tree.find_all(exp.Star))
            for table in referenced_tables(tree) & {name.lower() for name in zones}:
                frame = next(name for name in zones if name.lower() == table)
                read += [
                    f"{frame}.{column} is read as the wall-clock time of {zone}"
                    for column, zone in zones[frame].items()
                    if every or column.lower() in named
                ]
    return "; ".join(dict.fromkeys(read))
