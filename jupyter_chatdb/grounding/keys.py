"""The keys that the data implies, for tables that declare none (DataFrames, files read into them).

A column refers to another table's key when its name names that table or key (`Region` and
`regions.RegId`, `Vendor` and `market_vendors.Id`, `StallId` in both) and every value it holds is a value
of that key, which is unique and never empty there. A key of the same name that is unique in both tables
refers only to the table its name names (`skippers.Sailor_ID` to `sailors.Sailor_ID`, one row each).
Numbers compare as numbers whether they are stored as numbers or as text ('1' is 1). Checked on the data
once per shape of the catalog (names, types, row counts), and kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..language.stop_words import GENERIC_WORDS
from ..language.words import stems, words
from ..sql.catalog import Catalog, Table
from ..sql.column_owners import Link
from ..sql.names import quote_identifier, quote_table, split_table
from ..sql.session import Session

MAX_CHECKS = 200  # containment queries per catalog shape, at most


@dataclass(frozen=True)
class Reference:
    table: str
    column: str
    target: str  # the table referred to
    key: str  # its key column


class ImpliedKeys:
    """References implied by the data, per catalog shape (read again when a table changes shape or size)."""

    def __init__(self) -> None:
        self._known: dict[tuple[object, ...], list[Reference]] = {}

    def references(self, catalog: Catalog, session: Session) -> list[Reference]:
        shape = tuple(
            (name, table.row_count, tuple((c.name, c.type) for c in table.columns), bool(table.foreign_keys))
            for name, table in catalog.tables.items()
        )
        if shape not in self._known:
            self._known = {shape: list(_implied(catalog, session))}  # one shape kept: the catalog's now
        return self._known[shape]


def links(catalog: Catalog, implied: Sequence[Reference]) -> list[Link]:
    """Every reference between the catalog's tables: the foreign keys declared, then those the data
    implies (`implied`, from `ImpliedKeys.references`)."""
    declared = [
        Link(name, key.columns, key.table, key.references)
        for name, table in catalog.tables.items()
        for key in table.foreign_keys
    ]
    return declared + [Link(r.table, (r.column,), r.target, (r.key,)) for r in implied]


def _implied(catalog: Catalog, session: Session) -> Iterator[Reference]:
    unique: dict[tuple[str, str], bool] = {}

    def is_key(table: str, column: str) -> bool:  # each column asked once
        if (table, column) not in unique:
            unique[(table, column)] = _is_key(session, table, column)
        return unique[(table, column)]

    checks = 0
    for name, table in catalog.tables.items():
        if table.foreign_keys:
            continue  # what it declares is what it means
        own_words = stems(words(split_table(name)[1]))
        for column in table.columns:
            said = _said(column.name)
            if said <= own_words and is_key(name, column.name):
                continue  # its own key (`Keepers.keeper_id`)
            same, named = _named_keys(catalog, name, column.name)
            shared = False  # a key of the same name shares values with it: no other key is tried
            for target, key in same + named:
                if checks >= MAX_CHECKS:
                    return
                if shared and (target, key) not in same:
                    break
                if not is_key(target, key):
                    continue
                if key.lower() == column.name.lower() and is_key(name, column.name) and not _names(column.name, target):
                    continue  # the same key in two tables, whose name does not say which one it belongs to
                checks += 1
                held, missing = _containment(session, name, column.name, target, key)
                if held and not missing:
                    yield Reference(name, column.name, target, key)
                    break
                shared = shared or ((target, key) in same and missing < held)


def _names(column: str, table: str) -> bool:
    """Whether a column's name names `table`.

    >>> _names("sailor_id", "sailors"), _names("sailor_id", "skippers")
    (True, False)
    """
    said = _said(column)
    return bool(said) and said <= stems(words(split_table(table)[1]))


def _named_keys(catalog: Catalog, name: str, column: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(table, column)s of the same database that the column's name names: keys of the same name, and
    the keys of tables (or keys) named by one of its words."""
    said = _said(column)
    database = split_table(name)[0]
    same, named = [], []
    for other, table in catalog.tables.items():
        if other == name or split_table(other)[0] != database:
            continue
        table_words = _said(split_table(other)[1])
        for key in _key_candidates(table):
            if key.lower() == column.lower():
                same.append((other, key))
            elif said and (said & table_words or said & _said(key)):
                named.append((other, key))
    return same, named


def _said(name: str) -> set[str]:
    """The stems of a name's words, less the generic ones (id, name, code...)."""
    return stems(words(name)) - GENERIC_WORDS


def _key_candidates(table: Table) -> list[str]:
    """Its declared primary key's column, else the columns that may be keys: ids and codes first."""
    if len(table.primary_key) == 1:
        return list(table.primary_key)
    if table.primary_key:
        return []
    return [c.name for c in table.columns if not c.type.upper().startswith(("DOUBLE", "FLOAT", "REAL", "DECIMAL"))]


def _normal(column: str) -> str:
    """A value as text, numbers in one form whatever their type ('1', 1 and 1.0 read alike)."""
    quoted = quote_identifier(column)
    return f"coalesce(CAST(TRY_CAST({quoted} AS DOUBLE) AS VARCHAR), CAST({quoted} AS VARCHAR))"


def _is_key(session: Session, table: str, column: str) -> bool:
    quoted = quote_identifier(column)
    (unique,) = session.rows(
        f"SELECT count(*) > 0 AND count(DISTINCT {quoted}) = count(*) AND count({quoted}) = count(*)"
        f" FROM {quote_table(table)}"
    )[0]
    return bool(unique)


def _containment(session: Session, table: str, column: str, target: str, key: str) -> tuple[int, int]:
    """How many distinct values `table.column` holds, and how many of them are no value of `target.key`."""
    (held, missing) = session.rows(
        f"SELECT count(*), count(*) FILTER (WHERE v NOT IN (SELECT {_normal(key)} FROM {quote_table(target)}))"
        f" FROM (SELECT DISTINCT {_normal(column)} AS v FROM {quote_table(table)}"
        f" WHERE {quote_identifier(column)} IS NOT NULL)"
    )[0]
    return int(held), int(missing)
