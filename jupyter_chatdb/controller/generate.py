"""Run the model in a worker thread and stream its output as events; Ctrl-C stops it."""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Sequence

from ..llm.base import LLM, Completion, JSONSchema, Message
from .events import Event, ModelText

HAND_ON_SECONDS = 0.2


class Cancelled(Exception):
    """Raised inside the model's stream callback to stop generation."""


def generate(
    model: LLM,
    purpose: str,
    messages: list[Message],
    schema: JSONSchema | None,
    max_tokens: int,
    temperature: float = 0.0,
    stop: Sequence[str] = (),
) -> Generator[Event, None, Completion]:
    """Call the model in a worker thread and yield its output as it streams; `schema` None: free text.

    Ctrl-C while waiting stops generation at the next token and re-raises.
    """
    pieces: queue.SimpleQueue[str] = queue.SimpleQueue()
    cancel = threading.Event()
    outcome: dict[str, object] = {}

    def on_piece(piece: str) -> None:
        if cancel.is_set():
            raise Cancelled()
        pieces.put(piece)

    def work() -> None:
        try:
            stops = {"stop": stop} if stop else {}  # an LLM of the user's may not know `stop`
            outcome["completion"] = model.complete(
                messages, json_schema=schema, stream=on_piece, max_tokens=max_tokens, temperature=temperature, **stops
            )
        except BaseException as error:  # handed to the calling thread below
            outcome["error"] = error

    worker = threading.Thread(target=work, name=f"chatdb-model-{purpose}", daemon=True)
    worker.start()
    try:
        yield ModelText(purpose, "")  # the call has started: views say what it is for while it thinks
        while worker.is_alive() or not pieces.empty():
            # waking this thread for every token slows a CPU model that keeps every core busy, so the
            # text is handed on a few times a second
            worker.join(HAND_ON_SECONDS)
            text = "".join(pieces.get() for _ in range(pieces.qsize()))
            if text:
                yield ModelText(purpose, text)
    except BaseException:
        cancel.set()
        raise
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["completion"]  # type: ignore[return-value]


def complete(model: LLM, purpose: str, messages: list[Message], schema: JSONSchema, max_tokens: int) -> Completion:
    """`generate` without a view: the completion alone (Ctrl-C still stops the model)."""
    calls = generate(model, purpose, messages, schema, max_tokens)
    while True:
        try:
            next(calls)
        except StopIteration as finished:
            return finished.value
