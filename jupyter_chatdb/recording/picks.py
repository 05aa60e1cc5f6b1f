"""A value the schema lists, from the words the model read: "by standing order" -> 'standing order', "a cargo bike" ->
'cargo bike', "grey-coated" -> 'greycoat'.

The model reads a listed column's value in the request's words (its field shows the list, but the reply is
not held to it: a grammar that allows only the list makes a small model start a listed value it did not
mean). Code maps the words to the list (`mapped`): the same value, the same when case, spaces and
punctuation are set aside, the one listed value whose words are all among the words read (the longest
such, unless the words turn it round: "did not attend" is not 'attended'), or whose letters are the read
words' stems run together ("grey-coated" -> 'greycoat'), or the one code numbered as a bare number read
("3" -> 'R3'). Words that map to none are for the model to choose among the list (a constrained call in
the stage), or to leave out.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..language.cues import NEGATIONS
from ..language.numbers import DIGIT_RUN
from ..language.words import lower_words, stem
from .resolve import squeezed


def mapped(said: object, allowed: Sequence[str]) -> str | None:
    """The listed value `said` means, when code can tell; None otherwise.

    >>> kinds = ["coins", "cheque", "standing order"]
    >>> mapped("signed cheque", kinds), mapped("Standing-Order", kinds), mapped("COINS", kinds), mapped("voucher", kinds)
    ('cheque', 'standing order', 'coins', None)
    >>> mapped("a cargo bike", ["bike", "cargo bike", "van"]), mapped("grey coated", ["greycoat", "baycoat"])
    ('cargo bike', 'greycoat')
    >>> mapped("cheque or coins", kinds) is None  # two listed values: not code's to choose
    True
    >>> mapped("3", ["R1", "R3", "R13"]), mapped("3", ["A3", "B3"])
    ('R3', None)
    >>> mapped("did not show", ["shown", "no show"]), mapped("didn't attend", ["attended", "away"])
    (None, None)
    """
    if not isinstance(said, str) or not said.strip():
        return None
    for value in allowed:
        if value == said or value.casefold() == said.casefold() or squeezed(value) == squeezed(said):
            return value
    words = _words(said)
    within = [
        value
        for value in allowed
        if _words(value) and set(_words(value)) <= set(words) and set(_words(value)) >= NEGATIONS & set(words)
    ]
    if within:
        longest = max(len(_words(v)) for v in within)
        best = [v for v in within if len(_words(v)) == longest]
        if len(best) == 1 and not _disjoint_others(best[0], within):
            return best[0]
    joined = "".join(words)
    stems = [v for v in allowed if squeezed(v) and squeezed(v) == joined]
    if len(stems) == 1:
        return stems[0]
    numbered = [v for v in allowed if said.strip().isdigit() and _numbers(v) == [int(said)]]
    return numbered[0] if len(numbered) == 1 else None  # "3" for the one listed code numbered 3: 'R3'


def entry_said(entry: object, text: str) -> bool:
    """Whether the request says a listed entry in words: each of its words, in any form.

    >>> entry_said("varnish_dry", "SG-7: the varnish is dry"), entry_said("fitted", "SG-7 | done")
    (True, False)
    >>> entry_said("raised bed", "laid out as raised beds")
    True
    """
    said = set(_words(text))
    entry_words = _words(str(entry))
    return bool(entry_words) and all(word in said for word in entry_words)


def _numbers(text: str) -> list[int]:
    return [int(n) for n in DIGIT_RUN.findall(text)]


def _disjoint_others(best: str, within: Sequence[str]) -> bool:
    """Whether another listed value within the words shares no word with `best` ("cheque or coins")."""
    mine = set(_words(best))
    return any(not (set(_words(v)) & mine) for v in within if v != best)


def _words(text: str) -> list[str]:
    return [stem(w) for w in lower_words(text)]
