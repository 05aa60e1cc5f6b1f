"""Memory across notebook sessions: definitions recalled, corrections kept, and never a stale figure.

Each scripted session works on one numeric column of one table of a Spider database (the halves of
`text2sql.py`; three sessions per column, with other thresholds), as DataFrames of a notebook, and
plays six turns:

  1. the user defines an invented word and asks with it: "A zorbly <table> is one whose <column> is above
     <t1>. How many zorbly <table> are there?"
  2. a later question uses the word alone: "How many zorbly <table> are there?"
  3. the frame changes (two rows above t1 fall to t1), as a notebook cell would change it
  4. the question of turn 2 again
  5. the user corrects the definition: "No, a zorbly <table> is one whose <column> is above <t2>."
  6. the question of turn 2 again

and, for harm, questions on the same table that must ignore the word: after turn 2, "How many <table> are
there?" (7), "What is the largest <column> of any <table>?" (8) and, where the table has a text column,
"How many <table> have <text column> <its most common value>?" (11); after turn 6, the same again (9, 10, 12).
Their answers with memory must equal those without (`changed by memory`, target 0).

The same turns run with memory and without (`use_memory=False`), each system on its own copy of the
frames. Printed: questions 2, 4 and 6 right with and without memory; stale figures that reached a
prompt (a recalled result thought whose SELECT, run now, gives other figures) or an answer (turn 4 gives
turn 2's count after the data changed); stale definitions recalled (one the user had corrected); the
embedded model's notes against the gold list (one definition per turn 1 and 5, none elsewhere:
precision and recall); and the seconds memory adds on requests with nothing to keep (turns 2, 4, 6:
the median of with minus without, and the memory model calls they made).

The defined words (invented ones, or with `--words ordinary` everyday ones, for harm) and the sentence
templates name no table, column or value of any database; the
tables, columns and thresholds are read from each database's data.

    python benchmarks/memory_sessions.py --half tune --notes-only -v   # the notes call alone, quick
    python benchmarks/memory_sessions.py --half tune --sessions 12 -v
    python benchmarks/memory_sessions.py --half report -v          # the figures to quote
    python benchmarks/memory_sessions.py --half report --sessions 15 --complement -v   # the other 15
    python benchmarks/memory_sessions.py --half report --words ordinary --sessions 10 -v   # harm, readily
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd
from spider import DATASET, read_sqlite
from text2sql import HALVES

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import Event, MemoryRecalled, MemoryStored, ModelText
from jupyter_chatdb.controller.stages.thinking import NOTES_MAX_TOKENS, note_text
from jupyter_chatdb.kernel_memory import evidence
from jupyter_chatdb.kernel_memory.notes import NOTES_SCHEMA, notes_messages, parse_notes
from jupyter_chatdb.kernel_memory.store import Store
from jupyter_chatdb.kernel_memory.thoughts import ThoughtMemory
from jupyter_chatdb.llm import select_backend
from jupyter_chatdb.llm.base import LLM
from jupyter_chatdb.llm.minilm import MiniLMEmbedder

WORDS = ("zorbly", "quellish", "brindled", "vantic", "ombric", "tasseled", "marrowed", "plimsy", "corvate", "duskish")
# `--words ordinary`: everyday words a small model reads a meaning into, as users define them ("a big
# plant"); a recalled definition of one bends unrelated answers more readily than an invented word
ORDINARY_WORDS = ("big", "large", "high", "heavy", "major", "top", "strong", "great", "notable", "prime")
VARIANTS = ((0.5, 0.25), (0.75, 0.5), (0.25, 0.75))  # quantiles of a column's distinct values: definition, correction
QUESTION_TURNS = (2, 4, 6)
PROMPT_RATE = 64  # prompt tokens the embedded model reads per second on 2 cores (measured before)
FELL = 2  # rows above the first threshold that the data change brings down to it


@dataclass(frozen=True)
class Session:
    db_id: str
    table: str
    column: str
    word: str
    first: float  # the threshold of the definition
    second: float  # the threshold of the correction
    label: str = ""  # a text column of the table, and its most common value: a filter of another kind
    value: str = ""

    def turns(self) -> list[tuple[int, str]]:
        table, column = self.table.replace("_", " "), self.column.replace("_", " ")
        ask = f"How many {self.word} {table} are there?"
        count, largest = f"How many {table} are there?", f"What is the largest {column} of any {table}?"
        having = [f"How many {table} have {self.label.replace('_', ' ')} {self.value}?"] if self.label else []
        return [
            (1, f"A {self.word} {table} is one whose {column} is above {_number(self.first)}. {ask}"),
            (2, ask),
            (7, count),
            (8, largest),
            *((11, text) for text in having),
            (4, ask),
            (5, f"No, a {self.word} {table} is one whose {column} is above {_number(self.second)}."),
            (6, ask),
            (9, count),
            (10, largest),
            *((12, text) for text in having),
        ]


UNRELATED_TURNS = (7, 8, 9, 10, 11, 12)  # questions on the session's table that must ignore its word


@dataclass
class Turn:
    session: int
    system: str
    turn: int
    request: str
    gold: float | None
    got: object = None
    right: bool = False
    seconds: float = 0.0
    memory_calls: int = 0
    memory_seconds: float = 0.0  # recalling, checking and storing thoughts, model calls aside
    note_tokens: int = 0  # what the recalled notes add to the planner's prompt
    stale_in_prompt: int = 0
    stale_definitions: int = 0
    notes: list[str] = field(default_factory=list)  # (kind) sentence of each note kept
    error: str = ""


def main() -> int:
    args = parse_args()
    sessions = choose_sessions(args)
    print(f"{len(sessions)} sessions over {len({s.db_id for s in sessions})} databases ({args.half} half)", flush=True)
    model = select_backend(args.model)
    if args.notes_only:
        return notes_only(sessions, model, args.verbose)
    args.details.parent.mkdir(parents=True, exist_ok=True)
    turns: list[Turn] = []
    with open(args.details, "w") as details:
        for number, session in enumerate(sessions, start=1):
            for system in ("memory", "no memory"):
                for turn in play(number, session, system, model, args):
                    turns.append(turn)
                    details.write(json.dumps(asdict(turn), default=str) + "\n")
                    details.flush()
                    if args.verbose:
                        mark = "ok" if turn.right else "--" if turn.gold is not None else "  "
                        print(
                            f"[{system:>9}] s{number:02d} t{turn.turn} {mark} {turn.seconds:5.1f}s got {turn.got!r} "
                            f"gold {turn.gold} notes {turn.notes} stale {turn.stale_in_prompt}{turn.error[:80]}",
                            flush=True,
                        )
    report(turns, sessions, f"{args.half} half, model {model.name}")
    return 0


def notes_only(sessions: list[Session], model: LLM, verbose: bool) -> int:
    """The notes call alone on turns 1 and 5 (the same call `post_think` makes): a quick way to try a change
    to the notes prompt."""
    turns = []
    for number, session in enumerate(sessions, start=1):
        previous = ""
        for turn, text in session.turns():
            if turn in (1, 5):
                completion = model.complete(
                    notes_messages(text, previous), json_schema=NOTES_SCHEMA, max_tokens=NOTES_MAX_TOKENS
                )
                kept = [f"({n.kind}: {', '.join(n.terms)}) {n.sentence}" for n in parse_notes(completion.text)]
                turns.append(Turn(number, "memory", turn, text, None, notes=kept))
                if verbose:
                    print(f"s{number:02d} t{turn} {kept}", flush=True)
            previous = text
    precision, recall = _extraction(turns, sessions)
    print(f"\nNotes alone: {len(sessions)} sessions, model {model.name}: precision {precision}, recall {recall}")
    return 0


def choose_sessions(args: argparse.Namespace) -> list[Session]:
    """Sessions on every numeric measure of the half's databases, each column with `VARIANTS` pairs of
    thresholds (quantiles of its distinct values) and a word of its own, so each session starts afresh."""
    sessions: list[Session] = []
    for db_id in HALVES[args.half]:
        frames = read_sqlite(args.dataset / "database" / f"{db_id}.sqlite")
        for table, frame in frames.items():
            for column in frame.columns:
                values = pd.to_numeric(frame[column], errors="coerce")
                if not _usable(column, frame[column], values):
                    continue
                distinct = sorted(values.dropna().unique())
                words = ORDINARY_WORDS if args.words == "ordinary" else WORDS
                for first, second in VARIANTS:
                    word = words[len(sessions) % len(words)]
                    at = (int(len(distinct) * first), int(len(distinct) * second))
                    label, value = _common_value(frame)
                    thresholds = float(distinct[at[0]]), float(distinct[at[1]])
                    sessions.append(Session(db_id, table, column, word, *thresholds, label, value))
    if args.sessions and args.sessions < len(sessions):  # spread over the databases
        step = len(sessions) / args.sessions
        chosen = [sessions[int(i * step)] for i in range(args.sessions)]
        sessions = [s for s in sessions if s not in chosen] if args.complement else chosen
    return sessions


def _common_value(frame: pd.DataFrame) -> tuple[str, str]:
    """A text column with 2 to 20 distinct values and a name a sentence can say, and its most common value
    (one that two or more rows hold); none where no column has one."""
    for column in frame.columns:
        values = frame[column]
        if (
            not pd.api.types.is_string_dtype(values)
            or not re.fullmatch(r"[A-Za-z_ ]+", column)
            or not 2 <= values.nunique() <= 20
        ):
            continue
        common = values.dropna().astype(str).value_counts()
        if len(common) and common.iloc[0] >= 2 and common.index[0].strip():
            return column, common.index[0]
    return "", ""


def _usable(column: str, raw: pd.Series, values: pd.Series) -> bool:
    """A numeric measure (not a key or code) with at least 6 rows and 5 distinct values, and a name
    a sentence can say."""
    if not pd.api.types.is_numeric_dtype(raw) or raw.dtype == bool or values.notna().sum() < 6:
        return False
    if re.search(r"(id|code|key|number)$|_id|^id", column, re.IGNORECASE) or not re.fullmatch(r"[A-Za-z_ ]+", column):
        return False
    return values.nunique() >= 5


def play(number: int, session: Session, system: str, model: object, args: argparse.Namespace) -> list[Turn]:
    """The session's turns on a fresh copy of its database's frames, with or without memory."""
    frames = read_sqlite(args.dataset / "database" / f"{session.db_id}.sqlite")
    use_memory = system == "memory"
    memory = ThoughtMemory(Store(), MiniLMEmbedder()) if use_memory else None
    chatdb = ChatDB(model=model, summarize=False, memory=memory)
    for name, frame in frames.items():
        chatdb.register(name, frame)
    played: list[Turn] = []
    threshold = session.first
    try:
        for turn, text in session.turns():
            if turn == 4:  # turn 3: the frame changes between the questions
                _change(frames[session.table], session)
                chatdb.register(session.table, frames[session.table])
            if turn == 5:
                threshold = session.second
            played.append(ask(chatdb, memory, number, system, turn, text, _gold(frames, session, turn, threshold)))
    finally:
        chatdb.close()
    by_turn = {turn.turn: turn for turn in played}
    if by_turn[4].gold != by_turn[2].gold and by_turn[4].got == by_turn[2].gold and use_memory:
        by_turn[4].error = "stale answer: turn 2's count after the data changed"
    return played


def _gold(frames: dict[str, pd.DataFrame], session: Session, turn: int, threshold: float) -> float | None:
    """The right answer of `turn`: the rows above the word's threshold, all rows, or the largest value."""
    frame = frames[session.table]
    values = pd.to_numeric(frame[session.column], errors="coerce")
    if turn == 5:
        return None
    if turn in (7, 9):
        return len(frame)
    if turn in (8, 10):
        return float(values.max())
    if turn in (11, 12):
        return int((frame[session.label].astype(str) == session.value).sum())
    return int((values > threshold).sum())


def _change(frame: pd.DataFrame, session: Session) -> None:
    values = pd.to_numeric(frame[session.column], errors="coerce")
    above = frame.index[values > session.first][:FELL]
    frame.loc[above, session.column] = session.first


def ask(
    chatdb: ChatDB, memory: ThoughtMemory | None, number: int, system: str, turn: int, text: str, gold: int | None
) -> Turn:
    events: list[Event] = []
    record = Turn(number, system, turn, text, gold)
    live = {r.id for r in memory.store.with_terms()} if memory is not None else set()
    started = time.perf_counter()
    try:
        reply = chatdb.ask(text, use_memory=memory is not None, on_event=events.append)
        record.got = _count(reply.result)
        record.right = gold is not None and isinstance(record.got, int | float) and abs(record.got - gold) < 1e-6
    except ChatDBError as error:
        record.error = str(error).splitlines()[0]
    record.seconds = round(time.perf_counter() - started, 2)
    record.memory_calls = int(any(isinstance(e, ModelText) and e.purpose == "memory" for e in events))
    if memory is not None:
        _memory_figures(record, memory, chatdb, events, live)
    return record


def _memory_figures(record: Turn, memory: ThoughtMemory, chatdb: ChatDB, events: list[Event], live: set[int]) -> None:
    """Stale result thoughts and corrected definitions (not live when the request began) that reached the
    planner, what the notes cost in prompt tokens, the memory's own seconds; the notes kept."""
    for event in events:
        if isinstance(event, MemoryRecalled):
            record.memory_seconds += event.seconds
            record.note_tokens = _tokens(chatdb, [note_text(memory.store.get(i)) for i, _, _ in event.thoughts])
            for record_id, _, _ in event.thoughts:
                kept = memory.store.get(record_id)
                if kept.verifiable:
                    now = evidence.figures_of(chatdb.session.run(kept.sql).frame)
                    record.stale_in_prompt += now != kept.object
                elif kept.kind == "definition" and record_id not in live:
                    record.stale_definitions += 1
        elif isinstance(event, MemoryStored):
            record.memory_seconds += event.seconds
            for record_id, text in event.added:
                kept = memory.store.get(record_id)
                if kept.kind != "result":
                    record.notes.append(f"({kept.kind}: {', '.join(kept.terms)}) {text}")


def _tokens(chatdb: ChatDB, notes: list[str]) -> int:
    """The prompt tokens `notes` add, by the embedded model's tokenizer (characters / 4 for another model)."""
    text = "".join(f"-- Note: {note}\n" for note in notes)
    load = getattr(chatdb.model, "load", None)
    return len(load().tokenize(text.encode(), add_bos=False)) if load is not None and text else len(text) // 4


def _count(result: pd.DataFrame | None) -> object:
    """The one number a question's result holds (an int when whole), else the result's shape."""
    if result is None:
        return None
    if result.shape == (1, 1):
        value = result.iat[0, 0]
        try:
            number = float(value)
        except (TypeError, ValueError):
            return str(value)
        return int(number) if number.is_integer() else number
    return f"{result.shape[0]}x{result.shape[1]}"


def _number(value: float) -> str:
    """
    >>> _number(4.0), _number(20.44), _number(6713620.9)
    ('4', '20.44', '6713620.9')
    """
    return str(int(value)) if float(value).is_integer() else format(value, "f").rstrip("0").rstrip(".")


# -- figures ---------------------------------------------------------------------------------------


def report(turns: list[Turn], sessions: list[Session], title: str) -> None:
    by: dict[tuple[str, int], list[Turn]] = defaultdict(list)
    for turn in turns:
        by[(turn.system, turn.turn)].append(turn)
    print(f"\nMemory sessions: {len(sessions)} sessions, {title}")
    print(f"{'':44}{'memory':>12}{'no memory':>12}")
    for number, label in (
        (1, "t1 defined in the question"),
        (2, "t2 the word alone"),
        (4, "t4 after the data changed"),
        (6, "t6 after the correction"),
    ):
        cells = [_rate(by[(system, number)]) for system in ("memory", "no memory")]
        print(f"  {label:<42}{cells[0]:>12}{cells[1]:>12}")
    asked = {s: [t for n in QUESTION_TURNS for t in by[(s, n)]] for s in ("memory", "no memory")}
    print(f"  {'questions 2, 4, 6 right':<42}{_rate(asked['memory']):>12}{_rate(asked['no memory']):>12}")
    unrelated = {s: [t for n in UNRELATED_TURNS for t in by[(s, n)]] for s in ("memory", "no memory")}
    print(
        f"  {'unrelated questions 7-10 right':<42}{_rate(unrelated['memory']):>12}{_rate(unrelated['no memory']):>12}"
    )
    print(f"  unrelated questions changed by memory (answer with memory != without): {_changed(turns)}")
    shown = [t for t in unrelated["memory"] if t.note_tokens]
    print(f"  unrelated questions whose prompt held a recalled thought: {len(shown)}/{len(unrelated['memory'])}")
    mine = [t for t in turns if t.system == "memory"]
    stale_prompt = sum(t.stale_in_prompt for t in mine)
    stale_answers = sum("stale answer" in t.error for t in mine)
    print(
        f"  stale figures in a prompt: {stale_prompt}; in an answer: {stale_answers}; "
        f"corrected definitions recalled: {sum(t.stale_definitions for t in mine)}"
    )
    precision, recall = _extraction(mine, sessions)
    print(f"  the model's notes: precision {precision}, recall {recall} (gold: one definition at turns 1 and 5)")
    quiet = [t for t in mine if t.turn in QUESTION_TURNS]
    own = statistics.median(t.memory_seconds for t in quiet) if quiet else 0.0
    tokens = statistics.median(t.note_tokens for t in quiet) if quiet else 0
    print(
        f"  requests with nothing to keep (turns 2, 4, 6): memory model calls {sum(t.memory_calls for t in quiet)}; "
        f"median memory seconds {own:.3f} (recall, checks, storing); median note tokens in the prompt {tokens:g} "
        f"(~{tokens / PROMPT_RATE:.2f} s at {PROMPT_RATE} tokens/s); median wall seconds with minus without "
        f"memory {_extra_seconds(turns)}"
    )
    seconds = [t.seconds for t in mine if t.turn in (1, 5)]
    if seconds:
        print(f"  requests with a definition (turns 1, 5): median seconds with memory {statistics.median(seconds):.1f}")


def _changed(turns: list[Turn]) -> str:
    """How many unrelated questions got another answer with memory than without, of those asked by both."""
    paired: dict[tuple[int, int], dict[str, object]] = defaultdict(dict)
    for turn in turns:
        if turn.turn in UNRELATED_TURNS:
            paired[(turn.session, turn.turn)][turn.system] = turn.got if not turn.error else f"error: {turn.error}"
    both = [p for p in paired.values() if len(p) == 2]
    return f"{sum(p['memory'] != p['no memory'] for p in both)}/{len(both)}"


def _rate(turns: list[Turn]) -> str:
    return f"{sum(t.right for t in turns)}/{len(turns)}" if turns else "-"


def _extraction(mine: list[Turn], sessions: list[Session]) -> tuple[str, str]:
    """A note is right when it is a definition of the session's word that states the turn's threshold."""
    kept = right = found = gold = 0
    for turn in mine:
        session = sessions[turn.session - 1]
        wanted = {1: session.first, 5: session.second}.get(turn.turn)
        good = [n for n in turn.notes if wanted is not None and _defines(n, session.word, wanted)]
        kept += len(turn.notes)
        right += len(good)
        if wanted is not None:
            gold += 1
            found += bool(good)
    return (f"{right}/{kept}" if kept else "-"), (f"{found}/{gold}" if gold else "-")


def _defines(note: str, word: str, threshold: float) -> bool:
    said = note.replace(",", "")  # "10,104" says 10104
    return note.startswith("(definition:") and word in note.lower() and _number(threshold) in said


def _extra_seconds(turns: list[Turn]) -> str:
    paired: dict[tuple[int, int], dict[str, float]] = defaultdict(dict)
    for turn in turns:
        if turn.turn in QUESTION_TURNS:
            paired[(turn.session, turn.turn)][turn.system] = turn.seconds
    extra = [p["memory"] - p["no memory"] for p in paired.values() if len(p) == 2]
    return f"{statistics.median(extra):+.2f}" if extra else "-"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=sorted(HALVES), default="report")
    parser.add_argument("--sessions", type=int, default=0, help="at most this many, spread evenly (0: all)")
    parser.add_argument("--model", default="local")
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--details", type=Path, default=Path("benchmarks/out/memory_sessions.jsonl"))
    parser.add_argument("--complement", action="store_true", help="the sessions --sessions N leaves out")
    parser.add_argument("--words", choices=("invented", "ordinary"), default="invented", help="the defined words")
    parser.add_argument("--notes-only", action="store_true", help="only the notes call of turns 1 and 5")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
