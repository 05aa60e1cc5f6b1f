"""A deterministic model for tests: returns queued responses and records every call."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .base import Completion, JSONSchema, Message, StreamCallback, Usage

Response = str | dict[str, Any] | Callable[[list[Message]], str | dict[str, Any]]


@dataclass(frozen=True)
class RecordedCall:
    messages: list[Message]
    json_schema: JSONSchema | None
    max_tokens: int
    temperature: float


class ScriptExhausted(AssertionError):
    """The code under test called the model more often than the script allows."""


class ScriptedBackend:
    """Replays `responses` in order; a dict is sent as JSON, a callable sees the messages.

    >>> model = ScriptedBackend([{"sql": "SELECT 1"}])
    >>> model.complete([{"role": "user", "content": "hi"}]).text
    '{"sql": "SELECT 1"}'
    >>> len(model.calls)
    1
    """

    name = "scripted"

    def __init__(self, responses: Iterable[Response] = ()) -> None:
        self._queue: list[Response] = list(responses)
        self.calls: list[RecordedCall] = []

    def push(self, *responses: Response) -> None:
        self._queue.extend(responses)

    def clear(self) -> None:
        """Drop the responses not used yet."""
        self._queue.clear()

    @property
    def remaining(self) -> int:
        return len(self._queue)

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
        self.calls.append(RecordedCall(list(messages), json_schema, max_tokens, temperature))
        if not self._queue:
            raise ScriptExhausted(f"scripted model has no response left for call {len(self.calls)}")
        response = self._queue.pop(0)
        if callable(response):
            response = response(messages)
        text = response if isinstance(response, str) else json.dumps(response)
        ends = [text.find(s) for s in stop if s in text]
        text = text[: min(ends)] if ends else text
        if stream is not None:
            for piece in _pieces(text):
                stream(piece)
        prompt_words = sum(len(m["content"].split()) for m in messages)
        return Completion(text, Usage(prompt_words, len(text.split()), 1))


def _pieces(text: str, size: int = 8) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
