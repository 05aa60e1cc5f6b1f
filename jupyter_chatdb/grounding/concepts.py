"""Does the data hold what a request asks about? The attributes and names a read request names, checked
against the tables' and columns' names and the stored values before any SQL is written.

A small model asked for "the average discount" over tables without one writes a formula and answers; asked
about "Quellmire", it compares some column with 'Quellmire' and answers 0. Both read as facts. This module
finds what such a request names that nothing stores, so the answer can say so instead:

- an attribute: a noun where a request asks for a column ("the average X", "the X of", "whose X is",
  "order of X") that no table or column name says (as a word form, a prefix such as `dep` for departure, the
  initials of three words such as `kpl`, or close in meaning) and no one-word stored value is;
- a name: a quoted or capitalised word (not the first) that no stored value is, contains or resembles in
  spelling (or, in a column of few values, in meaning: "Cornish" for 'Cornwall').

It is deliberately narrow: a word outside those positions ("older", "produced") is never a missing
attribute, since requests describe columns in many words; a word where the rows may be meant instead
("which product", "by female walkers") is only doubtful (`Missing.sure` False); a lower-case name cannot
be told from a word.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..language.dates import CALENDAR
from ..language.stop_words import ASKING_WORDS, FUNCTION_WORDS
from ..language.words import NOT_SUPERLATIVES, letter_words, stem, superlative, tokens
from ..llm.base import Embedder
from ..sql.catalog import Catalog
from .spelling import one_typo, swapped
from .values import ColumnValues, ValueIndex

MEANING_MIN = 0.66  # an attribute this close in meaning to a name's words is taken to be that name
NAME_TYPO_MIN_LENGTH = 7
SWAP_MIN_LENGTH = 5  # a shorter word with two neighbouring letters swapped is still a typo (`spelling.swapped`)
COMPOUND_PART_MIN = 4
# a name this close in meaning to a value of a column of few values is that value ("Cornish": 'Cornwall')
NAME_MEANING_MIN = 0.6
FEW_VALUES = 200
NAMES_SHOWN = 8  # columns listed per table in the message
REFUSAL_OPENING = "I can't answer that from the data"  # how the answer saying what is missing opens
_OPENING = r"(?:the|their|its|his|her|a|an|all|each)"
_AGGREGATE = r"(?:average|mean|total|sum|maximum|minimum|max|min|highest|lowest|largest|smallest|biggest|greatest)"
_COMPARE = (
    r"(?:is|are|was|were|of|above|below|over|under|greater|less|more|higher|lower|larger|smaller|between|at|than)"
)
_MORE_OR_LESS = r"(?:above|below|over|under|greater|less|more|higher|lower|larger|smaller|between)"
_WORD = r"([a-z]+)"
_NOUN = r"([a-z]+(?: [a-z]+)?)"  # only where a word after it ends the phrase
_NOT_SUPERLATIVE = "|".join(sorted(NOT_SUPERLATIVES))  # "the interest rate": no superlative before "rate"
# where a request names a column: the noun phrase of each pattern
ATTRIBUTE_PLACES = tuple(
    re.compile(pattern)
    for pattern in (
        rf"\b{_AGGREGATE} (?:of )?(?:{_OPENING} )?{_WORD}",
        rf"\b{_AGGREGATE} (?:of )?(?:{_OPENING} )?{_NOUN} (?:of|for|per)\b",
        rf"\b(?:most|least) common {_WORD}",
        rf"\b(?:the|their|its|his|her) {_NOUN} (?:of|for)\b",
        rf"(?:\band|,) (?:{_OPENING} )?{_NOUN} (?:of|for)\b",
        rf"\b(?:than|over|under|least|most|with|have|has|had) [0-9]+ {_WORD}",
        rf"\border (?:of|by) (?:{_OPENING} )?{_NOUN}",
        rf"\b(?:different|distinct|unique) {_NOUN} (?:of|for)\b",
        rf"\b(?:whose|with(?: a| an| the)?) {_NOUN} {_COMPARE}\b",
        rf"\b(?:have|has|had) (?:a |an )?{_NOUN} {_MORE_OR_LESS}\b",
        rf"\b{_MORE_OR_LESS} {_NOUN} than\b",
        rf"\b(?:the|their|its) {_NOUN} and\b",
        rf"\b(?:different|distinct|unique) {_NOUN}(?: of| for|,|$)",
    )
)
# a list of what a request asks for, "the id, weight and stable of": every item names a column
_ITEM = r"(?:[a-z]+ ){0,2}[a-z]+"  # a list's item: a noun phrase of up to 3 words
LISTED = re.compile(
    rf"\b(?:the|their|its) ({_ITEM}(?:, (?:the )?{_ITEM})*,? and (?:the )?{_ITEM})(?= (?:of|for)\b|,|$)"
)
# where a request may name a column, or the rows it is about ("which product", "each customer", "raised
# by female walkers"): a word here that no name says is only doubtful, and only once the model, shown
# the names, finds nothing it means
ENTITY_PLACES = tuple(
    re.compile(pattern)
    for pattern in (
        rf"\b(?:by|per) (?:the |their |its )?{_WORD}",
        rf"^(?:which|what) {_WORD}",
        rf"\b(?:which|what) {_NOUN} (?:is|are|was|were|has|have|had|does|do|did)\b",
        rf"\b(?:each|every) {_WORD}",
        rf"\b(?:amount|number) of (?:{_OPENING} )?(?:different |distinct )?{_WORD}",
        rf"\bthe {_NOUN} (?:with|that|which|whose)\b",
        rf"\bthe (?!(?:{_NOT_SUPERLATIVE})\b)[a-z]+est {_WORD}",  # after a superlative: "the oldest horse"
        rf"^(?:show|list|give|find|return|display) (?:me )?(?:the |their |all |different |distinct )?{_WORD}",
    )
)
# a lower-case noun just before a quoted text, a capitalised word or a number: "crossings from harbour 'Bo'"
BEFORE_A_VALUE = re.compile(
    r"\b(?:in|at|from|to|of|with|has|have|the|a|an|by|using|use|does|do) ([a-z]+(?: [a-z]+)?) (?=[\"“‘'`]|[A-Z][a-z]|[0-9])"
)
QUOTED = re.compile(r"[\"“‘']([^\"”’']{2,40})[\"”’']")
CAPITALISED = re.compile(r"(?<![\w'])([A-Z][a-z]+(?: [A-Z][a-z]+)*)\b")


@dataclass(frozen=True)
class Missing:
    """What a request names that the data does not hold."""

    word: str  # as the request says it
    kind: str  # "attribute" | "name"
    sure: bool = True  # False: said where rows may be meant too; the answer only notes it, if the model agrees

    def __str__(self) -> str:
        """
        >>> str(Missing("discount", "attribute")), str(Missing("Quellmire", "name"))
        ('no discount column', "no stored value is or resembles 'Quellmire'")
        """
        if self.kind == "attribute":
            return f"no {self.word} column"
        return f"no stored value is or resembles {self.word!r}"


class StoredWords:
    """What the tables can be asked about: the words of their names and of their stored text values."""

    def __init__(
        self,
        names: Mapping[str, Sequence[str]],
        values: Iterable[str],
        embedder: Embedder | None = None,
        resembles: Callable[[str], bool] = lambda literal: False,
        meanings: Iterable[str] = (),
    ) -> None:
        """`names`: table -> its columns; `values`: the stored text values; `resembles`: whether some
        stored value resembles a literal in spelling (the value memory's judgement); `meanings`: what
        columns mean, in words (their comments and descriptions: "free meals" of a column `c14`)."""
        name_words = {w for table, columns in names.items() for n in (table, *columns) for w in tokens(n)}
        self.meanings = [" ".join(m.split()) for m in meanings if m.strip()]
        self.meaning_stems = {stem(w) for m in self.meanings for w in letter_words(m) if w not in FUNCTION_WORDS}
        self.name_words = sorted(name_words)
        self.name_word_set = frozenset(name_words)
        self.name_stems = {stem(w) for w in name_words}
        self.values = [v.casefold() for v in values]
        # a stored value that is one word says it (a word inside a longer value, "Heights", does not)
        self.value_stems = {stem(v) for v in self.values if re.fullmatch(r"[a-z]+", v)}
        self.value_words = {w for v in self.values for w in re.findall(r"[a-z]+", v) if len(w) >= SWAP_MIN_LENGTH}
        self.value_word_stems = {stem(w) for w in self.value_words}
        self.embedder = embedder
        self.resembles = resembles
        self._name_vectors: np.ndarray | None = None

    def says(self, word: str) -> bool:
        """Whether a table's or column's name says `word` (a word form, an abbreviation, or its meaning),
        or a stored value contains it."""
        root = stem(word)
        if root in self.name_stems or root in self.value_stems or root in self.meaning_stems:
            return True
        if any(_abbreviation(name, word) or _abbreviation(stem(name), root) for name in self.name_words):
            return True
        if len(root) >= COMPOUND_PART_MIN and any(root in name for name in self.name_words):
            return True  # a word of a compound name ("shires" of "homeshire")
        if any(_mistyped(word, name) or _mistyped(root, stem(name)) for name in self.name_words):
            return True
        if any(_mistyped(word, value) for value in self.value_words) or any(
            _mistyped(root, value) for value in self.value_word_stems
        ):
            return True  # a stored value's word mistyped ("atetnded" of a status 'attended'), in any form
        return self._close_in_meaning(word)

    def abbreviated(self, initials: Iterable[str]) -> bool:
        """Whether a name's word is one of `initials` (the initials of the request's words around one)."""
        return any(i in self.name_word_set for i in initials)

    def holds(self, name: str) -> bool:
        """Whether a stored value is `name`, contains it, or resembles it in spelling."""
        wanted = name.casefold()
        return any(wanted in value for value in self.values) or self.resembles(name)

    def _close_in_meaning(self, word: str) -> bool:
        if self.embedder is None or not self.name_words:
            return False
        if self._name_vectors is None:
            self._name_vectors = self.embedder.embed([*self.name_words, *self.meanings])
        (vector,) = self.embedder.embed([word])
        return bool(np.max(self._name_vectors @ vector) >= MEANING_MIN)


class ConceptIndex:
    """The `StoredWords` of the last catalog asked about, kept while its tables and values stay the same."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._stored: StoredWords | None = None

    def stored(self, catalog: Catalog, values: ValueIndex) -> StoredWords:
        text = catalog.text_columns()
        columns = [values.column(table, column) for table, names in text.items() for column in names]
        key = (
            tuple((name, tuple((c.name, c.meaning) for c in table.columns)) for name, table in catalog.tables.items()),
            tuple((c.table, c.column, c.fingerprint) for c in columns if c is not None),
        )
        if key != self._key or self._stored is None:
            self._stored, self._key = _stored_words(catalog, values, [c for c in columns if c is not None]), key
        return self._stored


def _stored_words(catalog: Catalog, values: ValueIndex, held: Sequence[ColumnValues]) -> StoredWords:
    """The catalog's names, and the stored values of its text columns `held` by the value memory."""
    return StoredWords(
        catalog.schema(),
        (v for c in held for v in c.values),
        values.embedder,
        lambda literal: (
            any(values.spelled_like(c, literal) for c in held)
            or any(values.means_like(c, literal, NAME_MEANING_MIN) for c in held if len(c.values) <= FEW_VALUES)
        ),
        [meaning for columns in catalog.meanings().values() for meaning in columns.values()],
    )


def missing_concepts(text: str, stored: StoredWords) -> list[Missing]:
    """The attributes and names `text` asks about that `stored` does not hold, in the order said.

    >>> stored = StoredWords({"riders": ["name", "age", "stable"]}, ["Ada Quick", "Bo Lee"])
    >>> missing_concepts("What is the average wage of riders?", stored)
    [Missing(word='wage', kind='attribute', sure=True)]
    >>> missing_concepts("How old is Ada Quick?", stored), missing_concepts("List the ages of the riders", stored)
    ([], [])
    >>> missing_concepts("Which stable is 'Zed Moor' in?", stored)
    [Missing(word='Zed Moor', kind='name', sure=True)]
    >>> missing_concepts("Which horse is the oldest?", stored)
    [Missing(word='horse', kind='attribute', sure=False)]
    """
    found: list[Missing] = []
    initials = _initials(text)
    sure = attribute_phrases(text)
    for phrase in sure + [p for p in attribute_phrases(text, ENTITY_PLACES) if p not in sure]:
        if any(not stored.says(w) and not stored.abbreviated(initials.get(w, ())) for w in phrase.split()):
            found.append(Missing(phrase, "attribute", phrase in sure))
    for name in named(text):
        if not stored.says(name.lower()) and not stored.holds(name):
            found.append(Missing(name, "name"))
    found = list(dict.fromkeys(found))
    # "blood type" and "blood" from two places: said once, as the longer phrase
    return [m for m in found if not any(m.word != o.word and m.word in o.word.split() for o in found)]


def attribute_phrases(text: str, places: Sequence[re.Pattern[str]] = ATTRIBUTE_PLACES) -> list[str]:
    """The noun phrases where `text` asks for a column (at `places`), less the words that ask rather than
    name; with the attribute places, also the word just before a value.

    >>> attribute_phrases("What are the name and email address of riders whose age is above 30, by stable?")
    ['email address', 'age']
    >>> attribute_phrases("How many riders are there per stable?", ENTITY_PLACES)
    ['stable']
    >>> attribute_phrases("What is the average stable rent per rider?")  # the measure too, not its first word alone
    ['stable', 'stable rent']
    """
    text = re.sub(r"['’]s\b", "", text)  # "the rider's name": the rider's
    sentences = [_lowered(s) for s in re.split(r"(?<=[.?!;])\s+", _unquoted(text))]  # "^" opens each
    lowered = " ".join(sentences)
    cased = " ".join(re.findall(r"[A-Za-z0-9]+|[\"“‘'`]", text))  # quotes kept: a value follows them
    said = [m.group(1) for place in places for sentence in sentences for m in place.finditer(sentence)]
    if places is ATTRIBUTE_PLACES:
        said += [m.group(1) for m in BEFORE_A_VALUE.finditer(cased) if _names_a_column(m.group(1).split()[-1])]
        listed = (m.group(1) for sentence in sentences for m in LISTED.finditer(sentence))
        said += [item for items in listed for item in re.split(r",? and |, ", items)]
    names = {w.lower() for name in named(text) for w in name.split()}  # a name is checked as a name
    phrases = [" ".join(_naming_words([w for w in phrase.split() if w not in names])) for phrase in said]
    return sorted(dict.fromkeys(p for p in phrases if p), key=lowered.find)


def named(text: str) -> list[str]:
    """Quoted texts, and capitalised words that do not open a sentence: what a request names.

    >>> named('How many riders did "Ada Quick" train? Is Bo Lee in the Stables?')
    ['Ada Quick', 'Bo Lee', 'Stables']
    """
    found = [m.group(1).strip() for m in QUOTED.finditer(text)]
    rest = _unquoted(text)
    for match in CAPITALISED.finditer(rest):
        before = rest[: match.start()].rstrip()
        opening = not before or before[-1] in ".?!:"
        found.append(match.group(1).partition(" ")[2] if opening else match.group(1))
    return [n for n in dict.fromkeys(found) if n.strip() and n.lower() not in CALENDAR]


def quoted(text: str, name: str) -> bool:
    """Whether `text` gives `name` in quotes: a value, by the user's own marking.

    >>> quoted("Which stable is 'Zed Moor' in?", "Zed Moor"), quoted("Which stable is Zed Moor in?", "Zed Moor")
    (True, False)
    """
    return any(m.group(1).strip() == name for m in QUOTED.finditer(text))


def describe(missing: Sequence[Missing | str], names: Mapping[str, Sequence[str]]) -> str:
    """What is missing and what is there, for the answer.

    >>> print(describe([Missing("discount", "attribute")], {"sales": ["region", "price", "qty"]}))
    I can't answer that from the data: no discount column. The tables have sales (region, price, qty).
    """
    shown = []
    for table, columns in list(names.items())[:4]:
        listed = ", ".join(columns[:NAMES_SHOWN])
        shown.append(f"{table} ({listed}{', ...' if len(columns) > NAMES_SHOWN else ''})")
    more = f" and {len(names) - 4} more" if len(names) > 4 else ""
    reasons = "; ".join(str(m) for m in missing)
    return f"{REFUSAL_OPENING}: {reasons}. The tables have {', '.join(shown)}{more}."


def _abbreviation(name: str, word: str) -> bool:
    """Whether one is a prefix of the other, at least 3 letters long (`qty` is not; `quant` is).

    >>> _abbreviation("dep", "departure"), _abbreviation("departure", "dep"), _abbreviation("age", "agent")
    (True, True, False)
    """
    short, long = sorted((name, word), key=len)
    return len(short) >= 3 and long.startswith(short) and (len(short) >= 4 or len(long) - len(short) > 2)


def _mistyped(word: str, name: str) -> bool:
    """Whether `word` is a long `name` mistyped, or a shorter one with two neighbouring letters swapped (a
    shorter one with a letter off is as likely another word: "hound", "round", "hund").

    >>> _mistyped("harbuor", "harbour"), _mistyped("crosing", "crossing"), _mistyped("round", "hound")
    (True, True, False)
    >>> _mistyped("hosue", "house"), _mistyped("hose", "house")
    (True, False)
    """
    if len(word) >= NAME_TYPO_MIN_LENGTH:
        return one_typo(word, name)
    return len(word) >= SWAP_MIN_LENGTH and swapped(word, name)


def _naming_words(words: list[str]) -> list[str]:
    """The words of a phrase that name, from the first that does to the next that does not.

    >>> _naming_words(["greater", "budget"]), _naming_words(["age", "descending"])
    (['budget'], ['age'])
    """
    return list(itertools.takewhile(_names_a_column, itertools.dropwhile(lambda w: not _names_a_column(w), words)))


def _names_a_column(word: str) -> bool:
    """Not a function word, a word that asks, or a superlative ("youngest"; "interest" is none).

    >>> [_names_a_column(w) for w in ("youngest", "cheapest", "interest", "harvest", "average", "weight")]
    [False, False, True, True, False, True]
    """
    return word not in FUNCTION_WORDS and word not in ASKING_WORDS and not superlative(word)


def _initials(text: str) -> dict[str, set[str]]:
    """word -> the initials of each run of 3 or 4 words of `text` that holds it ("kilometres per litre": kpl).

    >>> sorted(_initials("the kilometres per litre")["litre"])
    ['kpl', 'tkpl']
    """
    said = letter_words(text)
    found: dict[str, set[str]] = {}
    for start in range(len(said)):
        for end in range(start + 3, min(start + 4, len(said)) + 1):  # two letters say too little
            run = said[start:end]
            for word in run:
                found.setdefault(word, set()).add("".join(w[0] for w in run))
    return found


def _lowered(text: str) -> str:
    """Lower-case words and commas, one space apart."""
    return " ".join(re.findall(r"[a-z0-9]+|,", text.lower())).replace(" ,", ",")


def _unquoted(text: str) -> str:
    return QUOTED.sub(" ", text)
