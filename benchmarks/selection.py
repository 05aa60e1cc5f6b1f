"""Schema selection over many tables: all 15 Spider subset databases bound at once.

Every database is copied into a DuckDB file and attached, read-only, to one ChatDB session, so its
tables are `<db>.<table>` (59 tables), as a notebook's attached databases are.
For each question, the tables the gold SQL uses are compared with the tables selection offers
(retrieval: the top K and the tables joined to them) and with those the model keeps after its
refinement call: precision, recall and F1 per question, averaged. `--picks` replays the model's picks
recorded by an earlier run, to measure a change of what happens after the pick without the model. `--end-to-end N` also asks N
questions through `ChatDB.ask` in this many-table session and in the usual one-database session,
and prints both execution accuracies (the baseline is the one-database setting).

    python benchmarks/selection.py                      # retrieval only, every question (no model)
    python benchmarks/selection.py --refine --stride 8  # and the model's refinement
    python benchmarks/selection.py --stride 10 --picks benchmarks/out/selection_details.jsonl --details /tmp/d.jsonl
    python benchmarks/selection.py --end-to-end 30 --stride 24
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import duckdb
import sqlglot
from sqlglot import exp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from spider import DATASET, evaluate, read_sqlite

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import TablesSelected
from jupyter_chatdb.grounding.selection import SchemaIndex
from jupyter_chatdb.llm import ScriptedBackend, select_backend
from jupyter_chatdb.llm.base import LLM, Completion, Message, Usage
from jupyter_chatdb.llm.minilm import MiniLMEmbedder
from jupyter_chatdb.sql.catalog import Catalog


@dataclass
class Scores:
    precision: float
    recall: float
    f1: float


def main() -> int:
    args = parse_args()
    questions = json.loads((args.dataset / "dev.json").read_text())[args.offset :: args.stride]
    questions = questions[: args.limit] if args.limit else questions
    if args.picks:
        model: LLM = RecordedPicks(args.picks)
    else:
        model = select_backend(args.model) if args.refine or args.end_to_end else ScriptedBackend([])
    chatdb = ChatDB(model=model, summarize=False)
    with tempfile.TemporaryDirectory() as folder:
        for db_id in all_databases(args.dataset):
            chatdb.attach(to_duckdb(args.dataset / "database" / f"{db_id}.sqlite", Path(folder)), db_id)
        catalog = Catalog.read(chatdb.session)
        print(f"Schema selection: {len(questions)} questions, {len(catalog)} tables bound at once, top {args.top}")
        retrieval(questions, catalog, args)
        if args.refine or args.picks:
            refinement(chatdb, questions, args)
        if args.end_to_end:
            end_to_end(chatdb, questions[: args.end_to_end], args)
        chatdb.close()
    return 0


def to_duckdb(sqlite_path: Path, folder: Path) -> Path:
    """A DuckDB copy of a Spider database (its tables, without keys, as DataFrames would bind them)."""
    path = folder / f"{sqlite_path.stem}.duckdb"
    with duckdb.connect(str(path)) as con:
        for name, frame in read_sqlite(sqlite_path).items():
            con.register("frame", frame)
            con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM frame')
            con.unregister("frame")
    return path


def retrieval(questions: list[dict], catalog: Catalog, args: argparse.Namespace) -> None:
    index = SchemaIndex(MiniLMEmbedder())
    started = time.perf_counter()
    offered, top_only = [], []
    for question in questions:
        gold = gold_tables(question)
        considered = index.candidates(question["question"], catalog, args.top)
        offered.append(score({c.table for c in considered}, gold))
        top_only.append(
            score({c.table for c in considered if not any(r.startswith("joined") for r in c.reasons)}, gold)
        )
    seconds = (time.perf_counter() - started) / len(questions)
    print_scores(f"top {args.top} (no neighbours)", top_only)
    print_scores(f"top {args.top} + joined tables", offered)
    print(f"  {1000 * seconds:.0f} ms per question to score {len(catalog)} tables")


def refinement(chatdb: ChatDB, questions: list[dict], args: argparse.Namespace) -> None:
    """The controller's own selection (with its model call), read from its TablesSelected event."""
    chosen_scores, picked_scores, offered_scores, seconds = [], [], [], []
    details = args.details.open("w")
    for question in questions:
        started = time.perf_counter()
        events = chatdb.select_tables(question["question"])
        (event,) = [e for e in events if isinstance(e, TablesSelected)]
        seconds.append(time.perf_counter() - started)
        gold = gold_tables(question)
        chosen_scores.append(score(set(event.chosen), gold))
        picked_scores.append(score(set(event.picked), gold))
        details.write(
            json.dumps(
                {
                    "question": question["question"],
                    "gold": sorted(gold),
                    "considered": event.considered,
                    "picked": event.picked,
                    "chosen": event.chosen,
                    "changes": event.changes,
                }
            )
            + "\n"
        )
        offered_scores.append(score({table for table, _, _ in event.considered}, gold))
        if args.verbose:
            print(
                f"  {chosen_scores[-1].f1:.2f} {question['question']} gold={sorted(gold)} chosen={list(event.chosen)}",
                flush=True,
            )
    print_scores("offered to the model", offered_scores)
    print_scores("picked by the model", picked_scores)
    print_scores("chosen (the model's pick settled)", chosen_scores)
    print(f"  median {statistics.median(seconds):.1f} s per refinement call")


class RecordedPicks:
    """A stand-in model that answers each table choice with the tables the real model picked for that
    question in an earlier run (its details file): the selection after the pick is computed again."""

    def __init__(self, details: Path) -> None:
        self.name = f"picks recorded in {details}"
        self.picks = {row["question"]: row["picked"] for row in map(json.loads, details.read_text().splitlines())}

    def complete(self, messages: list[Message], **_: object) -> Completion:
        question = messages[-1]["content"].rsplit("\nRequest: ", 1)[-1]
        if question not in self.picks:
            raise SystemExit(f"No recorded pick for {question!r}: use the --stride/--offset of the recorded run.")
        return Completion(json.dumps({"tables": self.picks[question]}), Usage(0, 0, 1))


def end_to_end(chatdb: ChatDB, questions: list[dict], args: argparse.Namespace) -> None:
    """Each question asked with all 59 tables, then with its database's alone; every answer goes to
    `<details>.e2e.jsonl` (the setting, the outcome and the tables selection chose)."""
    many = []
    details = args.details.with_suffix(".e2e.jsonl").open("w")
    for question in questions:
        events: list[object] = []
        outcome = evaluate(chatdb, question, args.dataset / "database" / f"{question['db_id']}.sqlite", events.append)
        many.append(outcome.correct)
        chosen = [t for e in events if isinstance(e, TablesSelected) for t in e.chosen]
        details.write(json.dumps({"setting": "many tables", **asdict(outcome), "chosen": chosen}) + "\n")
        if args.verbose:
            print(f"  [many tables] {'ok ' if outcome.correct else 'no '} {question['question']}", flush=True)
    single = []
    for db_id in dict.fromkeys(q["db_id"] for q in questions):
        one = ChatDB(model=chatdb.model, summarize=False)
        path = args.dataset / "database" / f"{db_id}.sqlite"
        for name, frame in read_sqlite(path).items():
            one.register(name, frame)
        for question in (q for q in questions if q["db_id"] == db_id):
            outcome = evaluate(one, question, path)
            single.append(outcome.correct)
            details.write(json.dumps({"setting": "one database", **asdict(outcome)}) + "\n")
            if args.verbose:
                print(f"  [one database] {'ok ' if single[-1] else 'no '} {question['question']}", flush=True)
        one.close()
    n = len(questions)
    print(
        f"\nEnd to end, {n} questions: {len(chatdb.tables())} tables with selection {100 * sum(many) / n:.1f}%"
        f" vs one database {100 * sum(single) / n:.1f}% ({100 * (sum(many) - sum(single)) / n:+.1f} points)"
    )


def gold_tables(question: dict) -> set[str]:
    """The prefixed names of the tables the gold SQL reads."""
    tree = sqlglot.parse_one(question["query"], read="sqlite")
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    return {f"{question['db_id']}.{t.name}".lower() for t in tree.find_all(exp.Table) if t.name.lower() not in ctes}


def score(chosen: set[str], gold: set[str]) -> Scores:
    chosen = {c.lower() for c in chosen}
    hits = len(chosen & gold)
    precision = hits / len(chosen) if chosen else 0.0
    recall = hits / len(gold) if gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return Scores(precision, recall, f1)


def print_scores(label: str, scores: list[Scores]) -> None:
    mean = lambda xs: statistics.mean(xs)  # noqa: E731
    complete = sum(s.recall == 1 for s in scores) / len(scores)
    print(
        f"  {label:32} precision {mean(s.precision for s in scores):.3f}  recall {mean(s.recall for s in scores):.3f}"
        f"  F1 {mean(s.f1 for s in scores):.3f}  all gold tables {100 * complete:.1f}%"
    )


def all_databases(dataset: Path) -> list[str]:
    return sorted(p.stem for p in (dataset / "database").glob("*.sqlite"))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stride", type=int, default=1, help="use every Nth question")
    parser.add_argument("--offset", type=int, default=0, help="start at question N (with --stride: another spread)")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N questions (after --stride)")
    parser.add_argument("--top", type=int, default=5, help="K: tables retrieved before their joined tables are added")
    parser.add_argument("--refine", action="store_true", help="also measure the model's refinement call")
    parser.add_argument(
        "--picks", type=Path, help="refine with the model picks recorded in this details file (no model)"
    )
    parser.add_argument("--end-to-end", type=int, default=0, metavar="N", help="ask N questions in both settings")
    parser.add_argument("--model", default="local", help="model for refinement and end to end (default: embedded)")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--details", type=Path, default=Path("benchmarks/out/selection_details.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
