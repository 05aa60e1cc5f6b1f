"""A preference of units ("from now on show loads in tonnes"): are the right rows asked for, and the figures
shown in the unit the user prefers, converted from the unit each column is stored in?

Five invented trades (two to tune on: river barges, an orchard; three to report: a data hall, a cycling
club, a bakery), each one table whose columns state their unit by name (`cargo_kg`), by comment ("time at
sea in minutes") or not at all. Each question is asked in five wordings: the preference after the question
("..., from now on show loads in tonnes"), before it ("Going forward, give loads in tonnes. Which ...?"),
kept from a cell before (memory on), asked in the question itself ("..., and how much in kilograms?"), and
no preference at all (the answers a preference must leave alone).
Questions and golds were written before any run; every gold is checked to run and to rank without a tie.

Ways, in one run: `native` (ChatDB as it is, over DuckDB with the comments) and `raw` (the model one shot,
shown the CREATE TABLEs with their comments and the preference said before the question, its SQL run on a
SQLite copy). Run the native way from an older checkout for the figures before a change (PYTHONPATH).

Figures per wording: answered right (the gold's rows, figures in the preferred unit: each gold column found
among the result's, to 4 significant figures); rows right (the same, the converted columns left out: the
preference did not change which rows were read); for a column whose unit nothing states, "as stored, said"
(left unconverted, and the answer says so).

    python benchmarks/preferred_units.py --half tune -v
    python benchmarks/preferred_units.py --half report --out benchmarks/out/preferred_units_report.jsonl
    python benchmarks/preferred_units.py --summary before=old.jsonl@native,native=new.jsonl@native,raw=new.jsonl@raw
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd
from spider import normalize
from terse_columns import duckdb_table, sqlite_table
from text2sql import raw_messages, raw_schema, run_sqlite

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.native_sql import STOP, reply_sql
from jupyter_chatdb.kernel_memory.store import Store
from jupyter_chatdb.kernel_memory.thoughts import ThoughtMemory
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM
from jupyter_chatdb.llm.minilm import MiniLMEmbedder

Rows = Callable[[random.Random], list[tuple]]


@dataclass(frozen=True)
class Question:
    text: str
    gold: str  # SQLite
    things: str  # what the preference calls the figures ("loads")
    unit: str  # the unit they are to be shown in, as a user writes it
    factor: float | None  # stored unit -> preferred unit; None: nothing states the stored unit
    converted: tuple[int, ...]  # the gold's columns in the stored unit


@dataclass(frozen=True)
class Trade:
    name: str
    half: str
    table: str
    columns: tuple[tuple[str, str, str], ...]  # name, SQLite type, comment
    rows: Rows
    questions: tuple[Question, ...]


def _barges(rng: random.Random) -> list[tuple]:
    boats = ("Maid of Ouse", "Kestrel", "Brigantia", "Tern", "Ember")
    wharves = ("Selby", "Goole", "Howden", "Barton")
    return [
        (
            i,
            rng.choice(boats),
            rng.choice(wharves),
            rng.randint(40, 900) * 10.0,
            rng.randint(35, 400),
            rng.randint(1, 6),
        )
        for i in range(1, 41)
    ]


def _orchard(rng: random.Random) -> list[tuple]:
    varieties = ("Egremont", "Discovery", "Bramley", "Cox", "Spartan")
    return [
        (
            f"P{i:02d}",
            rng.choice(varieties),
            rng.randint(8, 90) * 50.0,
            rng.randint(20, 400) * 100.0,
            rng.randint(6, 80),
        )
        for i in range(1, 31)
    ]


def _racks(rng: random.Random) -> list[tuple]:
    halls = ("North", "South", "Annex")
    return [
        (f"R{i:03d}", rng.choice(halls), rng.randint(20, 160) * 50.0, rng.randint(2, 96) * 1.0, rng.randint(4, 42))
        for i in range(1, 37)
    ]


def _rides(rng: random.Random) -> list[tuple]:
    riders = ("Noor Haddad", "Piet Brandt", "Yuki Sato", "Carmen Ruiz", "Olu Adeyemi", "Sven Dahl")
    runs = ("Tuesday chaingang", "Sunday long", "Hill repeats")
    return [
        (
            i,
            rng.choice(riders),
            rng.choice(runs),
            rng.randint(80, 1400) * 100.0,
            rng.randint(30, 420) * 60,
            rng.randint(50, 1500),
        )
        for i in range(1, 49)
    ]


def _bakes(rng: random.Random) -> list[tuple]:
    loaves = ("Sourdough", "Rye", "Spelt", "Brioche", "Baguette")
    return [
        (
            i,
            rng.choice(loaves),
            rng.randint(10, 120) * 250.0,
            rng.randint(25, 75),
            rng.randint(6, 80) * 0.5,
            rng.randint(20, 200),
        )
        for i in range(1, 41)
    ]


TRADES = (
    Trade(
        "barges",
        "tune",
        "sailings",
        (
            ("sailing_id", "INTEGER", ""),
            ("barge", "TEXT", ""),
            ("wharf", "TEXT", ""),
            ("cargo_kg", "REAL", ""),
            ("hours_under_way", "REAL", "time under way in minutes"),
            ("crew", "INTEGER", ""),
        ),
        _barges,
        (
            Question(
                "Which 3 barges carried the most cargo in total, with their totals?",
                "SELECT barge, SUM(cargo_kg) FROM sailings GROUP BY barge ORDER BY 2 DESC LIMIT 3",
                "loads",
                "tonnes",
                0.001,
                (1,),
            ),
            Question(
                "What is the average time under way from each wharf?",
                "SELECT wharf, AVG(hours_under_way) FROM sailings GROUP BY wharf",
                "times under way",
                "hours",
                1 / 60,
                (1,),
            ),
            Question(
                "List the 5 heaviest sailings with their cargo.",
                "SELECT sailing_id, cargo_kg FROM sailings ORDER BY cargo_kg DESC LIMIT 5",
                "cargo",
                "tonnes",
                0.001,
                (1,),
            ),
            Question(
                "How many sailings did each barge make, and what cargo did each carry in all?",
                "SELECT barge, COUNT(*), SUM(cargo_kg) FROM sailings GROUP BY barge",
                "cargo",
                "tonnes",
                0.001,
                (2,),
            ),
            Question(
                "What was the longest time under way of any sailing with a crew of 4 or more?",
                "SELECT MAX(hours_under_way) FROM sailings WHERE crew >= 4",
                "times under way",
                "hours",
                1 / 60,
                (0,),
            ),
        ),
    ),
    Trade(
        "orchard",
        "tune",
        "plots",
        (
            ("plot", "TEXT", ""),
            ("variety", "TEXT", ""),
            ("area_m2", "REAL", ""),
            ("water", "REAL", "water given this season (litres)"),
            ("trees", "INTEGER", ""),
        ),
        _orchard,
        (
            Question(
                "What is the total area planted with each variety?",
                "SELECT variety, SUM(area_m2) FROM plots GROUP BY variety",
                "areas",
                "hectares",
                1e-4,
                (1,),
            ),
            Question(
                "Which 4 plots got the most water, and how much?",
                "SELECT plot, water FROM plots ORDER BY water DESC LIMIT 4",
                "water",
                "cubic metres",
                0.001,
                (1,),
            ),
            Question(
                "What is the largest plot with fewer than 30 trees?",
                "SELECT plot, area_m2 FROM plots WHERE trees < 30 ORDER BY area_m2 DESC LIMIT 1",
                "areas",
                "hectares",
                1e-4,
                (1,),
            ),
            Question(
                "How much water did the Bramley plots get in total?",
                "SELECT SUM(water) FROM plots WHERE variety = 'Bramley'",
                "water",
                "cubic metres",
                0.001,
                (0,),
            ),
            Question(
                "Which variety has the most trees, and what is its total area?",
                "SELECT variety, SUM(trees), SUM(area_m2) FROM plots GROUP BY variety ORDER BY 2 DESC LIMIT 1",
                "areas",
                "hectares",
                1e-4,
                (2,),
            ),
        ),
    ),
    Trade(
        "datahall",
        "report",
        "racks",
        (
            ("rack", "TEXT", ""),
            ("hall", "TEXT", ""),
            ("draw_kw", "REAL", ""),
            ("storage", "REAL", "usable storage (TB)"),
            ("servers", "INTEGER", ""),
        ),
        _racks,
        (
            Question(
                "What is the total power draw of each hall?",
                "SELECT hall, SUM(draw_kw) FROM racks GROUP BY hall",
                "power",
                "MW",
                0.001,
                (1,),
            ),
            Question(
                "Which 3 racks hold the most storage, with their storage?",
                "SELECT rack, storage FROM racks ORDER BY storage DESC LIMIT 3",
                "storage",
                "GB",
                1000.0,
                (1,),
            ),
            Question(
                "Which hall has the most servers, and what does it draw in total?",
                "SELECT hall, SUM(servers), SUM(draw_kw) FROM racks GROUP BY hall ORDER BY 2 DESC LIMIT 1",
                "power draw",
                "MW",
                0.001,
                (2,),
            ),
            Question(
                "What is the average draw of racks with more than 20 servers?",
                "SELECT AVG(draw_kw) FROM racks WHERE servers > 20",
                "draw",
                "watts",
                1000.0,
                (0,),
            ),
            Question(
                "List the 4 racks drawing the most power and their draw.",
                "SELECT rack, draw_kw FROM racks ORDER BY draw_kw DESC LIMIT 4",
                "power",
                "MW",
                0.001,
                (1,),
            ),
        ),
    ),
    Trade(
        "cycling",
        "report",
        "rides",
        (
            ("ride_id", "INTEGER", ""),
            ("rider", "TEXT", ""),
            ("club_run", "TEXT", ""),
            ("distance", "REAL", "distance ridden in m"),
            ("moving_secs", "INTEGER", ""),
            ("climb", "INTEGER", ""),
        ),
        _rides,
        (
            Question(
                "Who rode the furthest in total? Give the top 3 riders and their distances.",
                "SELECT rider, SUM(distance) FROM rides GROUP BY rider ORDER BY 2 DESC LIMIT 3",
                "distances",
                "km",
                0.001,
                (1,),
            ),
            Question(
                "What is the average moving time on each club run?",
                "SELECT club_run, AVG(moving_secs) FROM rides GROUP BY club_run",
                "moving times",
                "minutes",
                1 / 60,
                (1,),
            ),
            Question(
                "List the 5 longest rides with their distance.",
                "SELECT ride_id, distance FROM rides ORDER BY distance DESC LIMIT 5",
                "distances",
                "kilometres",
                0.001,
                (1,),
            ),
            Question(
                "How much moving time did Yuki Sato log in all?",
                "SELECT SUM(moving_secs) FROM rides WHERE rider = 'Yuki Sato'",
                "times",
                "hours",
                1 / 3600,
                (0,),
            ),
            Question(
                "Which ride had the most climbing, and how much?",
                "SELECT ride_id, climb FROM rides ORDER BY climb DESC LIMIT 1",
                "climbing",
                "feet",
                None,
                (1,),
            ),
        ),
    ),
    Trade(
        "bakery",
        "report",
        "bakes",
        (
            ("bake_id", "INTEGER", ""),
            ("loaf", "TEXT", ""),
            ("flour_g", "REAL", ""),
            ("bake_minutes", "INTEGER", ""),
            ("water", "REAL", ""),
            ("loaves", "INTEGER", ""),
        ),
        _bakes,
        (
            Question(
                "How much flour went into each kind of loaf?",
                "SELECT loaf, SUM(flour_g) FROM bakes GROUP BY loaf",
                "flour",
                "kg",
                0.001,
                (1,),
            ),
            Question(
                "What is the longest bake time of each loaf?",
                "SELECT loaf, MAX(bake_minutes) FROM bakes GROUP BY loaf",
                "bake times",
                "hours",
                1 / 60,
                (1,),
            ),
            Question(
                "Which 3 bakes used the most flour, and how much?",
                "SELECT bake_id, flour_g FROM bakes ORDER BY flour_g DESC LIMIT 3",
                "flour",
                "kilograms",
                0.001,
                (1,),
            ),
            Question(
                "Which loaf was baked most often, and how much flour did it use in all?",
                "SELECT loaf, COUNT(*), SUM(flour_g) FROM bakes GROUP BY loaf ORDER BY 2 DESC LIMIT 1",
                "flour",
                "kg",
                0.001,
                (2,),
            ),
            Question(
                "How much water did the rye bakes use in total?",
                "SELECT SUM(water) FROM bakes WHERE loaf = 'Rye'",
                "water",
                "millilitres",
                None,
                (0,),
            ),
        ),
    ),
)
CUES = ("from now on", "going forward", "by default", "in future")
WORDINGS = ("after", "before", "kept", "asked", "none")


def wording(question: Question, how: str, index: int) -> tuple[str, str]:
    """(the preference said in a cell before, or ""; the request) of `question` in wording `how`."""
    cue = CUES[index % len(CUES)]
    shown = f"show {question.things} in {question.unit}"
    if how == "after":
        return "", f"{question.text.rstrip('?.')}, {cue} {shown}"
    if how == "before":
        return "", f"{cue.capitalize()}, {shown}. {question.text}"
    if how == "kept":
        return f"{cue.capitalize()}, {shown}.", question.text
    if how == "asked":  # the unit in the question itself, no preference kept
        return "", f"{question.text.rstrip('?.')} in {question.unit}?"
    return "", question.text


@dataclass
class Outcome:
    way: str
    trade: str
    wording: str
    question: str
    known_unit: bool
    right: bool
    rows_right: bool
    said_as_stored: bool
    seconds: float
    sql: str
    answer: str
    columns: list[str] = field(default_factory=list)


def expected(question: Question, gold: list[tuple], how: str) -> list[tuple]:
    """The gold's rows, the converted columns in the preferred unit (none without a preference, or where
    nothing states the stored unit)."""
    if how == "none" or question.factor is None:
        return gold
    by = question.factor
    return [
        tuple(v * by if i in question.converted and v is not None else v for i, v in enumerate(row)) for row in gold
    ]


def _value(value: object) -> object:
    """A value compared to 4 significant figures."""
    found = normalize(value)
    return float(f"{found:.4g}") if isinstance(found, float) else found


def covers(frame: pd.DataFrame | None, rows: list[tuple], ordered: bool, leave_out: tuple[int, ...] = ()) -> bool:
    """Whether each column of `rows` (but `leave_out`) is a column of `frame`, row for row."""
    if frame is None or len(frame) != len(rows):
        return False
    got = [[_value(v) for v in frame.iloc[:, i]] for i in range(frame.shape[1])]
    width = len(rows[0]) if rows else 0
    for i in range(width):
        if i in leave_out:
            continue
        want = [_value(row[i]) for row in rows]
        if not any(column == want if ordered else sorted(map(str, column)) == sorted(map(str, want)) for column in got):
            return False
    return True


def sqlite_file(trade: Trade, rows: list[tuple], path: Path) -> Path:
    with sqlite3.connect(path) as con:
        sqlite_table(con, trade.table, trade.columns, rows)
    return path


def chatdb_of(model: LLM, trade: Trade, rows: list[tuple], memory: bool) -> ChatDB:
    kept = ThoughtMemory(Store(), MiniLMEmbedder()) if memory else None
    db = ChatDB(model=model, summarize=False, memory=kept)
    duckdb_table(db, trade.table, trade.columns, rows)
    return db


def self_check(trade: Trade, path: Path) -> None:
    """Each gold runs and gives rows, and a top-N has no tie at its edge (every gold orders by a column
    it selects)."""
    for question in trade.questions:
        rows = run_sqlite(question.gold, path)
        assert rows and rows[0][0] is not None, question.text
        if " LIMIT " not in question.gold:
            continue
        head, limit = question.gold.rsplit(" LIMIT ", 1)
        order = head.split("ORDER BY ")[1].split()[0]
        selected = [part.strip() for part in head.split("SELECT ")[1].split(" FROM")[0].split(",")]
        at = int(order) - 1 if order.isdigit() else selected.index(order)
        longer = run_sqlite(f"{head} LIMIT {int(limit) + 1}", path)
        assert len(longer) <= int(limit) or longer[-1][at] != longer[-2][at], f"a tie: {question.text}"


def ask_native(db: ChatDB, kept: str, request: str) -> tuple[pd.DataFrame | None, str, str]:
    if kept:
        db.ask(kept)
    reply = db.ask(request, use_memory=bool(kept))
    return reply.result, "; ".join(reply.sql), reply.answer


def ask_raw(model: LLM, schema: str, path: Path, kept: str, request: str) -> tuple[pd.DataFrame | None, str, str]:
    said = f"{kept} {request}" if kept else request
    completion = model.complete(raw_messages(schema, said), max_tokens=300, stop=STOP)
    sql = reply_sql(completion.text)
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
            cursor = con.execute(sql)
            names = [d[0] for d in cursor.description or []]
            return pd.DataFrame.from_records(cursor.fetchall(), columns=names), sql, ""
    except sqlite3.Error as error:
        return None, sql, str(error)


def summary(entries: str) -> int:
    """The figures of saved runs side by side: `label=path@way,...` (the way's rows of each file, as label)."""
    outcomes, labels = [], []
    for entry in entries.split(","):
        label, rest = entry.split("=", 1)
        path, way = rest.rsplit("@", 1)
        labels.append(label)
        for line in Path(path).open():
            outcome = Outcome(**json.loads(line))
            if outcome.way == way:
                outcome.way = label
                outcomes.append(outcome)
    report(outcomes, labels)
    return 0


def main() -> int:
    args = parse_args()
    if args.summary:
        return summary(args.summary)
    model = select_backend(args.model)
    ways = args.ways.split(",")
    outcomes: list[Outcome] = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    trades = [t for t in TRADES if t.half == args.half and (not args.trades or t.name in args.trades.split(","))]
    with tempfile.TemporaryDirectory() as folder, args.out.open("w") as lines:
        for trade in trades:
            rows = trade.rows(random.Random(f"{trade.name}-{args.seed}"))
            path = sqlite_file(trade, rows, Path(folder) / f"{trade.name}.sqlite")
            self_check(trade, path)
            schema = raw_schema(path)
            for index, question in enumerate(trade.questions):
                gold = run_sqlite(question.gold, path)
                ordered = "ORDER BY" in question.gold
                for how in args.wordings.split(","):
                    kept, request = wording(question, how, index)
                    want = expected(question, gold, how)
                    for way in ways:
                        started = time.perf_counter()
                        if way == "raw":
                            result, sql, answer = ask_raw(model, schema, path, kept, request)
                        else:
                            db = chatdb_of(model, trade, rows, memory=bool(kept))
                            try:
                                result, sql, answer = ask_native(db, kept, request)
                            except ChatDBError as error:
                                result, sql, answer = None, "", str(error)
                            finally:
                                db.close()
                        outcome = Outcome(
                            way,
                            trade.name,
                            how,
                            request,
                            question.factor is not None,
                            covers(result, want, ordered),
                            covers(result, want, ordered, question.converted),
                            question.factor is None and covers(result, gold, ordered) and "as stored" in answer,
                            round(time.perf_counter() - started, 2),
                            sql,
                            answer,
                            [] if result is None else [str(c) for c in result.columns],
                        )
                        outcomes.append(outcome)
                        lines.write(json.dumps(asdict(outcome)) + "\n")
                        lines.flush()
                        if args.verbose:
                            mark = "right" if outcome.right else "rows" if outcome.rows_right else "-"
                            print(f"[{way} {trade.name} {how}] {mark:5} {outcome.seconds:5.1f}s {request}", flush=True)
    report(outcomes, ways)
    return 0


def report(outcomes: list[Outcome], ways: list[str]) -> None:
    wordings = [how for how in WORDINGS if any(o.wording == how for o in outcomes)]
    asked = len([o for o in outcomes if o.way == ways[0]]) // max(1, len(wordings))
    print(f"\nPreferred units ({asked} questions, each in the wordings below)")
    print(f"  {'':36}" + "".join(f"{way:>12}" for way in ways))
    for how in wordings:
        for label, pick, score in (
            ("answered right", lambda o: o.known_unit, lambda o: o.right),
            ("rows right", lambda o: True, lambda o: o.rows_right),
        ):
            cells = []
            for way in ways:
                mine = [o for o in outcomes if o.way == way and o.wording == how and pick(o)]
                cells.append(f"{sum(map(score, mine))}/{len(mine)}" if mine else "-")
            print(f"  {how + ': ' + label:36}" + "".join(f"{c:>12}" for c in cells))
    cells = []
    for way in ways:
        mine = [o for o in outcomes if o.way == way and not o.known_unit and o.wording != "none"]
        cells.append(f"{sum(o.said_as_stored for o in mine)}/{len(mine)}" if mine else "-")
    print(f"  {'no unit stated: as stored, said':36}" + "".join(f"{c:>12}" for c in cells))
    medians = [statistics.median([o.seconds for o in outcomes if o.way == way] or [0]) for way in ways]
    print(f"  {'median seconds':36}" + "".join(f"{m:>12.1f}" for m in medians))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("tune", "report"), default="tune")
    parser.add_argument("--trades", default="", help="some of the half's trades, comma-separated")
    parser.add_argument("--wordings", default=",".join(WORDINGS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ways", default="native,raw")
    parser.add_argument("--model", default="local")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/preferred_units.jsonl"))
    parser.add_argument("--summary", default="", help="label=path@way,...: print saved runs side by side")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
