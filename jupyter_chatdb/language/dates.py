"""Dates and times of day as requests write them: month and weekday names, and one pattern per form.

`DATES` reads a day in full (ISO, "3 April 2024", "April 3, 2024") and `day_of` turns a match into the
day; `SLASHED` reads "27/03/2024", whose order of day and month is decided where it is used (`days_said`
takes it where only one order makes a day); `TIMES` reads a time of day. The engine reads a column's days
apart (`sql/value_types.py`).
"""

from __future__ import annotations

import datetime as dt
import re

MONTHS = "january february march april may june july august september october november december".split()
MONTH_NAME = "|".join(f"{m[:3]}(?:{m[3:]})?" for m in MONTHS)  # a month's name or its first three letters
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
# the names of months and weekdays: a capitalised one names a time, not a stored value
CALENDAR = frozenset(MONTHS + WEEKDAYS)

# a day in full: ISO, "3rd of April 2024", "April 3, 2024"
DATES = re.compile(
    rf"\b(?P<iso>\d{{4}}-\d{{1,2}}-\d{{1,2}})(?![\d-])"
    rf"|\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month>{MONTH_NAME})\.?,?\s+(?P<year>\d{{4}})\b"
    rf"|\b(?P<month2>{MONTH_NAME})\.?\s+(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year2>\d{{4}})\b",
    re.IGNORECASE,
)
# a day in figures with slashes or dots ("27/03/2024", "3.4.2024"): its two first numbers in either order
SLASHED = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b")
# a time of day: with minutes ("13:45", "9:15am", "15:15:00" as a model writes it) or with am/pm ("10am")
TIMES = re.compile(
    r"(?<![\d:])(?P<hour>\d{1,2})(?::(?P<minute>\d{2})(?::\d{2}(?:\.\d+)?)?)?\s*(?P<half>[ap]\.?m\b\.?)?(?![\d:])",
    re.IGNORECASE,
)
# a day of its own in figures (ISO, or slashed with a year), by its month's name and the day ("May 3rd"),
# or by the day and its month's name with a year ("3 May 2024"): what `recording/stated.py` takes for a
# date the request gives
NUMBERED_DAY = re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{4}\b")
MONTH_THEN_DAY = re.compile(rf"\b(?:{MONTH_NAME})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b", re.IGNORECASE)
# a day said with its month's name, its year or not ("31 March", "May 4th, 2024"): its numbers are a day's
DAY_IN_WORDS = re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_NAME})\b\.?(?:,?\s*\d{{4}}\b)?"
    rf"|\b(?:{MONTH_NAME})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s*\d{{4}}\b)?",
    re.IGNORECASE,
)
DAY_MONTH_YEAR = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_NAME})\b\.?\s*\d{{4}}", re.IGNORECASE)


def day_of(match: re.Match[str]) -> dt.date | None:
    """The day a match of `DATES` says (None when it is no day).

    >>> [day_of(m) for m in DATES.finditer("2024-5-3, 3rd of Feb. 2025, Jan 31 2024, 30 February 2024")]
    [datetime.date(2024, 5, 3), datetime.date(2025, 2, 3), datetime.date(2024, 1, 31), None]
    """
    try:
        if match.group("iso"):
            return dt.date.fromisoformat("-".join(p.zfill(2) for p in match.group("iso").split("-")))
        month = match.group("month") or match.group("month2")
        day = match.group("day") or match.group("day2")
        year = match.group("year") or match.group("year2")
        return dt.date(int(year), month_number(month), int(day))
    except ValueError:
        return None


def month_number(name: str) -> int:
    """
    >>> month_number("Sept."), month_number("may")
    (9, 5)
    """
    return next(i for i, month in enumerate(MONTHS, 1) if month.startswith(name.lower().rstrip(".")[:3]))


def days_said(text: str) -> set[dt.date]:
    """The days `text` gives in full: ISO, "3 April 2024", "April 3, 2024", and "27/03/2024" where only one
    order of day and month makes a day.

    >>> sorted(days_said("2025-06-16 back, due 3 July 2025; paid 27/06/2025, not 05/04/2025"))
    [datetime.date(2025, 6, 16), datetime.date(2025, 6, 27), datetime.date(2025, 7, 3)]
    """
    return set(each_day_said(text))


def opening_days(text: str) -> set[dt.date]:
    """The day a request opens with, as a log line or a diary dates a record ("9 April 2024 | parts
    fitted | ...", "21/03/2024 loan: ..."): each reading of it; none where it opens with anything else.

    >>> opening_days("9 April 2024 | parts fitted | FR-6"), opening_days("Ria's lesson of 9 June 2025")
    ({datetime.date(2024, 4, 9)}, set())
    >>> sorted(opening_days(" 05/04/2024 loan: Ida"))
    [datetime.date(2024, 4, 5), datetime.date(2024, 5, 4)]
    """
    found = DATES.search(text)
    if found is not None and not text[: found.start()].strip() and (day := day_of(found)) is not None:
        return {day}
    slashed = SLASHED.search(text)
    if slashed is not None and not text[: slashed.start()].strip():
        return set(slashed_readings(slashed))
    return set()


def each_day_said(text: str) -> list[dt.date]:
    """The days `text` gives in full (as `days_said`), once per time it says each, in no set order.

    >>> each_day_said("lent 2025-06-16 to 27/06/2025, booked 16 June 2025")
    [datetime.date(2025, 6, 16), datetime.date(2025, 6, 16), datetime.date(2025, 6, 27)]
    """
    days = [day for m in DATES.finditer(text) if (day := day_of(m))]
    for m in SLASHED.finditer(text):
        if len(readings := slashed_readings(m)) == 1:
            days += readings
    return days


def days_in_order(text: str) -> list[set[dt.date]]:
    """Each day `text` gives in full, in the order said, as its readings: one, or two for a day in figures
    that reads both ways ("10/04/2024"), which `days_said` leaves out.

    >>> [sorted(day.isoformat() for day in readings) for readings in days_in_order("10/04/2024 | gilded | "
    ...     "planned for 2 April 2024, paid 27/03/2024")]
    [['2024-04-10', '2024-10-04'], ['2024-04-02'], ['2024-03-27']]
    """
    found = [(m.start(), {day}) for m in DATES.finditer(text) if (day := day_of(m))]
    found += [(m.start(), slashed_readings(m)) for m in SLASHED.finditer(text)]
    return [readings for _, readings in sorted(found, key=lambda pair: pair[0])]


def slashed_readings(match: re.Match[str]) -> set[dt.date]:
    """The days a `SLASHED` match reads as, day first or month first: two, one, or none.

    >>> sorted(slashed_readings(SLASHED.search("10/04/2024"))), slashed_readings(SLASHED.search("27/03/2024"))
    ([datetime.date(2024, 4, 10), datetime.date(2024, 10, 4)], {datetime.date(2024, 3, 27)})
    """
    first, second, year = (int(part) for part in match.groups())
    return {day for day in (day_or_none(year, second, first), day_or_none(year, first, second)) if day is not None}


def day_or_none(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None
