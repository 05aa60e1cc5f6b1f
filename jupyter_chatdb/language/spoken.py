"""Numbers and lengths of time as people write them: "seven", "twenty-one", "a week", "a fortnight",
"three months". English only; a request in another language keeps its digits and dates, which
`recording/stated.py` reads in any language.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from .numbers import COUNT_FIGURE

UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "a": 1, "an": 1, "a couple of": 2,
    "a dozen": 12, "half a": 0.5, "half an": 0.5,
}  # fmt: skip
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
# the words of a spelled number: a ten with an optional unit after it ("twenty-one"), or a unit alone
TENS_WORDS = "|".join(TENS)
UNIT_WORDS = "|".join(k for k in UNITS if " " not in k)
ANY_UNIT = "|".join(sorted(UNITS, key=len, reverse=True))
SPELLED = re.compile(
    rf"\b(?:(?P<tens>{TENS_WORDS})(?:[\s-](?P<unit_after>{UNIT_WORDS}))?|(?P<unit>{ANY_UNIT}))\b", re.IGNORECASE
)
UNIT_MINUTES = {"minute": 1, "hour": 60}
UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14}
UNIT_MONTHS = {"month": 1, "year": 12}
FRACTIONS = {"half": 0.5, "quarter": 0.25}  # of an hour, before its unit: "a half-hour session"
COUNT = rf"\d+(?:\.\d+)?|(?:{TENS_WORDS})(?:[\s-](?:{UNIT_WORDS}))?|{ANY_UNIT}|{'|'.join(FRACTIONS)}"
# a count and its unit apart or joined as one word ("a ninety-minute session", "a two-week loan")
DURATION = re.compile(rf"\b(?:(?P<count>{COUNT})[\s-]+)?(?P<unit>minute|hour|day|week|fortnight|month|year)s?\b", re.I)


def spelled_numbers(text: str) -> list[float]:
    """The numbers `text` writes in words (not "a" or "an" alone, which are only numbers before a unit).

    >>> spelled_numbers("seven hours, twenty-one days and a dozen eggs, an apple")
    [7.0, 21.0, 12.0]
    """
    found = []
    for match in SPELLED.finditer(text):
        if match.group("tens"):
            found.append(
                float(TENS[match.group("tens").lower()] + UNITS.get((match.group("unit_after") or "zero").lower(), 0))
            )
        elif match.group("unit").lower() not in ("a", "an"):
            found.append(float(UNITS[match.group("unit").lower()]))
    return found


@dataclass(frozen=True)
class Duration:
    days: int = 0
    months: int = 0
    minutes: int = 0  # a length of time under a day: "an hour", "forty-five minutes"

    def after(self, day: dt.date) -> dt.date:
        return add_months(day, self.months) + dt.timedelta(days=self.days)

    def before(self, day: dt.date) -> dt.date:
        return add_months(day, -self.months) - dt.timedelta(days=self.days)


HALF_MORE = re.compile(r"\s+and\s+a\s+half\b", re.IGNORECASE)


def durations(text: str) -> list[Duration]:
    """The lengths of time `text` states.

    >>> [(d.days, d.months, d.minutes) for d in durations("for a week, then 21 days; three months on, a fortnight")]
    [(7, 0, 0), (21, 0, 0), (0, 3, 0), (14, 0, 0)]
    >>> [(d.days, d.minutes) for d in durations("an hour and a half, forty-five minutes")]
    [(0, 90), (0, 45)]
    >>> [(d.days, d.minutes) for d in durations("a half-hour call, a ninety-minute lesson, a two-week loan")]
    [(0, 30), (0, 90), (14, 0)]
    >>> durations("a half-day course")  # a fraction only of an hour
    []
    >>> durations("today")
    []
    """
    return [duration for _, duration in durations_said(text)]


def durations_said(text: str) -> list[tuple[str, Duration]]:
    """The lengths of time `text` states, each with its words.

    >>> durations_said("loan period: two weeks")
    [('two weeks', Duration(days=14, months=0, minutes=0))]
    """
    found = []
    for match in DURATION.finditer(text):
        unit = match.group("unit").lower()
        count = _count(match.group("count") or "", unit)
        if count is None:
            continue
        if HALF_MORE.match(text, match.end()):
            count += 0.5  # "an hour and a half"
        if unit in UNIT_MINUTES:
            duration = Duration(minutes=round(count * UNIT_MINUTES[unit]))
        elif unit in UNIT_DAYS:
            duration = Duration(days=round(count * UNIT_DAYS[unit]))
        else:
            duration = Duration(months=round(count * UNIT_MONTHS[unit]))
        found.append((match.group(0), duration))
    return found


def _count(words: str, unit: str) -> float | None:
    words = words.strip().lower()
    if not words:
        return 1.0 if unit == "fortnight" else None
    if COUNT_FIGURE.fullmatch(words):
        return float(words)
    if words in UNITS:
        return float(UNITS[words])
    if words in FRACTIONS:
        return FRACTIONS[words] if unit == "hour" else None
    spelled = spelled_numbers(words)
    return spelled[0] if len(spelled) == 1 else None


def add_months(day: dt.date, months: int) -> dt.date:
    """
    >>> add_months(dt.date(2024, 1, 31), 1), add_months(dt.date(2024, 3, 15), -3)
    (datetime.date(2024, 2, 29), datetime.date(2023, 12, 15))
    """
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))
