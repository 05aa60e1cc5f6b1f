"""The trades' questions in `text2sql.py`'s harness: ChatDB against the raw model on the trades' exact databases.

Each question of the chosen trades (`benchmarks/trades`: tune on library and clinic, quote toolhire, school
and warehouse) is asked on the trade's exact final state, in one run:

- raw: the embedded model alone, one shot, in Qwen's own text-to-SQL prompt style (every table's CREATE
  TABLE as DuckDB holds it, with 3 example rows; greedy, stopped at the statement's end); its SQL runs on
  DuckDB, once more as transpiled from SQLite if it fails (`records.py`'s baseline);
- each of `--systems`: `ChatDB.ask` over the same tables stored in ChatDB with their keys and CHECK lists
  (`records.copy_into`), answers not phrased (as in `text2sql.py`).

Scored by execution against the gold SQL, rows compared as a multiset: no trade question asks for an
order (a gold ORDER BY only keeps a listing stable, or picks a top N's rows with its LIMIT). The figures are
`text2sql.report`'s (paired difference, median time against raw's, easy questions' time, false "can't tell").
`--rescore` scores a saved details file again, its SQL run on the exact states, with today's comparison.

    python benchmarks/trade_questions.py --trades library,clinic -v
    python benchmarks/trade_questions.py --trades toolhire,school,warehouse --details benchmarks/out/tq.jsonl
    python benchmarks/trade_questions.py --summary benchmarks/out/tq.jsonl
    python benchmarks/trade_questions.py --rescore benchmarks/out/tq.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import duckdb
import sqlglot
from records import copy_into, final_state, raw_schema, raw_sql, run_raw
from spider import same
from text2sql import (
    Answer,
    ask_chatdb_reply,
    keep,
    read_answers,
    report,
    strategy_and_stages,
)
from trades import REPORT, TRADES, build
from trades.base import Question, Trade

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM

ORDERED = False  # rows compared as a multiset (see above)


def main() -> int:
    args = parse_args()
    if args.summary:
        report(read_answers(args.summary), args.summary.stem)
        return 0
    if args.rescore:
        report(rescored(read_answers(args.rescore), args.seed), f"{args.rescore.stem}, scored again")
        return 0
    model = select_backend(args.model)
    details = args.details or Path("benchmarks/out/trade_questions.jsonl")
    details.parent.mkdir(parents=True, exist_ok=True)
    answers: list[Answer] = []
    with details.open("w") as lines:
        for name in args.trades.split(","):
            trade = build(name, args.seed)
            questions = list(trade.questions[:: args.stride])
            for system in ("raw", *args.systems.split(",")):
                for answer in answer_all(system, model, trade, questions):
                    answers.append(answer)
                    keep(answer, lines, args.verbose)
    report(answers, f"trades {args.trades}, model {model.name}")
    return 0


def answer_all(system: str, model: LLM, trade: Trade, questions: list[Question]) -> Iterator[Answer]:
    con = final_state(trade)
    try:
        if system == "raw":
            schema = raw_schema(trade, con)
            for question in questions:
                yield ask_raw(model, schema, trade.name, question, con)
            return
        strategy, left_out = strategy_and_stages(system)
        chatdb = ChatDB(model=model, summarize=False, strategy=strategy, without=left_out)
        copy_into(con, chatdb)
        try:
            for question in questions:
                gold = con.execute(question.gold).fetchall()
                yield ask_chatdb_reply(chatdb, system, _number(question), trade.name, question.text, gold, ORDERED)
        finally:
            chatdb.close()
    finally:
        con.close()


def ask_raw(model: LLM, schema: str, trade: str, question: Question, con: duckdb.DuckDBPyConnection) -> Answer:
    started = time.perf_counter()
    sql = raw_sql(model, schema, question.text)
    executed, correct, error = False, False, ""
    try:
        frame = run_raw(con, sql)
        executed = True
        correct = same(frame, con.execute(question.gold).fetchall(), ORDERED)
    except (duckdb.Error, sqlglot.errors.SqlglotError) as failure:  # what neither DuckDB nor SQLite reads
        error = str(failure)[:300]
    seconds = time.perf_counter() - started
    return Answer(_number(question), trade, question.text, "raw", sql, executed, correct, seconds, 1, error)


def rescored(answers: list[Answer], seed: int) -> list[Answer]:
    """The saved answers scored again: each one's SQL run on its trade's exact state. An answer whose SQL
    does not run there (it read a view of the ChatDB session) keeps its saved verdict."""
    golds: dict[tuple[str, int], str] = {}
    states: dict[str, duckdb.DuckDBPyConnection] = {}
    for name in dict.fromkeys(a.db_id for a in answers):
        trade = build(name, seed)
        states[name] = final_state(trade)
        golds.update({(name, _number(q)): q.gold for q in trade.questions})
    scored, kept = [], 0
    for answer in answers:
        con = states[answer.db_id]
        if answer.executed:
            try:
                frame = run_raw(con, answer.sql)
                answer = replace(
                    answer, correct=same(frame, con.execute(golds[answer.db_id, answer.id]).fetchall(), ORDERED)
                )
            except (duckdb.Error, sqlglot.errors.SqlglotError):
                kept += 1
        scored.append(answer)
    for con in states.values():
        con.close()
    print(f"{kept} of {len(answers)} answers keep their saved verdict (their SQL does not run on the exact state)")
    return scored


def _number(question: Question) -> int:
    return int(question.id.lstrip("q"))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trades", default=",".join(REPORT), help=f"some of {', '.join(TRADES)}")
    parser.add_argument("--stride", type=int, default=1, help="ask every Nth question of each trade")
    parser.add_argument(
        "--systems", default="native", help="ChatDB strategies beside raw (STRATEGY-STAGE leaves one out)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="local")
    parser.add_argument("--details", type=Path, help="per-question JSON Lines")
    parser.add_argument("--summary", type=Path, help="print the figures of a saved details file and stop")
    parser.add_argument("--rescore", type=Path, help="score a saved details file again and print its figures")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
