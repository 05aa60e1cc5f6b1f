"""Record and answer on trades shaped unlike the fruit shop (benchmarks/trades), beside baselines in one run.

Per trade, with the embedded model:
- records: each (or every `--stride`-th) record is asked with writes allowed, from a fresh database holding
  exactly the state before it (the trade's schema, reference rows, its rule kept as the user's hand-written
  SQL, and the gold statements of the records before), by the system (`--system`, default native) and by
  the baseline (one-round: one SQL call and one repair); the database after it is compared with the exact
  state after it, table by table (ids replaced by names: `Trade.snapshot`). Per record kind, wording and
  class (`Record.does`: "new", or a change that sets, clears, copies from another row, adds to a number,
  removes), and per record the junk rows an applied write left, a change written as an INSERT, the reason
  an approval card gave, and the model calls and seconds per purpose (`record_scores.py`).
- taught: as a user who keeps the first record of each kind as a procedure once it is right (the card's
  Keep as procedure: `generalize` over its gold statements, as over an approved write), then records the
  rest: each later record of every kind (every `--stride`-th, from `--offset`) from the exact state before
  it, by the system with every kind's procedure kept ("<system>+taught") and by the system cold, without
  procedures, in the same run; per row, the procedure used and whether it is the record's own kind.
- cumulative: every record asked in order on one database, as a user keeps a log, by the system; the
  trade's state checks (`Trade.checks`) against the exact state every 10 records and at the end.
- questions: each question on the exact final state, by the raw model (one shot, Qwen's own text-to-SQL
  prompt style: every table's CREATE TABLE with 3 example rows; its SQL runs on DuckDB, once more as
  transpiled from SQLite if it fails) and by the system, scored by execution against the gold SQL.
Tune on `trades.TUNE`, quote `trades.REPORT`. Details go to `--out` as they come, so a stopped run keeps
what it measured (`--summary FILE` prints the figures of a saved run). For tuning the reading of writes,
`--reading-only --no-baseline` asks each record without the planner after the reading (a write the
reading cannot take fails at once) and without the baseline: its figures are never the system's.

    python benchmarks/records.py --trades library,clinic --stride 3
    python benchmarks/records.py --trades toolhire --parts questions
    python benchmarks/records.py --trades school --parts cumulative
    python benchmarks/records.py --trades library,clinic --parts taught --stride 3
    python benchmarks/records.py --summary benchmarks/out/records.jsonl
    python benchmarks/records.py --trades toolhire,school,warehouse --parts records --spread --stride 8 --list
    python benchmarks/records.py --trades library,clinic --stride 4 --reading-only --no-baseline
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path

import duckdb
import pandas as pd
import sqlglot
from record_scores import Watch, junk_rows, pick, print_classes, summarize, writes_insert
from spider import same
from text2sql import RAW_MAX_TOKENS, SAMPLE_ROWS, raw_messages, table_text
from trades import TRADES, TUNE, build
from trades.base import Record, Trade, fills_empty, inserts_into, load, snapshot, state_checks

from jupyter_chatdb import ChatDB, ChatDBError, Reply
from jupyter_chatdb.controller.events import (
    Event,
    FactsExtracted,
    FactsNotUsed,
    ModelText,
    ProcedureNotUsed,
    ProcedureUsed,
)
from jupyter_chatdb.controller.native_sql import STOP, reply_sql
from jupyter_chatdb.errors import ModelOutputError
from jupyter_chatdb.kernel_memory.generalize import generalize
from jupyter_chatdb.kernel_memory.procedures import Procedure, ProcedureError
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM
from jupyter_chatdb.llm.minilm import LazyMiniLMEmbedder
from jupyter_chatdb.sql.check_lists import check_lists
from jupyter_chatdb.sql.session import Session

BASELINE = "one-round"


class ReadingOnly:
    """The model, refusing to plan: a write the reading cannot take fails at once (`--reading-only`, for
    tuning the reading of writes fast; its figures are the reading's, never the system's)."""

    def __init__(self, model: LLM) -> None:
        self.model, self.name = model, model.name

    def complete(self, messages, *, json_schema=None, **kwargs):  # type: ignore[no-untyped-def]
        if json_schema is not None and "steps" in json_schema.get("properties", {}):
            raise ModelOutputError("reading only: a plan was asked for")
        return self.model.complete(messages, json_schema=json_schema, **kwargs)


def main() -> int:
    args = parse_args()
    if args.summary:
        summarize([json.loads(line) for line in args.summary.read_text().splitlines() if line.strip()])
        return 0
    if args.list:  # no model: what each trade's records do, and which a run with these options asks
        for name in args.trades.split(","):
            trade = build(name, args.seed)
            empty = fills_empty(trade)
            print_classes(
                trade, pick(trade.records, args.stride, args.spread, empty, args.offset)[: args.records or None], empty
            )
        return 0
    model = select_backend(args.model)
    if args.reading_only:
        model = ReadingOnly(model)  # type: ignore[assignment]
    embedder = LazyMiniLMEmbedder()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    with args.out.open("a") as out:

        def keep(row: dict, item: str, outcome: object) -> None:
            """A row's details saved as it comes, so a stopped run keeps what it measured."""
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            if args.verbose:
                print(f"{row['trade']} {item} {row['way']}: {outcome} ({row['seconds']:.1f} s)", flush=True)

        for name in args.trades.split(","):
            trade = build(name, args.seed)
            parts = args.parts.split(",")
            if "records" in parts:
                empty = fills_empty(trade) if args.spread else ()
                picked = pick(trade.records, args.stride, args.spread, empty, args.offset)
                for number in picked[: args.records or None]:
                    if args.only and trade.records[number].id not in args.only.split(","):
                        continue
                    if args.classes and not trade.records[number].does.startswith(tuple(args.classes.split(","))):
                        continue
                    for way in (args.system, *args.baseline.split(","))[: 1 if args.no_baseline else None]:
                        row = attempt_record(trade, number, way, model, embedder)
                        keep(row, row["record"], row["outcome"])
            if "taught" in parts:
                first, procedures = taught_procedures(trade)
                later = [n for n in range(len(trade.records)) if n not in first.values()]
                for number in later[args.offset :: args.stride][: args.records or None]:
                    if args.only and trade.records[number].id not in args.only.split(","):
                        continue
                    for kept in (procedures, ())[: 1 if args.no_baseline else None]:
                        row = attempt_record(trade, number, args.system, model, embedder, kept)
                        row["way"] = f"{args.system}+taught" if kept else args.system
                        keep(row, trade.records[number].id, row["outcome"])
            if "cumulative" in parts:
                for row in cumulative(trade, args.system, model, embedder, args.records):
                    keep(row, f"after {row['after']}", f"{row['checks_right']}/{row['checks']} checks")
            if "questions" in parts:
                for question in trade.questions[:: args.question_stride][: args.questions or None]:
                    for way in ("raw", args.system):
                        row = attempt_question(trade, question.id, way, model, embedder)
                        keep(row, row["question"], row["correct"])
    summarize(rows)
    return 0


# -- records ---------------------------------------------------------------------------------------


def database(trade: Trade, upto: int, model: LLM, embedder: object, strategy: str) -> ChatDB:
    """A ChatDB holding exactly the state after the first `upto` records, its rules kept as the user's SQL."""
    strategy, *left_out = strategy.split("~")  # "native~read_change": native without that stage
    db = ChatDB(
        model=model,
        schema=trade.schema,
        summarize=False,
        strategy=strategy,
        without=left_out,
        embedder=embedder,  # type: ignore[arg-type]
    )
    if trade.reference.strip():
        db.session.rows(trade.reference)
    for rule in trade.rules:
        db.keep_rule(rule.name, rule.sql, rule.sentence)
    for record in trade.records[:upto]:
        db.session.begin()
        for statement in record.gold:
            db.session.rows(statement)
        for rule in trade.rules:
            db.session.rows(rule.sql)
        db.session.commit()
    return db


def expected_after(trade: Trade, upto: int) -> dict[str, list[tuple]]:
    con = duckdb.connect()
    try:
        load(con, trade, upto)
        return snapshot(con, trade)
    finally:
        con.close()


def taught_procedures(trade: Trade) -> tuple[dict[str, int], list[Procedure]]:
    """Each record kind's first record, and the procedures kept from them as a user keeps an approved
    write (`ChatDB.learn`: the values its text says become parameters), named by the kind."""
    first: dict[str, int] = {}
    for number, record in enumerate(trade.records):
        first.setdefault(record.kind, number)
    procedures = []
    session = Session()
    try:
        session.rows(trade.schema)
        listed = check_lists(session)  # as `ChatDB.learn` reads them from the session
    finally:
        session.close()
    for kind, number in first.items():
        record = trade.records[number]
        steps = [(f"step {n}", sql, ()) for n, sql in enumerate(record.gold, start=1)]
        try:
            learned = generalize(record.text, steps, listed=listed)
            procedures.append(Procedure.learned(_procedure_name(kind), record.text, learned, f"record {record.id}"))
        except ProcedureError:  # nothing to keep: its kind is recorded cold
            continue
    return first, procedures


def _procedure_name(kind: str) -> str:
    """The name a kind's procedure is kept under, as a user would write it ("contact dropped")."""
    return kind.replace("_", " ")


def attempt_record(
    trade: Trade, number: int, way: str, model: LLM, embedder: object, procedures: Sequence[Procedure] = ()
) -> dict[str, object]:
    """Record `trade.records[number]` one way from the exact state before it, with `procedures` kept."""
    record: Record = trade.records[number]
    db = database(trade, number, model, embedder, way)
    for procedure in procedures:
        db.procedures.keep(procedure)
    used: list[str] = []  # the procedure run, by name
    before = snapshot(db.session.rows, trade)
    into_empty = any(not db.session.rows(f'SELECT count(*) FROM "{t}"')[0][0] for t in inserts_into(record.gold))
    started = time.perf_counter()
    error, calls, sql = "", 0, []
    readings: list[str] = []
    extract: list[str] = []  # the reading's text as the model wrote it
    change: list[str] = []  # the reading of what a write does to rows, as the model wrote it
    chose: list[str] = []  # the model's choice among the procedures offered, as it wrote it
    not_used: list[str] = []  # the procedures offered or chosen and not run, and why
    watch = Watch()  # model calls and seconds per purpose, the approval card's reason

    def seen(event: Event) -> None:
        watch(event)
        if isinstance(event, ModelText) and event.purpose == "extract":
            extract.append(event.text)
        elif isinstance(event, ModelText) and event.purpose == "change":
            change.append(event.text)
        elif isinstance(event, ModelText) and event.purpose == "procedure":
            chose.append(event.text)
        elif isinstance(event, ProcedureNotUsed):
            not_used.append(f"{event.name}: {event.reason}")
        elif isinstance(event, FactsNotUsed):
            readings.append(f"not used: {event.reason}")
        elif isinstance(event, FactsExtracted):
            readings.append(f"read: {event.rows}" + (f"; left out {event.unstated}" if event.unstated else ""))
        elif isinstance(event, ProcedureUsed):
            used.append(event.name)

    reply = None
    try:
        reply = db.ask(record.text, allow_writes=True, on_event=seen)
        state, calls, sql = ("pending" if reply.pending else "applied"), reply.usage.calls, list(reply.sql)
    except ChatDBError as failure:
        state, error = "failed", str(failure)
    seconds = time.perf_counter() - started
    got = snapshot(db.session.rows, trade)
    expected = expected_after(trade, number + 1)
    held = _if_approved(db, reply, trade, expected, before) if state == "pending" and reply is not None else ""
    db.close()
    differ = [table for table in trade.snapshot if got[table] != expected[table]]
    if state == "applied":
        outcome = "exact" if not differ else ("unchanged" if got == before else "inexact")
    else:
        outcome = state
    does = record.does
    return {
        "part": "records",
        "trade": trade.name,
        "record": record.id,
        "kind": record.kind,
        "wording": record.wording,
        "does": does,  # "new" or "change:<how>", read from the gold SQL
        "into_empty": into_empty,  # a fact into a table empty before it
        "way": way,
        "outcome": outcome,
        "differ": differ,
        "junk_rows": junk_rows(got, expected, before)
        if state == "applied"
        else None,  # pending and failed apply nothing
        "insert_for_change": state == "applied" and does.startswith("change") and writes_insert(sql),
        "wait_reason": watch.reason if state == "pending" else "",
        "if_approved": held,  # a held write, approved as shown: exact, inexact (junk rows) or failed
        "seconds": seconds,
        "calls": calls,
        "calls_by_purpose": watch.calls(),
        "seconds_by_purpose": watch.seconds(),
        "error": error[:300],
        "sql": sql,
        "readings": readings,
        "extract": "".join(extract)[:600],
        "change": "".join(change)[:600],
        "procedure": used[-1] if used else "",
        "own_procedure": bool(used) and used[-1] == _procedure_name(record.kind),
        "procedure_chosen": chose,
        "procedure_not_used": not_used,
    }


def _if_approved(db: ChatDB, reply: Reply, trade: Trade, expected: dict, before: dict) -> str:
    """What a held write would have done had the user approved it as shown (no model call): whether its
    hold kept a wrong write out, or held a right one. Measured after the record's own outcome."""
    try:
        db.apply(reply)
    except ChatDBError:
        return "failed"
    got = snapshot(db.session.rows, trade)
    if all(got[table] == expected[table] for table in trade.snapshot):
        return "exact"
    return f"inexact ({junk_rows(got, expected, before)} junk rows)"


def cumulative(trade: Trade, way: str, model: LLM, embedder: object, limit: int = 0) -> Iterator[dict[str, object]]:
    """Every record asked in order on one database (from the state before the first), as a user keeps a
    log; the trade's state checks against the exact state, every `CHECK_EVERY` records and at the end."""
    records = trade.records[: limit or None]
    db = database(trade, 0, model, embedder, way)
    outcomes: dict[str, int] = defaultdict(int)
    started = time.perf_counter()
    try:
        for number, record in enumerate(records, 1):
            try:
                reply = db.ask(record.text, allow_writes=True)
                outcomes["pending" if reply.pending else "applied"] += 1
            except ChatDBError:
                outcomes["failed"] += 1
            if number % CHECK_EVERY == 0 or number == len(records):
                con = duckdb.connect()
                load(con, trade, number)
                expected = state_checks(con, trade)
                con.close()
                got = state_checks(db.session.rows, trade)
                right = [name for name in trade.checks if got[name] == expected[name]]
                yield {
                    "part": "cumulative",
                    "trade": trade.name,
                    "way": way,
                    "after": number,
                    "checks": len(trade.checks),
                    "checks_right": len(right),
                    "wrong": [name for name in trade.checks if name not in right],
                    "outcomes": dict(outcomes),
                    "seconds": time.perf_counter() - started,
                }
    finally:
        db.close()


CHECK_EVERY = 10


# -- questions -------------------------------------------------------------------------------------


def final_state(trade: Trade) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    load(con, trade)
    return con


def raw_schema(trade: Trade, con: duckdb.DuckDBPyConnection) -> str:
    """Each table's CREATE TABLE as DuckDB holds it, with its first rows, as Qwen's text-to-SQL prompts show one."""
    tables = con.execute("SELECT table_name, sql FROM duckdb_tables() ORDER BY table_oid").fetchall()
    return "\n\n".join(
        table_text(name, create, con.execute(f'SELECT * FROM "{name}" LIMIT {SAMPLE_ROWS}')) for name, create in tables
    )


def attempt_question(trade: Trade, question_id: str, way: str, model: LLM, embedder: object) -> dict[str, object]:
    question = next(q for q in trade.questions if q.id == question_id)
    con = final_state(trade)
    gold = con.execute(question.gold).fetchall()
    ordered = False  # no trade question asks for an order (see trade_questions.py)
    started = time.perf_counter()
    sql, error, executed, correct, answer = "", "", False, False, ""
    try:
        if way == "raw":
            sql = raw_sql(model, raw_schema(trade, con), question.text)
            frame = run_raw(con, sql)
        else:
            db = ChatDB(model=model, summarize=True, strategy=way, embedder=embedder)  # type: ignore[arg-type]
            copy_into(con, db)
            try:
                reply = db.ask(question.text)
            finally:
                db.close()
            sql, answer = (reply.sql[-1] if reply.sql else ""), reply.answer
            frame = reply.result
        executed = frame is not None
        correct = executed and same(frame, gold, ordered)
    except (ChatDBError, duckdb.Error) as failure:
        error = str(failure)
    con.close()
    return {
        "part": "questions",
        "trade": trade.name,
        "question": question.id,
        "family": question.family,
        "way": way,
        "sql": sql,
        "answer": answer[:300],
        "executed": executed,
        "correct": correct,
        "seconds": time.perf_counter() - started,
        "error": error[:300],
    }


def raw_sql(model: LLM, schema: str, question: str) -> str:
    """The raw model's SQL for `question`: one shot, in Qwen's prompt style, greedy, stopped at its end."""
    return reply_sql(model.complete(raw_messages(schema, question), max_tokens=RAW_MAX_TOKENS, stop=STOP).text)


def run_raw(con: duckdb.DuckDBPyConnection, sql: str) -> pd.DataFrame:
    """The raw model's SQL on DuckDB as written, else once more as transpiled from SQLite."""
    try:
        return con.execute(sql).df()
    except duckdb.Error:
        translated = sqlglot.transpile(sql, read="sqlite", write="duckdb")
        if len(translated) != 1:
            raise
        return con.execute(translated[0]).df()


def copy_into(con: duckdb.DuckDBPyConnection, db: ChatDB) -> None:
    """The exact state's tables as the ChatDB's own stored tables, with their keys and checks (same DDL)."""
    tables = con.execute("SELECT table_name, sql FROM duckdb_tables() ORDER BY table_oid").fetchall()
    sequences = con.execute("SELECT sequence_name, last_value FROM duckdb_sequences()").fetchall()
    for name, last in sequences:
        db.session.rows(f'CREATE SEQUENCE "{name}" START {(last or 0) + 1}')
    for name, create in tables:
        db.session.rows(create)
        frame = con.execute(f'SELECT * FROM "{name}"').df()
        db.session.bind("chatdb_copy", frame)
        db.session.rows(f'INSERT INTO "{name}" SELECT * FROM chatdb_copy')
        db.session.unbind("chatdb_copy")


# -- figures ---------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trades", default=",".join(TUNE), help=f"some of {', '.join(TRADES)}")
    parser.add_argument(
        "--parts",
        default="records,questions",
        help="some of records (each from the exact state), taught, cumulative, questions",
    )
    parser.add_argument("--system", default="native", help="the ChatDB strategy measured")
    parser.add_argument(
        "--baseline",
        default=BASELINE,
        help="the strategies it is compared with, comma-separated (one-round); native~read_change: native "
        "without that stage",
    )
    parser.add_argument("--reading-only", action="store_true", help="no planning after the reading: for tuning")
    parser.add_argument("--no-baseline", action="store_true", help="the system alone: for tuning, never to quote")
    parser.add_argument("--stride", type=int, default=1, help="every N-th record")
    parser.add_argument("--offset", type=int, default=0, help="from the N-th record on (of each class with --spread)")
    parser.add_argument(
        "--spread", action="store_true", help="the stride within each class of record (new, change:...)"
    )
    parser.add_argument(
        "--list", action="store_true", help="print each trade's records per class and the picked; no model"
    )
    parser.add_argument("--only", default="", help="only these record ids (r01,r09): for debugging")
    parser.add_argument(
        "--classes", default="", help="only records whose class starts with one of these (change,new): for tuning"
    )
    parser.add_argument("--records", type=int, default=0, help="at most N records per trade")
    parser.add_argument("--questions", type=int, default=0, help="at most N questions per trade")
    parser.add_argument("--question-stride", type=int, default=1, help="every N-th question")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="local")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/records.jsonl"))
    parser.add_argument("--summary", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
