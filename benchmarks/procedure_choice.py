"""Choosing a procedure, alone: how often the model picks the right taught procedure for a fruit-shop record.

Each record kind is taught on its first record (`fruitshop.TAUGHT`); for every later record the closest
procedures are offered (`ProcedureBook.candidates`) and one constrained call says yes or no for each, as
the `use_procedure` stage asks it. A record is right when the first procedure said yes is its kind; none
said yes means it would be planned. Three ways are compared in one run: "named+pick", as the stage
chooses (only the procedures touching the most of the tables the request names its things by are
offered, and after a no to each the model is asked once more for one of them or none), "named" (the
same offer, without asking again) and "all" (the closest by meaning alone, without asking again).
After each record its own kind's taught statements run with its facts, so the database holds what the
records before it stated, as when each was recorded right. A quick way to try a change to the choice.
Tune on fruitshop_a70 (the default), report on fruitshop_sample.

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
from jupyter_chatdb.controller import procedure_prompts, prompts
from jupyter_chatdb.controller.stages.procedure import CHOOSE_MAX_TOKENS, PICK_MAX_TOKENS, listed
from jupyter_chatdb.grounding.named_tables import named_tables
from jupyter_chatdb.kernel_memory.procedures import Match
from jupyter_chatdb.llm import LLM, select_backend
from jupyter_chatdb.llm.base import JSONSchema, Message
from jupyter_chatdb.sql.catalog import Catalog

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "fruitshop_a70"
WAYS = ("named+pick", "named", "all")


def main() -> int:
    args = parse_args()
    records = [json.loads(line) for line in (args.dataset / "records.jsonl").read_text().splitlines() if line.strip()]
    model = select_backend(args.model)
    db = ChatDB(model=model, schema=args.dataset / "schema.sql", summarize=False)
    taught: set[str] = set()
    outcome: dict[str, Counter[str]] = {way: Counter() for way in WAYS}
    by_kind: dict[str, dict[str, list[bool]]] = {way: defaultdict(list) for way in WAYS}
    for record in records:
        if record["kind"] not in taught:
            taught.add(record["kind"])
            db.teach(record["kind"], TAUGHT[record["kind"]], [record["text"]], example=taught_values(record))
        else:
            named = named_tables(record["text"], Catalog.read(db.session), db.values)
            offers = {
                "named": db.procedures.candidates(record["text"], db.options.procedure_match, named=named),
                "all": db.procedures.candidates(record["text"], db.options.procedure_match),
            }
            said: dict[tuple[str, ...], str | None] = {}
            for way in WAYS:
                matches = offers[way.removesuffix("+pick")]
                names = tuple(m.procedure.name for m in matches)
                if names not in said:
                    said[names] = choose(model, record["text"], matches)
                chosen = said[names]
                if chosen is None and way.endswith("+pick"):
                    chosen = pick(model, record["text"], matches)
                result = "none" if chosen is None else "right" if chosen == record["kind"] else "wrong"
                outcome[way][result] += 1
                by_kind[way][record["kind"]].append(result == "right")
                if args.verbose:
                    listed = ", ".join(f"{m.procedure.name} {m.similarity:.2f}" for m in matches)
                    print(f"{record['id']} {way:>10} {record['kind']:>12} -> {chosen} ({result}); offered {listed}")
            if args.verbose:
                print(f"      named tables: {', '.join(sorted(named)) or '-'}", flush=True)
        db.run_procedure(record["kind"], taught_values(record), allow_writes=True)  # the exact state so far
    print(f"\nProcedure choice: records after each kind's first, {args.dataset.name}, model {model.name}")
    for way in WAYS:
        total = sum(outcome[way].values())
        kinds = ", ".join(f"{kind} {sum(v)}/{len(v)}" for kind, v in by_kind[way].items())
        counts = outcome[way]
        print(f"  {way:>10}: right {counts['right']}/{total}, wrong {counts['wrong']}, none (planned) {counts['none']}")
        print(f"              ({kinds})")
    db.close()
    return 0


def choose(model: LLM, request: str, matches: list[Match]) -> str | None:
    """The procedure the model says yes to first (closest first), as `use_procedure` asks it; None for none."""
    if not matches:
        return None
    names = [m.procedure.name for m in matches]
    messages = procedure_prompts.choose_messages(request, listed(matches))
    said = json.loads(_asked(model, messages, procedure_prompts.choose_schema(names), CHOOSE_MAX_TOKENS))
    return next((name for name in names if said.get(name) is True), None)


def pick(model: LLM, request: str, matches: list[Match]) -> str | None:
    """After a no to each: the one procedure the model picks when asked again, as `use_procedure` asks it."""
    if not matches:
        return None
    names = [m.procedure.name for m in matches]
    messages = procedure_prompts.pick_messages(request, listed(matches))
    picked = prompts.parse_json(
        _asked(model, messages, procedure_prompts.pick_schema(names), PICK_MAX_TOKENS), "procedure"
    )
    return picked if picked in names else None


def _asked(model: LLM, messages: list[Message], schema: JSONSchema, max_tokens: int) -> str:
    return model.complete(messages, json_schema=schema, max_tokens=max_tokens).text


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
