"""Right answers on databases the system was not tuned on: ChatDB against the raw model, in one run.

The 15 public Spider databases are split once, here, into a TUNE half (rules, prompts and examples may be
tried on it) and a REPORT half (figures are quoted only from it). Each question of the chosen half is
answered twice, on the same machine in the same run:

- raw: the embedded model alone, one shot, in Qwen's own text-to-SQL prompt style: every table's
  CREATE TABLE statement as the SQLite file holds it, with 3 sample rows, then "Using valid SQLite, answer
  the following questions for the tables provided above." and the question; greedy decoding, stopped at
  the statement's end as Qwen's own harness stops it (ChatDB's native reads stop there too); the SQL of its
  reply runs on the SQLite file as written (SQLite's loose typing forgives what DuckDB would not).
- each of `--systems`: `ChatDB.ask` with that strategy ("native", "chain", "one-round"; "native-route"
  leaves out the stage named after the dash) over the database's tables bound as DataFrames, as a
  notebook user would.

Both are scored by execution accuracy against the gold query on the SQLite file (multisets; ordered only
when the gold has ORDER BY). Databases are taken one at a time, raw first, so each gets its prompt prefix
cached alike. Per question details go to `--details` as they come (partial figures survive a stop).

    python benchmarks/text2sql.py                        # the report half, every 6th question
    python benchmarks/text2sql.py --half tune --stride 3 -v
    python benchmarks/text2sql.py --summary benchmarks/out/text2sql_report.jsonl   # figures of a saved run
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

import pandas as pd
import sqlglot
from spider import DATASET, gold_is_ordered, gold_result, read_sqlite, same

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import CandidatesVoted, Reply
from jupyter_chatdb.controller.native_sql import STOP, reply_sql
from jupyter_chatdb.controller.strategies import STRATEGIES
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM, Message

# The split, fixed once (2026-11-23): about half the questions each. Tune on TUNE, quote REPORT.
TUNE = (
    "car_1",
    "flight_2",
    "tvshow",
    "concert_singer",
    "poker_player",
    "course_teach",
    "museum_visit",
    "real_estate_properties",
)
REPORT = (
    "cre_Doc_Template_Mgt",
    "student_transcripts_tracking",
    "network_1",
    "pets_1",
    "employee_hire_evaluation",
    "singer",
    "battle_death",
)
HALVES = {"tune": TUNE, "report": REPORT}
RAW_MAX_TOKENS = 300
RAW_SECONDS = 30  # a raw query still running after this is stopped and counts as failed
SAMPLE_ROWS = 3


@dataclass
class Answer:
    id: int
    db_id: str
    question: str
    system: str  # raw, or the ChatDB strategy
    sql: str
    executed: bool
    correct: bool
    seconds: float
    calls: int
    error: str = ""
    cant_tell: bool = False  # answered that the data can't tell, or by a tool without SQL (never for raw)
    second_look: str = ""  # "agreeing/candidates" when a doubtful read was looked at again


def main() -> int:
    args = parse_args()
    if args.summary:
        report(read_answers(args.summary), args.summary.stem)
        return 0
    questions = select_questions(args)
    if not questions:
        print("No questions match.", file=sys.stderr)
        return 2
    model = select_backend(args.model)
    details = args.details or Path(f"benchmarks/out/text2sql_{args.half}.jsonl")
    details.parent.mkdir(parents=True, exist_ok=True)
    answers: list[Answer] = []
    with details.open("w") as lines, tempfile.TemporaryDirectory() as folder:
        for db_id in dict.fromkeys(q["db_id"] for q in questions):
            asked = [q for q in questions if q["db_id"] == db_id]
            gold_path = args.dataset / "database" / f"{db_id}.sqlite"
            path = messy_copy(gold_path, Path(folder)) if args.messy else gold_path
            for system in ("raw", *args.systems.split(",")):
                for answer in answer_all(system, model, asked, path, gold_path):
                    answers.append(answer)
                    keep(answer, lines, args.verbose)
    report(answers, f"{args.half} half{', numbers stored as text' if args.messy else ''}, model {model.name}")
    return 0


def keep(answer: Answer, lines: TextIO, verbose: bool) -> None:
    """One answer saved as it comes (a stopped run keeps what it measured), and shown with `verbose`."""
    lines.write(json.dumps(asdict(answer)) + "\n")
    lines.flush()
    if verbose:
        mark = "ok " if answer.correct else "ERR" if not answer.executed else "no "
        print(f"[{answer.system} {answer.db_id}] {mark} {answer.seconds:5.1f}s {answer.question}", flush=True)


def read_answers(path: Path) -> list[Answer]:
    """The answers of a saved details file."""
    return [Answer(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def select_questions(args: argparse.Namespace) -> list[dict]:
    databases = (args.db,) if args.db else HALVES[args.half]
    questions = [q for q in json.loads((args.dataset / "dev.json").read_text()) if q["db_id"] in databases]
    questions = questions[:: args.stride]
    return questions[: args.limit] if args.limit else questions


def strategy_and_stages(system: str) -> tuple[str, tuple[str, ...]]:
    """A system named STRATEGY or STRATEGY-STAGE-...: the strategy and the stages it leaves out.

    >>> strategy_and_stages("repair-flat-fall_back"), strategy_and_stages("one-round")
    (('repair-flat', ('fall_back',)), ('one-round', ()))
    """
    strategy = max((name for name in STRATEGIES if system == name or system.startswith(name + "-")), key=len)
    return strategy, tuple(filter(None, system.removeprefix(strategy).split("-")))


def answer_all(system: str, model: LLM, questions: list[dict], path: Path, gold_path: Path) -> Iterator[Answer]:
    """`system`'s answers over the database at `path`, scored against the gold queries on `gold_path`."""
    if system == "raw":
        schema = raw_schema(path)
        for question in questions:
            yield ask_raw(model, schema, question, path, gold_path)
        return
    strategy, left_out = strategy_and_stages(system)
    chatdb = ChatDB(model=model, summarize=False, strategy=strategy, without=tuple(left_out))
    for name, frame in read_sqlite(path).items():
        chatdb.register(name, frame)
    try:
        for question in questions:
            yield ask_chatdb(chatdb, system, question, gold_path)
    finally:
        chatdb.close()


def messy_copy(path: Path, folder: Path) -> Path:
    """The database with its numbers stored as text, as a careless CSV import or an old database leaves
    them: every INTEGER/REAL/NUMERIC column that is no key (its name does not end in "id") is declared TEXT
    and holds its values as text. Keys and the rest of the schema stay."""
    copy = folder / f"messy_{path.name}"
    copy.unlink(missing_ok=True)
    with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
        source.text_factory = lambda raw: raw.decode(errors="replace")
        tables = source.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for name, create in tables.fetchall():
            tree = sqlglot.parse_one(create, read="sqlite")
            texts = set()
            for column in tree.find_all(sqlglot.exp.ColumnDef):
                kind = column.args.get("kind")
                numeric = kind is not None and (kind.is_type(*sqlglot.exp.DataType.NUMERIC_TYPES))
                if numeric and not column.name.lower().endswith("id"):
                    column.set("kind", sqlglot.exp.DataType.build("TEXT"))
                    texts.add(column.name)
            target.execute(tree.sql(dialect="sqlite"))
            cursor = source.execute(f'SELECT * FROM "{name}"')
            names = [d[0] for d in cursor.description]
            rows = [
                tuple(_as_text(v) if n in texts and v is not None else v for n, v in zip(names, row))
                for row in cursor.fetchall()
            ]
            target.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" for _ in names)})', rows)
    return copy


def _as_text(value: object) -> str:
    """
    >>> _as_text(3.0), _as_text(2.5), _as_text("7")
    ('3', '2.5', '7')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# -- the raw model ---------------------------------------------------------------------------------


def raw_schema(path: Path) -> str:
    """Each table's CREATE TABLE statement as the file holds it, with its first rows, as Qwen's
    text-to-SQL evaluation shows a database."""
    parts = []
    with sqlite3.connect(path) as con:
        con.text_factory = lambda raw: raw.decode(errors="replace")
        tables = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for name, create in tables.fetchall():
            parts.append(table_text(name, create, con.execute(f'SELECT * FROM "{name}" LIMIT {SAMPLE_ROWS}')))
    return "\n\n".join(parts)


def table_text(name: str, create: str, cursor: Any) -> str:
    """One table as Qwen's text-to-SQL prompts show it: its CREATE TABLE and a cursor's first rows."""
    header = " ".join(column[0] for column in cursor.description)
    rows = "\n".join(" ".join(str(value) for value in row) for row in cursor.fetchall())
    return (
        f"{create.strip().rstrip(';')};\n/*\n{SAMPLE_ROWS} example rows:\n"
        f'SELECT * FROM "{name}" LIMIT {SAMPLE_ROWS};\n{header}\n{rows}\n*/'
    )


def raw_messages(schema: str, question: str) -> list[Message]:
    return [
        {
            "role": "user",
            "content": f"{schema}\n\n-- Using valid SQLite, answer the following questions for the tables provided above.\n"
            f"-- {question}\n",
        }
    ]


def ask_raw(model: LLM, schema: str, question: dict, path: Path, gold_path: Path) -> Answer:
    started = time.perf_counter()
    messages = raw_messages(schema, question["question"])
    completion = model.complete(messages, max_tokens=RAW_MAX_TOKENS, stop=STOP)
    sql = reply_sql(completion.text)
    executed, correct, error = False, False, ""
    try:
        rows = run_sqlite(sql, path)
        executed = True
        correct = same_rows(rows, gold_result(question["query"], gold_path), gold_is_ordered(question["query"]))
    except sqlite3.Error as failure:
        error = str(failure)
    seconds = time.perf_counter() - started
    return Answer(
        question["id"], question["db_id"], question["question"], "raw", sql, executed, correct, seconds, 1, error
    )


def run_sqlite(sql: str, path: Path) -> list[tuple]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
        con.text_factory = lambda raw: raw.decode(errors="replace")
        deadline = time.monotonic() + RAW_SECONDS
        con.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        return con.execute(sql).fetchall()


def same_rows(rows: list[tuple], gold: list[tuple], ordered: bool) -> bool:
    return same(pd.DataFrame.from_records(rows), gold, ordered)


# -- ChatDB ----------------------------------------------------------------------------------------


def ask_chatdb(chatdb: ChatDB, system: str, question: dict, path: Path) -> Answer:
    gold = gold_result(question["query"], path)
    return ask_chatdb_reply(
        chatdb,
        system,
        question["id"],
        question["db_id"],
        question["question"],
        gold,
        gold_is_ordered(question["query"]),
    )


def ask_chatdb_reply(
    chatdb: ChatDB,
    system: str,
    number: int,
    db_id: str,
    question: str,
    gold: list[tuple],
    ordered: bool,
    on_reply: Callable[[Reply], object] | None = None,
) -> Answer:
    """ChatDB's answer to one question, scored against the gold rows (`on_reply` sees the reply)."""
    started = time.perf_counter()
    sql, calls, executed, correct, error, cant_tell = "", 0, False, False, "", False
    voted: list[CandidatesVoted] = []
    try:
        reply = chatdb.ask(question, on_event=lambda e: voted.append(e) if isinstance(e, CandidatesVoted) else None)
        if on_reply is not None:
            on_reply(reply)
        sql = reply.sql[-1] if reply.sql else ""
        calls = reply.usage.calls
        executed = reply.result is not None
        correct = executed and same(reply.result, gold, ordered)
        cant_tell = bool(reply.missing) or reply.route != "read" or not reply.sql
    except ChatDBError as failure:
        error = str(failure)
    seconds = time.perf_counter() - started
    looked = f"{voted[-1].agreeing}/{voted[-1].candidates}" if voted else ""
    return Answer(number, db_id, question, system, sql, executed, correct, seconds, calls, error, cant_tell, looked)


# -- figures ---------------------------------------------------------------------------------------


def report(answers: list[Answer], title: str) -> None:
    by_system: dict[str, list[Answer]] = defaultdict(list)
    for answer in answers:
        by_system[answer.system].append(answer)
    systems = list(by_system)
    width = max(14, *(len(name) + 2 for name in systems))
    print(f"\nText-to-SQL, {title}")
    print(f"  {'':24}" + "".join(f"{name:>{width}}" for name in systems))
    rows = [
        ("execution accuracy", lambda a: _pct(sum(x.correct for x in a), len(a))),
        ("executed", lambda a: _pct(sum(x.executed for x in a), len(a))),
        ("median seconds", lambda a: f"{statistics.median(x.seconds for x in a):.1f}" if a else "-"),
        ("mean model calls", lambda a: f"{statistics.mean(x.calls for x in a):.2f}" if a else "-"),
        ("said can't tell", lambda a: _pct(sum(x.cant_tell for x in a), len(a))),
        ("looked at again", lambda a: _pct(sum(bool(x.second_look) for x in a), len(a))),
    ]
    for label, figure in rows:
        print(f"  {label:24}" + "".join(f"{figure(by_system[name]):>{width}}" for name in systems))
    for name in systems[1:]:
        paired = _paired(by_system.get("raw", []), by_system[name])
        if not paired:
            continue
        n = len(paired)
        gain = sum(b.correct for _, b in paired) - sum(a.correct for a, _ in paired)
        ratio = statistics.median(b.seconds for _, b in paired) / max(
            statistics.median(a.seconds for a, _ in paired), 1e-9
        )
        print(
            f"  {name} - raw on the {n} questions both answered: {100 * gain / n:+.1f} points "
            f"(right only for raw {sum(a.correct and not b.correct for a, b in paired)}, "
            f"only for {name} {sum(b.correct and not a.correct for a, b in paired)}); median time {ratio:.2f}x raw"
        )
        easy = [(a, b) for a, b in paired if a.correct and a.executed]
        if easy:
            easy_ratio = statistics.median(b.seconds for _, b in easy) / max(
                statistics.median(a.seconds for a, _ in easy), 1e-9
            )
            print(f"    on the {len(easy)} questions raw got right: median time {easy_ratio:.2f}x raw")
    print("  per database:")
    for db_id in dict.fromkeys(a.db_id for a in answers):
        figures = []
        for name in systems:
            mine = [x for x in by_system[name] if x.db_id == db_id]
            figures.append(f"{_pct(sum(x.correct for x in mine), len(mine)):>{width}}")
        print(f"    {db_id:22}" + "".join(figures))


def _paired(raw: list[Answer], ours: list[Answer]) -> list[tuple[Answer, Answer]]:
    mine = {(a.db_id, a.id): a for a in ours}
    return [(a, mine[(a.db_id, a.id)]) for a in raw if (a.db_id, a.id) in mine]


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=sorted(HALVES), default="report", help="which half of the split to ask")
    parser.add_argument("--stride", type=int, default=6, help="ask every Nth question of the half")
    parser.add_argument("--limit", type=int, default=0, help="ask only the first N of those")
    parser.add_argument("--db", help="ask only this database's questions (must belong to --half's intent)")
    parser.add_argument("--model", default="local", help="model (default: the embedded model)")
    parser.add_argument(
        "--systems",
        default="native",
        help="ChatDB strategies to run beside the raw model, comma-separated (STRATEGY-STAGE leaves a stage out)",
    )
    parser.add_argument("--messy", action="store_true", help="numbers stored as text (`messy_copy`), for both")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument(
        "--details", type=Path, help="per-question JSON Lines (default benchmarks/out/text2sql_HALF.jsonl)"
    )
    parser.add_argument("--summary", type=Path, help="print the figures of a saved details file and stop")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each answer as it comes")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
