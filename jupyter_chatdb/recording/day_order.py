"""Days in figures that read two ways: "09/03/2024" is 9 March or 3 September.

A small model reads such a day one way or the other, as it comes. Where the request gives another day
with slashes that reads only one way ("24/03/2024": the day first), that is the order; else the order the
user wrote before, where known (a kept procedure's first request); else the reading
nearer the days its column keeps (a log goes on from its newest) is the day; where it keeps none, the
reading within a month of the other days the request gives, when the other is not (hired on 20 June,
back 02/07); else (both as near: a birthday among decades of them) the model's reading stands, and the
write waits, saying both (`ordered_day`).
"""

from __future__ import annotations

import datetime as dt

from ..language.dates import SLASHED, day_or_none, days_said

NEAR_DAYS = 31  # a day read two ways, within this of the request's other days where the column keeps none


def ordered_day(
    text: str, read: dt.date, kept: tuple[dt.date, dt.date] | None, order: bool | None = None
) -> tuple[dt.date, str]:
    """The day `read` stands for, and a doubt ("" if none), where `text` gives it as a day in figures that
    reads two ways; `kept`: the oldest and newest days its column keeps; `order`: whether the user puts the
    day first, where known from another request (a kept procedure's), which the text's own days overrule.

    >>> ordered_day("paid 09/03/2024 and 24/03/2024", dt.date(2024, 9, 3), None)
    (datetime.date(2024, 3, 9), '')
    >>> ordered_day("paid 09/03/2024", dt.date(2024, 9, 3), (dt.date(2024, 1, 2), dt.date(2024, 3, 8)))
    (datetime.date(2024, 3, 9), '')
    >>> ordered_day("born 09/03/1990", dt.date(1990, 9, 3), (dt.date(1950, 1, 2), dt.date(2010, 3, 8)))[1]
    "'09/03/1990' reads as 3 September 1990 or 9 March 1990"
    >>> ordered_day("paid 09/03/2024", dt.date(2024, 9, 3), None)
    (datetime.date(2024, 9, 3), "'09/03/2024' reads as 3 September 2024 or 9 March 2024")
    >>> ordered_day("paid 2024-09-03", dt.date(2024, 9, 3), None)
    (datetime.date(2024, 9, 3), '')
    >>> ordered_day("hired June 20, 2024, back 02/07/2024", dt.date(2024, 2, 7), None)
    (datetime.date(2024, 7, 2), '')
    >>> ordered_day("born 09/03/1990, joined 2024-05-01", dt.date(1990, 9, 3), None)[1]
    "'09/03/1990' reads as 3 September 1990 or 9 March 1990"
    >>> ordered_day("paid 09/03/2024", dt.date(2024, 9, 3), None, order=True)
    (datetime.date(2024, 3, 9), '')
    """
    pairs = [(m.group(0), _readings(*m.groups())) for m in SLASHED.finditer(text)]
    two_ways = [(said, found) for said, found in pairs if len(found) == 2 and read in found.values()]
    if len(two_ways) != 1:
        return read, ""
    said, readings = two_ways[0]
    orders = {order for _, found in pairs if len(found) == 1 for order in found if order is not None}
    if len(orders) == 1:
        return readings[orders.pop()], ""
    if order is not None:
        return readings[order], ""
    if kept is not None:
        away = sorted((_distance(day, kept), day) for day in readings.values())
        if away[0][0] < away[1][0]:
            return away[0][1], ""
    elif others := days_said(text):
        away = sorted((_distance(day, (min(others), max(others))), day) for day in readings.values())
        if away[0][0] <= NEAR_DAYS < away[1][0]:
            return away[0][1], ""
    other = next(day for day in readings.values() if day != read)
    return read, f"{said!r} reads as {_said(read)} or {_said(other)}"


def _readings(first: str, second: str, year: str) -> dict[bool | None, dt.date]:
    """The days a slashed day can be: day first (True) and month first (False), where each is a day; one
    day either way, under None (no order told).

    >>> _readings("05", "05", "2024"), _readings("24", "03", "2024")
    ({None: datetime.date(2024, 5, 5)}, {True: datetime.date(2024, 3, 24)})
    """
    found: dict[bool | None, dt.date] = {
        order: day
        for order, day in (
            (True, day_or_none(int(year), int(second), int(first))),
            (False, day_or_none(int(year), int(first), int(second))),
        )
        if day is not None
    }
    return found if len(set(found.values())) == len(found) else {None: found[True]}


def _distance(day: dt.date, kept: tuple[dt.date, dt.date]) -> int:
    """Days from `day` to the span of days kept (0 within it)."""
    return max((kept[0] - day).days, (day - kept[1]).days, 0)


def _said(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"
