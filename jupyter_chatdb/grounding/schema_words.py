"""The words of a schema's names, as stems: what a request's words are matched with (`language/words.py`)."""

from __future__ import annotations

from ..language.words import stems, words
from ..sql.catalog import Catalog


def schema_stems(catalog: Catalog) -> set[str]:
    """The stems of the words of every table's and column's name.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> sorted(schema_stems(Catalog([Table("riders", (Column("stableName", "VARCHAR"),), 3)])))
    ['name', 'rider', 'stabl']
    """
    named: set[str] = set()
    for name, table in catalog.tables.items():
        named |= stems(words(name))
        for column in table.columns:
            named |= stems(words(column.name))
    return named
