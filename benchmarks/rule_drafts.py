"""Rules drafted from one sentence against the hand-written rule, on the trades (benchmarks/trades).

For each trade's rule: a database in the exact state after all its records (the hand-written rules kept
it true), the columns the rule keeps set to 0, then the rule drafted from its sentence and kept the way a
user does (`ChatDB.propose_rule`, then `apply`): the rule is read (correlated, coalesce), run twice, and
tried with a made-up row per table it reads, and a draft that fails a check goes back to the model. The
state after it is compared with the exact state, table by table. Beside it, in the same run, the model's
first draft run as written (what keeping a draft unchecked would do).

    python benchmarks/rule_drafts.py --trades library,clinic
    python benchmarks/rule_drafts.py --trades toolhire,school,warehouse --out benchmarks/out/rules.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import duckdb
import sqlglot
from sqlglot import exp
from trades import TRADES, TUNE, build
from trades.base import Rule, Trade, load, snapshot

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import Event, ModelText
from jupyter_chatdb.controller.native_sql import reply_sql
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM

WRITES = "UPDATE|INSERT|DELETE|WITH"


def main() -> int:
    args = parse_args()
    model = select_backend(args.model)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    with args.out.open("a") as out:
        for name in args.trades.split(","):
            trade = build(name, args.seed)
            for rule in trade.rules:
                row = draft(trade, rule, model)
                rows.append(row)
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(
                    f"{name} {rule.name!r}: system {row['system']}, first draft {row['first_draft']}"
                    f" ({row['seconds']:.1f} s, {row['calls']} calls)",
                    flush=True,
                )
    for way in ("system", "first_draft"):
        matched = sum(r[way] == "matches" for r in rows)
        print(f"{way}: {matched}/{len(rows)} rules match the hand-written rule's effect")
    return 0


def scrambled(trade: Trade, rule: Rule, model: LLM) -> ChatDB:
    """The exact state after every record, with the columns `rule` keeps set to 0; no rule kept."""
    db = ChatDB(model=model, schema=trade.schema, summarize=False, strategy="native")
    if trade.reference.strip():
        db.session.rows(trade.reference)
    for record in trade.records:
        for statement in record.gold:
            db.session.rows(statement)
        for kept in trade.rules:
            db.session.rows(kept.sql)
    table, columns = kept_columns(rule)
    db.session.rows(f'UPDATE "{table}" SET ' + ", ".join(f'"{c}" = 0' for c in columns))
    return db


def kept_columns(rule: Rule) -> tuple[str, list[str]]:
    tree = sqlglot.parse_one(rule.sql, read="duckdb")
    assert isinstance(tree, exp.Update)
    return tree.this.name, [e.this.name for e in tree.expressions if isinstance(e, exp.EQ)]


def expected(trade: Trade) -> dict[str, list[tuple]]:
    con = duckdb.connect()
    load(con, trade)
    try:
        return snapshot(con, trade)
    finally:
        con.close()


def draft(trade: Trade, rule: Rule, model: LLM) -> dict[str, object]:
    want = expected(trade)
    db = scrambled(trade, rule, model)
    pieces: list[tuple[str, str]] = []

    def seen(event: Event) -> None:
        if isinstance(event, ModelText):
            pieces.append((event.purpose, event.text))

    started = time.perf_counter()
    error, sql, calls = "", "", 0
    try:
        reply = db.propose_rule(rule.name.replace(" ", "_"), rule.sentence, on_event=seen)
        calls = reply.usage.calls
        sql = reply.sql[0] if reply.sql else ""
        if reply.pending:
            db.apply(reply)
        system = "matches" if snapshot(db.session.rows, trade) == want else "differs"
    except ChatDBError as failure:
        system, error = "refused", str(failure)
    seconds = time.perf_counter() - started
    db.close()
    first_text = "".join(text for purpose, text in _first_call(pieces))
    first_sql = reply_sql(first_text, WRITES)
    first = scrambled(trade, rule, model)
    try:
        first.session.rows(first_sql)
        first_draft = "matches" if snapshot(first.session.rows, trade) == want else "differs"
    except duckdb.Error as failure:
        first_draft = f"fails ({str(failure)[:80]})"
    first.close()
    return {
        "trade": trade.name,
        "part": "tune" if trade.name in TUNE else "report",
        "rule": rule.name,
        "system": system,
        "first_draft": first_draft if first_sql else "no SQL",
        "sql": sql,
        "first_sql": first_sql,
        "error": error[:300],
        "seconds": seconds,
        "calls": calls,
    }


def _first_call(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pieces of the first rule call's text (the pieces before the first repair)."""
    first = []
    for purpose, text in pieces:
        if purpose != "rule":
            break
        first.append((purpose, text))
    return first


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trades", default=",".join(TUNE), help=f"some of {', '.join(TRADES)}")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="local")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/rule_drafts.jsonl"))
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
