"""The words of a schema's names and of its columns' meanings, as stems: what a request's words are
matched with (`language/words.py`)."""

from __future__ import annotations

from ..language.stop_words import FUNCTION_WORDS
from ..language.words import stem, stems, words
from ..sql.catalog import Catalog

FUNCTION_STEMS = frozenset(stem(word) for word in FUNCTION_WORDS)


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


def meaning_stems(catalog: Catalog) -> set[str]:
    """The stems of the words that say what columns mean (their comments and the user's descriptions),
    function words left out.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> sorted(meaning_stems(Catalog([Table("wards", (Column("c7", "INTEGER", (), "beds free for the night"),), 3)])))
    ['bed', 'free', 'night']
    """
    return {
        word
        for table in catalog.tables.values()
        for column in table.columns
        if column.meaning
        for word in stems(column.meaning.lower())
        if word not in FUNCTION_STEMS
    }
