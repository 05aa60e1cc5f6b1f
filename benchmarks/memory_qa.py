"""Long-session memory benchmark: facts stated over hundreds of cells, some later contradicted, then questions.

    python benchmarks/memory_qa.py [--facts 300] [--questions 40] [--answers 20] [--model local]

The session states facts about shop entities one cell at a time (a price, a phone number, a supplier...);
about a third are later updated with a new value. Each is stored the way post-thinking stores a thought
(ThoughtMemory.remember with its triple). Then, per question ("What is the price of pear?"):
- retrieval accuracy@k: the thought with the current value is among the k recalled; whether the latest
  fact wins (the superseded value is not recalled);
- baseline in the same run: the last k cells of the session (a chat window, as peers keep a few turns);
- answer accuracy with the model for the first --answers questions, with the recalled thoughts in the
  prompt, with the last k cells instead (baseline) and alone, scored by the current value in the answer.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jupyter_chatdb.controller import prompts
from jupyter_chatdb.kernel_memory.store import Store
from jupyter_chatdb.kernel_memory.thoughts import Thought, ThoughtMemory
from jupyter_chatdb.llm.minilm import MiniLMEmbedder
from jupyter_chatdb.llm.select import select_backend

K = 5
SUBJECTS = (
    "apple pear banana cherry grape strawberry mango kiwi plum peach lemon orange melon fig apricot lime papaya".split()
    + "Golden Fields,FruitCo,ABC Farms,Sunny Orchard,Green Valley,Berry Best,Orchard Hill,Fresh Direct".split(",")
    + "Bob Lewis,David Brown,Olivia Hall,Laura Miller,John Smith,Ann Lee,Maria Garcia,Chen Wei,Sara Khan".split(",")
)
RELATIONS = {  # relation: (sentence, question, value maker)
    "price": (
        "The price of {s} is ${v} per kg.",
        "What is the price of {s} per kg?",
        lambda r: f"{r.uniform(0.5, 9):.2f}",
    ),
    "phone": ("{s}'s phone number is {v}.", "What is {s}'s phone number?", lambda r: f"555-{r.integers(1000, 9999)}"),
    "shelf": (
        "{s} is kept on shelf {v}.",
        "On which shelf is {s} kept?",
        lambda r: f"{r.choice(list('ABCDEFGH'))}{r.integers(1, 20)}",
    ),
    "manager": (
        "The account manager for {s} is {v}.",
        "Who is the account manager for {s}?",
        lambda r: str(r.choice(["Rita", "Omar", "Ines", "Paul", "Yuki", "Lena", "Marco"])),
    ),
}


@dataclass
class Fact:
    cell: int
    subject: str
    relation: str
    value: str
    sentence: str


def session(facts: int, seed: int = 3) -> list[Fact]:
    """`facts` cells; about a third restate an earlier subject and relation with a new value."""
    rng = np.random.default_rng(seed)
    out: list[Fact] = []
    current: dict[tuple[str, str], str] = {}
    while len(out) < facts:
        if current and rng.random() < 0.33:
            subject, relation = list(current)[rng.integers(0, len(current))]
        else:
            subject, relation = str(rng.choice(SUBJECTS)), str(rng.choice(list(RELATIONS)))
        value = RELATIONS[relation][2](rng)
        if current.get((subject, relation)) == value:
            continue
        current[(subject, relation)] = value
        out.append(Fact(len(out), subject, relation, value, RELATIONS[relation][0].format(s=subject, v=value)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=300)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--answers", type=int, default=20, help="questions answered by the model (0: retrieval only)")
    parser.add_argument("--model", default="local")
    args = parser.parse_args()

    facts = session(args.facts)
    memory = ThoughtMemory(Store(), MiniLMEmbedder())
    started = time.perf_counter()
    for fact in facts:
        memory.remember(Thought(fact.subject, fact.relation, fact.value, fact.sentence), source=f"cell {fact.cell}")
    store_ms = (time.perf_counter() - started) * 1000 / len(facts)

    latest: dict[tuple[str, str], Fact] = {}
    older: dict[tuple[str, str], list[str]] = {}  # values that were later replaced
    for fact in facts:
        key = (fact.subject, fact.relation)
        if key in latest:
            older.setdefault(key, []).append(latest[key].value)
        latest[key] = fact
    updated = [key for key in latest if key in older]
    asked = (updated + [key for key in latest if key not in older])[: args.questions]  # contradicted facts first

    hits = window_hits = latest_wins = 0
    recalled_notes: list[list[str]] = []
    for subject, relation in asked:
        question = RELATIONS[relation][1].format(s=subject)
        recalled = memory.recall(question, k=K, min_similarity=0.0)
        objects = [r.record.object for r in recalled]
        hits += latest[(subject, relation)].value in objects
        about = [r.record.object for r in recalled if (r.record.subject, r.record.relation) == (subject, relation)]
        latest_wins += bool(about) and set(about) == {latest[(subject, relation)].value}
        window_hits += latest[(subject, relation)] in facts[-K:]
        recalled_notes.append([r.record.text for r in recalled])

    n = len(asked)
    print(
        f"Memory QA: {len(facts)} facts over {len(facts)} cells, {len(updated)} "
        f"of {len(latest)} facts updated later; {n} questions, k = {K}"
    )
    print(
        f"  store: {store_ms:.1f} ms per thought (embed + index + contradiction check), {len(memory.store)} live thoughts"
    )
    print(
        f"  retrieval accuracy@{K}: thought memory {hits}/{n} ({hits / n:.0%}); "
        f"baseline last {K} cells {window_hits}/{n} ({window_hits / n:.0%})"
    )
    print(
        "  latest fact wins (every recalled thought on that subject and relation "
        f"has the current value): {latest_wins}/{n} ({latest_wins / n:.0%})"
    )
    if args.answers:
        window = [fact.sentence for fact in facts[-K:]]
        answer_accuracy(args.model, asked[: args.answers], latest, recalled_notes[: args.answers], window)
    return 0


def answer_accuracy(
    model_name: str, asked: list[tuple[str, str]], latest: dict, notes: list[list[str]], window: list[str]
) -> None:
    """The model answers each question with the recalled thoughts, with the last cells only (baseline), and alone."""
    model = select_backend(model_name)
    for label, context in (("with memory", None), (f"last {K} cells", window), ("without memory", [])):
        right, seconds = 0, []
        for (subject, relation), recalled in zip(asked, notes):
            question = RELATIONS[relation][1].format(s=subject)
            messages = prompts.chat_messages(question, [], recalled if context is None else context)
            started = time.perf_counter()
            text = model.complete(messages, json_schema=prompts.ANSWER_SCHEMA, max_tokens=60).text
            seconds.append(time.perf_counter() - started)
            right += latest[(subject, relation)].value.lower() in text.lower()
        print(
            f"  answers {label:<15} {right}/{len(asked)} ({right / len(asked):.0%}), "
            f"median {np.median(seconds):.1f} s ({model.name})"
        )


if __name__ == "__main__":
    raise SystemExit(main())
