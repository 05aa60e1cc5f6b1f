"""Routing: does the request read, write, or just chat? And the chat answer."""

from __future__ import annotations

from collections.abc import Iterator

from .. import prompts
from ..context import Context
from ..events import Event, Reply, Routed

ROUTE_MAX_TOKENS = 12
ANSWER_MAX_TOKENS = 120


def route(ctx: Context) -> Iterator[Event]:
    """One short constrained call; without this stage a request writes when writes are allowed, else reads."""
    messages = prompts.route_messages(ctx.request.text, ctx.table_names)
    completion = yield from ctx.calls("route", messages, prompts.ROUTE_SCHEMA, ROUTE_MAX_TOKENS)
    routed = prompts.parse_json(completion.text, "route")
    ctx.route = routed if routed in ("read", "write", "chat") else "read"
    yield Routed(ctx.route)


def chat(ctx: Context) -> Iterator[Event]:
    """A request routed as chat is answered in words, without SQL: the stages up to the answer are skipped."""
    if ctx.route != "chat":
        return
    request = ctx.request
    messages = prompts.chat_messages(request.text, ctx.table_names, ctx.notes)
    completion = yield from ctx.calls("answer", messages, prompts.ANSWER_SCHEMA, ANSWER_MAX_TOKENS)
    answer = prompts.parse_json(completion.text, "answer") or completion.text
    ctx.reply = Reply(request.text, answer, [], None, [], ctx.calls.usage, ctx.services.model.name, route="chat")
