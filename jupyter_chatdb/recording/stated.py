"""Only what a request states: values a model read out of a request are kept when the request says them.

A small model asked for the rows a request states fills in what it does not say: a made-up stable name
("Stable A"), a cost of 0, a price it copied from another line. Written, those would be wrong records that
look right. So each value read must be found in the request (`is_stated`): a number among its numbers, a
text among its words (case, spaces and punctuation aside), a date in one of the usual forms or said as
"today" or "yesterday", or a date so long after or before one of those ("for three weeks"). A number may
be written in words ("seven"), or as a length of time ("a week" is 7 days, "an hour" 60 minutes). A value the schema lists
(a CHECK list, a small table's names) is mapped from the words the model read ("a grey mare" -> 'grey'):
it is kept when those words are the request's, or a word of the request begins like it, or its column
needs a value in a row to be added, or it is the one value a change to a kept row sets that the request
does not say in words ("Tansy did not turn up": a status). The rest
are left out (`stated_only`); a row that then lacks what its table needs is not written by code, and a
row none of whose values the request says is marked (`Stated.unsaid`): made up whole.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from ..language.dates import DAY_IN_WORDS, DAY_MONTH_YEAR, MONTH_THEN_DAY, MONTHS, NUMBERED_DAY
from ..language.numbers import STATED_NUMBER
from ..language.spoken import durations, spelled_numbers
from ..language.words import any_words
from .resolve import squeezed
from .shapes import CLEARED


@dataclass
class Stated:
    rows: dict[str, list[dict[str, object]]]  # table -> its rows, with only the values the request states
    left_out: list[str]  # "table.field = value"
    trimmed: set[tuple[str, int]]  # (table, index in rows) of the rows that lost a value
    unsaid: set[tuple[str, int]] = field(default_factory=set)  # rows none of whose values the request says
    guessed: list[str] = field(default_factory=list)  # "table.field = value": a change's listed value kept unsaid


def stated_only(
    rows: Mapping[str, object],
    text: str,
    today: dt.date,
    picks: Mapping[tuple[str, str], bool] = {},
    changes: Collection[tuple[str, int]] = (),
    said: Collection[tuple[str, int, str]] = (),
    optional: Collection[tuple[str, str]] = (),
    named: Collection[tuple[str, int]] = (),
    naming: Collection[tuple[str, str]] = (),
) -> Stated:
    """`rows` (table -> list of {field: value}) without the values `text` does not state. `picks`: (table,
    field) -> whether its column needs a value, for the fields whose values the schema lists; `changes`:
    the (table, index) of rows that can only change a kept row (they lack what a new one needs); `said`:
    the (table, index, field) of listed values read from words the request says ("on the e-cargo bike");
    `optional`: the (table, field) a row may leave empty; `named`: the (table, index) of the rows that name a
    kept row by a column naming one row, the (table, field) in `naming`. A change's one listed value the
    request does not say in words is kept where the change sets nothing else the request says (an optional
    value, or any but its naming ones on a row so named: "moved to Ashby" sets the site, not a kind), and
    is read alone: a kept row read beside the rows of other tables (the member who borrows) is named, not
    changed.

    >>> found = stated_only({"hay": [{"kind": "timothy", "price": 6, "bales": 0}]}, "Timothy sells at 6 now", dt.date(2024, 5, 1))
    >>> found.rows, found.left_out, found.trimmed
    ({'hay': [{'kind': 'timothy', 'price': 6}]}, ['hay.bales = 0'], {('hay', 0)})
    """
    found = Stated({}, [], set())
    for table, listed in rows.items():
        found.rows[table] = []
        alone = not any(isinstance(other, list) and other for name, other in rows.items() if name != table)
        for index, row in enumerate(listed if isinstance(listed, list) else [listed]):
            if not isinstance(row, dict):
                continue
            change = (table, index) in changes
            in_words = {
                name
                for name, value in row.items()
                if value is not None
                and (is_stated(value, text, today) or (table, index, name) in said or value is CLEARED)
            }
            stated = {
                name: value
                for name, value in row.items()
                if value is None
                or value is CLEARED
                or name in in_words
                or _picked(picks, table, name, value, text, change)
            }
            unsaid = [name for name in row if name not in stated and (table, name) in picks]
            sets_more = any(
                row[name] is not None
                and ((table, name) in optional or ((table, index) in named and (table, name) not in naming))
                for name in stated
            )
            if change and len(unsaid) == 1 and not sets_more and alone:
                stated[unsaid[0]] = row[unsaid[0]]  # the one listed value a change sets: the change it makes,
                found.guessed.append(f"{table}.{unsaid[0]} = {row[unsaid[0]]!r}")  # but not one it says: it waits
            if len(stated) < len(row):
                found.left_out += [f"{table}.{name} = {value!r}" for name, value in row.items() if name not in stated]
                found.trimmed.add((table, len(found.rows[table])))
            if not in_words:
                found.unsaid.add((table, len(found.rows[table])))
            found.rows[table].append(stated)
    return found


def is_stated(value: object, text: str, today: dt.date) -> bool:
    """Whether `text` says `value`.

    >>> day = dt.date(2024, 5, 1)
    >>> [is_stated(v, "Calder's 1,200 bales at 4.50 on 30 April", day) for v in (1200, 4.5, "calder", "2024-04-30")]
    [True, True, True, True]
    >>> [is_stated(v, "Calder took 12 bales today", day) for v in (0, "Stable A", "2024-05-01", "2024-04-30")]
    [False, False, True, False]
    >>> [is_stated(v, "Ann (555-0172) came on 2024-05-10 at 17:00", day) for v in (555, 10, "555-0172", 0, 17)]
    [False, False, True, False, False]
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
        return squeezed(value) != "" and squeezed(value) in squeezed(text)
    return says_date(text, day, today)


def said_only_as_part(value: object, text: str) -> bool:
    """Whether `value` is a number `text` says only as part of something else: the day or year of a day
    ("15" in "seen on 15 May", "2024-05-15"), a time or a longer figure. No name of a row a small model may
    read from it ("job 15").

    >>> said_only_as_part("15", "job seen on 15 May"), said_only_as_part("15", "job 15 seen on 15 May")
    (True, False)
    """
    said = str(value).strip()
    if not said.isdigit():
        return False
    number = str(int(said))
    return number in {n.lstrip("0") or "0" for n in FIGURES.findall(text)} and number not in _numbers(text)


def _picked(
    picks: Mapping[tuple[str, str], bool], table: str, field: str, value: object, text: str, change: bool = False
) -> bool:
    """A value picked from the schema's list: kept where a word of the request begins like a word of it, or
    where its column needs a value in a row to be added (never in a change: the kept row has one).

    >>> _picked({("t", "coat"): False}, "t", "coat", "grey", "a greyish mare")
    True
    >>> picks = {("t", "coat"): False, ("t", "size"): True}
    >>> _picked(picks, "t", "coat", "bay", "a chestnut mare"), _picked(picks, "t", "size", "large", "a big mare")
    (False, True)
    >>> _picked(picks, "t", "size", "large", "the mare is lame", change=True)
    False
    """
    if (table, field) not in picks or not isinstance(value, str):
        return False
    if picks[(table, field)] and not change:
        return True
    said = any_words(text)
    return any(w[:4] == s[:4] for w in any_words(value) if len(w) >= 3 for s in said if len(s) >= 3)


FIGURES = re.compile(r"\d+")  # any run of figures: a number said anywhere, in a day too


def _numbers(text: str) -> list[str]:
    """The numbers `text` states, in figures or in words, and lengths of time as days ("a week": 7); not
    the day or year of a day said with its month's name ("31 March 2024" states no 31).

    >>> _numbers("reading group on 31 March 2024, 3 more; May 4th: 12 jars")
    ['3', '12']
    """
    figures = [n.replace(",", "") for n in STATED_NUMBER.findall(DAY_IN_WORDS.sub(" ", text))]
    lengths = [str(d.days) for d in durations(text) if d.days] + [str(d.minutes) for d in durations(text) if d.minutes]
    return figures + [f"{n:g}" for n in spelled_numbers(text)] + lengths


def says_a_date(text: str) -> bool:
    """Whether `text` gives a date of its own (not only "today" or "yesterday").

    >>> says_a_date("On 3 May 2024 Ann came"), says_a_date("due: 2024-05-03"), says_a_date("Ann came today, May 3rd")
    (True, True, True)
    >>> says_a_date("Ann came today"), says_a_date("Ann paid 3 of 5 may")
    (False, False)
    """
    return bool(NUMBERED_DAY.search(text) or MONTH_THEN_DAY.search(text) or DAY_MONTH_YEAR.search(text))


def says_date(text: str, day: dt.date, today: dt.date, lengths: bool = True) -> bool:
    """Whether `text` says `day`, or (with `lengths`) a day so long after or before it as it says.

    >>> says_date("booked on 3 May 2024 for three weeks", dt.date(2024, 5, 24), dt.date(2024, 6, 1))
    True
    """
    lower = text.lower()
    if day.isoformat() in text or (day == today and "today" in lower):
        return True
    if day == today - dt.timedelta(days=1) and "yesterday" in lower:
        return True
    if any(
        says_date(text, d.before(day), today, False) or says_date(text, d.after(day), today, False)
        for d in (durations(text) if lengths else ())
    ):
        return True
    month = MONTHS[day.month - 1]
    named = rf"(?:{month}|{month[:3]})\.?"
    if re.search(
        rf"\b{named}\s+0?{day.day}(?:st|nd|rd|th)?\b|\b0?{day.day}(?:st|nd|rd|th)?\s+(?:of\s+)?{named}", lower
    ):
        return True
    d, m = day.day, day.month
    return re.search(rf"\b0?{d}[/.]0?{m}[/.]{day.year}\b|\b0?{m}[/.]0?{d}[/.]{day.year}\b", text) is not None
