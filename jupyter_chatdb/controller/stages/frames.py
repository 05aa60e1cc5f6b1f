"""A write to a DataFrame of the notebook is refused before planning: the frames are read-only here (the
engine would refuse the step anyway, after minutes of planning). Where a write request names a frame, one
short constrained call asks which table it changes; only the model's answer refuses it, never the names
alone ("Store the bookings frame as a table" names a frame and changes none)."""

from __future__ import annotations

from collections.abc import Iterator

from ...language.words import named_in
from .. import prompts
from ..context import Context
from ..events import Event, Refused, Reply
from ..kinds import Route
from ..stage import stage

TARGET_MAX_TOKENS = 30


@stage
def refuse_writes_to_frames(ctx: Context) -> Iterator[Event]:
    """A write request naming a frame: refused, with what to do, when the model says it changes one."""
    if ctx.route != Route.WRITE or ctx.reply is not None or ctx.request.approved:
        return
    frames = {name.lower(): name for name in ctx.session.frames}
    if not _named_frames(ctx, frames):
        return
    stored = [name for name in ctx.table_names if name.lower() not in frames]
    options = [*stored, *frames.values(), prompts.NEW_TABLE]
    messages = prompts.write_target_messages(ctx.request.text, stored, list(frames.values()))
    completion = yield from ctx.calls("target", messages, prompts.write_target_schema(options), TARGET_MAX_TOKENS)
    target = prompts.parse_json(completion.text, "table")
    if not isinstance(target, str) or target.lower() not in frames:
        return
    reason = (
        f"{frames[target.lower()]} is a DataFrame of the notebook, read-only here: change it with pandas, "
        "or store it as a table (CREATE TABLE ... AS SELECT) and change that."
    )
    yield Refused("changing a DataFrame", reason)
    ctx.reply = Reply(
        ctx.request.text, reason, [], None, [], ctx.calls.usage, ctx.services.model.name, route=Route.WRITE
    )


def _named_frames(ctx: Context, frames: dict[str, str]) -> set[str]:
    """The frames (lower case) the request names: by their name's words, or by a thing they hold."""
    by_name = {low for low, name in frames.items() if named_in(ctx.request.text, name)}
    return by_name | (ctx.named_tables() & set(frames))
