"""The one small interface every model backend implements."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict, runtime_checkable

if TYPE_CHECKING:
    import numpy as np


class Message(TypedDict):
    role: Literal["system", "user", "assistant"]
    content: str


JSONSchema = dict[str, Any]
StreamCallback = Callable[[str], None]


@dataclass(frozen=True)
class Usage:
    """Token counts of one or more model calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.calls + other.calls,
        )


@dataclass(frozen=True)
class Completion:
    text: str
    usage: Usage


@runtime_checkable
class LLM(Protocol):
    """Messages in; text (or JSON matching `json_schema`) out.

    `stream`, when given, receives each piece of text as it is generated. Generation ends before the
    first of the `stop` strings (left out of the text).
    """

    name: str

    def complete(
        self,
        messages: list[Message],
        *,
        json_schema: JSONSchema | None = None,
        stream: StreamCallback | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: Sequence[str] = (),
    ) -> Completion: ...


@runtime_checkable
class Embedder(Protocol):
    """Texts in; one L2-normalised float32 vector of `dimensions` per text out."""

    name: str
    dimensions: int

    def embed(self, texts: list[str]) -> np.ndarray: ...
