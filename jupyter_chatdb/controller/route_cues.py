"""Routing by English cues (the words are in `language/cues.py`): words that plainly ask about the database
itself, or general SQL knowledge. A request they fit is routed without a model call; one that only may ask
about the database (`MAY_ASK_ABOUT_THE_DATABASE`) is routed by the model, never taken for a read without a
call. Generic words only: no table's or column's name."""

from __future__ import annotations

from ..language.cues import (
    ABOUT_THE_DATABASE,
    DESCRIBE,
    GENERAL_QUESTION,
    PASTED_SELECT,
    PLAN_WORDS,
    SQL_CONCEPTS,
)
from ..language.words import stems, words
from ..sql.catalog import Catalog


def about_the_database(text: str, catalog: Catalog) -> bool:
    """The request plainly asks about the tables themselves, a query's plan, the journal or the memory.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("horses", (Column("coat", "VARCHAR"),), 3)])
    >>> [about_the_database(t, catalog) for t in ("Which columns of horses have missing values?",
    ...  "Why is SELECT coat FROM horses slow?", "Describe horses", "What did my last write change?",
    ...  "Why was that query so slow?")]
    [True, True, True, True, True]
    >>> [about_the_database(t, catalog) for t in ("Which horses have no coat?", "List the coats of horses")]
    [False, False]
    """
    if ABOUT_THE_DATABASE.search(text) or (PASTED_SELECT.search(text) and PLAN_WORDS.search(text)):
        return True
    described = DESCRIBE.search(text)
    if described is None:
        return False
    said = stems(words(described.group(2)))
    return bool(described.group(3)) or any(stems(words(name)) == said for name in catalog.tables)


def general_sql_question(text: str, catalog: Catalog) -> bool:
    """A question of general SQL knowledge that names no table: chat, answered without the data.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("horses", (Column("coat", "VARCHAR"),), 3)])
    >>> general_sql_question("What is the difference between an inner join and a left join?", catalog)
    True
    >>> general_sql_question("What does NULL mean in the horses table?", catalog)
    False
    """
    if not (GENERAL_QUESTION.search(text) and SQL_CONCEPTS.search(text)):
        return False
    said = stems(text)
    return not any(stems(words(name)) <= said for name in catalog.tables)
