"""Worked examples for the planner, on three small invented trades, chosen per request by word overlap.

An apiary (hives in coded apiaries, inspections, harvests), a bicycle courier (riders, runs and their
stops) and an observatory (telescopes, observers, sessions) show the patterns a plan needs, on tables that
are not the user's and not shaped like any one business: find or add a person, a header row RETURNING its
key and rows that belong to it, a reference found by its code or its name, a row filled in when what it
waited for happens, a change to kept rows (set, clear, move, copy) as an UPDATE, a record written as
`key: value` lines, and reads with totals, groups, exclusions and the last value on or before a date. The
prompt shows the tables of the trades its examples come from.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..language.stop_words import EXAMPLE_STOP_WORDS
from ..language.words import letter_words

TRADE_TABLES = {
    "apiary": """\
CREATE TABLE apiaries (apiary_code VARCHAR PRIMARY KEY, apiary_name VARCHAR UNIQUE);
CREATE TABLE hives (hive_id INTEGER PRIMARY KEY DEFAULT nextval('hive_seq'), hive_tag VARCHAR UNIQUE, apiary_code VARCHAR REFERENCES apiaries (apiary_code), queen VARCHAR CHECK (queen IN ('laying', 'missing', 'replaced')), notes VARCHAR);
CREATE TABLE inspections (inspection_id INTEGER PRIMARY KEY DEFAULT nextval('inspection_seq'), hive_id INTEGER REFERENCES hives (hive_id), inspected_on DATE, mites INTEGER);
CREATE TABLE harvests (harvest_id INTEGER PRIMARY KEY DEFAULT nextval('harvest_seq'), hive_id INTEGER REFERENCES hives (hive_id), taken_on DATE, honey_kg DECIMAL(6,2));""",
    "courier": """\
CREATE TABLE riders (rider_id INTEGER PRIMARY KEY DEFAULT nextval('rider_seq'), rider_name VARCHAR UNIQUE, phone VARCHAR);
CREATE TABLE runs (run_id INTEGER PRIMARY KEY DEFAULT nextval('run_seq'), rider_id INTEGER REFERENCES riders (rider_id), picked_up_on DATE, dropped_on DATE, fee DECIMAL(8,2), vehicle VARCHAR CHECK (vehicle IN ('bike', 'cargo bike', 'van')));
CREATE TABLE run_stops (run_id INTEGER REFERENCES runs (run_id), stop_no INTEGER, postcode VARCHAR);""",
    "observatory": """\
CREATE TABLE telescopes (scope_code VARCHAR PRIMARY KEY, aperture_mm INTEGER);
CREATE TABLE observers (observer_id INTEGER PRIMARY KEY DEFAULT nextval('observer_seq'), observer_name VARCHAR UNIQUE);
CREATE TABLE sessions (session_id INTEGER PRIMARY KEY DEFAULT nextval('session_seq'), observer_id INTEGER REFERENCES observers (observer_id), scope_code VARCHAR REFERENCES telescopes (scope_code), observed_on DATE, hours DECIMAL(4,1), cancelled BOOLEAN DEFAULT false);""",
}


@dataclass(frozen=True)
class Example:
    request: str
    steps: tuple[tuple[str, str, tuple[str, ...]], ...]  # (goal, sql, binds)
    writes: bool
    trade: str  # the key of its tables in TRADE_TABLES

    def text(self) -> str:
        steps = [{"goal": g, "sql": s, "binds": list(b)} for g, s, b in self.steps]
        return f"Request: {self.request}\n" + json.dumps({"steps": steps})


LIBRARY: tuple[Example, ...] = (
    Example(
        "New rider Mo Tran (phone 07700 900111) picked up a run on 3 June 2024 by cargo bike, fee 14.50, stops at E1 6AN and N1 9GU.",
        (
            (
                "add the rider if new",
                "INSERT INTO riders (rider_name, phone) SELECT 'Mo Tran', '07700 900111' WHERE NOT EXISTS (SELECT 1 FROM riders WHERE rider_name = 'Mo Tran')",
                (),
            ),
            ("find the rider", "SELECT rider_id FROM riders WHERE rider_name = 'Mo Tran'", ("rider_id",)),
            (
                "record the run",
                "INSERT INTO runs (rider_id, picked_up_on, fee, vehicle) VALUES (<rider_id>, DATE '2024-06-03', 14.50, 'cargo bike') RETURNING run_id",
                ("run_id",),
            ),
            (
                "record its stops",
                "INSERT INTO run_stops (run_id, stop_no, postcode) VALUES (<run_id>, 1, 'E1 6AN'), (<run_id>, 2, 'N1 9GU')",
                (),
            ),
        ),
        True,
        "courier",
    ),
    Example(
        "Mo Tran dropped off the run he picked up on 3 June, on 5 June 2024.",
        (
            (
                "fill in the open run it names",
                "UPDATE runs SET dropped_on = DATE '2024-06-05' WHERE run_id = (SELECT min(j.run_id) FROM runs AS j JOIN riders AS r ON r.rider_id = j.rider_id WHERE r.rider_name = 'Mo Tran' AND j.picked_up_on = DATE '2024-06-03' AND j.dropped_on IS NULL)",
                (),
            ),
        ),
        True,
        "courier",
    ),
    Example(
        "inspection\ndate: 4 May 2024\nhive: H-07\nmites: twelve\nqueen: not seen",
        (
            (
                "record the inspection of the hive by its tag",
                "INSERT INTO inspections (hive_id, inspected_on, mites) SELECT hive_id, DATE '2024-05-04', 12 FROM hives WHERE hive_tag = 'H-07'",
                (),
            ),
            ("set the queen as the schema lists it", "UPDATE hives SET queen = 'missing' WHERE hive_tag = 'H-07'", ()),
        ),
        True,
        "apiary",
    ),
    Example(
        "Move hive H-03 to the Birchwood apiary, copy its notes to hive H-04 and clear the notes of H-02.",
        (
            (
                "move it: a reference found by name",
                "UPDATE hives SET apiary_code = (SELECT apiary_code FROM apiaries WHERE apiary_name = 'Birchwood') WHERE hive_tag = 'H-03'",
                (),
            ),
            (
                "copy a value from one row to another",
                "UPDATE hives SET notes = (SELECT notes FROM hives WHERE hive_tag = 'H-03') WHERE hive_tag = 'H-04'",
                (),
            ),
            ("clear a value", "UPDATE hives SET notes = NULL WHERE hive_tag = 'H-02'", ()),
        ),
        True,
        "apiary",
    ),
    Example(
        "Vera Quist used telescope T2 for 2.5 hours on 9 January 2025.",
        (
            (
                "add the observer if new",
                "INSERT INTO observers (observer_name) SELECT 'Vera Quist' WHERE NOT EXISTS (SELECT 1 FROM observers WHERE observer_name = 'Vera Quist')",
                (),
            ),
            (
                "record the session",
                "INSERT INTO sessions (observer_id, scope_code, observed_on, hours) SELECT observer_id, 'T2', DATE '2025-01-09', 2.5 FROM observers WHERE observer_name = 'Vera Quist'",
                (),
            ),
        ),
        True,
        "observatory",
    ),
    Example(
        "Which rider earned the most in fees, leaving out runs not dropped off yet?",
        (
            (
                "fees per rider, highest first",
                "SELECT r.rider_name, sum(j.fee) AS earned FROM runs AS j JOIN riders AS r ON r.rider_id = j.rider_id WHERE j.dropped_on IS NOT NULL GROUP BY r.rider_name ORDER BY earned DESC LIMIT 1",
                (),
            ),
        ),
        False,
        "courier",
    ),
    Example(
        "On which day were the most hours observed, not counting cancelled sessions?",
        (
            (
                "hours per day, highest first",
                "SELECT observed_on, sum(hours) AS total_hours FROM sessions WHERE NOT cancelled GROUP BY observed_on ORDER BY total_hours DESC LIMIT 1",
                (),
            ),
        ),
        False,
        "observatory",
    ),
    Example(
        "What was the mite count of hive H-07 at its last inspection on or before 2024-05-01?",
        (
            (
                "the last inspection on or before that day",
                "SELECT i.mites FROM inspections AS i JOIN hives AS h ON h.hive_id = i.hive_id WHERE h.hive_tag = 'H-07' AND i.inspected_on <= DATE '2024-05-01' ORDER BY i.inspected_on DESC, i.inspection_id DESC LIMIT 1",
                (),
            ),
        ),
        False,
        "apiary",
    ),
    Example(
        "How many different hives gave honey, and how much honey per harvest on average?",
        (
            ("distinct hives harvested", "SELECT count(DISTINCT hive_id) AS hives FROM harvests", ()),
            ("average per harvest", "SELECT avg(honey_kg) AS avg_kg FROM harvests", ()),
        ),
        False,
        "apiary",
    ),
    Example(
        "How many inspections did each apiary have?",
        (
            (
                "inspections per apiary",
                "SELECT a.apiary_name, count(*) AS inspections FROM inspections AS i JOIN hives AS h ON h.hive_id = i.hive_id JOIN apiaries AS a ON a.apiary_code = h.apiary_code GROUP BY a.apiary_name",
                (),
            ),
        ),
        False,
        "apiary",
    ),
)


def tables_of(chosen: Sequence[Example]) -> str:
    """The tables of the trades `chosen` come from, in a fixed order (so the prompt's prefix repeats)."""
    trades = {e.trade for e in chosen}
    return "\n".join(text for trade, text in TRADE_TABLES.items() if trade in trades)


def words(text: str) -> list[str]:
    """
    >>> words("Took 2 kg of honey from H-07!")
    ['took', 'honey']
    """
    return [w for w in letter_words(text) if w not in EXAMPLE_STOP_WORDS and len(w) > 2]


def choose(
    request: str, k: int, *, writes: bool | None = None, library: tuple[Example, ...] = LIBRARY
) -> list[Example]:
    """The `k` examples whose requests share the most (rare) words with `request`, in library order.

    `writes` keeps only writing (True) or only reading (False) examples. Library order keeps the
    prompt prefix the same for requests that choose the same examples, so the model's cache serves it.

    >>> [e.request[:12] for e in choose("Sam dropped off the parcel picked up yesterday", 1)]
    ['Mo Tran drop']
    """
    pool = [e for e in library if writes is None or e.writes == writes] or list(library)
    frequency = Counter(w for e in library for w in set(words(e.request)))
    wanted = set(words(request))

    def score(example: Example) -> float:
        shared = wanted & set(words(example.request))
        return sum(1 / math.log(2 + frequency[w]) for w in shared)

    chosen = set(map(id, sorted(pool, key=score, reverse=True)[:k]))
    return [e for e in pool if id(e) in chosen]
