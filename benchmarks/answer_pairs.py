"""Sentences that match their table: on grouped questions, does the answer pair each label with its own figures?

The grouped questions (gold SQL with GROUP BY) of the report sets: the Spider report half (`text2sql.py`)
and the questions of the report trades (`trades.REPORT`, on their exact final state), asked with answers
phrased by the model (`summarize`). For each, `controller.pairs.mispaired` compares every label-number
pair of a sentence with the result's rows:

- the model's own sentence (what a user read before answers were checked pair by pair);
- the answer given (the model's sentence where it pairs rightly, else the one written from the rows).

Printed: grouped questions asked, answered with a result, model sentences with a wrong pair, top-N
sentences without their figures, answers given with a wrong pair (target 0), answers that note a tie.

    python benchmarks/answer_pairs.py --stride 2 -v
    python benchmarks/answer_pairs.py --sets trades -v
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from records import copy_into, final_state
from spider import DATASET, read_sqlite
from text2sql import REPORT as SPIDER_REPORT
from trades import REPORT as TRADES_REPORT
from trades import build

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import Event, ModelText
from jupyter_chatdb.controller.pairs import lists_without_figures, mispaired
from jupyter_chatdb.controller.prompts import parse_json
from jupyter_chatdb.controller.top_n import top_n
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM
from jupyter_chatdb.llm.minilm import LazyMiniLMEmbedder


@dataclass
class Asked:
    source: str  # spider:<db> or trade:<name>
    question: str
    sql: str = ""
    answered: bool = False
    phrased: str = ""  # the model's own sentence
    answer: str = ""  # the answer given
    phrased_wrong: list = None  # type: ignore[assignment]  # (label, number) pairs no row holds
    phrased_bare: bool = False  # a top-N sentence naming labels without their figures
    answer_wrong: list = None  # type: ignore[assignment]
    tie: bool = False
    seconds: float = 0.0
    error: str = ""


def main() -> int:
    args = parse_args()
    model = select_backend(args.model)
    args.details.parent.mkdir(parents=True, exist_ok=True)
    asked: list[Asked] = []
    with args.details.open("w") as lines:
        for source, chatdb, questions in sources(args, model):
            try:
                for text in questions[:: args.stride]:
                    one = ask(chatdb, source, text)
                    asked.append(one)
                    lines.write(json.dumps(asdict(one)) + "\n")
                    lines.flush()
                    if args.verbose:
                        print(
                            f"[{source}] {one.seconds:5.1f}s {one.answer[:100]!r} wrong {one.answer_wrong}", flush=True
                        )
            finally:
                chatdb.close()
    report(asked, model.name)
    return 0


def sources(args: argparse.Namespace, model: LLM):  # type: ignore[no-untyped-def]
    """Each report database as a notebook would hold it, with its grouped questions."""
    if "spider" in args.sets:
        dev = json.loads((DATASET / "dev.json").read_text())
        for db_id in SPIDER_REPORT:
            questions = [q["question"] for q in dev if q["db_id"] == db_id and "group by" in q["query"].lower()]
            chatdb = ChatDB(model=model, summarize=True, strategy="native")
            for name, frame in read_sqlite(DATASET / "database" / f"{db_id}.sqlite").items():
                chatdb.register(name, frame)
            yield f"spider:{db_id}", chatdb, questions
    if "trades" in args.sets:
        embedder = LazyMiniLMEmbedder()
        for name in TRADES_REPORT:
            trade = build(name, args.seed)
            questions = [q.text for q in trade.questions if "group by" in q.gold.lower()]
            chatdb = ChatDB(model=model, summarize=True, strategy="native", embedder=embedder)  # type: ignore[arg-type]
            con = final_state(trade)
            copy_into(con, chatdb)
            con.close()
            yield f"trade:{name}", chatdb, questions


def ask(chatdb: ChatDB, source: str, text: str) -> Asked:
    one = Asked(source, text, phrased_wrong=[], answer_wrong=[])
    events: list[Event] = []
    started = time.perf_counter()
    try:
        reply = chatdb.ask(text, on_event=events.append)
        one.sql = reply.sql[-1] if reply.sql else ""
        one.answered = reply.result is not None
        one.answer = reply.answer
        phrasing = "".join(e.text for e in events if isinstance(e, ModelText) and e.purpose == "answer")
        one.phrased = parse_json(phrasing, "answer") or ""
        if one.answered:
            one.phrased_wrong = mispaired(one.phrased, reply.result, text) if one.phrased else []
            one.phrased_bare = bool(one.phrased and top_n(one.sql) and lists_without_figures(one.phrased, reply.result))
            one.answer_wrong = mispaired(one.answer, reply.result, text)
            one.tie = "ties with the" in one.answer
    except ChatDBError as failure:
        one.error = str(failure)[:200]
    one.seconds = round(time.perf_counter() - started, 2)
    return one


def report(asked: list[Asked], model: str) -> None:
    answered = [a for a in asked if a.answered]
    phrased = [a for a in answered if a.phrased]
    print(f"\nAnswer pairs: grouped questions of the report sets, model {model}")
    for source in sorted({a.source.split(":")[0] for a in asked}):
        mine = [a for a in asked if a.source.startswith(source)]
        print(f"  {source}: {len(mine)} asked, {sum(a.answered for a in mine)} answered with a result")
    print(
        f"  model sentences: {len(phrased)}; with a label paired to another row's figure: "
        f"{sum(bool(a.phrased_wrong) for a in phrased)}; top-N without figures: {sum(a.phrased_bare for a in phrased)}"
    )
    print(
        f"  answers given with a wrong pair: {sum(bool(a.answer_wrong) for a in answered)}/{len(answered)} (target 0); "
        f"written from the rows instead of the model's sentence: {sum(not a.answer.startswith(a.phrased) for a in phrased)}; "
        f"noting a tie: {sum(a.tie for a in answered)}"
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="spider,trades", help="spider, trades or both")
    parser.add_argument("--stride", type=int, default=1, help="every N-th grouped question of each database")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="local")
    parser.add_argument("--details", type=Path, default=Path("benchmarks/out/answer_pairs.jsonl"))
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
