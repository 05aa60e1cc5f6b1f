"""Running a strategy: its stages in order over one context.

Once a stage has answered (`ctx.reply`), only the stages after the answer run (post-thinking), and
`Answered` is yielded before them. When a stage that may fall back (running, finishing, answering a
read) fails and the strategy holds `fall_back`, the pipeline says so and goes on from there. Whatever
fails, a transaction still open is rolled back (here, to say so; `Controller.run` ends it on every way out).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..errors import ModelOutputError, QueryFailed
from .context import Context
from .events import Answered, Event, FellBack, RolledBack
from .kinds import Route
from .stage import Stage
from .stages.finish import fall_back


def run_pipeline(ctx: Context, stages: Sequence[Stage]) -> Iterator[Event]:
    """Yield the events of `stages` run over `ctx`; `Answered` comes before the stages after the answer."""
    answered, index = False, 0
    try:
        while index < len(stages):
            stage = stages[index]
            after_answer = stage.after_answer
            if ctx.reply is not None and not after_answer:
                index += 1
                continue
            if after_answer and not answered and ctx.reply is not None:
                yield Answered(ctx.reply)
                answered = True
            try:
                yield from stage(ctx)
            except (QueryFailed, ModelOutputError) as error:
                target = _fallback(ctx, stages, index)
                if target is None:
                    raise
                yield FellBack(str(error))
                index = target
                continue
            index += 1
    except GeneratorExit:  # the view stopped listening: `Controller.run` ends the transaction quietly
        raise
    except BaseException:
        chain = ctx.chain
        if chain is not None and ctx.session.end_transaction():
            yield RolledBack(
                f"step {len(chain.steps) + 1} did not complete, so none of the {len(chain.steps)} steps before it was kept"
            )
        raise
    if not answered:
        assert ctx.reply is not None, "the strategy ended without an answer"
        yield Answered(ctx.reply)


def _fallback(ctx: Context, stages: Sequence[Stage], failed: int) -> int | None:
    """Where to go on after stage `failed` failed: the fallback stage, when it is in the strategy and the
    request is a read that wrote nothing and was not approved; None to fail."""
    if not stages[failed].may_fall_back or fall_back not in stages[failed + 1 :]:
        return None
    if ctx.route != Route.READ or ctx.request.approved or ctx.session.in_transaction:
        return None
    return list(stages).index(fall_back, failed + 1)
