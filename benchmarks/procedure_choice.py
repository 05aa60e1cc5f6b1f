"""Choosing a procedure, alone: how often the model picks the right taught procedure for a fruit-shop record.

Each record kind is taught on its first record (`fruitshop.TAUGHT`); for every later record the closest
procedures are offered (`ProcedureBook.candidates`) and one constrained call says yes or no for each, as
the `use_procedure` stage asks it. A record is right when the first procedure said yes is its kind; none
said yes means it would be planned. No writes run: a quick way to try a change to the choice. Tune on
fruitshop_a70 (the default), report on fruitshop_sample.

    python benchmarks/procedure_choice.py [--dataset ../shared/datasets/fruitshop_sample] [-v]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from fruitshop import TAUGHT, taught_values

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller import prompts
from jupyter_chatdb.controller.stages.procedure import CHOOSE_MAX_TOKENS
from jupyter_chatdb.llm import select_backend

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "fruitshop_a70"


def main() -> int:
    args = parse_args()
    records = [json.loads(line) for line in (args.dataset / "records.jsonl").read_text().splitlines() if line.strip()]
    model = select_backend(args.model)
    db = ChatDB(model=model, schema=args.dataset / "schema.sql", summarize=False)
    taught: set[str] = set()
    outcome: Counter[str] = Counter()
    by_kind: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        if record["kind"] not in taught:
            taught.add(record["kind"])
            db.teach(record["kind"], TAUGHT[record["kind"]], [record["text"]], example=taught_values(record))
            continue
        matches = db.procedures.candidates(record["text"], db.options.procedure_match)
        names = [m.procedure.name for m in matches]
        chosen = None
        if matches:
            completion = model.complete(
                prompts.choose_messages(
                    record["text"], [(m.procedure.name, m.request, m.procedure.summary()) for m in matches]
                ),
                json_schema=prompts.choose_schema(names),
                max_tokens=CHOOSE_MAX_TOKENS,
            )
            said = json.loads(completion.text)
            chosen = next((name for name in names if said.get(name) is True), None)
        result = "none" if chosen is None else "right" if chosen == record["kind"] else "wrong"
        outcome[result] += 1
        by_kind[record["kind"]].append(result == "right")
        if args.verbose:
            offered = ", ".join(f"{m.procedure.name} {m.similarity:.2f}" for m in matches)
            print(f"{record['id']} {record['kind']:>12} -> {chosen} ({result}); offered {offered}", flush=True)
    total = sum(outcome.values())
    kinds = ", ".join(f"{kind} {sum(v)}/{len(v)}" for kind, v in by_kind.items())
    print(f"\nProcedure choice: {total} records after each kind's first, {args.dataset.name}, model {model.name}")
    print(f"  right {outcome['right']}/{total}, wrong {outcome['wrong']}, none (planned) {outcome['none']}  ({kinds})")
    db.close()
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
