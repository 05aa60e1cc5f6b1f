"""Which tables join: declared foreign keys, and for tables that declare none (DataFrames, attached
files), key columns two tables of one database share and keys that name the table they refer to."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from ..language.stop_words import GENERIC_WORDS
from ..language.words import stem, stems, tokens, words
from ..sql.catalog import Catalog
from ..sql.names import split_table

Links = Mapping[str, Mapping[str, str]]  # table -> {neighbour: the column joining them}


def joined_tables(catalog: Catalog) -> dict[str, dict[str, str]]:
    """table -> {neighbour: the column joining them}: the references (`_references`) and, for DataFrames
    (which declare no keys), key columns two tables of one database share (`kiln_id` in both). Names
    are not taken for keys across databases (an attached file's `kiln_id` says nothing of the
    notebook's), nor is a plain column named like a table (`harbour` beside `harbours`): both joined
    unrelated tables."""
    links: dict[str, dict[str, str]] = {name: {} for name in catalog.tables}
    for a, b, column in _links(catalog):
        if a != b and b in links:
            links[a].setdefault(b, column)
            links[b].setdefault(a, column)
    return links


def referred_as(catalog: Catalog) -> dict[str, dict[str, str]]:
    """table -> {stem: key column}: the words of the key columns that refer to it, which are often what
    a request calls it (`Shifts.potter_id` refers to `Staff`: the potters; `home_depot_id`
    to `Depots`)."""
    aliases: dict[str, dict[str, str]] = {}
    for _, target, column in _references(catalog):
        if "," not in column:  # one column
            named = tokens(re.sub(r"_?id$", "", column, flags=re.IGNORECASE))
            aliases.setdefault(target, {}).update({stem(w): column for w in named if w not in GENERIC_WORDS})
    return aliases


def _links(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    yield from _references(catalog)
    keys = _key_columns(catalog)
    for name, same_database in _databases(catalog).items():
        for column in keys[name]:
            yield from ((name, other, column) for other in same_database if column in keys[other])


def _references(catalog: Catalog) -> Iterator[tuple[str, str, str]]:
    """(table, the table it refers to, the key column): declared foreign keys; where a table declares
    none, a key column naming a table of its database that has an `id` (`kiln_id`, `kiln`) or, when
    it names none, the one other table of its attached database with an `id` (`potter_id`,
    `Staff`: not among the notebook's DataFrames, which may be unrelated); and
    a key column ending in another table's own key (`home_depot_id`, `Depots.depot_id`)."""
    named_like = {name: "_".join(stem(w) for w in words(name).split()) for name in catalog.tables}
    with_id = {name for name, t in catalog.tables.items() if any(c.name.lower() == "id" for c in t.columns)}
    keys = _key_columns(catalog)
    own_keys = {
        name: {k for k in keys[name] if named_like[name].endswith(stem(k.removesuffix("_id")))} for name in keys
    }
    name_words: dict[str, set[str]] = {}
    for name in catalog.tables:
        name_words.setdefault(database_of(name), set()).update(stems(split_table(name)[1]))
    for name, same_database in _databases(catalog).items():
        table = catalog.tables[name]
        for key in table.foreign_keys:
            yield name, key.table, ", ".join(key.columns)
        if table.foreign_keys:
            continue
        ids = [
            other for other in same_database if other in with_id and other != name and database_of(name)
        ]  # frames may be unrelated
        for column in keys[name]:
            target = stem(column.removesuffix("_id").removesuffix("id").rstrip("_"))
            named = [other for other in same_database if named_like[other].endswith(target)]
            if not named and len(ids) == 1 and not stems(column) - {"id"} & name_words[database_of(name)]:
                named = ids  # no table's name has the key's words: the one table with an `id`
            yield from ((name, other, column) for other in named if other in with_id)
            if not any(
                column in keys[other] for other in same_database if other != name
            ):  # else a shared key joins them
                yield from (
                    (name, other, column)
                    for other in same_database
                    if any(column.endswith("_" + own) for own in own_keys[other])
                )


def _key_columns(catalog: Catalog) -> dict[str, dict[str, None]]:
    """table -> its key columns, lower case, in column order (so the column a link is named by is the same every run)."""
    return {
        name: dict.fromkeys(c.name.lower() for c in t.columns if is_key(c.name)) for name, t in catalog.tables.items()
    }


def _databases(catalog: Catalog) -> dict[str, list[str]]:
    """table -> the tables of its database (itself included)."""
    databases: dict[str, list[str]] = {}
    for name in catalog.tables:
        databases.setdefault(database_of(name), []).append(name)
    return {name: databases[database_of(name)] for name in catalog.tables}


def database_of(table: str) -> str:
    """
    >>> database_of("archive.orders"), database_of("orders")
    ('archive', '')
    """
    return split_table(table)[0]


def is_key(column: str) -> bool:
    lowered = column.lower()
    return lowered != "id" and (lowered.endswith("_id") or lowered.endswith("id") and column[-2:] == "ID")
