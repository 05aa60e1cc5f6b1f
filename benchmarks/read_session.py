"""Reads that learn from their user: a session of questions per database, each wrong answer corrected.

On a half of the Spider split (`text2sql.py`: tune or report), each database's questions are asked in
their order, three ways in one run:

- raw: the embedded model alone, one shot, in Qwen's own prompt style (as `text2sql.py` asks it);
- native: `ChatDB.ask`, each question on its own (no verified reads);
- corrected: `ChatDB.ask` in one session per database where the user corrects every wrong answer: the
  gold SQL (read into DuckDB's dialect as ChatDB reads the model's SQLite) is kept with
  `ChatDB.verify(question, sql)`, and later questions close to a corrected one are asked with it shown.

Printed: each system's accuracy on all questions, on the questions after a database's first correction,
and on the questions the corrected session asked with an example and without one; and on those without
one, how many answers differ from native's (the prompt is the same, so none should).

    python benchmarks/read_session.py --half tune --limit 60 -v
    python benchmarks/read_session.py --half report
    python benchmarks/read_session.py --summary benchmarks/out/read_session_report.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from spider import DATASET, gold_is_ordered, gold_result, read_sqlite
from text2sql import HALVES, Answer, ask_chatdb_reply, ask_raw, raw_schema, report

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.kernel_memory import verified_reads
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM, Completion, Message
from jupyter_chatdb.sql import fixups
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.sql.trees import written

SYSTEMS = ("raw", "native", "corrected")


@dataclass
class Asked:
    answer: Answer
    examples: int = 0  # verified reads shown with the question (corrected session)
    closest: float = 0.0  # similarity of the closest verified read on its tables, shown or not
    kept: str = ""  # corrected session, a wrong answer: "kept", or why its gold SQL could not be kept
    after_correction: bool = False  # a correction was made earlier in this database's session
    prompt: str = ""  # a digest of the first prompt the question was asked with (ChatDB's systems)


def main() -> int:
    args = parse_args()
    if args.summary:
        summarize(
            [asked_from(line) for line in args.summary.read_text().splitlines() if line.strip()], args.summary.stem
        )
        return 0
    if args.close_min is not None:
        verified_reads.CLOSE_MIN = args.close_min
    databases = tuple(args.db.split(",")) if args.db else HALVES[args.half]
    questions = [q for q in json.loads((args.dataset / "dev.json").read_text()) if q["db_id"] in databases]
    questions = questions[:: args.stride][: args.limit or None]
    model = select_backend(args.model)
    details = args.details or Path(f"benchmarks/out/read_session_{args.half}.jsonl")
    details.parent.mkdir(parents=True, exist_ok=True)
    everything: list[Asked] = []
    with details.open("w") as lines:
        for db_id in dict.fromkeys(q["db_id"] for q in questions):
            asked = [q for q in questions if q["db_id"] == db_id]
            path = args.dataset / "database" / f"{db_id}.sqlite"
            for system in SYSTEMS:
                for one in ask_all(system, model, asked, path):
                    everything.append(one)
                    lines.write(json.dumps(asdict(one)) + "\n")
                    lines.flush()
                    if args.verbose:
                        a = one.answer
                        mark = "ok " if a.correct else "ERR" if not a.executed else "no "
                        shown = f" [{one.examples} ex, {one.closest:.2f}]" if system == "corrected" else ""
                        print(f"[{system} {db_id}] {mark} {a.seconds:5.1f}s{shown} {a.question}", flush=True)
    summarize(everything, f"{args.half} half, model {model.name}")
    return 0


def ask_all(system: str, model: LLM, questions: list[dict], path: Path) -> Iterator[Asked]:
    if system == "raw":
        schema = raw_schema(path)
        for question in questions:
            yield Asked(ask_raw(model, schema, question, path, path))
        return
    logged = PromptLog(model)
    chatdb = ChatDB(model=logged, summarize=False, strategy="native")
    for name, frame in read_sqlite(path).items():
        chatdb.register(name, frame)
    corrected = False
    try:
        for question in questions:
            schema = Catalog.read(chatdb.session).schema()
            nearest = chatdb.reads.closest(question["question"], schema, k=1, least=0.0)
            logged.first = ""
            answer, examples = ask(chatdb, system, question, path)
            closest = nearest[0].similarity if nearest else 0.0
            one = Asked(answer, examples, closest, after_correction=corrected, prompt=logged.first)
            if system == "corrected" and not answer.correct:
                one.kept, corrected = correct(chatdb, question), True
            yield one
    finally:
        chatdb.close()


class PromptLog:
    """The model, with a digest of the first prompt of each question kept (`first`, reset by the caller)."""

    def __init__(self, model: LLM) -> None:
        self.model, self.name, self.first = model, model.name, ""

    def complete(self, messages: list[Message], **options: Any) -> Completion:
        if not self.first:
            self.first = hashlib.sha256(json.dumps(messages).encode()).hexdigest()[:16]
        return self.model.complete(messages, **options)


def ask(chatdb: ChatDB, system: str, question: dict, path: Path) -> tuple[Answer, int]:
    shown: list[int] = []
    gold = gold_result(question["query"], path)
    answer = ask_chatdb_reply(
        chatdb,
        system,
        question["id"],
        question["db_id"],
        question["question"],
        gold,
        gold_is_ordered(question["query"]),
        on_reply=lambda reply: shown.append(len(reply.examples)),
    )
    return answer, shown[0] if shown else 0


def correct(chatdb: ChatDB, question: dict) -> str:
    """The user's correction: the gold SQL, in DuckDB's dialect, kept as the question's verified read."""
    trees = fixups.from_sqlite(question["query"])
    sql = written(trees[0]) if trees else question["query"]
    try:
        chatdb.verify(question["question"], sql)
    except ChatDBError as error:
        return f"not kept: {error}"
    return "kept"


# -- figures ---------------------------------------------------------------------------------------


def summarize(everything: list[Asked], title: str) -> None:
    report([one.answer for one in everything], f"a session per database, {title}")
    by_system: dict[str, dict[tuple[str, int], Asked]] = defaultdict(dict)
    for one in everything:
        by_system[one.answer.system][(one.answer.db_id, one.answer.id)] = one
    sessions = by_system.get("corrected", {})
    if not sessions:
        return
    kept = [one for one in sessions.values() if one.kept]
    print(f"  corrections: {len(kept)} wrong answers corrected, {sum(o.kept == 'kept' for o in kept)} kept")
    groups = {
        "after a database's first correction": [k for k, o in sessions.items() if o.after_correction],
        "asked with a verified example": [k for k, o in sessions.items() if o.examples],
        "asked without one": [k for k, o in sessions.items() if not o.examples],
    }
    for label, keys in groups.items():
        figures = ", ".join(f"{system} {_accuracy(by_system[system], keys)}" for system in SYSTEMS)
        print(f"  on the {len(keys)} questions {label}: {figures}")
    alone = [k for k in groups["asked without one"] if k in by_system["native"]]
    prompts = [k for k in alone if by_system["native"][k].prompt != sessions[k].prompt]
    changed = [k for k in alone if _differs(by_system["native"][k].answer, sessions[k].answer)]
    print(
        f"  on the {len(alone)} questions without an example: prompts differing from native's {len(prompts)}; "
        f"answers differing {len(changed)} (SQL or outcome; the same prompt may decode otherwise once the "
        f"prompt cache differs), of which native right {sum(by_system['native'][k].answer.correct for k in changed)}, "
        f"corrected right {sum(sessions[k].answer.correct for k in changed)}"
    )
    seconds = [o.answer.seconds for o in sessions.values() if o.examples]
    if seconds:
        print(f"  median seconds with an example: {statistics.median(seconds):.1f}")
    bands = defaultdict(lambda: [0, 0, 0])  # closest similarity band -> [questions, native right, corrected right]
    for key, one in sessions.items():
        band = f"{min(int(one.closest * 20) / 20, 0.95):.2f}"
        native = by_system["native"].get(key)
        bands[band][0] += 1
        bands[band][1] += bool(native and native.answer.correct)
        bands[band][2] += one.answer.correct
    print("  by the closest verified read's similarity (questions, native right, corrected right):")
    for band in sorted(bands):
        print(f"    >= {band}: {bands[band][0]:3d} {bands[band][1]:3d} {bands[band][2]:3d}")


def _accuracy(answers: dict[tuple[str, int], Asked], keys: list[tuple[str, int]]) -> str:
    mine = [answers[k].answer.correct for k in keys if k in answers]
    return f"{100 * sum(mine) / len(mine):.1f}%" if mine else "-"


def _differs(a: Answer, b: Answer) -> bool:
    return a.sql != b.sql or a.correct != b.correct


def asked_from(line: str) -> Asked:
    fields = json.loads(line)
    return Asked(**{**fields, "answer": Answer(**fields["answer"])})


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=sorted(HALVES), default="report", help="which half of the split to ask")
    parser.add_argument("--stride", type=int, default=1, help="ask every Nth question of the half")
    parser.add_argument("--limit", type=int, default=0, help="ask only the first N of those")
    parser.add_argument("--db", help="ask only these databases' questions (comma-separated)")
    parser.add_argument("--model", default="local", help="model (default: the embedded model)")
    parser.add_argument("--close-min", type=float, help="how close a verified read must be to be shown (tuning)")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument(
        "--details", type=Path, help="per-question JSON Lines (default benchmarks/out/read_session_HALF.jsonl)"
    )
    parser.add_argument("--summary", type=Path, help="print the figures of a saved details file and stop")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each answer as it comes")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
