"""Writes from facts, one record at a time: how often the cold path records a fruit-shop record exactly.

For each record, a fresh database holds exactly what the records before it state (`fruitshop.load_facts`);
the record then goes through the strategy "facts" without planning (one constrained call reads the rows it
states, code writes them; what it cannot write is left unwritten here, where the system would plan it),
and the database is compared, table by table with names for ids, with the exact one after the record.
The stock rule a user states once is kept first (`fruitshop.STOCK_RULE`, as in the fruit-shop mode
"facts+rules"; `--no-rules` leaves it out). A quick way to try a change to the cold path on the tune set
(fruitshop_a70) before a fruit-shop run on the report sample, which compares it with the baselines.

    python benchmarks/facts_records.py [--dataset ../shared/datasets/fruitshop_sample] [--records N] [-v]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from fruitshop import STOCK_RULE, load_facts

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import FactsExtracted, FactsNotUsed, ModelText, StepFailed
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.minilm import LazyMiniLMEmbedder

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "fruitshop_a70"
PLANNING = ("plan", "vote", "fall_back", "post_think")

# each table's rows with names for ids, so that two databases compare by what they state
SNAPSHOT = {
    "fruits": "SELECT name, selling_price, stock_kg FROM fruits",
    "suppliers": "SELECT name, email, phone FROM suppliers",
    "customers": "SELECT full_name, email, phone FROM customers",
    "purchases": """SELECT s.name, p.purchase_date, list((f.name, i.quantity_kg, i.unit_cost, i.intended_selling_price)
        ORDER BY f.name) FROM purchases p JOIN suppliers s USING (supplier_id) LEFT JOIN purchase_items i
        USING (purchase_id) LEFT JOIN fruits f USING (fruit_id) GROUP BY ALL""",
    "sales": """SELECT c.full_name, s.sale_date, s.returned_on, list((f.name, i.quantity_kg, i.unit_price)
        ORDER BY f.name) FROM sales s JOIN customers c USING (customer_id) LEFT JOIN sale_items i USING (sale_id)
        LEFT JOIN fruits f USING (fruit_id) GROUP BY ALL""",
    "price_changes": "SELECT f.name, c.change_date, c.new_price FROM price_changes c JOIN fruits f USING (fruit_id)",
}
# what the state checks read: stock, sales and revenue (contacts left out)
CHECKED = ("fruits", "sales")


def main() -> int:
    args = parse_args()
    records = [json.loads(line) for line in (args.dataset / "records.jsonl").read_text().splitlines() if line.strip()]
    records = records[: args.records] if args.records else records
    chosen = [number for number, record in enumerate(records) if not args.only or record["id"] in args.only.split(",")]
    model, embedder = select_backend(args.model), LazyMiniLMEmbedder()
    outcome: Counter[str] = Counter()
    by_kind: dict[str, list[bool]] = defaultdict(list)
    checked_by_kind: dict[str, list[bool]] = defaultdict(list)
    wrong_tables: Counter[str] = Counter()
    seconds: list[float] = []
    with args.out.open("w") as details:
        for number in chosen:
            record = records[number]
            expected = snapshot(database(args, model, embedder, records[: number + 1]))
            db = database(args, model, embedder, records[:number])
            before = snapshot(db)
            seen: list[object] = []
            started = time.perf_counter()
            try:
                reply = db.ask(record["text"], allow_writes=True, on_event=seen.append)
                state = "pending" if reply.pending else "applied"
                error = ""
            except ChatDBError as failure:
                state, error = "failed", str(failure)
            seconds.append(time.perf_counter() - started)
            got = snapshot(db)
            if state == "applied" and got == before:
                state = "unchanged"  # nothing written: the rows read could not be written, and nothing planned
            differ = [table for table in SNAPSHOT if got[table] != expected[table]]
            exact, checked = not differ, not set(differ) & set(CHECKED)
            outcome[state if state != "applied" else ("exact" if exact else "inexact")] += 1
            by_kind[record["kind"]].append(exact)
            checked_by_kind[record["kind"]].append(checked)
            wrong_tables.update(differ)
            extracted = [e.rows for e in seen if isinstance(e, FactsExtracted)]
            texts = "".join(e.text for e in seen if isinstance(e, ModelText) and e.purpose == "extract")
            failed = [e.step.error for e in seen if isinstance(e, StepFailed)]
            not_used = [e.reason for e in seen if isinstance(e, FactsNotUsed)]
            line = {"record": record["id"], "kind": record["kind"], "state": state, "differ": differ}
            details.write(
                json.dumps(
                    {
                        **line,
                        "extracted": extracted,
                        "not_used": not_used,
                        "error": error,
                        "model": texts,
                        "failed": failed,
                        "expected": expected,
                        "got": got,
                    },
                    default=str,
                )
                + "\n"
            )
            details.flush()
            if args.verbose:
                print(
                    f"{record['id']} {record['kind']:12} {state:8} {seconds[-1]:5.1f}s differ={differ} "
                    f"{not_used or error}"[:300],
                    flush=True,
                )
            db.close()
    total = len(chosen)
    print(f"\nWrites from facts, record by record: {total} records of {args.dataset.name}, model {model.name}")
    print(
        f"  exact: {outcome['exact']}/{total}; written but not exact: {outcome['inexact']}; nothing written:"
        f" {outcome['unchanged'] + outcome['failed']}; waiting for approval: {outcome['pending']}"
    )
    for kind, flags in by_kind.items():
        print(
            f"  {kind:13} exact {sum(flags)}/{len(flags)}, stock and sales right {sum(checked_by_kind[kind])}/{len(flags)}"
        )
    print(f"  tables that differed: {dict(wrong_tables.most_common())}")
    print(f"  seconds per record: median {statistics.median(seconds):.1f}")
    return 0


def database(args: argparse.Namespace, model: object, embedder: object, records: list[dict]) -> ChatDB:
    """A fresh database holding exactly what `records` state."""
    db = ChatDB(
        model=model,
        schema=args.dataset / "schema.sql",
        summarize=False,
        strategy="facts",
        without=PLANNING,
        embedder=embedder,
    )
    if args.rules:
        db.keep_rule("stock", STOCK_RULE, "a fruit's stock_kg is what was bought minus what was sold and not returned")
    load_facts(db, records)
    return db


def snapshot(db: ChatDB) -> dict[str, list[tuple]]:
    return {table: sorted(map(tuple, db.session.rows(sql)), key=repr) for table, sql in SNAPSHOT.items()}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--records", type=int, default=0, help="only the first N records")
    parser.add_argument("--only", default="", help="only these records (ids, comma-separated): to look at a few")
    parser.add_argument("--no-rules", dest="rules", action="store_false", help="without the stock rule")
    parser.add_argument("--out", type=Path, default=Path("out/facts_records.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
