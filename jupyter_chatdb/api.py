"""ChatDB: the composition root that wires the model, the DuckDB session and the controller."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pandas as pd

from .controller.events import Answered, Event, Reply
from .controller.loop import Controller, Request
from .llm.base import LLM
from .llm.select import select_backend
from .sql.session import Binding, Session


class ChatDB:
    """Ask questions about DataFrames and stored tables in plain language.

    >>> from jupyter_chatdb.llm import ScriptedBackend
    >>> db = ChatDB(model=ScriptedBackend([{"sql": "SELECT sum(kg) AS kg FROM sales"}]), summarize=False)
    >>> db.register("sales", pd.DataFrame({"kg": [2.5, 4.0]}))
    >>> db.ask("How many kg did we sell?").answer
    'kg: 6.5'
    """

    def __init__(
        self,
        model: str | LLM | None = None,
        database: str | Path | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        repair_rounds: int = 1,
        summarize: bool = True,
    ) -> None:
        self.model = select_backend(model, base_url=base_url, api_key=api_key)
        self.session = Session(database)
        self.summarize = summarize
        self._controller = Controller(self.model, self.session, repair_rounds=repair_rounds)

    def __repr__(self) -> str:
        return f"ChatDB(model={self.model!r}, session={self.session!r})"

    def register(self, name: str, frame: pd.DataFrame) -> None:
        """Make `frame` queryable as table `name` (a live view: later changes to it are seen)."""
        self.session.bind(name, frame)

    def bind_frames(self, namespace: Mapping[str, object]) -> Binding:
        """Bind every DataFrame of `namespace` by its variable name; drop names no longer there."""
        return self.session.bind_frames(namespace)

    def ask(self, text: str, *, allow_writes: bool = False, on_event: Callable[[Event], None] | None = None) -> Reply:
        """Answer `text`; with `allow_writes`, INSERT/UPDATE/DELETE run in one transaction."""
        reply = None
        for event in self.events(text, allow_writes=allow_writes):
            if on_event is not None:
                on_event(event)
            if isinstance(event, Answered):
                reply = event.reply
        assert reply is not None, "the controller ended without an answer"
        return reply

    def events(self, text: str, *, allow_writes: bool = False) -> Iterator[Event]:
        """The events of answering `text`, for views that show the work as it happens."""
        return self._controller.run(Request(text, allow_writes=allow_writes, summarize=self.summarize))

    def close(self) -> None:
        self.session.close()
