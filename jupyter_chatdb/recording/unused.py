"""Numbers a request gives that nothing it writes holds: a record written in part.

A small model reading "attended: Ben (12:00); ultrasound £27, massage £50" may write the visit and leave
its lines out. What it wrote is right, but the record is not all there, and an applied write says it is.
Each number the request gives in figures (not a piece of a date, a time, a phone number or a code, nor one
joined to a word, "12-string", nor one of five figures or more: a contact's number, which a reading may leave
out without losing the record), or
in words from two on ("eleven jars"; not a length of time, nor a word of a name written: 'Seven Oaks'),
should be a value written, or a number within one ("room 2" for 'R2'); one that is not makes the write
wait, saying which (`unused_numbers`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import sqlglot
from sqlglot import exp

from ..language.dates import DATES, SLASHED, TIMES
from ..language.numbers import STATED_NUMBER
from ..language.spoken import DURATION, SPELLED, spelled_numbers

DIGITS = re.compile(r"\d+(?:\.\d+)?")
# a length of days code counts from ("extend by 7 days"), or a number joined to a word ("over-65s", "3kg",
# "12-string": a piece of what a thing is called or how it is made): not checked (a hint that only leaves a
# number out of the check)
NOT_CHECKED = re.compile(
    r"\d+\s*(?:nights?|days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?)\b|[A-Za-z]-\d+|\d+-?[A-Za-z]+"
    r"|(?<![\d.,])\d{5,}(?!\d|[.,]\d)",  # five figures or more: a phone, a number naming something, not an amount
    re.IGNORECASE,
)


def numbers_given(text: str) -> list[str]:
    """The numbers `text` gives in figures, as written, outside its dates and times of day.

    >>> numbers_given("24/04/2024 attended: Ben (16:30) at 9am; ultrasound £27.50, 2 sessions on 3 May 2024")
    ['27.50', '2']
    >>> numbers_given("extend by 7 days, 12 nights over; the over-65s rate; 3kg of plums; 4 crates; phone 67753, 2 kg")
    ['4', '2']
    >>> numbers_given("item: 12-string sets, written off: 2")
    ['2']
    >>> numbers_given("eleven jars and twenty-two lids for one stall, back in two weeks")
    ['eleven', 'twenty-two']
    """
    masked = text
    for pattern in (DATES, SLASHED, TIMES, NOT_CHECKED, DURATION):
        for m in pattern.finditer(masked):
            if pattern is TIMES and m.group("minute") is None and m.group("half") is None:
                continue  # a bare number, not a time
            masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end() :]
    in_figures = [(m.start(), m.group().rstrip(",")) for m in STATED_NUMBER.finditer(masked) if m.group().rstrip(",")]
    in_words = [(m.start(), m.group()) for m in SPELLED.finditer(masked) if (_value(m.group()) or 0) >= MIN_IN_WORDS]
    return [said for _, said in sorted(in_figures + in_words)]


def unused_numbers(text: str, written: Iterable[object]) -> list[str]:
    """The numbers `text` gives that no value of `written` is, or holds in its figures.

    >>> unused_numbers("ultrasound £27, massage £50, room 2", [27, "R2"])
    ['50']
    >>> unused_numbers("phone 0770 900697, paid 1,200", ["0770 900697", 1200.0])
    []
    >>> unused_numbers("eleven jars for Seven Oaks", [6, "Seven Oaks"]), unused_numbers("eleven jars", [11])
    (['eleven'], [])
    """
    held: set[float] = set()
    texts: list[str] = []
    for value in written:
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            held.add(float(value))
        else:
            held |= {float(d) for d in DIGITS.findall(str(value))}
            texts.append(str(value).lower())
    return [
        n
        for n in numbers_given(text)
        if _value(n) not in held and not (n[0].isalpha() and any(n.lower() in t for t in texts))  # 'Seven Oaks'
    ]


MIN_IN_WORDS = 2  # "one" is as often a word for a thing ("a new one") as a number


def _value(said: str) -> float | None:
    """The number written in figures or in words."""
    if said[0].isalpha():
        spelled = spelled_numbers(said)
        return spelled[0] if spelled else None
    return float(said.replace(",", ""))


def sql_values(sql: str) -> list[object]:
    """The literal values a statement writes or names rows by (numbers as numbers).

    >>> sql_values("UPDATE t SET fee = 27.5, note = 'R2' WHERE id = $p1")
    [27.5, 'R2']
    """
    try:
        parsed = sqlglot.parse_one(sql, read="duckdb")
    except sqlglot.errors.ParseError:
        return []
    found: list[object] = []
    for literal in parsed.find_all(exp.Literal):
        if isinstance(literal.parent, exp.DataTypeParam):
            continue  # DECIMAL(8, 2): a type, not a value
        found.append(float(literal.this) if literal.is_number else literal.this)
    return found
