"""Running one request through the controller: the memory's triples bound for it, its answered plan
recorded for replay, and the last request and read kept (what a correction, or "that query", is about)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Generator
from contextlib import closing

from ..controller.events import Answered, Event, Reply
from ..controller.kinds import Route
from ..controller.loop import Controller
from ..controller.request import Request
from ..controller.stages.route import as_corrected
from ..kernel_memory.thoughts import ThoughtMemory
from ..sql.replays import Replays
from ..sql.session import Session
from . import replay_desk

TRIPLES = "memory_triples"  # the thought memory's triples, current and past, for SQL the user writes


class Runner:
    def __init__(self, session: Session, replays: Replays) -> None:
        self.session, self.replays = session, replays
        self.previous = ""  # the last request asked: what a correction that follows it is about
        self.previous_sql = ""  # the SELECT of the last read answered: what a question about "that query" means

    def asked(self, request: Request) -> Request:
        """A request the user asked in words, with the one before it; it becomes the one the next follows."""
        text = request.text
        request = dataclasses.replace(request, previous=self.previous, previous_sql=self.previous_sql)
        self.previous = (not request.allow_writes and as_corrected(self.previous, text)) or text  # as it is asked
        return request

    def events(
        self, controller: Controller, memory: ThoughtMemory | None, request: Request, *, record: bool = False
    ) -> Generator[Event, None, None]:
        """The controller's events for `request`; with `record`, an answered request's plan is kept for replay."""
        self._bind_memory_triples(memory, request)
        reply = None
        for event in controller.run(request):
            if isinstance(event, Answered):
                reply = event.reply
            yield event
        if record and reply is not None:
            replay_desk.record(self.replays, reply)
        if reply is not None and reply.route == Route.READ and len(reply.sql) == 1:
            self.previous_sql = reply.sql[0]

    def _bind_memory_triples(self, memory: ThoughtMemory | None, request: Request) -> None:
        """The memory's triples, current and past, as the table `memory_triples` for SQL the user wrote or
        approved; the model never sees it (it is given recalled thoughts, checked, instead of history)."""
        if memory is None or TRIPLES in self.session.stored_tables():
            return
        triples = memory.triples() if request.approved else None
        if triples is not None and len(triples):
            self.session.bind(TRIPLES, triples)
        elif TRIPLES in self.session.frames:
            self.session.unbind(TRIPLES)


def collect(events: Generator[Event, None, None], on_event: Callable[[Event], None] | None) -> Reply:
    """The reply among `events`, each handed to `on_event` on the way."""
    reply = None
    with closing(events):  # an exception in `on_event` (Ctrl-C while a view draws) ends the request too
        for event in events:
            if on_event is not None:
                on_event(event)
            if isinstance(event, Answered):
                reply = event.reply
    assert reply is not None, "the controller ended without an answer"
    return reply
