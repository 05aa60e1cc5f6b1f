"""The thought memory: recall before planning, post-thinking after the answer."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import ChatDBError
from ...kernel_memory.thoughts import THOUGHTS_SCHEMA, parse_thoughts, post_think_messages
from ..context import Context
from ..events import Event, MemoryRecalled, MemoryStored

THOUGHTS_MAX_TOKENS = 220


def recall(ctx: Context) -> Iterator[Event]:
    """The thoughts most related to the request, for the planner."""
    memory = ctx.services.memory
    if memory is None or not ctx.request.use_memory:
        return
    recalled = memory.recall(ctx.request.text)
    if recalled:
        yield MemoryRecalled(tuple((r.record.id, r.record.text, round(r.similarity, 3)) for r in recalled))
    ctx.notes = [r.record.text for r in recalled]


def post_think(ctx: Context) -> Iterator[Event]:
    """Store what is worth remembering from an answered (not pending, not approved) request."""
    memory, request, reply = ctx.services.memory, ctx.request, ctx.reply
    if memory is None or reply is None or not request.use_memory or reply.pending or request.approved:
        return
    if reply.missing or reply.doubtful:  # nothing answered, or not surely what was asked: nothing to remember
        return
    messages = post_think_messages(request.text, reply.result, reply.answer)
    try:
        completion = yield from ctx.calls("memory", messages, THOUGHTS_SCHEMA, THOUGHTS_MAX_TOKENS)
        thoughts = parse_thoughts(completion.text)
    except ChatDBError:  # the answer stands; this request just leaves no thoughts
        thoughts = []
    stored = [memory.remember(thought, source=request.text) for thought in thoughts]
    added = tuple((s.record.id, s.record.text) for s in stored if s.record is not None)
    yield MemoryStored(added, tuple(i for s in stored for i in s.superseded))


post_think.after_answer = True  # type: ignore[attr-defined]  # runs once the answer is given
