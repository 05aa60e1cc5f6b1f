"""Record, and compare, what the controller does on a fixed sample: for refactors that must change nothing.

The sample: 40 Spider dev questions spread over the databases (every 18th), the first 5 fruit-shop
records and the first 3 records of each tune trade (writes allowed, each on the state the ones before it
left), asked with the embedded model's greedy decoding, answers phrased by the
model, and a fresh thought memory (recall before, post-thinking after each request). Each request's
route, SQL, result (as its digest; the rows sorted first when the SQL sets no order), answer, thoughts
stored and model-call count go to a JSON Lines file.

    python benchmarks/same_behaviour.py --out benchmarks/out/before.jsonl      # on the old code
    python benchmarks/same_behaviour.py --out benchmarks/out/after.jsonl       # on the new code
    python benchmarks/same_behaviour.py --compare benchmarks/out/before.jsonl benchmarks/out/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from fruitshop import DATASET as FRUITSHOP
from spider import DATASET as SPIDER
from spider import read_sqlite
from trades import TUNE, build

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import Answered, MemoryStored
from jupyter_chatdb.kernel_memory.thoughts import open_memory
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM
from jupyter_chatdb.sql.replays import result_digest

FIELDS = ("route", "sql", "result", "answer", "pending", "stored", "calls", "error")


def record(model: LLM, out: Path) -> None:
    questions = json.loads((SPIDER / "dev.json").read_text())[::18][:40]
    records = [json.loads(line) for line in (FRUITSHOP / "records.jsonl").read_text().splitlines() if line.strip()][:5]
    with tempfile.TemporaryDirectory() as folder, out.open("w") as lines:
        memory = open_memory(Path(folder) / "sample.memory.sqlite")
        for db_id in dict.fromkeys(q["db_id"] for q in questions):
            chatdb = ChatDB(model=model, memory=memory)
            for name, frame in read_sqlite(SPIDER / "database" / f"{db_id}.sqlite").items():
                chatdb.register(name, frame)
            for question in (q for q in questions if q["db_id"] == db_id):
                lines.write(
                    json.dumps({"id": f"spider-{db_id}-{question['question']}", **_ask(chatdb, question["question"])})
                    + "\n"
                )
                lines.flush()
            chatdb.close()
        shop = ChatDB(model=model, memory=memory, schema=FRUITSHOP / "schema.sql")
        for item in records:
            lines.write(json.dumps({"id": f"fruitshop-{item['id']}", **_ask(shop, item["text"], writes=True)}) + "\n")
            lines.flush()
        shop.close()
        for name in TUNE:
            trade = build(name)
            business = ChatDB(model=model, memory=memory, schema=trade.schema)
            if trade.reference.strip():
                business.session.rows(trade.reference)
            for rule in trade.rules:
                business.keep_rule(rule.name, rule.sql, rule.sentence)
            for item in trade.records[:3]:
                row = _ask(business, item.text, writes=True)
                lines.write(json.dumps({"id": f"{name}-{item.id}", **row}) + "\n")
                lines.flush()
            business.close()


def _ask(chatdb: ChatDB, text: str, writes: bool = False) -> dict[str, object]:
    events: list[object] = []
    started = time.perf_counter()
    try:
        reply = chatdb.ask(text, allow_writes=writes, on_event=events.append)
    except ChatDBError as error:
        return {"error": str(error), "seconds": round(time.perf_counter() - started, 1)}
    stored = [text for event in events if isinstance(event, MemoryStored) for _, text in event.added]
    answered = next(event.reply for event in events if isinstance(event, Answered))
    return {
        "route": reply.route,
        "sql": reply.sql,
        "result": result_digest(_in_order(reply.result, reply.sql)),
        "answer": reply.answer,
        "pending": reply.pending,
        "stored": stored,
        "calls": answered.usage.calls,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _in_order(result: pd.DataFrame | None, sql: list[str]) -> pd.DataFrame | None:
    """The result with its rows sorted when the SQL sets no order: the same rows in another order are the same."""
    if result is None or not sql or "order by" in sql[-1].lower():
        return result
    return result.sort_values(list(result.columns), key=lambda column: column.astype(str)).reset_index(drop=True)


def compare(before: Path, after: Path) -> int:
    old = {row["id"]: row for row in map(json.loads, before.read_text().splitlines())}
    new = {row["id"]: row for row in map(json.loads, after.read_text().splitlines())}
    differences = 0
    for key in old.keys() | new.keys():
        a, b = old.get(key, {}), new.get(key, {})
        for name in FIELDS:
            if a.get(name) != b.get(name):
                differences += 1
                print(f"{key}: {name}: {a.get(name)!r} -> {b.get(name)!r}")
    print(f"{len(old)} requests before, {len(new)} after; {differences} differences in {', '.join(FIELDS)}")
    return 1 if differences else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/same_behaviour.jsonl"))
    parser.add_argument("--model", default="local")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    record(select_backend(args.model), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
