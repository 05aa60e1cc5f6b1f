"""Moments a request gives: a day and a time of day said together ("2025-06-12 10:30", "on 3 June 2025 at
3:30pm", "the 10am slot on 30 June 2025").

A log line often opens with the day it was written and then gives another day for what it records
("2025-06-02 slot: ... 2025-06-12 10:30"). A small model reading a moment out of it joins the first day it saw to the
time it was asked for. Where the request says that time of day together with another day, and only once,
the moment read is that day at that time (`timed_as_said`); the model's own moment only says which field it
meant. Days written with slashes are read in the order the model read the first day in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from ..language.dates import each_day_said
from ..language.moments import day_first, moments_said
from .kept import column_said_apart
from .shapes import Shape


def timed_as_said(shape: Shape, row: Mapping[str, object], text: str) -> dict[str, object]:
    """`row` with each moment read whose time of day `text` says once, with another day, set to that day.

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> slots = Shape("slots", (Field("begins_at", "begins_at", "TIMESTAMP", True),), "", "slot_id")
    >>> timed_as_said(slots, {"begins_at": "2025-06-02 10:30"}, "2025-06-02 slot: Jo, 2025-06-12 10:30")
    {'begins_at': '2025-06-12 10:30:00'}
    >>> timed_as_said(slots, {"begins_at": "2025-06-12T10:30"}, "2025-06-02 slot: Jo, 2025-06-12 10:30")
    {'begins_at': '2025-06-12T10:30'}
    >>> timed_as_said(slots, {"begins_at": "2025-06-02 10:30"}, "02/06/2025 slot: Jo, 12/06/2025 10:30")
    {'begins_at': '2025-06-12 10:30:00'}
    """
    timed = dict(row)
    for field in shape.fields:
        if not field.type.upper().startswith("TIMESTAMP"):
            continue
        read = _moment(row.get(field.name))
        said = moments_said(text, day_first(text, read.date())) if read is not None else []
        if read is None or read in said:
            continue
        same_time = {moment for moment in said if moment.time() == read.time()}
        if len(same_time) == 1:
            timed[field.name] = same_time.pop().isoformat(sep=" ")
    return timed


def _moment(value: object) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value.strip().replace("T", " "))
    except ValueError:
        return None


def one_day_once(shape: Shape, row: Mapping[str, object], text: str) -> dict[str, object]:
    """`row` without a day the request says once that it gives to more date fields than that: the day stays
    in the fields that need a value or whose column the request names by a word the other fields holding it
    lack, and leaves the others ("came by on 2 January" is a sale's day, and no return on that day; "home
    by" names the day a dog is due home, and not, by the same word, the day it went home).

    >>> from jupyter_chatdb.recording.shapes import Field
    >>> hires = Shape("hires", (Field("out_on", "out_on", "DATE", True), Field("back_on", "back_on", "DATE", False)), "", "")
    >>> one_day_once(hires, {"out_on": "2025-01-02", "back_on": "2025-01-02"}, "Jo hired a kayak on 2025-01-02")
    {'out_on': '2025-01-02'}
    >>> one_day_once(hires, {"out_on": "2025-01-02", "back_on": "2025-01-02"}, "Jo hired a kayak on 2025-01-02, back 2025-01-02")
    {'out_on': '2025-01-02', 'back_on': '2025-01-02'}
    >>> one_day_once(hires, {"out_on": "2025-01-19", "back_on": "2025-01-19"}, "Jo: kayak 30/12/2024 to 19/01/2025")
    {'out_on': '2025-01-19'}
    >>> due = (Field("due_home", "due_home", "DATE", True), Field("went_home_on", "went_home_on", "DATE", False))
    >>> one_day_once(Shape("stays", due, "", ""), {"due_home": "2025-06-03", "went_home_on": "2025-06-03"}, "home by: 2025-06-03")
    {'due_home': '2025-06-03'}
    """
    said = each_day_said(text)
    dated = [f for f in shape.fields if f.type.upper() in ("DATE", "TIMESTAMP") and f.reference is None]
    kept = dict(row)
    for day in set(said):
        holding = [f for f in dated if leading_day(row.get(f.name)) == day]
        if len(holding) <= said.count(day):
            continue
        named = {
            f.name for f in holding if column_said_apart(f.column, [o.column for o in holding if o is not f], text)
        }
        first = sorted(holding, key=lambda f: (not f.required, f.name not in named))
        for field in first[said.count(day) :]:
            if not field.required and field.name not in named:
                del kept[field.name]
    return kept


def leading_day(value: object) -> dt.date | None:
    """The day an ISO date or moment (as text) begins with; None if it does not.

    >>> leading_day("2024-03-09T10:30"), leading_day("9 March"), leading_day(None)
    (datetime.date(2024, 3, 9), None, None)
    """
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None
