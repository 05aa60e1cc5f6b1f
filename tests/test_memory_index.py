"""The vector index: Annoy plus an exact tail, tombstones, background rebuilds and files on disk."""

import numpy as np
import pytest

from jupyter_chatdb.kernel_memory.index import IndexOptions, VectorIndex

DIMENSIONS = 16


def unit_vectors(n: int, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(n, DIMENSIONS)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def exact_top(vectors: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    return np.argsort(-(vectors @ query))[:k].tolist()


def test_tail_only_search_is_exact():
    index = VectorIndex(DIMENSIONS)
    vectors = unit_vectors(50)
    for item, vector in enumerate(vectors):
        index.add(item, vector)
    hits = index.search(vectors[7], k=5)
    assert [h.item for h in hits] == exact_top(vectors, vectors[7], 5)
    assert hits[0].item == 7 and hits[0].similarity == pytest.approx(1.0, abs=1e-5)


def test_search_merges_the_built_index_and_the_tail():
    index = VectorIndex(DIMENSIONS, options=IndexOptions(trees=10, tail_limit=10_000))
    vectors = unit_vectors(300)
    for item, vector in enumerate(vectors[:200]):
        index.add(item, vector)
    index.rebuild()
    for item, vector in enumerate(vectors[200:], start=200):
        index.add(item, vector)  # after build(): these live in the exact tail
    assert len(index) == 300
    for query in (vectors[5], vectors[250]):
        found = [h.item for h in index.search(query, k=10)]
        assert len(set(found) & set(exact_top(vectors, query, 10))) >= 9
    assert index.search(vectors[250], k=1)[0].item == 250


def test_forgotten_items_are_never_returned_and_drop_out_at_rebuild():
    index = VectorIndex(DIMENSIONS)
    vectors = unit_vectors(40)
    for item, vector in enumerate(vectors):
        index.add(item, vector)
    index.rebuild()
    index.remove(3)
    index.remove(39)
    assert 3 not in [h.item for h in index.search(vectors[3], k=40)]
    index.rebuild()
    assert len(index) == 38 and 39 not in [h.item for h in index.search(vectors[39], k=40)]


def test_a_full_tail_rebuilds_in_the_background_while_searches_go_on():
    index = VectorIndex(DIMENSIONS, options=IndexOptions(tail_limit=64))
    vectors = unit_vectors(200)
    for item, vector in enumerate(vectors):
        index.add(item, vector)
        assert index.search(vector, k=1)[0].item == item  # never blocked, never missing the newest item
    index.wait()
    assert len(index) == 200
    assert index.search(vectors[10], k=1)[0].item == 10


def test_saved_index_loads_and_a_damaged_file_is_refused(tmp_path):
    path = tmp_path / "thoughts.ann"
    index = VectorIndex(DIMENSIONS, path)
    vectors = unit_vectors(30)
    for item, vector in enumerate(vectors):
        index.add(item + 100, vector)
    index.rebuild()
    again = VectorIndex(DIMENSIONS, path)
    assert again.load() and again.search(vectors[4], k=1)[0].item == 104
    path.write_bytes(b"not an index")
    assert not VectorIndex(DIMENSIONS, path).load()
    assert not VectorIndex(DIMENSIONS, tmp_path / "missing.ann").load()


def test_clear_empties_the_tail_the_index_and_the_files(tmp_path):
    path = tmp_path / "thoughts.ann"
    index = VectorIndex(DIMENSIONS, path)
    vectors = unit_vectors(20)
    for item, vector in enumerate(vectors[:10]):
        index.add(item, vector)
    index.rebuild()
    for item, vector in enumerate(vectors[10:], start=10):
        index.add(item, vector)
    index.clear()
    assert len(index) == 0 and index.search(vectors[0], k=5) == [] and not path.exists()
