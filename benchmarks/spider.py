"""Execution accuracy of `ChatDB.ask` on the Spider dev subset (shared/datasets/spider_dev).

Each database is read from SQLite into pandas and bound to a ChatDB session, as a notebook user
would; each question goes through `ChatDB.ask`; the predicted result is compared with the gold
query's result on the original SQLite file (multisets; ordered only when the gold has ORDER BY).
`--strategy values` compares the chain with and without its data-value memory (literal correction).
`--strategy selection` compares the chain with schema selection on every question (even a database
of a few tables) with the chain that shows every table. `--strategy perturbed` asks the value-perturbed
questions (benchmarks/perturb.py: literals written as the stored values are not) three times: the
original wording without value memory, the perturbed wording without it, and with it; it prints the
accuracy lost to perturbation and the share of it the value memory recovers.
`--strategy both` (the default) asks every question twice, with the chain-of-memory controller and
with the Foundation's one-round controller (the baseline), and prints both accuracies and their
difference; the one-round run also reports its first SQL without the repair round.

    python benchmarks/spider.py --limit 50
    python benchmarks/spider.py --db concert_singer --strategy chain --candidates 3
"""

from __future__ import annotations

import argparse
import json
import math
import sqlite3
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from decimal import Decimal
from pathlib import Path

import pandas as pd
import perturb
import sqlglot

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import Answered, StepDone, StepFailed, StepPlanned
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM, Usage
from jupyter_chatdb.options import Options

DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "spider_dev"
COMPARISONS = {  # --strategy that runs two controllers on the same questions: the full one, then its baseline
    "both": ["chain", "one-round"],
    "values": ["chain", "chain-no-values"],
    "selection": ["chain-selection", "chain"],  # schema selection on every question vs all tables in the prompt
}


@dataclass
class Outcome:
    id: int
    db_id: str
    question: str
    gold: str
    predicted: str
    executed: bool
    correct: bool
    first_correct: bool  # the baseline: first SQL, no repair
    seconds: float
    calls: int  # model calls (summaries are off here)
    error: str = ""


def main() -> int:
    args = parse_args()
    if args.strategy == "perturbed":
        return perturbed(args)
    questions = json.loads((args.dataset / "dev.json").read_text())
    if args.db:
        questions = [q for q in questions if q["db_id"] == args.db]
    questions = questions[:: args.stride]
    questions = questions[: args.limit] if args.limit else questions
    if not questions:
        print(f"No questions match --db {args.db!r}.", file=sys.stderr)
        return 2
    model = select_backend(args.model)
    strategies = COMPARISONS.get(args.strategy, [args.strategy])
    results = {strategy: run(strategy, model, questions, args) for strategy in strategies}
    for strategy, outcomes in results.items():
        report(outcomes, model.name, strategy, args)
    if len(results) == 2:
        (first, full), (second, baseline) = ((s, sum(o.correct for o in outcomes)) for s, outcomes in results.items())
        print(f"\n{first} - {second}: {100 * (full - baseline) / len(questions):+.1f} points of execution accuracy")
    return 0


def perturbed(args: argparse.Namespace) -> int:
    changed = perturb.load()[:: args.stride]
    changed = changed[: args.limit] if args.limit else changed
    originals = [{**q, "question": q["original"]} for q in changed]
    model = select_backend(args.model)
    runs = {  # label -> (strategy, questions)
        "original": ("chain-no-values", originals),
        "perturbed": ("chain-no-values", changed),
        "perturbed-values": ("chain", changed),
    }
    correct = {}
    for label, (strategy, questions) in runs.items():
        if args.legs and label not in args.legs.split(","):
            continue
        outcomes = run(strategy, model, questions, args, label=label)
        report(outcomes, model.name, f"{strategy} on the {label} questions", args)
        correct[label] = sum(o.correct for o in outcomes)
    if len(correct) < len(runs):
        return 0
    lost, recovered = correct["original"] - correct["perturbed"], correct["perturbed-values"] - correct["perturbed"]
    n = len(changed)
    print(
        f"\nPerturbation cost {100 * lost / n:+.1f} points without value memory; value memory won back {100 * recovered / n:+.1f}"
        + (f" ({100 * recovered / lost:.0f}% of the loss)" if lost > 0 else " (nothing was lost)")
    )
    return 0


def run(strategy: str, model: LLM, questions: list[dict], args: argparse.Namespace, label: str = "") -> list[Outcome]:
    outcomes: list[Outcome] = []
    label = label or strategy
    out = args.out.with_name(f"{args.out.stem}_{label}{args.out.suffix}")
    details_path = args.details.with_name(f"{args.details.stem}_{label}{args.details.suffix}")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as predictions, details_path.open("w") as details:
        for db_id in dict.fromkeys(q["db_id"] for q in questions):
            sqlite_path = args.dataset / "database" / f"{db_id}.sqlite"
            chatdb = ChatDB(
                model=model,
                summarize=False,
                strategy="one-round" if strategy == "one-round" else "chain",
                repair_rounds=args.repair_rounds,
                candidates=args.candidates,
                without=tuple(name for name in args.without.split(",") if name),
            )
            chatdb.configure(
                values=strategy != "chain-no-values",
                select_over=0 if strategy == "chain-selection" else Options.select_over,
            )
            for name, frame in read_sqlite(sqlite_path).items():
                chatdb.register(name, frame)
            for question in (q for q in questions if q["db_id"] == db_id):
                outcome = evaluate(chatdb, question, sqlite_path)
                outcomes.append(outcome)
                predictions.write(to_sqlite(outcome.predicted) + "\n")
                details.write(json.dumps(asdict(outcome)) + "\n")
                details.flush()
                if args.verbose:
                    mark = "ok " if outcome.correct else "ERR" if not outcome.executed else "no "
                    print(
                        f"[{strategy} {len(outcomes)}/{len(questions)}] {mark} {outcome.seconds:5.1f}s {outcome.question}",
                        flush=True,
                    )
            chatdb.close()
    return outcomes


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="ask only the first N questions")
    parser.add_argument("--stride", type=int, default=1, help="ask every Nth question (a spread over all databases)")
    parser.add_argument("--db", help="ask only the questions of this database (db_id)")
    parser.add_argument("--model", default="local", help="model for ChatDB (default: the embedded model)")
    parser.add_argument(
        "--strategy",
        choices=[
            "both",
            "values",
            "selection",
            "perturbed",
            "chain",
            "chain-no-values",
            "chain-selection",
            "one-round",
        ],
        default="both",
        help="both: chain vs one-round; values: chain with vs without the data-value memory; selection: with vs without "
        "schema selection; perturbed: value-perturbed questions without and with the data-value memory",
    )
    parser.add_argument("--legs", help="perturbed: run only these legs (original,perturbed,perturbed-values)")
    parser.add_argument("--candidates", type=int, default=1, help="plans sampled and voted on per question (chain)")
    parser.add_argument(
        "--without",
        default="",
        metavar="STAGES",
        help="leave these stages out of the chain (comma-separated: route, vote, fall_back, pick_tables, ...)",
    )
    parser.add_argument("--repair-rounds", type=int, default=1, help="repair rounds of the one-round baseline")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/out/spider_predictions.sql"))
    parser.add_argument("--details", type=Path, default=Path("benchmarks/out/spider_details.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true", help="print each question as it is answered")
    return parser.parse_args()


def read_sqlite(path: Path) -> dict[str, pd.DataFrame]:
    with sqlite3.connect(path) as con:
        con.text_factory = lambda raw: raw.decode(errors="replace")
        names = [
            n
            for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        ]
        return {name: pd.read_sql_query(f'SELECT * FROM "{name}"', con) for name in names}


def evaluate(
    chatdb: ChatDB, question: dict, sqlite_path: Path, watch: Callable[[object], None] | None = None
) -> Outcome:
    """Ask `question` and compare the result with the gold SQL's on the SQLite file; `watch` sees every event."""
    gold_rows = gold_result(question["query"], sqlite_path)
    ordered = gold_is_ordered(question["query"])
    planned: list[str] = []  # every SQL the model wrote, first attempt first
    first: list[bool] = []
    usage = Usage()

    def observe(event: object) -> None:
        nonlocal usage
        if watch is not None:
            watch(event)
        if isinstance(event, StepPlanned):
            planned.append(event.sql)
        elif isinstance(event, Answered):
            usage = event.reply.usage
        elif not first and isinstance(event, StepDone):
            first.append(same(event.step.result.frame, gold_rows, ordered))
        elif not first and isinstance(event, StepFailed):
            first.append(False)

    started = time.perf_counter()
    try:
        reply = chatdb.ask(question["question"], on_event=observe)
        correct, executed, error = reply.result is not None and same(reply.result, gold_rows, ordered), True, ""
    except ChatDBError as failure:
        correct, executed, error = False, False, str(failure)
    return Outcome(
        question["id"],
        question["db_id"],
        question["question"],
        question["query"],
        planned[-1] if planned else "",
        executed,
        correct,
        bool(first and first[0]),
        time.perf_counter() - started,
        usage.calls or len(planned),
        error,
    )


def gold_result(sql: str, path: Path) -> list[tuple]:
    with sqlite3.connect(path) as con:
        con.text_factory = lambda raw: raw.decode(errors="replace")
        return con.execute(sql).fetchall()


def gold_is_ordered(sql: str) -> bool:
    try:
        return sqlglot.parse_one(sql, read="sqlite").args.get("order") is not None
    except sqlglot.errors.ParseError:
        return "order by" in sql.lower()


def same(frame: pd.DataFrame, gold: list[tuple], ordered: bool) -> bool:
    predicted = [tuple(normalize(v) for v in row) for row in frame.itertuples(index=False)]
    expected = [tuple(normalize(v) for v in row) for row in gold]
    return predicted == expected if ordered else Counter(predicted) == Counter(expected)


def normalize(value: object) -> object:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, Decimal):  # DuckDB's DECIMAL: a float in a DataFrame, a Decimal fetched as rows
        value = float(value)
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return round(float(value), 4)
    if isinstance(value, pd.Timestamp):
        return str(value.date()) if value == value.normalize() else str(value)
    return str(value)


def to_sqlite(sql: str) -> str:
    if not sql:
        return "SELECT 1"
    try:
        return " ".join(sqlglot.transpile(sql, read="duckdb", write="sqlite")[0].split())
    except sqlglot.errors.SqlglotError:
        return " ".join(sql.split())


def report(outcomes: list[Outcome], model: str, strategy: str, args: argparse.Namespace) -> None:
    n = len(outcomes)
    pct = lambda k: f"{100 * k / n:5.1f}%"  # noqa: E731
    print(f"\nSpider dev subset: {n} questions, model {model}, strategy {strategy}")
    print(f"  execution accuracy          {pct(sum(o.correct for o in outcomes))}")
    if strategy == "one-round":
        print(f"  first SQL only (no repair)  {pct(sum(o.first_correct for o in outcomes))}")
    print(f"  execution success           {pct(sum(o.executed for o in outcomes))}")
    print(f"  median seconds per question {statistics.median(o.seconds for o in outcomes):6.2f}")
    print(f"  mean LLM calls per question {statistics.mean(o.calls for o in outcomes):6.2f}")
    print(f"  predictions and details: {args.out.parent}/")


if __name__ == "__main__":
    sys.exit(main())
