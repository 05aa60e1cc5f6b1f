"""Words of names and requests, and their stems: the one tokenizer and stemmer.

Identifiers are split into words (`ferry_refitYear`: ferry refit year); words meet by their English
Snowball stems, so that word forms do (plurals, -ing, -ment). `tokens` and `stem_sequence` are the
default reading of a text; the other splitters here differ from it on purpose, each saying how:

- `lower_words`: lower case first, so a word written in camelCase stays one word;
- `letter_words`: letters only, a digit ends a word and is dropped;
- `any_words` (and `normal_text`): letters of any alphabet, digits and underscores, as written;
- `word_forms`: stems of words and numbers, a number apart from the letters of its unit ("5kg");
  `forms_in_order`, the same in the order said.

A few readings stay beside the grammar they feed, since they keep what only it needs: the words and
commas of `grounding/concepts.py` (`_lowered`), the words as written with their dots and apostrophes of
`grounding/selection.py` (`_phrases`), the words and opening quotes of `grounding/named_tables.py`
(`_TOKEN`), and a code's letter and digit runs in `codes.py` (`code_fit`).
"""

from __future__ import annotations

import re
from functools import lru_cache

import snowballstemmer


def words(identifier: str) -> str:
    """
    >>> words("ferry_refitYear")
    'ferry refit year'
    """
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", identifier).replace("_", " ").replace(".", " ")
    return " ".join(spaced.lower().split())


def stems(text: str) -> set[str]:
    """Lower-case word stems, for matching names with what a request says.

    >>> sorted(stems("Which ferries carry ponies?"))
    ['carri', 'ferri', 'poni', 'which']
    """
    return set(stem_sequence(text))


def named_in(text: str, name: str) -> bool:
    """Whether `text` says every word of the table or column `name`, in any form.

    >>> named_in("Store the hound walks frame", "hound_walks"), named_in("Store the hounds", "hound_walks")
    (True, False)
    """
    return stems(words(name)) <= stems(text)


def stem_sequence(text: str) -> list[str]:
    """The stems of a text's words, in order.

    >>> stem_sequence("the ferries sailing")
    ['the', 'ferri', 'sail']
    """
    return [stem(w) for w in tokens(text)]


def tokens(text: str) -> list[str]:
    """The words of a text or a name, lower case, split at case changes, underscores and dots too.

    >>> tokens("The refitYear of Bo_Lee's 2 ferries")
    ['the', 'refit', 'year', 'of', 'bo', 'lee', 's', '2', 'ferries']
    """
    return re.findall(r"[a-z0-9]+", words(text))


def lower_words(text: str) -> list[str]:
    """The runs of letters and digits of `text` in lower case. Unlike `tokens`, a word written in camelCase
    stays one word ("iPhone" is 'iphone'): a text compared with another as the user wrote it.

    >>> lower_words("The iPhone 15, grey-coated"), tokens("The iPhone 15")
    (['the', 'iphone', '15', 'grey', 'coated'], ['the', 'i', 'phone', '15'])
    """
    return re.findall(r"[a-z0-9]+", text.lower())


def letter_words(text: str) -> list[str]:
    """The runs of letters of `text` in lower case. Unlike `lower_words`, a digit ends a word and is
    dropped ("H-07" is 'h'): for word overlap, initials and labels, where numbers are read apart.

    >>> letter_words("Took 2kg of honey from H-07!")
    ['took', 'kg', 'of', 'honey', 'from', 'h']
    """
    return re.findall(r"[a-z]+", text.lower())


def any_words(text: str) -> list[str]:
    """The runs of word characters of `text` in lower case: letters of any alphabet, digits and underscores.
    Unlike `lower_words`, "café" and "kite_tag" stay whole: a text compared as written, in any language.

    >>> any_words("Le café de Zoë, kite_tag 7")
    ['le', 'café', 'de', 'zoë', 'kite_tag', '7']
    """
    return re.findall(r"\w+", text.lower())


def word_forms(text: str) -> set[str]:
    """The stems of `text`'s words and its numbers, a number apart from the letters of its unit ("5kg") and
    without leading zeros. Unlike `stems`, "5kg" is two forms: a label said with or without a space.

    >>> sorted(word_forms("5kg Puppy Kibbles")), sorted(word_forms("FD-05"))
    (['5', 'kg', 'kibbl', 'puppi'], ['5', 'fd'])
    """
    return set(forms_in_order(text))


def forms_in_order(text: str) -> list[str]:
    """`word_forms` in the order `text` says them.

    >>> forms_in_order("two 500g Tins of beans")
    ['two', '500', 'g', 'tin', 'of', 'bean']
    """
    return [stem(w) if not w.isdigit() else w.lstrip("0") or "0" for w in re.findall(r"[^\W\d_]+|\d+", text.lower())]


def normal_text(text: str) -> str:
    """`any_words` one space apart: a text with case, spacing and punctuation set aside.

    >>> normal_text("  Los-Angeles, CA ")
    'los angeles ca'
    """
    return " ".join(any_words(text))


# common words ending in "est" that are no superlative ("the interest rate", "the harvest weight"): the
# ending alone would take them for one, and a word that asks rather than names (`superlative`)
NOT_SUPERLATIVES = frozenset(
    "interest harvest request contest forest protest conquest arrest unrest digest manifest honest modest earnest "
    "priest midwest northwest southwest".split()
)


def superlative(word: str) -> bool:
    """Whether a lower-case word of six letters or more is a superlative by its ending ("largest", "newest"),
    less the common words that only end like one (`NOT_SUPERLATIVES`).

    >>> [superlative(w) for w in ("largest", "newest", "cheapest", "youngest", "best")]
    [True, True, True, True, False]
    >>> [superlative(w) for w in ("interest", "harvest", "request", "contest", "forest", "interests")]
    [False, False, False, False, False, False]
    """
    return len(word) >= 6 and word.endswith("est") and word not in NOT_SUPERLATIVES


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """English Snowball stems, so that word forms meet: plurals, -ing, -ment.

    >>> [stem(w) for w in ("ferries", "ferry", "sailing", "consignments", "Consignment", "compass")]
    ['ferri', 'ferri', 'sail', 'consign', 'consign', 'compass']
    """
    return _STEMMER.stemWord(word.lower())


_STEMMER = snowballstemmer.stemmer("english")
