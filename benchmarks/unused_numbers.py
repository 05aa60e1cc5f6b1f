"""How often the check that every number a request gives is written (`recording/unused.py`) would hold a
right record: on each trade's records and the fruit shop's, the gold statements as what is written. No
model: a record whose gold writes every number it gives passes; one that does not is a false hold.

    python benchmarks/unused_numbers.py --trades library,clinic
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trades import TRADES, build

from jupyter_chatdb.recording.unused import sql_values, unused_numbers

FRUIT = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trades", default=",".join(TRADES))
    parser.add_argument("--fruit", default="fruitshop_sample,fruitshop_a70", help="fruit shop sets ('' for none)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each false hold")
    args = parser.parse_args()
    for name in args.trades.split(","):
        trade = build(name)
        held = []
        for record in trade.records:
            written = [v for statement in record.gold for v in sql_values(statement)]
            if unused := unused_numbers(record.text, written):
                held.append((record.id, unused))
        report(name, len(trade.records), held, args.verbose)
    for name in filter(None, args.fruit.split(",")):
        lines = (FRUIT / name / "records.jsonl").read_text().splitlines()
        held = []
        for line in lines:
            record = json.loads(line)
            written = list(_facts_values(record["facts"])) + [record.get("date", "")]
            if unused := unused_numbers(record["text"], written):
                held.append((record["id"], unused))
        report(name, len(lines), held, args.verbose)
    return 0


def _facts_values(facts: object):
    """The values of a fruit shop record's structured facts (it has no gold SQL)."""
    if isinstance(facts, dict):
        for value in facts.values():
            yield from _facts_values(value)
    elif isinstance(facts, list):
        for value in facts:
            yield from _facts_values(value)
    else:
        yield facts


def report(name: str, count: int, held: list, verbose: bool) -> None:
    print(f"{name}: {len(held)} of {count} right records would wait ({100 * len(held) / count:.1f}%)")
    for record, unused in held if verbose else ():
        print(f"  {record}: {', '.join(unused)}")


if __name__ == "__main__":
    raise SystemExit(main())
