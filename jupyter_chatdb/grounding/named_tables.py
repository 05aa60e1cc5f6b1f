"""The tables a request names the things it speaks of by: a table's noun just before a name ("rider
'Ada Quick'", "from stable Calder Mills") or a value a table stores ("Ada Quick" in riders.rider_name).

A write request says who or what it is about more surely by these than by its verbs: a rider who
"bought" hay is still a rider, not the yard buying from a stable. Choosing a procedure uses them to
leave out procedures that touch none of those tables while others do.
"""

from __future__ import annotations

import re

from ..language.words import stem, words
from ..sql.catalog import Catalog
from .mentions import mentioned_values
from .schema_words import schema_stems
from .values import ValueIndex

# a word, or an opening quote: what follows a table's noun when it labels a name
_TOKEN = re.compile(r"[^\W\d_][\w'-]*|['\"‘“]")
_OPENING_QUOTES = frozenset("'\"‘“")


def labelled_tables(text: str, tables: list[str]) -> set[str]:
    """The tables (lower case) whose name's words, in `text`, come just before a quoted or capitalised name.

    >>> sorted(labelled_tables("Rider 'Ann Lee' came by and ordered hay", ["riders", "hay_orders", "stables"]))
    ['riders']
    >>> labelled_tables("a rider ordered hay at the stable price", ["riders", "stables"])
    set()
    >>> labelled_tables("Hay order for the stable Calder", ["hay_orders", "stables"])
    {'stables'}
    """
    tokens = _TOKEN.findall(text)
    stemmed = [stem(token) for token in tokens]
    named: set[str] = set()
    for table in tables:
        wanted = [stem(word) for word in words(table).split()]
        size = len(wanted)
        for at in range(size, len(tokens)):
            if stemmed[at - size : at] == wanted and _starts_a_name(tokens[at]):
                named.add(table.lower())
                break
    return named


def named_tables(text: str, catalog: Catalog, values: ValueIndex | None = None) -> set[str]:
    """The tables (lower case) `text` labels a name with (`labelled_tables`) or whose text columns store a
    value it names (`mentioned_values`, where `values` is given)."""
    named = labelled_tables(text, list(catalog.tables))
    if values is not None:
        columns = catalog.text_column_pairs()
        named |= {m.table.lower() for m in mentioned_values(text, values, columns, schema_stems(catalog))}
    return named


def _starts_a_name(token: str) -> bool:
    return token in _OPENING_QUOTES or token[:1].isupper()
