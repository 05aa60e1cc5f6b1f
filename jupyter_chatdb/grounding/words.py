"""Words of names and requests, and their stems: how a request's words meet table and column names.

Identifiers are split into words (`song_releaseYear`: song release year); words meet by their English
Snowball stems, so that word forms do (plurals, -ing, -ment).
"""

from __future__ import annotations

import re
from functools import lru_cache

import snowballstemmer

from ..sql.catalog import Catalog

GENERIC_WORDS = frozenset({"id", "name", "type", "code", "date", "the", "of", "a", "in", "is", "number", "details"})
# English function words and request verbs: a stored value spelled like one (a kit's kind 'With') is not
# what a request means by "with"
FUNCTION_WORDS = frozenset(
    "a an and any are as at be by can did do does each for from give had has have how in is it its list many "
    "more most much not of on or our per show than that the their them then there these they this those to "
    "was were what when where which who whom whose why will with".split()
)


def words(identifier: str) -> str:
    """
    >>> words("song_releaseYear")
    'song release year'
    """
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", identifier).replace("_", " ").replace(".", " ")
    return " ".join(spaced.lower().split())


def stems(text: str) -> set[str]:
    """Lower-case word stems, for matching names with what a request says.

    >>> sorted(stems("Which countries hire singers?"))
    ['countri', 'hire', 'singer', 'which']
    """
    return set(stem_sequence(text))


def named_in(text: str, name: str) -> bool:
    """Whether `text` says every word of the table or column `name`, in any form.

    >>> named_in("Store the dog visits frame", "dog_visits"), named_in("Store the dogs", "dog_visits")
    (True, False)
    """
    return stems(words(name)) <= stems(text)


def schema_stems(catalog: Catalog) -> set[str]:
    """The stems of the words of every table's and column's name."""
    named: set[str] = set()
    for name, table in catalog.tables.items():
        named |= stems(words(name))
        for column in table.columns:
            named |= stems(words(column.name))
    return named


def stem_sequence(text: str) -> list[str]:
    """The stems of a text's words, in order.

    >>> stem_sequence("the shops hiring")
    ['the', 'shop', 'hire']
    """
    return [stem(w) for w in tokens(text)]


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", words(text))


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """English Snowball stems, so that word forms meet: plurals, -ing, -ment.

    >>> [stem(w) for w in ("countries", "country", "hiring", "enrollments", "Enrolment", "address")]
    ['countri', 'countri', 'hire', 'enrol', 'enrol', 'address']
    """
    return _STEMMER.stemWord(word.lower())


_STEMMER = snowballstemmer.stemmer("english")
