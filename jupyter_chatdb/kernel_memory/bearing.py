"""Which recalled thoughts bear on a request, and so may reach the planner.

Similarity in meaning alone never brings a thought in: a small model copies the filters of what it is
shown, so a definition of "a heavy pony" recalled beside "How many ponies are there?" turns a plain
count into a count of heavy ponies. A thought bears on a request when the request
- uses the words it defines (definitions, corrections of them) or is a standing preference (`by_words`);
- asks the question a kept figure answers: in the same words (as the kept request or one sentence of
  it: "A zorbly kite is one over 3 m. How many zorbly kites?"), or saying every value its SQL compares or
  limits by, where it has one (a near wording may drop a condition: "How many heavy ponies?", kept as
  `weight > 400`, and "How many ponies?" are close in meaning, yet only one says 400);
- names its subject or its object (a fact: "Harbour Kilns' phone is 58214" for "Call Harbour Kilns?");
- or refers back to what was asked before ("the same again", "as before").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from ..language.cues import REFERS_BACK
from ..language.numbers import ANY_FIGURE
from ..language.terms import term_key, uses_terms
from ..language.words import any_words
from .store import Record


@dataclass(frozen=True)
class Bearing:
    """Whether a thought may reach the planner, and whether it came by the request's own words (a figure
    read with a thought that came only by a reference back is not kept: the request did not ask for it)."""

    bears: bool
    by_own_words: bool


def bearing(record: Record, by_words: bool, request: str) -> Bearing:
    """How `record`, recalled for `request` (`by_words`: its defined words are used, or it is a
    preference), bears on it.

    >>> heavy = Record(1, "A heavy pony weighs over 400 kg.", kind="definition", terms=("heavy pony",))
    >>> bearing(heavy, False, "How many ponies are there?").bears
    False
    >>> bearing(heavy, True, "How many heavy ponies are there?")
    Bearing(bears=True, by_own_words=True)
    >>> phone = Record(2, "Harbour Kilns' phone is 58214.", "Harbour Kilns", "phone", "58214")
    >>> bearing(phone, False, "What is the number of Harbour Kilns?").bears
    True
    >>> bearing(phone, False, "Which kilns fire the hottest?").bears
    False
    >>> kites = Record(3, "Kites come from Windrush Mill.", "kite", "maker", "Windrush Mill")
    >>> bearing(kites, False, "Who makes the kites?").bears
    True
    >>> bearing(phone, False, "Same as before, for every kiln.")
    Bearing(bears=True, by_own_words=False)
    >>> bearing(phone, False, "Which kilns share the same street?").bears
    False
    """
    if by_words:
        return Bearing(True, True)
    if record.kind in ("definition", "correction") and record.terms:
        return Bearing(False, False)  # a definition applies only where its word is used
    if record.verifiable:
        own = _asked_in(record.subject, request) or _says_its_conditions(record.sql, request)
    else:
        own = any(_names(request, part) for part in (record.subject, record.object))
    if own:
        return Bearing(True, True)
    return Bearing(bool(REFERS_BACK.search(request)), False)


def _says_its_conditions(sql: str, request: str) -> bool:
    """Whether `sql` compares or limits by values, and `request` says each of them.

    >>> _says_its_conditions("SELECT kg FROM stock WHERE kite = 'box kite'", "Box kites left?")
    True
    >>> _says_its_conditions("SELECT count(*) FROM ponies WHERE weight > 400", "How many ponies?")
    False
    >>> _says_its_conditions("SELECT count(*) FROM ponies", "How many ponies?")
    False
    """
    try:
        tree = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.SqlglotError:
        return False
    said = {float(n) for n in ANY_FIGURE.findall(request)}
    values = [
        literal
        for literal in tree.find_all(exp.Literal)
        if literal.find_ancestor(exp.Where, exp.Having, exp.Limit, exp.Join) is not None
    ]
    return bool(values) and all(float(v.this) in said if v.is_number else _names(request, v.this) for v in values)


def _asked_in(question: str, request: str) -> bool:
    """Whether `request` is `question`, or one sentence of it, in the same words.

    >>> _asked_in("A zorbly kite is one over 3 m. How many zorbly kites are there?", "How many zorbly kites are there")
    True
    >>> _asked_in("A zorbly kite is one over 3 m. How many zorbly kites are there?", "How many kites are there?")
    False
    """
    asked = any_words(request)
    return bool(asked) and any(any_words(part) == asked for part in [question, *re.split(r"(?<=[.?!])\s+", question)])


def _names(request: str, part: str) -> bool:
    """Whether `request` says `part` (two or more letters) as whole words, in any case and either number."""
    return len(part.strip()) >= 2 and uses_terms(request, (term_key(part),))
