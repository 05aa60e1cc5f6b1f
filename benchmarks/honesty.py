"""Honest "I can't tell": requests the data cannot answer, beside the answerable ones they were made from.

From each Spider question of a half (`text2sql.py`'s split) come the question itself (answerable), and,
where its words allow (`honesty_cases.py`): the same question asking for an attribute no table holds
("column"), naming a value no table holds ("value"), or with a value misspelled ("misspelled", answerable).

- `--check-only`: no model; how often the concept check (`grounding/concepts.py`) flags each kind.
  Quick, for tuning the check on the tune half. `--ask-model` adds the one call the system makes for a
  sure attribute (it stops the request only when the model finds nothing the word means). With
  `--trades`, the cases are made the same way from the questions of those trades (`benchmarks/trades`:
  tune on library and clinic, quote the others), on their exact final state.
- otherwise each case is asked of ChatDB ("native", with the check) and of the same strategy without it
  ("native-check_concepts"), in one run, and the figures are: unanswerable cases flagged (the answer says
  what is missing, or that a literal is not stored), answerable cases answered right (execution accuracy
  against Spider's gold on the SQLite file), misspelled cases answered right, median seconds.

    python benchmarks/honesty.py --half tune --check-only
    python benchmarks/honesty.py --check-only --trades library,clinic
    python benchmarks/honesty.py --half report --per-kind 45 -v
    python benchmarks/honesty.py --half report --kinds answerable --offset 1   # a fresh sample of a kind
    python benchmarks/honesty.py --half report --kinds misspelled --swap-at 1 --per-kind 0
    python benchmarks/honesty.py --summary benchmarks/out/honesty_report.jsonl   # figures of a saved run
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

from honesty_cases import Case, cases
from records import copy_into, final_state
from spider import DATASET, gold_is_ordered, gold_result, read_sqlite, same
from text2sql import HALVES
from trades import build

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller import prompts
from jupyter_chatdb.controller.events import Event, ValueCorrected
from jupyter_chatdb.controller.stages.honesty import may_name_a_column
from jupyter_chatdb.grounding.concepts import REFUSAL_OPENING, ConceptIndex, missing_concepts, quoted
from jupyter_chatdb.grounding.stored_names import where_stored
from jupyter_chatdb.language.words import tokens
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.scripted import ScriptedBackend
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.session import Session

KINDS = ("answerable", "misspelled", "column", "value")
UNANSWERABLE = ("column", "value")


@dataclass
class Outcome:
    id: str
    db_id: str
    kind: str
    system: str
    question: str
    flagged: bool  # the answer says what the data lacks
    correct: bool  # answerable kinds: the result matches the gold
    corrected: bool  # a literal was replaced by a stored value, and shown
    seconds: float
    answer: str


def main() -> int:
    args = parse_args()
    if args.summary:
        saved = [Outcome(**json.loads(line)) for line in args.summary.read_text().splitlines() if line.strip()]
        report(saved, args.summary.stem)
        return 0
    if args.trades:
        if not args.check_only:
            print("--trades goes with --check-only.", file=sys.stderr)
            return 2
        return check_trades(args)
    chosen = select_cases(args)
    if not chosen:
        print("No cases.", file=sys.stderr)
        return 2
    print(f"{args.half} half: " + ", ".join(f"{sum(c.kind == k for c in chosen)} {k}" for k in KINDS))
    if args.check_only:
        return check_only(chosen, args)
    model = select_backend(args.model)
    details = args.details or Path(f"benchmarks/out/honesty_{args.half}.jsonl")
    details.parent.mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []
    with details.open("w") as lines:
        for db_id in dict.fromkeys(c.db_id for c in chosen):
            asked = [c for c in chosen if c.db_id == db_id]
            path = args.dataset / "database" / f"{db_id}.sqlite"
            for system in args.systems.split(","):
                for outcome in ask_all(system, model, asked, path):
                    outcomes.append(outcome)
                    lines.write(json.dumps(asdict(outcome)) + "\n")
                    lines.flush()
                    if args.verbose:
                        mark = "flag" if outcome.flagged else "ok  " if outcome.correct else "-   "
                        print(
                            f"[{system} {outcome.kind}] {mark} {outcome.seconds:5.1f}s {outcome.question}", flush=True
                        )
    report(outcomes, f"{args.half} half, model {model.name}")
    return 0


def select_cases(args: argparse.Namespace) -> list[Case]:
    """Up to `per_kind` cases of each kind, spread over the half's databases in question order."""
    tables = {t["db_id"]: t for t in json.loads((args.dataset / "tables.json").read_text())}
    questions = [q for q in json.loads((args.dataset / "dev.json").read_text()) if q["db_id"] in HALVES[args.half]]
    made = [c for q in questions for c in cases(q, _schema_words(tables[q["db_id"]]), args.swap_at)]
    chosen: list[Case] = []
    for kind in args.kinds.split(","):
        of_kind = [c for c in made if c.kind == kind]
        if kind == "answerable":  # the questions the unanswerable cases were made from, first
            sources = {c.id.split("-")[0] for c in made if c.kind in UNANSWERABLE}
            of_kind = [c for c in of_kind if c.id in sources] + [c for c in of_kind if c.id not in sources]
        step = max(1, len(of_kind) // args.per_kind) if args.per_kind else 1
        if args.offset >= step:  # a wrapped offset would ask an earlier sample again, as if fresh
            raise SystemExit(f"--offset {args.offset}: {kind} cases come every {step}, so offsets 0-{step - 1}")
        chosen += of_kind[args.offset :: step][: args.per_kind or None]
    return sorted(chosen, key=lambda c: (HALVES[args.half].index(c.db_id), c.id))


def _schema_words(table: dict) -> set[str]:
    names = table["table_names_original"] + [c for _, c in table["column_names_original"]]
    return {w for n in names for w in tokens(n)}


def check_only(chosen: list[Case], args: argparse.Namespace) -> int:
    """The concept check alone, without a model: how often it flags each kind."""
    flagged: Counter[str] = Counter()  # something sure is missing: no model call is made
    doubtful: Counter[str] = Counter()  # only doubtful words: the model is asked what they mean
    total: Counter[str] = Counter()
    model = select_backend(args.model) if args.ask_model else None
    for db_id in dict.fromkeys(c.db_id for c in chosen):
        chatdb = ChatDB(model=ScriptedBackend(), summarize=False)
        for name, frame in read_sqlite(args.dataset / "database" / f"{db_id}.sqlite").items():
            chatdb.register(name, frame)
        catalog = Catalog.read(chatdb.session)
        stored = ConceptIndex().stored(catalog, chatdb.values)
        for case in (c for c in chosen if c.db_id == db_id):
            missing = missing_concepts(case.question, stored)
            sure = stops(case.question, stored, catalog, model, chatdb.session)
            total[case.kind] += 1
            flagged[case.kind] += sure
            doubtful[case.kind] += bool(missing) and not sure
            wrong = sure != (case.kind in UNANSWERABLE)
            if args.verbose and (wrong or args.verbose > 1):
                said = [f"{m}{'' if m.sure else ' (doubtful)'}" for m in missing]
                print(f"  {'WRONG ' if wrong else ''}[{case.kind} {db_id}] {case.question} -> {said}")
        chatdb.close()
    for kind in KINDS:
        print(
            f"  {kind:12} flagged {flagged[kind]:3}/{total[kind]:3} ({_pct(flagged[kind], total[kind])}),"
            f" doubtful only {doubtful[kind]:3}"
        )
    return 0


def stops(question: str, stored: object, catalog: Catalog, model: object | None, session: Session) -> bool:
    """Whether the concept check stops `question`, as the system does: a name no text column holds in
    full, an attribute no name says; with `model`, only where the model reads the name as a name, or finds
    nothing the attribute means."""
    missing = [m for m in missing_concepts(question, stored) if m.sure]  # type: ignore[arg-type]
    text_columns = catalog.text_column_pairs()
    missing = [m for m in missing if m.kind != "name" or where_stored(session, text_columns, m.word) is None]
    if model is None:
        return bool(missing)
    tables = {name: [c.name for c in table.columns] for name, table in catalog.tables.items()}
    for concept in missing:
        if concept.kind == "attribute":
            messages = prompts.concept_messages(question, concept.word, tables, catalog.meanings())
            completion = model.complete(messages, json_schema=prompts.concept_schema(tables), max_tokens=24)  # type: ignore[attr-defined]
            if prompts.parse_json(completion.text, "means") == prompts.NOTHING:
                return True
        elif quoted(question, concept.word) or not may_name_a_column(concept.word, catalog):
            return True
        else:
            messages = prompts.name_messages(question, concept.word, tables, catalog.meanings())
            completion = model.complete(messages, json_schema=prompts.NAME_SCHEMA, max_tokens=24)  # type: ignore[attr-defined]
            if prompts.parse_json(completion.text, "is") != "column":
                return True
    return False


def check_trades(args: argparse.Namespace) -> int:
    """The concept check alone on cases made from the questions of `args.trades`, on their final state."""
    total: Counter[tuple[str, str]] = Counter()
    flagged: Counter[tuple[str, str]] = Counter()
    model = select_backend(args.model) if args.ask_model else None
    for name in args.trades.split(","):
        trade = build(name, 0)
        chatdb = ChatDB(model=ScriptedBackend(), summarize=False)
        con = final_state(trade)
        copy_into(con, chatdb)
        con.close()
        catalog = Catalog.read(chatdb.session)
        words = {
            w
            for table in catalog.tables.values()
            for n in (table.name, *(c.name for c in table.columns))
            for w in tokens(n)
        }
        stored = ConceptIndex().stored(catalog, chatdb.values)
        asked = [{"question": q.text, "query": q.gold, "id": i, "db_id": name} for i, q in enumerate(trade.questions)]
        for case in (c for q in asked for c in cases(q, words, args.swap_at)):
            sure = stops(case.question, stored, catalog, model, chatdb.session)
            total[(name, case.kind)] += 1
            flagged[(name, case.kind)] += sure
            if args.verbose and sure != (case.kind in UNANSWERABLE):
                print(f"  WRONG [{case.kind} {name}] {case.question}")
        chatdb.close()
    for name in args.trades.split(","):
        cells = [f"{kind} {flagged[(name, kind)]}/{total[(name, kind)]}" for kind in KINDS if total[(name, kind)]]
        print(f"  {name}: flagged " + ", ".join(cells))
    for kind in KINDS:
        k, n = (
            sum(flagged[(t, kind)] for t in args.trades.split(",")),
            sum(total[(t, kind)] for t in args.trades.split(",")),
        )
        print(f"  {kind:12} flagged {k:3}/{n:3} ({_pct(k, n)})")
    return 0


def ask_all(system: str, model: object, asked: list[Case], path: Path) -> list[Outcome]:
    strategy, _, left_out = system.partition("-")
    chatdb = ChatDB(model=model, summarize=False, strategy=strategy, without=tuple(filter(None, left_out.split("-"))))
    for name, frame in read_sqlite(path).items():
        chatdb.register(name, frame)
    outcomes = []
    try:
        for case in asked:
            outcomes.append(ask(chatdb, system, case, path))
    finally:
        chatdb.close()
    return outcomes


def ask(chatdb: ChatDB, system: str, case: Case, path: Path) -> Outcome:
    events: list[Event] = []
    started = time.perf_counter()
    flagged = correct = False
    answer = ""
    try:
        reply = chatdb.ask(case.question, use_memory=False, on_event=events.append)
        answer = reply.answer
        flagged = bool(reply.missing or reply.doubtful) or "(No rows:" in reply.answer
        if case.gold and reply.result is not None:
            correct = same(reply.result, gold_result(case.gold, path), gold_is_ordered(case.gold))
    except ChatDBError as error:
        answer = f"failed: {error}"
    corrected = any(isinstance(e, ValueCorrected) for e in events)
    seconds = time.perf_counter() - started
    return Outcome(case.id, case.db_id, case.kind, system, case.question, flagged, correct, corrected, seconds, answer)


def report(outcomes: list[Outcome], title: str) -> None:
    systems_of: dict[str, set[str]] = defaultdict(set)
    for outcome in outcomes:
        systems_of[outcome.id].add(outcome.system)
    everyone = {o.system for o in outcomes}
    by_system: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:  # only the cases every system answered (a stopped run leaves some unpaired)
        if systems_of[outcome.id] == everyone:
            by_system[outcome.system].append(outcome)
    print(f"\nHonesty, {title}")
    systems = list(by_system)
    print(f"  {'':34}" + "".join(f"{name:>24}" for name in systems))

    def rate(kinds: tuple[str, ...], field: str):
        def figure(mine: list[Outcome]) -> str:
            chosen = [o for o in mine if o.kind in kinds]
            return _pct(sum(getattr(o, field) for o in chosen), len(chosen)) + f" of {len(chosen)}"

        return figure

    def refused(kinds: tuple[str, ...]):
        def figure(mine: list[Outcome]) -> str:
            chosen = [o for o in mine if o.kind in kinds]
            return _pct(sum(o.answer.startswith(REFUSAL_OPENING) for o in chosen), len(chosen)) + f" of {len(chosen)}"

        return figure

    rows = [
        ("unanswerable flagged", rate(UNANSWERABLE, "flagged")),
        ("  missing attribute flagged", rate(("column",), "flagged")),
        ("  missing value flagged", rate(("value",), "flagged")),
        ("answerable answered right", rate(("answerable",), "correct")),
        ("answerable flagged (wrongly)", rate(("answerable",), "flagged")),
        ("answerable refused (can't tell)", refused(("answerable",))),
        ("misspelled answered right", rate(("misspelled",), "correct")),
        ("misspelled corrected and shown", rate(("misspelled",), "corrected")),
        ("misspelled refused (can't tell)", refused(("misspelled",))),
    ]
    for label, figure in rows:
        print(f"  {label:34}" + "".join(f"{figure(by_system[name]):>24}" for name in systems))
    median = {name: statistics.median(o.seconds for o in mine) for name, mine in by_system.items()}
    print(f"  {'median seconds':34}" + "".join(f"{median[name]:>24.1f}" for name in systems))


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=sorted(HALVES), default="report")
    parser.add_argument("--per-kind", type=int, default=45, help="cases of each kind at most (0: all)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"some of {', '.join(KINDS)}")
    parser.add_argument(
        "--offset", type=int, default=0, help="each kind's cases from the N-th of each step on: a fresh sample"
    )
    parser.add_argument(
        "--swap-at", type=int, default=2, help="a misspelled value swaps this letter (from 0) and the next"
    )
    parser.add_argument("--systems", default="native,native-check_concepts", help="with and without the check")
    parser.add_argument("--check-only", action="store_true", help="the check alone, no model")
    parser.add_argument(
        "--ask-model",
        action="store_true",
        help="with --check-only: a sure attribute stops a request only when the model agrees, as in the system",
    )
    parser.add_argument("--trades", default="", help="with --check-only: cases from these trades' questions")
    parser.add_argument("--model", default="local")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--details", type=Path)
    parser.add_argument("--summary", type=Path, help="print the figures of a saved --details file")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
