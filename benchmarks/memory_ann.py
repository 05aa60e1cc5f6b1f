"""Memory index benchmark: recall@10 and latency of the Annoy index against exact numpy search.

    python benchmarks/memory_ann.py [--sizes 1000 10000 100000] [--search-k 0 2000 8000] [--trees 16]

Vectors are real all-MiniLM-L6-v2 embeddings of a generated corpus of shop facts (embedded once and
cached in benchmarks/out/); sizes above the corpus replicate it with small noise. For each size it prints:
insert throughput into the exact tail, rebuild time, index file size, recall@10 and p50/p99 query latency
of VectorIndex.search for each search_k, the same for numpy brute force (the baseline), and the query
latency while a background rebuild runs (a rebuild must not block queries).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jupyter_chatdb.kernel_memory.index import IndexOptions, VectorIndex
from jupyter_chatdb.llm.minilm import MiniLMEmbedder

OUT = Path(__file__).parent / "out"
CORPUS_SIZE = 12_000
QUERIES = 200
K = 10
NOISE = 0.04  # per-dimension noise for replicated vectors (cosine to the original ~0.77)

FRUITS = "apple pear banana cherry grape strawberry mango kiwi plum peach lemon orange melon fig apricot".split()
PEOPLE = (
    "Bob Lewis,David Brown,Olivia Hall,Laura Miller,John Smith,Ann Lee,Maria Garcia,Chen Wei,Sara Khan,Tom Baker".split(
        ","
    )
)
SUPPLIERS = "Golden Fields,FruitCo,ABC Farms,Sunny Orchard,Green Valley,Berry Best,Orchard Hill,Fresh Direct".split(",")
TEMPLATES = [
    "The {fruit} stock is {n} kg.",
    "{person} bought {n} kg of {fruit} on day {d}.",
    "{supplier} delivered {n} kg of {fruit} at ${p} per kg.",
    "The selling price of {fruit} is ${p} per kg since day {d}.",
    "{person}'s phone number is 555-{n:04d}.",
    "{supplier} can be reached at {n}{d}.",
    "{person} returned the {fruit} bought on day {d}.",
    "On day {d} the shop sold {n} kg in total.",
    "{person} prefers {fruit} over {fruit2}.",
    "Revenue on day {d} was ${n}.{d:02d}.",
]


def corpus(n: int, seed: int = 7) -> list[str]:
    rng = np.random.default_rng(seed)
    texts, seen = [], set()
    for i in itertools.count():
        if len(texts) == n:
            return texts
        template = TEMPLATES[i % len(TEMPLATES)]
        text = template.format(
            fruit=rng.choice(FRUITS),
            fruit2=rng.choice(FRUITS),
            person=rng.choice(PEOPLE),
            supplier=rng.choice(SUPPLIERS),
            n=int(rng.integers(1, 5000)),
            d=int(rng.integers(1, 31)),
            p=f"{rng.uniform(0.3, 9):.2f}",
        )
        if text not in seen:
            seen.add(text)
            texts.append(text)
    raise AssertionError("unreachable")


def embedded_corpus() -> tuple[np.ndarray, np.ndarray]:
    """(corpus vectors, query vectors), embedded once and cached."""
    cache = OUT / f"minilm_corpus_{CORPUS_SIZE}_{QUERIES}.npz"
    if cache.exists():
        data = np.load(cache)
        return data["corpus"], data["queries"]
    OUT.mkdir(exist_ok=True)
    texts = corpus(CORPUS_SIZE + QUERIES)
    started = time.perf_counter()
    vectors = MiniLMEmbedder(threads=2).embed(texts)
    print(f"embedded {len(texts)} sentences in {time.perf_counter() - started:.1f} s")
    np.savez(cache, corpus=vectors[:CORPUS_SIZE], queries=vectors[CORPUS_SIZE:])
    return vectors[:CORPUS_SIZE], vectors[CORPUS_SIZE:]


def vectors_of_size(base: np.ndarray, n: int, seed: int = 1) -> np.ndarray:
    if n <= len(base):
        return base[:n].copy()
    rng = np.random.default_rng(seed)
    copies = base[rng.integers(0, len(base), n)] + rng.normal(0, NOISE, (n, base.shape[1])).astype(np.float32)
    copies[: len(base)] = base
    return copies / np.linalg.norm(copies, axis=1, keepdims=True)


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def measure(size: int, base: np.ndarray, queries: np.ndarray, search_ks: list[int], trees: int) -> None:
    vectors = vectors_of_size(base, size)
    truth = [set(np.argsort(-(vectors @ q))[:K].tolist()) for q in queries]

    brute = []
    for q in queries:
        started = time.perf_counter()
        np.argpartition(-(vectors @ q), K)[:K]
        brute.append((time.perf_counter() - started) * 1000)
    b50, b99 = percentiles(brute)
    print(f"\n{size:>9,} vectors   numpy brute force (baseline): recall@10 1.000, p50 {b50:.3f} ms, p99 {b99:.3f} ms")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.ann"
        index = VectorIndex(vectors.shape[1], path, IndexOptions(trees=trees, tail_limit=size + 1))
        started = time.perf_counter()
        for item, vector in enumerate(vectors):
            index.add(item, vector)
        inserts = size / (time.perf_counter() - started)
        started = time.perf_counter()
        index.rebuild()
        build_s = time.perf_counter() - started
        file_mb = path.stat().st_size / 2**20
        print(
            f"{'':>9}   inserts {inserts:,.0f}/s into the tail, rebuild "
            f"{build_s:.1f} s ({trees} trees), index file {file_mb:.1f} MiB"
        )
        for search_k in search_ks:
            index.options = IndexOptions(trees=trees, search_k=search_k, tail_limit=size + 1)
            latencies, found = [], 0
            for q, expected in zip(queries, truth):
                started = time.perf_counter()
                hits = index.search(q, K)
                latencies.append((time.perf_counter() - started) * 1000)
                found += len({h.item for h in hits} & expected)
            p50, p99 = percentiles(latencies)
            label = f"search_k {search_k}" if search_k else "search_k default"
            print(
                f"{'':>9}   annoy {label:<18} recall@10 {found / (K * len(queries)):.3f}, p50 {p50:.3f} ms, p99 {p99:.3f} ms"
            )
        _during_rebuild(index, queries)


def _during_rebuild(index: VectorIndex, queries: np.ndarray) -> None:
    """Query latency while a background rebuild of the same index runs."""
    thread = index.rebuild_in_background()
    latencies = []
    while thread is not None and thread.is_alive():
        for q in queries[:20]:
            started = time.perf_counter()
            index.search(q, K)
            latencies.append((time.perf_counter() - started) * 1000)
    index.wait()
    if latencies:
        p50, p99 = percentiles(latencies)
        print(
            f"{'':>9}   during a background rebuild: {len(latencies)} queries answered, p50 {p50:.3f} ms, p99 {p99:.3f} ms"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument(
        "--search-k", type=int, nargs="+", default=[0, 2_000, 8_000], help="0: Annoy's default (trees x k)"
    )
    parser.add_argument("--trees", type=int, default=IndexOptions().trees)
    args = parser.parse_args()
    base, queries = embedded_corpus()
    print(f"corpus: {len(base):,} MiniLM vectors of generated shop facts; {len(queries)} held-out queries; k = {K}")
    for size in args.sizes:
        measure(size, base, queries, args.search_k, args.trees)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
