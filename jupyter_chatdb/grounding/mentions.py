"""Stored values a request names ("pears" names 'pear', "at the wharf Calder" names wharves' 'Calder'):
shown to the model beside the tables, and what tells a question about a stored value from chat.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from ..language.stop_words import FUNCTION_WORDS
from ..language.words import forms_in_order, normal_text, stem
from ..language.words import words as identifier_words
from .values import ValueIndex


@dataclass(frozen=True)
class Mention:
    table: str
    column: str
    value: str


def mentioned_values(
    text: str,
    index: ValueIndex,
    columns: Sequence[tuple[str, str]],
    named: AbstractSet[str] = frozenset(),
    limit: int = 6,
) -> list[Mention]:
    """Stored values a request names: a value whose words appear together in it (any case) or, of two
    forms or more, whose forms do in their order ("340g squeeze tubes" names '340 g squeeze tube',
    `forms_in_order`), or a one-word value whose stem is one of its words ("pears" names 'pear'), not a
    function word ("with" does not name a kind 'With'), and not one of `named` (the stems of the tables'
    and columns' names: "delivery options" names a column, not the value 'Option'); the longest first, at
    most `limit`. `columns`: the (table, column) pairs to look in; those not text are skipped.
    A value stored in several columns is shown for the one the words just before it name, where they
    name one ("at the wharf Calder"): the model tends to compare every column shown with it."""
    words = normal_text(text)
    padded = f" {words} "
    stemmed = {stem(w) for w in words.split()} - named
    forms = f" {' '.join(forms_in_order(text))} "
    found: list[Mention] = []
    for table, column in columns:
        values = index.column(table, column)
        if values is None:
            continue
        for value, value_forms in zip(values.values, values.forms, strict=True):
            normal = normal_text(value)
            if len(normal) < 3 or normal in FUNCTION_WORDS:
                continue
            if f" {normal} " in padded or (" " not in normal and not normal.isdigit() and stem(normal) in stemmed):
                found.append(Mention(table, column, value))
            elif value_forms and f" {value_forms} " in forms:
                found.append(Mention(table, column, value))
    found = _named_columns(found, words.split())
    found.sort(key=lambda m: -len(m.value))
    return found[:limit]


def _named_columns(found: list[Mention], words: list[str]) -> list[Mention]:
    """Of the columns that hold one value, those the words just before it name, where some do."""
    by_value: dict[str, list[Mention]] = {}
    for mention in found:
        by_value.setdefault(normal_text(mention.value), []).append(mention)
    kept = []
    for value, mentions in by_value.items():
        named = [m for m in mentions if _named_before(words, value.split(), m.column)] if len(mentions) > 1 else []
        kept += named or mentions
    return kept


def _named_before(words: list[str], value: list[str], column: str) -> bool:
    """Whether one of the two words before `value` in `words` is a word of `column`'s name.

    >>> _named_before("moorings at the wharf calder".split(), ["calder"], "Wharf")
    True
    >>> _named_before("moorings at the wharf calder".split(), ["calder"], "MooringName")
    False
    """
    named = {stem(w) for w in identifier_words(column).split()}
    for at in range(len(words)):
        here = words[at : at + len(value)]
        if here == value or (len(value) == 1 and stem(here[0]) == stem(value[0])):
            if named & {stem(w) for w in words[max(at - 2, 0) : at]}:
                return True
    return False
