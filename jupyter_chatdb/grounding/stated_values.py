"""Only what a request states: values a model read out of a request are kept when the request says them.

A small model asked for the rows a request states fills in what it does not say: a made-up stable name
("Stable A"), a cost of 0, a price it copied from another line. Written, those would be wrong records that
look right. So each value read must be found in the request (`is_stated`): a number among its numbers, a
text among its words (case, spaces and punctuation aside), a date in one of the usual forms or said as
"today" or "yesterday". The rest are left out (`stated_only`); a row that then lacks what its table needs
is not written by code.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

# a number standing alone: not a piece of a date, a phone number or a code ("2024-05-01", "555-0172")
NUMBER = re.compile(r"(?<![\d.])(?<!\d[/-])(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?!\d|[/.-]\d)")
_MONTHS = "january february march april may june july august september october november december".split()


@dataclass
class Stated:
    rows: dict[str, list[dict[str, object]]]  # table -> its rows, with only the values the request states
    left_out: list[str]  # "table.field = value"
    trimmed: set[tuple[str, int]]  # (table, index in rows) of the rows that lost a value


def stated_only(rows: Mapping[str, object], text: str, today: dt.date) -> Stated:
    """`rows` (table -> list of {field: value}) without the values `text` does not state.

    >>> stated_only({"hay": [{"kind": "timothy", "price": 6, "bales": 0}]}, "Timothy sells at 6 now", dt.date(2024, 5, 1))
    Stated(rows={'hay': [{'kind': 'timothy', 'price': 6}]}, left_out=['hay.bales = 0'], trimmed={('hay', 0)})
    """
    found = Stated({}, [], set())
    for table, listed in rows.items():
        found.rows[table] = []
        for row in listed if isinstance(listed, list) else [listed]:
            if not isinstance(row, dict):
                continue
            stated = {field: value for field, value in row.items() if value is None or is_stated(value, text, today)}
            if len(stated) < len(row):
                found.left_out += [
                    f"{table}.{field} = {value!r}" for field, value in row.items() if field not in stated
                ]
                found.trimmed.add((table, len(found.rows[table])))
            found.rows[table].append(stated)
    return found


def is_stated(value: object, text: str, today: dt.date) -> bool:
    """Whether `text` says `value`.

    >>> day = dt.date(2024, 5, 1)
    >>> [is_stated(v, "Calder's 1,200 bales at 4.50 on 30 April", day) for v in (1200, 4.5, "calder", "2024-04-30")]
    [True, True, True, True]
    >>> [is_stated(v, "Calder took 12 bales today", day) for v in (0, "Stable A", "2024-05-01", "2024-04-30")]
    [False, False, True, False]
    >>> [is_stated(v, "Ann (555-0172) came on 2024-05-10", day) for v in (555, 10, "555-0172")]
    [False, False, True]
    """
    if isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        return any(abs(float(n) - abs(value)) < 1e-9 for n in _numbers(text))
    if not isinstance(value, str):
        return False
    try:
        day = dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        return _squeezed(value) != "" and _squeezed(value) in _squeezed(text)
    return _says_date(text, day, today)


def _numbers(text: str) -> list[str]:
    return [n.replace(",", "") for n in NUMBER.findall(text)]


def _squeezed(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _says_date(text: str, day: dt.date, today: dt.date) -> bool:
    lower = text.lower()
    if day.isoformat() in text or (day == today and "today" in lower):
        return True
    if day == today - dt.timedelta(days=1) and "yesterday" in lower:
        return True
    month = _MONTHS[day.month - 1]
    named = rf"(?:{month}|{month[:3]})\.?"
    if re.search(
        rf"\b{named}\s+0?{day.day}(?:st|nd|rd|th)?\b|\b0?{day.day}(?:st|nd|rd|th)?\s+(?:of\s+)?{named}", lower
    ):
        return True
    d, m = day.day, day.month
    return re.search(rf"\b0?{d}[/.]0?{m}[/.]{day.year}\b|\b0?{m}[/.]0?{d}[/.]{day.year}\b", text) is not None
