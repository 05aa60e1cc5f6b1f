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
