"""The fruit-shop questions on the shop's exact database (written from the records' facts, so recording plays
no part): ChatDB against the raw model, in one run.

The questions are split once, here, by family (a family's wordings stay together): the TUNE half may be
looked at, figures are quoted from the REPORT half. The raw model gets the database as a SQLite file (the
schema's CREATE TABLEs with 3 example rows, "Using valid SQLite ...", greedy, as `text2sql.py` asks it)
and its SQL runs there; ChatDB asks each of `--systems` over the DuckDB database. An answer is right when
its text or its result (as CSV) holds the gold answer by the dataset's rules (`fruitshop.matches`).

    python benchmarks/fruitshop_questions.py --dataset ../shared/datasets/fruitshop_a70 --half report -v
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import sqlglot
from fruitshop import DATASET, all_questions, all_records, load_facts, matches
from text2sql import raw_messages, raw_schema, run_sqlite, strategy_and_stages

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.native_sql import STOP, reply_sql
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM

RAW_MAX_TOKENS = 300


def of_half(questions: list[dict], half: str) -> list[dict]:
    """The questions of `half`: families in alphabetical order go alternately to tune and report (fixed
    once, 2026-11-23)."""
    families = sorted({q["family"] for q in questions})
    wanted = families[0 if half == "tune" else 1 :: 2]
    return [q for q in questions if q["family"] in wanted]


def main() -> int:
    args = parse_args()
    questions = of_half(all_questions(args), args.half)
    questions = questions[: args.limit] if args.limit else questions
    model = select_backend(args.model)
    results: dict[str, list[tuple[dict, bool, float]]] = {}
    details = args.details or Path(f"benchmarks/out/fruitshop_questions_{args.half}.jsonl")
    details.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, details.open("w") as lines:
        facts = ChatDB(model=model, schema=args.dataset / "schema.sql", summarize=False)
        load_facts(facts, all_records(args))
        sqlite_path = to_sqlite(facts, args.dataset / "schema.sql", Path(folder) / "shop.sqlite")
        facts.close()
        schema = raw_schema(sqlite_path)
        for system in ("raw", *args.systems.split(",")):
            results[system] = []
            db = None
            if system != "raw":
                strategy, left_out = strategy_and_stages(system)
                db = ChatDB(
                    model=model,
                    schema=args.dataset / "schema.sql",
                    summarize=False,
                    strategy=strategy,
                    without=left_out,
                )
                load_facts(db, all_records(args))
            for question in questions:
                started = time.perf_counter()
                texts, sql, error = answer(model, db, (schema, sqlite_path), question)
                right = any(matches(text, question) for text in texts)
                seconds = time.perf_counter() - started
                results[system].append((question, right, seconds))
                lines.write(json.dumps({"system": system, "question": question["id"], "right": right, "sql": sql,
                                        "error": error, "seconds": round(seconds, 1)}) + "\n")  # fmt: skip
                lines.flush()
                if args.verbose:
                    print(f"[{system}] {question['id']} {'ok ' if right else 'no '} {seconds:5.1f}s {sql}", flush=True)
            if db is not None:
                db.close()
    report(results, args)
    return 0


def answer(model: LLM, db: ChatDB | None, raw: tuple[str, Path], question: dict) -> tuple[list[str], str, str]:
    """The texts to score (an answer and/or a result as CSV), the SQL that ran last, and an error: ChatDB's
    when `db` is given, else the raw model's over `raw` (its prompt's schema and the SQLite file)."""
    if db is None:
        schema, sqlite_path = raw
        completion = model.complete(raw_messages(schema, question["text"]), max_tokens=RAW_MAX_TOKENS, stop=STOP)
        sql = reply_sql(completion.text)
        try:
            rows = run_sqlite(sql, sqlite_path)
        except sqlite3.Error as error:
            return [], sql, str(error)
        return [pd.DataFrame.from_records(rows).to_csv(index=False, header=False)], sql, ""
    try:
        reply = db.ask(question["text"])
    except ChatDBError as error:
        return [], "", str(error)
    result = reply.result.to_csv(index=False) if reply.result is not None else ""
    return [reply.answer, result], (reply.sql[-1] if reply.sql else ""), ""


def to_sqlite(db: ChatDB, schema: Path, path: Path) -> Path:
    """The database as a SQLite file: the schema's tables (keys kept, sequences dropped) and their rows."""
    with sqlite3.connect(path) as con:
        for statement in sqlglot.parse(schema.read_text(), read="duckdb"):
            if isinstance(statement, sqlglot.exp.Create) and str(statement.args.get("kind")).upper() == "TABLE":
                for default in list(statement.find_all(sqlglot.exp.DefaultColumnConstraint)):
                    default.parent.pop()  # nextval() defaults
                con.execute(statement.sql(dialect="sqlite"))
        for (table,) in db.session.rows("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"):
            frame = db.session.frame(f'SELECT * FROM "{table}"')
            frame = frame.astype(object).where(frame.notna(), None)
            marks = ", ".join("?" for _ in frame.columns)
            rows = [tuple(_plain(v) for v in row) for row in frame.itertuples(index=False)]
            con.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)
    return path


def _plain(value: object) -> object:
    if value is None or isinstance(value, (int, float, str)):
        return value
    if hasattr(value, "isoformat"):
        return value.isoformat()[:10] if type(value).__name__ in ("date", "Timestamp") else value.isoformat()
    return float(value)  # type: ignore[arg-type]  # Decimal


def report(results: dict[str, list[tuple[dict, bool, float]]], args: argparse.Namespace) -> None:
    systems = list(results)
    n = len(next(iter(results.values())))
    print(f"\nFruit-shop questions on the exact database, {args.half} half: {n} questions")
    print(f"  {'':22}" + "".join(f"{s:>12}" for s in systems))
    for label, level in (("easy", {"easy"}), ("hard", {"hard"}), ("all", {"easy", "hard"})):
        cells = []
        for system in systems:
            chosen = [right for q, right, _ in results[system] if q["difficulty"] in level]
            cells.append(f"{sum(chosen)}/{len(chosen)}" if chosen else "-")
        print(f"  {'right, ' + label:22}" + "".join(f"{c:>12}" for c in cells))
    print(
        f"  {'median seconds':22}" + "".join(f"{statistics.median(s for *_, s in results[x]):>12.1f}" for x in systems)
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--half", choices=["tune", "report"], default="report")
    parser.add_argument(
        "--systems",
        default="native",
        help="ChatDB strategies beside the raw model, comma-separated (STRATEGY-STAGE leaves a stage out)",
    )
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--model", default="local")
    parser.add_argument("--details", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
