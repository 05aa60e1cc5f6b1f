"""Numbers a request gives that nothing it writes holds: a record written in part.

A small model reading "attended: Ben (12:00); ultrasound £27, massage £50" may write the visit and leave
its lines out. What it wrote is right, but the record is not all there, and an applied write says it is.
Each number the request gives in figures (not a piece of a date, a time, a phone number or a code, nor one
of five figures or more: a contact's number, which a reading may leave out without losing the record) should
be a value written, or a number within one ("room 2" for 'R2'); one that is not makes the write wait,
saying which (`unused_numbers`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import sqlglot
from sqlglot import exp

from ..language.dates import DATES, SLASHED, TIMES
from ..language.numbers import STATED_NUMBER

DIGITS = re.compile(r"\d+(?:\.\d+)?")
# a length of days code counts from ("extend by 7 days"), or a number joined to a word ("over-65s", "3kg"):
# not checked (a hint that only leaves a number out of the check)
NOT_CHECKED = re.compile(
    r"\d+\s*(?:nights?|days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?)\b|[A-Za-z]-\d+|\d+[A-Za-z]+"
    r"|(?<![\d.,])\d{5,}(?!\d|[.,]\d)",  # five figures or more: a phone, a number naming something, not an amount
    re.IGNORECASE,
)


def numbers_given(text: str) -> list[str]:
    """The numbers `text` gives in figures, as written, outside its dates and times of day.

    >>> numbers_given("24/04/2024 attended: Ben (16:30) at 9am; ultrasound £27.50, 2 sessions on 3 May 2024")
    ['27.50', '2']
    >>> numbers_given("extend by 7 days, 12 nights over; the over-65s rate; 3kg of plums; 4 crates; phone 67753, 2 kg")
    ['4', '2']
    """
    masked = text
    for pattern in (DATES, SLASHED, TIMES, NOT_CHECKED):
        for m in pattern.finditer(masked):
            if pattern is TIMES and m.group("minute") is None and m.group("half") is None:
                continue  # a bare number, not a time
            masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end() :]
    return [n.rstrip(",") for n in STATED_NUMBER.findall(masked) if n.rstrip(",")]


def unused_numbers(text: str, written: Iterable[object]) -> list[str]:
    """The numbers `text` gives that no value of `written` is, or holds in its figures.

    >>> unused_numbers("ultrasound £27, massage £50, room 2", [27, "R2"])
    ['50']
    >>> unused_numbers("phone 0770 900697, paid 1,200", ["0770 900697", 1200.0])
    []
    """
    held: set[float] = set()
    for value in written:
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            held.add(float(value))
        else:
            held |= {float(d) for d in DIGITS.findall(str(value))}
    return [n for n in numbers_given(text) if float(n.replace(",", "")) not in held]


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
