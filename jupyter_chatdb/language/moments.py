"""Moments said: a day and a time of day said together ("2025-06-12 10:30", "on 3 June 2025 at 3:30pm", "the
10am slot on 30 June 2025")."""

from __future__ import annotations

import datetime as dt
import re

from .dates import DATES, SLASHED, TIMES, day_of, day_or_none

NEAR = 40  # characters between a day and a time said together, at most


def moments_said(text: str, day_first: bool | None = None) -> list[dt.datetime]:
    """The moments `text` gives: each time of day with the day said nearest to it, where no other day or
    time stands between them.

    >>> moments_said("2025-06-02 slot: Jo with Uma, 2025-06-12 10:30, 60 min")
    [datetime.datetime(2025, 6, 12, 10, 30)]
    >>> moments_said("flew the 10am slot on 30 June 2025; launched at 3:30pm on July 2, 2025")
    [datetime.datetime(2025, 6, 30, 10, 0), datetime.datetime(2025, 7, 2, 15, 30)]
    >>> moments_said("field 3 on 3 June 2025, 45 minutes")
    []
    >>> moments_said("2025-06-12 10:30:00"), moments_said("2025-06-12T10:30")  # as a model writes them
    ([datetime.datetime(2025, 6, 12, 10, 30)], [datetime.datetime(2025, 6, 12, 10, 30)])

    Days in figures with slashes count where the order of day and month is known (`day_first`).

    >>> moments_said("02/06/2025 slot: Jo, 12/06/2025 10:30", day_first=True)
    [datetime.datetime(2025, 6, 12, 10, 30)]
    """
    days = [(m.start(), m.end(), day) for m in DATES.finditer(text) if (day := day_of(m))]
    if day_first is not None:
        for m in SLASHED.finditer(text):
            first, second, year = (int(part) for part in m.groups())
            day = day_or_none(year, second, first) if day_first else day_or_none(year, first, second)
            if day is not None:
                days.append((m.start(), m.end(), day))
    times = [
        (m.start(), m.end(), time)
        for m in TIMES.finditer(text)
        if (time := _time(m)) and not any(start <= m.start() < end for start, end, _ in days)
    ]
    found = []
    for start, end, time in times:
        near = [
            (gap, day)
            for day_start, day_end, day in days
            if (gap := start - day_end if day_end <= start else day_start - end) <= NEAR
            and not _between(times, days, min(end, day_end), max(start, day_start))
        ]
        if near:
            found.append(dt.datetime.combine(min(near, key=lambda pair: pair[0])[1], time))
    return found


def _between(times: list, days: list, start: int, end: int) -> bool:
    """Whether another day or time is said between `start` and `end`."""
    return any(start <= s and e <= end for s, e, _ in (*times, *days))


def _time(match: re.Match[str]) -> dt.time | None:
    hour, minute, half = int(match.group("hour")), match.group("minute"), match.group("half")
    if minute is None and half is None:
        return None  # a bare number: not a time
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.lower().startswith("p") else 0)
    if hour > 23 or int(minute or 0) > 59:
        return None
    return dt.time(hour, int(minute or 0))


def day_first(text: str, read: dt.date) -> bool | None:
    """Whether the days `text` gives with slashes put the day first, as one of them was read as `read`
    ("02/06/2025" read as 2 June); None where no such day says.

    >>> day_first("02/06/2025 slot", dt.date(2025, 6, 2)), day_first("06/02/2025 slot", dt.date(2025, 6, 2))
    (True, False)
    """
    orders = set()
    for first, second, year in SLASHED.findall(text):
        if day_or_none(int(year), int(second), int(first)) == read:
            orders.add(True)
        if day_or_none(int(year), int(first), int(second)) == read:
            orders.add(False)
    return orders.pop() if len(orders) == 1 else None


def slashed_days(text: str, first: bool) -> set[dt.date]:
    """The days `text` writes with slashes, read day first (`first`) or month first.

    >>> sorted(slashed_days("from 10/04/2024 to 13/04/2024", True)), slashed_days("10/04/2024", False)
    ([datetime.date(2024, 4, 10), datetime.date(2024, 4, 13)], {datetime.date(2024, 10, 4)})
    """
    found = set()
    for one, two, year in SLASHED.findall(text):
        day = day_or_none(int(year), int(two), int(one)) if first else day_or_none(int(year), int(one), int(two))
        if day is not None:
            found.add(day)
    return found


def iso_moment(text: str) -> dt.datetime | None:
    """The moment `text` writes in ISO form with its time of day; None for anything else, a bare day too.

    >>> iso_moment("2024-05-10 09:15:30"), iso_moment("2024-05-10"), iso_moment("10 May 2024 09:15")
    (datetime.datetime(2024, 5, 10, 9, 15, 30), None, None)
    """
    try:
        return dt.datetime.fromisoformat(text.strip()) if ":" in text else None
    except ValueError:
        return None
