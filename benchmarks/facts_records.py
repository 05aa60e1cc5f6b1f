"""Writes record by record: how often a fruit-shop record is written exactly, and which way wins per kind.

For each record, a fresh database holds exactly what the records before it state (`fruitshop.load_facts`);
the record then goes one or more ways (`--ways`), each from that state, and the database is compared,
table by table with names for ids, with the exact one after the record:
- facts: read as the rows it states and written by code (`write_from_facts`), without planning: what
  the stage writes alone (what it cannot write is left unwritten here);
- system: as the system runs, the same, planned by the model when the rows cannot be written;
- planned: every write planned by the model (without `write_from_facts`), as before the eleventh session.
The stock rule a user states once is kept first (`fruitshop.STOCK_RULE`, as in the fruit-shop modes
"+rules"; `--no-rules` leaves it out). Tune on fruitshop_a70 (the default), report on fruitshop_sample.

    python benchmarks/facts_records.py [--ways facts,system,planned] [--dataset ...] [--records N] [-v]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
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


# the ways a record may go, each from the same exact state: the stage without planning (what it writes
# alone), the system as it runs (planned when the facts cannot be written), and every write planned
WAYS = {"facts": ("write_from_facts", PLANNING), "system": ("write_from_facts", ()), "planned": ("", ())}


@dataclass
class Tally:
    outcome: Counter[str] = field(default_factory=Counter)
    exact: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    checked: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    wrong_tables: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)


def main() -> int:
    args = parse_args()
    records = [json.loads(line) for line in (args.dataset / "records.jsonl").read_text().splitlines() if line.strip()]
    records = records[: args.records] if args.records else records
    chosen = [number for number, record in enumerate(records) if not args.only or record["id"] in args.only.split(",")]
    model, embedder = select_backend(args.model), LazyMiniLMEmbedder()
    ways = args.ways.split(",")
    tallies = {way: Tally() for way in ways}
    with args.out.open("w") as details:
        for number in chosen:
            record = records[number]
            expected = snapshot(database(args, model, embedder, records[: number + 1], "planned"))
            for way in ways:
                line = attempt(args, model, embedder, records, number, way, expected, tallies[way])
                details.write(json.dumps(line, default=str) + "\n")
                details.flush()
                if args.verbose:
                    print(
                        f"{record['id']} {record['kind']:12} {way:8} {line['state']:9} {line['seconds']:5.1f}s"
                        f" differ={line['differ']} {line['not_used'] or line['error']}"[:300],
                        flush=True,
                    )
    total = len(chosen)
    print(f"\nWrites record by record: {total} records of {args.dataset.name}, model {model.name}")
    for way, tally in tallies.items():
        out = tally.outcome
        print(
            f"  {way}: exact {out['exact']}/{total}; written but not exact {out['inexact']}; nothing written"
            f" {out['unchanged'] + out['failed']}; waiting for approval {out['pending']};"
            f" median {statistics.median(tally.seconds):.1f} s"
        )
        for kind, flags in tally.exact.items():
            print(
                f"    {kind:13} exact {sum(flags)}/{len(flags)}, stock and sales right"
                f" {sum(tally.checked[kind])}/{len(flags)}"
            )
        print(f"    tables that differed: {dict(tally.wrong_tables.most_common())}")
    return 0


def attempt(
    args: argparse.Namespace,
    model: object,
    embedder: object,
    records: list[dict],
    number: int,
    way: str,
    expected: dict[str, list[tuple]],
    tally: Tally,
) -> dict[str, object]:
    """Record `records[number]` one way, from the exact state before it; tally how it went."""
    record = records[number]
    db = database(args, model, embedder, records[:number], way)
    before = snapshot(db)
    seen: list[object] = []
    started = time.perf_counter()
    try:
        reply = db.ask(record["text"], allow_writes=True, on_event=seen.append)
        state, error = ("pending" if reply.pending else "applied"), ""
    except ChatDBError as failure:
        state, error = "failed", str(failure)
    tally.seconds.append(time.perf_counter() - started)
    got = snapshot(db)
    db.close()
    if state == "applied" and got == before:
        state = "unchanged"  # nothing written: what was read could not be written, and nothing planned
    differ = [table for table in SNAPSHOT if got[table] != expected[table]]
    tally.outcome[state if state != "applied" else ("exact" if not differ else "inexact")] += 1
    tally.exact[record["kind"]].append(state == "applied" and not differ)
    tally.checked[record["kind"]].append(state == "applied" and not set(differ) & set(CHECKED))
    tally.wrong_tables.update(differ)
    return {
        "record": record["id"],
        "kind": record["kind"],
        "way": way,
        "state": state,
        "seconds": tally.seconds[-1],
        "differ": differ,
        "extracted": [e.rows for e in seen if isinstance(e, FactsExtracted)],
        "not_used": [e.reason for e in seen if isinstance(e, FactsNotUsed)],
        "error": error,
        "model": "".join(e.text for e in seen if isinstance(e, ModelText) and e.purpose == "extract"),
        "failed": [e.step.error for e in seen if isinstance(e, StepFailed)],
        "expected": expected,
        "got": got,
    }


def database(args: argparse.Namespace, model: object, embedder: object, records: list[dict], way: str) -> ChatDB:
    """A fresh database holding exactly what `records` state, that records a request `way`."""
    facts_stage, planning = WAYS[way]
    db = ChatDB(
        model=model,
        schema=args.dataset / "schema.sql",
        summarize=False,
        without=planning if facts_stage else ("write_from_facts",),
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
    parser.add_argument("--ways", default="facts", help=f"some of {', '.join(WAYS)} (default: facts)")
    parser.add_argument("--only", default="", help="only these records (ids, comma-separated): to look at a few")
    parser.add_argument("--no-rules", dest="rules", action="store_false", help="without the stock rule")
    parser.add_argument("--out", type=Path, default=Path("out/facts_records.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
