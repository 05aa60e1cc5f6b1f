"""Columns named by codes, their meanings in comments: are questions that name the meanings answered?

Two invented tables whose columns are codes (`n1`, `c3`), each with a comment saying what it holds, as
databases exported from older systems are: a plant nursery's beds and a bird survey's counts. Seeded data;
answerable questions name a column by its meaning (in lower case, or capitalised as a label: "the Frost
Loss"), unanswerable ones ask for a meaning no column has. Every gold statement is checked to run and to
give one answer (no ties) before anything is asked.

Two ways, in one run: `native` (ChatDB over DuckDB, the comments read with the tables) and `raw` (the
model one shot, shown the CREATE TABLEs with the comments as written, its SQL run on a SQLite copy).
Figures: answerable answered right, answerable refused ("I can't answer"), unanswerable flagged (ChatDB
says what is missing; the raw model cannot), median seconds.

    python benchmarks/terse_columns.py -v
    python benchmarks/terse_columns.py --seed 2 --out benchmarks/out/terse_columns_s2.jsonl
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
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd
from spider import gold_is_ordered, same
from text2sql import raw_messages, raw_schema, run_sqlite

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.native_sql import STOP, reply_sql
from jupyter_chatdb.grounding.concepts import REFUSAL_OPENING
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM

Columns = Sequence[tuple[str, str, str]]  # name, SQLite type, meaning (a comment)
TABLES = {
    "beds": [
        ("bed_code", "TEXT", ""),
        ("n1", "INTEGER", "seedlings potted this week"),
        ("n2", "REAL", "litres of water the bed gets per day"),
        ("n3", "INTEGER", "plants lost to frost"),
        ("n4", "TEXT", "glasshouse the bed stands in"),
        ("n5", "DATE", "day the bed was last weeded"),
    ],
    "counts": [
        ("site", "TEXT", ""),
        ("c1", "INTEGER", "swallows seen"),
        ("c2", "INTEGER", "minutes spent watching"),
        ("c3", "TEXT", "observer's name"),
        ("c4", "REAL", "wind speed in km/h"),
    ],
}
GLASSHOUSES = ("East", "West", "Hill")
OBSERVERS = ("Ines Varga", "Tomas Reid", "Ama Osei", "Lior Katz")
# (kind, question, gold SQL in SQLite): written once, before any run
QUESTIONS = [
    ("answerable", "What is the total number of seedlings potted this week?", "SELECT SUM(n1) FROM beds"),
    ("answerable", "Which bed lost the most plants to frost?", "SELECT bed_code FROM beds ORDER BY n3 DESC LIMIT 1"),
    (
        "answerable",
        "How many beds get more than 20 litres of water per day?",
        "SELECT COUNT(*) FROM beds WHERE n2 > 20",
    ),
    (
        "answerable",
        "What is the average Frost Loss of the beds in the East glasshouse?",
        "SELECT AVG(n3) FROM beds WHERE n4 = 'East'",
    ),
    (
        "answerable",
        "List the beds last weeded before 1 May 2024.",
        "SELECT bed_code FROM beds WHERE n5 < '2024-05-01'",
    ),
    (
        "answerable",
        "Which glasshouse had the most seedlings potted this week in total?",
        "SELECT n4 FROM beds GROUP BY n4 ORDER BY SUM(n1) DESC LIMIT 1",
    ),
    ("answerable", "How many swallows were seen in all?", "SELECT SUM(c1) FROM counts"),
    (
        "answerable",
        "Who spent the longest watching at one site?",
        "SELECT c3 FROM counts ORDER BY c2 DESC LIMIT 1",
    ),
    ("answerable", "What was the highest Wind Speed recorded?", "SELECT MAX(c4) FROM counts"),
    ("answerable", "How many sites had more than 30 swallows?", "SELECT COUNT(*) FROM counts WHERE c1 > 30"),
    (
        "answerable",
        "Which observer saw the most swallows in total?",
        "SELECT c3 FROM counts GROUP BY c3 ORDER BY SUM(c1) DESC LIMIT 1",
    ),
    ("answerable", "What is the average Watching Time in minutes?", "SELECT AVG(c2) FROM counts"),
    ("unanswerable", "What is the average soil temperature of the beds?", ""),
    ("unanswerable", "Which bed had the most slugs removed?", ""),
    ("unanswerable", "How many robins were seen in all?", ""),
    ("unanswerable", "What was the average rainfall at the sites?", ""),
]


@dataclass
class Outcome:
    way: str
    kind: str
    question: str
    right: bool
    refused: bool
    flagged: bool
    seconds: float
    sql: str
    answer: str


def rows_of(seed: int) -> dict[str, list[tuple]]:
    rng = random.Random(seed)
    beds = [
        (
            f"B-{i:02d}",
            rng.randint(5, 60),
            round(rng.uniform(5, 40), 1),
            rng.randint(0, 25),
            rng.choice(GLASSHOUSES),
            f"2024-{rng.randint(3, 6):02d}-{rng.randint(1, 28):02d}",
        )
        for i in range(1, 13)
    ]
    sites = ("Mill Pond", "Oak Lane", "Reed Bank", "Church Field", "Gorse Hill", "Weir End", "Salt Marsh", "Ash Copse")
    counts = [
        (site, rng.randint(2, 60), rng.randint(15, 120), rng.choice(OBSERVERS), round(rng.uniform(2, 35), 1))
        for site in sites
    ]
    return {"beds": beds, "counts": counts}


def sqlite_file(rows: dict[str, list[tuple]], path: Path) -> Path:
    """The tables as a SQLite file, each column's meaning a comment after it in its CREATE TABLE."""
    with sqlite3.connect(path) as con:
        for table, columns in TABLES.items():
            sqlite_table(con, table, columns, rows[table])
    return path


def sqlite_table(con: sqlite3.Connection, table: str, columns: Columns, rows: list[tuple]) -> None:
    """`table` with its `rows`, each column's meaning a comment after it in its CREATE TABLE."""
    lines = [
        f"  {name} {kind}{',' if i < len(columns) - 1 else ''}" + (f" -- {meaning}" if meaning else "")
        for i, (name, kind, meaning) in enumerate(columns)
    ]
    con.execute(f"CREATE TABLE {table} (\n" + "\n".join(lines) + "\n)")
    con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(columns))})", rows)


def chatdb_of(model: LLM, rows: dict[str, list[tuple]]) -> ChatDB:
    """ChatDB over the tables in DuckDB, each column's meaning its comment."""
    db = ChatDB(model=model, summarize=False)
    for table, columns in TABLES.items():
        duckdb_table(db, table, columns, rows[table])
    return db


def duckdb_table(db: ChatDB, table: str, columns: Columns, rows: list[tuple]) -> None:
    """`table` with its `rows` in `db`'s DuckDB session, each column's meaning its comment."""
    duck = {"TEXT": "VARCHAR", "INTEGER": "INTEGER", "REAL": "DOUBLE", "DATE": "DATE"}
    db.session.run(f"CREATE TABLE {table} ({', '.join(f'{n} {duck[k]}' for n, k, _ in columns)})")
    db.session.bind("loading", pd.DataFrame(rows, columns=[n for n, _, _ in columns]))
    db.session.run(f"INSERT INTO {table} SELECT * FROM loading")
    db.session.unbind("loading")
    for name, _, meaning in columns:
        if meaning:
            db.session.run(f"COMMENT ON COLUMN {table}.{name} IS '{meaning.replace(chr(39), chr(39) * 2)}'")


def self_check(path: Path) -> None:
    """Each gold statement runs and answers one way: a superlative has no tie."""
    for kind, question, gold in QUESTIONS:
        if kind != "answerable":
            continue
        rows = run_sqlite(gold, path)
        assert rows and rows[0][0] is not None, question
        if "LIMIT 1" in gold:
            measure = gold.split("ORDER BY ")[1].split(" DESC")[0]
            shown = gold.split("SELECT ")[1].split(" FROM")[0]
            top = run_sqlite(
                gold.replace(f"SELECT {shown}", f"SELECT {measure}", 1).replace("LIMIT 1", "LIMIT 2"), path
            )
            assert len(top) < 2 or top[0] != top[1], f"a tie: {question}"


def main() -> int:
    args = parse_args()
    model = select_backend(args.model)
    outcomes: list[Outcome] = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, args.out.open("w") as lines:
        rows = rows_of(args.seed)
        path = sqlite_file(rows, Path(folder) / "terse.sqlite")
        self_check(path)
        schema = raw_schema(path)
        db = chatdb_of(model, rows)
        for kind, question, gold in QUESTIONS:
            expected = run_sqlite(gold, path) if gold else []
            for way in args.ways.split(","):
                outcome = ask(way, model, db, schema, path, kind, question, gold, expected)
                outcomes.append(outcome)
                lines.write(json.dumps(asdict(outcome)) + "\n")
                lines.flush()
                if args.verbose:
                    mark = (
                        "right"
                        if outcome.right
                        else "refused"
                        if outcome.refused
                        else "flag"
                        if outcome.flagged
                        else "-"
                    )
                    print(f"[{way} {kind}] {mark:7} {outcome.seconds:5.1f}s {question}", flush=True)
        db.close()
    report(outcomes, args.ways.split(","))
    return 0


def ask(
    way: str, model: LLM, db: ChatDB, schema: str, path: Path, kind: str, question: str, gold: str, expected: list
) -> Outcome:
    started = time.perf_counter()
    if way == "raw":
        completion = model.complete(raw_messages(schema, question), max_tokens=300, stop=STOP)
        sql = reply_sql(completion.text)
        try:
            right = bool(gold) and same(
                pd.DataFrame.from_records(run_sqlite(sql, path)), expected, gold_is_ordered(gold)
            )
        except sqlite3.Error:
            right = False
        return Outcome(way, kind, question, right, False, False, time.perf_counter() - started, sql, "")
    try:
        reply = db.ask(question, use_memory=False)
    except ChatDBError as error:
        return Outcome(way, kind, question, False, False, False, time.perf_counter() - started, "", str(error))
    right = bool(gold) and reply.result is not None and same(reply.result, expected, gold_is_ordered(gold))
    refused = reply.answer.startswith(REFUSAL_OPENING)
    flagged = bool(reply.missing or reply.doubtful)
    sql = "; ".join(reply.sql)
    return Outcome(way, kind, question, right, refused, flagged, time.perf_counter() - started, sql, reply.answer)


def report(outcomes: list[Outcome], ways: list[str]) -> None:
    print(f"\nTerse columns with comments ({len(QUESTIONS)} questions)")
    print(f"  {'':32}" + "".join(f"{way:>14}" for way in ways))

    def line(label: str, kind: str, field: str) -> None:
        cells = []
        for way in ways:
            mine = [o for o in outcomes if o.way == way and o.kind == kind]
            cells.append(f"{sum(getattr(o, field) for o in mine)}/{len(mine)}")
        print(f"  {label:32}" + "".join(f"{c:>14}" for c in cells))

    line("answerable answered right", "answerable", "right")
    line("answerable refused", "answerable", "refused")
    line("unanswerable flagged", "unanswerable", "flagged")
    medians = [statistics.median(o.seconds for o in outcomes if o.way == way) for way in ways]
    print(f"  {'median seconds':32}" + "".join(f"{m:>14.1f}" for m in medians))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ways", default="native,raw")
    parser.add_argument("--model", default="local")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/terse_columns.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
