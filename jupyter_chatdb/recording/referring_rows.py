"""The kept rows that refer to the rows a request names, as they are kept: shown to the change call beside
the rows named, so that a change of a row joining them ("Jo's bike goes on rack 1": the repair job of
that bike) is read on the table that holds it, named by its values, and not as a change (or a new row)
of the table the request says the name of. What the call reads is checked as any reading is
(`row_changes.change_write`); these rows only show what is kept."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb

from ..sql.names import quote_identifier, quote_table
from ..sql.session import Session
from .named_rows import NamedRow
from .shapes import Field, Shape

MAX_PER_NAMED = 3  # rows referring to one named row
MAX_ROWS = 6
MAX_VALUES = 8  # values shown of a row


@dataclass(frozen=True)
class ReferringRow:
    table: str  # as the change call names it
    values: tuple[tuple[str, object], ...]  # (field, value as the call names it: a reference by its name)

    def shown(self) -> str:
        """The row as the change call is shown it.

        >>> ReferringRow("flights", (("kite", "Bolt"), ("flown_on", dt.date(2024, 6, 3)), ("minutes", 40))).shown()
        "flights (kite 'Bolt', flown_on 2024-06-03, minutes 40)"
        """
        values = ", ".join(f"{name} {_literal(value)}" for name, value in self.values)
        return f"{self.table} ({values})"


def referring_rows(session: Session, shapes: Mapping[str, Shape], named: Sequence[NamedRow]) -> list[ReferringRow]:
    """The rows of `shapes`' tables referring to a kept row the request names, at most `MAX_PER_NAMED`
    for each and `MAX_ROWS` in all, each once; none where a lookup fails (a view has no row order)."""
    found: list[ReferringRow] = []
    for row in named:
        target = shapes.get(row.table)
        if target is None:
            continue
        for name, shape in shapes.items():
            for field_ in shape.fields:
                reference = field_.reference
                if reference is None or reference.table.lower() != target.table.lower() or name == row.table:
                    continue
                for values in _rows_referring(session, shape, field_, row):
                    kept = ReferringRow(name, values)
                    if kept not in found:
                        found.append(kept)
    return found[:MAX_ROWS]


def _rows_referring(
    session: Session, shape: Shape, field_: Field, row: NamedRow
) -> list[tuple[tuple[str, object], ...]]:
    """The rows of `shape` whose reference `field_` holds the named row's key, the newest first, each
    with the reference first."""
    reference = field_.reference
    assert reference is not None
    fields = [field_, *(f for f in shape.fields if f is not field_)]
    sql = (
        f"SELECT {', '.join(map(_selected, fields))} FROM {quote_table(shape.table)} AS o "
        f"WHERE o.{quote_identifier(field_.column)} IN (SELECT {quote_identifier(reference.key)} "
        f"FROM {quote_table(reference.table)} WHERE {quote_identifier(row.column)} = ?) "
        f"ORDER BY o.rowid DESC LIMIT {MAX_PER_NAMED}"
    )
    try:
        rows = session.rows(sql, [row.value])
    except duckdb.Error:
        return []
    return [
        tuple((f.name, v) for f, v in zip(fields, kept, strict=True) if v is not None)[:MAX_VALUES] for kept in rows
    ]


def _selected(field_: Field) -> str:
    """A field as the call names it: a reference by the name of the row it refers to."""
    column = f"o.{quote_identifier(field_.column)}"
    reference = field_.reference
    if reference is None or not reference.name:
        return column
    return (
        f"(SELECT r.{quote_identifier(reference.name)} FROM {quote_table(reference.table)} AS r "
        f"WHERE r.{quote_identifier(reference.key)} = {column} LIMIT 1)"
    )


def _literal(value: object) -> str:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat(sep=" ") if isinstance(value, dt.datetime) else value.isoformat()
    return f"'{value}'" if isinstance(value, str) else str(value)
