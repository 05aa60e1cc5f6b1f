"""The embedded, offline model: llama-cpp-python on the CPU. The only module importing llama_cpp."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..errors import ModelOutputError, ModelUnavailable
from .base import Completion, JSONSchema, Message, StreamCallback, Usage
from .model_files import INSTALL_HINT, QWEN_CODER_1_5B, ModelSpec, ensure_model

DEFAULT_CONTEXT = 8192
PROMPT_CACHE_BYTES = 1 << 30
# llama.cpp contexts are not thread-safe, and its OpenMP workers are made anew for each thread that calls
# it (a new thread per call wrote each token ~20% slower on 2 cores), so every generation runs, in turn,
# on this one long-lived thread.
_LLAMA_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chatdb-llama")


class _Stopped(Exception):
    """Raised between two tokens to end a generation its caller no longer waits for."""


class LocalBackend:
    """Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) by default, or any verified-by-you GGUF `model_path`.

    The weights load on first use and stay loaded for the life of the process (the kernel), shared
    by every backend with the same file and settings. Structured output is grammar-constrained.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        threads: int | None = None,
        context: int = DEFAULT_CONTEXT,
        seed: int = 0,
        spec: ModelSpec = QWEN_CODER_1_5B,
    ) -> None:
        self.model_path = Path(model_path) if model_path else None
        self.threads = threads or int(os.environ.get("CHATDB_THREADS", "2"))
        self.context = context
        self.seed = seed
        self.spec = spec
        self._samples = 0
        self.name = self.model_path.stem if self.model_path else spec.name

    def __repr__(self) -> str:
        return f"LocalBackend({self.name!r}, threads={self.threads})"

    def load(self) -> Any:
        """Verify (or assemble) the file and load it; cheap after the first call."""
        path = self.model_path or _verified_model(self.spec)
        if not path.exists():
            raise ModelUnavailable(f"No model file at {path}: check the path or use the embedded model.")
        return _load_llama(str(path), self.threads, self.context, self.seed)

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
        llama = self.load()
        if temperature > 0:  # each sample draws anew; greedy calls stay reproducible
            self._samples += 1
        kwargs: dict[str, Any] = dict(
            messages=list(messages), max_tokens=max_tokens, temperature=temperature, seed=self.seed + self._samples
        )
        if json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        if stop:
            kwargs["stop"] = list(stop)
        stopping = threading.Event()

        def on_piece(piece: str) -> None:
            if stopping.is_set():
                raise _Stopped()
            if stream is not None:
                stream(piece)

        generation = _LLAMA_THREAD.submit(_streamed, llama, kwargs, on_piece)
        try:
            return generation.result()
        except ValueError as error:  # llama.cpp reports an over-long prompt this way
            raise ModelOutputError(
                f"The request does not fit the model's context of {self.context} tokens ({error}); "
                "bind fewer or narrower tables, or use a larger model."
            ) from error
        except BaseException:  # Ctrl-C, or the caller's own stop: end the generation at its next token
            stopping.set()
            raise


def _streamed(llama: Any, kwargs: dict[str, Any], stream: StreamCallback) -> Completion:
    pieces: list[str] = []
    for chunk in llama.create_chat_completion(stream=True, **kwargs):
        piece = chunk["choices"][0]["delta"].get("content")
        if piece:
            pieces.append(piece)
            stream(piece)
    # llama.cpp keeps prompt + generated tokens in its context; the stream reports no usage.
    completion_tokens = len(pieces)
    return Completion("".join(pieces), Usage(max(llama.n_tokens - completion_tokens, 0), completion_tokens, 1))


@functools.lru_cache(maxsize=2)
def _verified_model(spec: ModelSpec) -> Path:
    """Hash the 1 GB file once per process, not once per call."""
    return ensure_model(spec)


@functools.lru_cache(maxsize=2)
def _load_llama(path: str, threads: int, context: int, seed: int) -> Any:
    try:
        from llama_cpp import Llama
    except ImportError as error:
        raise ModelUnavailable(f"llama-cpp-python is not installed: {INSTALL_HINT}.") from error
    from llama_cpp import LlamaRAMCache

    llama = Llama(
        model_path=path,
        n_ctx=context,
        n_threads=threads,
        n_threads_batch=threads,
        seed=seed,
        verbose=False,
    )
    # keeps the evaluated state of earlier prompts, so each kind of call (route, plan, answer)
    # reuses its own fixed instructions instead of only the previous call's
    llama.set_cache(_prompt_cache(LlamaRAMCache, PROMPT_CACHE_BYTES))
    return llama


def _prompt_cache(base: type, capacity: int) -> Any:
    """A LlamaRAMCache whose entries keep only the last row of their logits, and that counts them.

    Each saved state copies the logits of every prompt token (tokens x 151,936 floats: 600 MB for a
    1,000-token prompt) and the library counts only llama.cpp's own state, so a 1 GiB cache grew a
    kernel past 15 GB. Restoring a state broadcasts the row kept over the prefix, and llama-cpp-python
    evaluates at least the prompt's last token again, so no logit that is used is lost.
    """

    class PromptCache(base):
        def __setitem__(self, key: Any, state: Any) -> None:
            state.scores = state.scores[-1:].copy()
            super().__setitem__(key, state)

        @property
        def cache_size(self) -> int:
            return sum(s.llama_state_size + s.scores.nbytes + s.input_ids.nbytes for s in self.cache_state.values())

    return PromptCache(capacity_bytes=capacity)
