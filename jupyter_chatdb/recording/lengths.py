"""Dates a request gives as a length of time from another ("lent on 4 April for three weeks").

A small model reads "for three weeks" from 4 April as 4 May, or as four months on: it cannot count days.
Code can. Where a request says one length of time in days, weeks or months, and a row read from it has one
date the request says and another the table needs that it does not say, that other date is the said one
plus the length (`dated_by_length`); the model's own date only says which field it meant, and no other
date the request does not give is set to that day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from ..language.cues import LATENESS
from ..language.spoken import durations
from .moments import leading_day
from .shapes import Shape
from .stated import says_date


def dated_by_length(shape: Shape, row: Mapping[str, object], text: str, today: dt.date) -> dict[str, object]:
    """`row` with the one required date it gives that `text` does not say, after the one date it gives that
    `text` says, set to that date plus the one length of days, weeks or months `text` says.

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> lets = Shape("lets", (Field("let_on", "let_on", "DATE", True), Field("runs_to", "runs_to", "DATE", True),
    ...     Field("given_up_on", "given_up_on", "DATE", False)), "", "let_id")
    >>> row = {"let_on": "2024-04-04", "runs_to": "2024-07-04", "given_up_on": "2026-01-01"}
    >>> dated_by_length(lets, row, "Let on 4 April 2024 for three weeks", dt.date(2026, 1, 1))["runs_to"]
    '2024-04-25'
    >>> dated_by_length(lets, row, "Let on 4 April 2024, given up ten days late", dt.date(2026, 1, 1))["runs_to"]
    '2024-07-04'

    The day it counts is given once: an optional date the model set to it too is left out.

    >>> twice = {"let_on": "2024-04-04", "runs_to": "2024-04-25", "given_up_on": "2024-04-25"}
    >>> dated_by_length(lets, twice, "Let on 4 April 2024 for three weeks", dt.date(2026, 1, 1))
    {'let_on': '2024-04-04', 'runs_to': '2024-04-25'}
    """
    lengths = [d for d in durations(LATENESS.sub("", text)) if d.days or d.months]
    if len(lengths) != 1:
        return dict(row)
    dates = [(f, day) for f in shape.fields if f.type.upper() == "DATE" and (day := leading_day(row.get(f.name)))]
    stated = {f.name: says_date(text, day, today, lengths=False) for f, day in dates}
    said = [day for f, day in dates if stated[f.name]]
    unsaid = [f for f, day in dates if f.required and not stated[f.name] and said and day > said[0]]
    if len(said) != 1 or len(unsaid) != 1:
        return dict(row)
    counted = lengths[0].after(said[0])
    twice = {f.name for f, day in dates if not f.required and not stated[f.name] and day == counted}
    return {**{name: value for name, value in row.items() if name not in twice}, unsaid[0].name: counted.isoformat()}
