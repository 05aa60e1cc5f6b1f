"""Which backend to use: explicit choice > `CHATDB_MODEL` / `OPENAI_*` environment > embedded model."""

from __future__ import annotations

import os
from collections.abc import Mapping

from .base import LLM
from .local_backend import LocalBackend
from .openai_backend import OPENAI_DEFAULT_MODEL, OpenAIBackend

EMBEDDED_NAMES = frozenset({"local", "embedded"})


def select_backend(
    model: str | LLM | None = None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    env: Mapping[str, str] = os.environ,
) -> LLM:
    """Build the backend for `model`.

    `model` is a backend object, `"local"` (the embedded model), a path to a `.gguf` file, the
    URL of an OpenAI-compatible server, or a model name served by `base_url` / `OPENAI_BASE_URL`
    (OpenAI itself when neither is set). With no `model`, `CHATDB_MODEL` decides; then any
    `OPENAI_API_KEY` / `OPENAI_BASE_URL` selects a server; otherwise the embedded model.

    >>> select_backend("local")
    LocalBackend('qwen2.5-coder-1.5b-instruct-q4_k_m', threads=2)
    >>> select_backend("http://127.0.0.1:8080/v1", env={})
    OpenAIBackend('default', base_url='http://127.0.0.1:8080/v1')
    """
    if model is not None and not isinstance(model, str):
        return model
    name = (model or env.get("CHATDB_MODEL") or "").strip()
    base_url = base_url or env.get("OPENAI_BASE_URL") or None
    api_key = api_key or env.get("OPENAI_API_KEY") or None
    if name.lower() in EMBEDDED_NAMES or (not name and not base_url and not api_key):
        return LocalBackend()
    if name.endswith(".gguf"):
        return LocalBackend(name)
    if name.startswith(("http://", "https://")):
        return OpenAIBackend(env.get("OPENAI_MODEL") or "default", base_url=name, api_key=api_key)
    return OpenAIBackend(name or env.get("OPENAI_MODEL") or OPENAI_DEFAULT_MODEL, base_url=base_url, api_key=api_key)
