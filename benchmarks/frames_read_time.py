"""One read's time with many DataFrames bound (issue 50, finding 5): the copies check against comparing
every pair of frames row by row, as it did before.

A kite shop's notebook: one frame of orders per month (a few hundred rows each, the same columns, sizes
that differ), and every tenth frame a scratch slice of a month (`orders_007_heavy = orders_007[kg > 3]`),
a copy. For 1, 50, 100 and 200 frames it prints, in seconds:
- one read through `ChatDB.ask` (a scripted model: no model runs), the first after binding the frames and
  a later one over the same frames, with the copies stage left out (`without=("leave_out_copies",)`, the
  floor) and with it;
- the copies check alone (`grounding/copies.py`) on the same catalog: every pair row by row (the code
  before issue 50, kept below as the baseline), then found by fingerprints the first time, a later time
  (nothing changed), and after one frame was bound again with other rows.

    python benchmarks/frames_read_time.py
    python benchmarks/frames_read_time.py --frames 1,50 --no-per-pair
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np
import pandas as pd

from jupyter_chatdb import ChatDB
from jupyter_chatdb.grounding.copies import Copies, copies_pair_by_pair
from jupyter_chatdb.llm.base import Completion, JSONSchema, Message, StreamCallback, Usage
from jupyter_chatdb.sql.catalog import Catalog

QUESTION = "How many orders does orders_000 have?"
SQL = "```sql\nSELECT count(*) AS orders FROM orders_000;\n```"
T = TypeVar("T")
KITES = ["Aria", "Bolt", "Cirrus", "Dart", "Eddy", "Flint"]


class TableModel:
    """A scripted model for any number of calls: the first table offered when asked to pick tables, and
    the same count of orders when asked for SQL."""

    name = "scripted-tables"

    def complete(
        self,
        messages: list[Message],
        *,
        json_schema: JSONSchema | None = None,
        stream: StreamCallback | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: Sequence[str] = (),
    ) -> Completion:
        tables = (json_schema or {}).get("properties", {}).get("tables")
        text = json.dumps({"tables": ["orders_000"]}) if tables else SQL
        return Completion(text, Usage(0, 0, 1))


class WordsEmbedder:
    """Each word a fixed random direction: matching by meaning without loading an embedding model."""

    name, dimensions = "words", 64

    def __init__(self) -> None:
        self._words: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                if word not in self._words:
                    self._words[word] = np.random.default_rng(len(self._words)).standard_normal(self.dimensions)
                vectors[row] += self._words[word]
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)


def notebook(count: int, seed: int = 0) -> dict[str, pd.DataFrame]:
    """`count` frames: months of orders, every tenth a slice of the month before it."""
    rng = np.random.default_rng(seed)
    frames: dict[str, pd.DataFrame] = {}
    for index in range(count):
        if index % 10 == 9:
            month = frames[f"orders_{index - 1:03}"]
            frames[f"orders_{index - 1:03}_heavy"] = month[month.kg > 3]
            continue
        rows = 250 + (index * 37) % 150
        frames[f"orders_{index:03}"] = pd.DataFrame(
            {
                "day": pd.date_range("2024-01-01", periods=rows, freq="h") + pd.Timedelta(days=31 * index),
                "kite": rng.choice(KITES, rows),
                "buyer": [f"buyer {n}" for n in rng.integers(0, 500, rows)],
                "kg": rng.integers(5, 60, rows) / 10,
                "price": rng.integers(1000, 9000, rows) / 100,
            }
        )
    return frames


def timed(action: Callable[..., T], *args: object) -> tuple[float, T]:
    started = time.perf_counter()
    result = action(*args)
    return time.perf_counter() - started, result


def reads(frames: dict[str, pd.DataFrame], without: tuple[str, ...]) -> tuple[float, float, ChatDB]:
    """Seconds of the first read after binding `frames`, and of a later one."""
    chatdb = ChatDB(model=TableModel(), embedder=WordsEmbedder(), summarize=False, without=without)
    for name, frame in frames.items():
        chatdb.register(name, frame)
    first, reply = timed(chatdb.ask, QUESTION)
    assert reply.answer.startswith("orders:"), reply.answer
    later, _ = timed(chatdb.ask, QUESTION)
    return first, later, chatdb


def row(count: int, baseline: bool) -> str:
    """The figures of one number of frames, as a row of the table."""
    frames = notebook(count)
    floor_first, floor_later, floor = reads(frames, ("leave_out_copies",))
    floor.close()
    first, later, chatdb = reads(frames, ())
    session = chatdb.session
    catalog = Catalog.read(session)
    before, expected = timed(copies_pair_by_pair, session, catalog) if baseline else (float("nan"), None)
    copies = Copies()
    cold, found = timed(copies.find, session, catalog)
    warm, _ = timed(copies.find, session, catalog)
    session.bind("orders_000", frames["orders_000"].assign(kg=frames["orders_000"].kg + 0.1))
    one, _ = timed(copies.find, session, Catalog.read(session))
    assert expected is None or found == expected, (found, expected)
    chatdb.close()
    return (
        f"{len(frames):>6} | {floor_first:>6.2f} / {floor_later:>6.2f} | {first:>5.2f} / {later:>5.2f} | "
        f"{before:>8.2f} | {cold:>6.3f} | {warm:>6.3f} | {one:>9.3f} | {len(found)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", default="1,50,100,200", help="numbers of frames bound, comma separated")
    parser.add_argument("--no-per-pair", action="store_true", help="leave out the per-pair baseline (minutes)")
    args = parser.parse_args()
    print("seconds; a read: the first after binding / a later one; copies alone: before, and by fingerprints")
    print(
        f"{'frames':>6} | {'read, no copies':>15} | {'read, copies':>13} | "
        f"{'per pair':>8} | {'first':>6} | {'later':>6} | {'1 changed':>9} | copies found"
    )
    for count in args.frames.split(","):
        print(row(int(count), not args.no_per_pair), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
