"""A stage: one named step of a strategy, `run(ctx) -> events`, with what the pipeline needs to know of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import overload

from .context import Context
from .events import Event

Run = Callable[[Context], Iterator[Event]]


@dataclass(frozen=True)
class Stage:
    name: str  # as `ChatDB(without=...)` and the benchmarks' systems name it
    run: Run
    after_answer: bool = False  # runs once the answer is given (post-thinking)
    may_fall_back: bool = False  # a read that fails here may go on at the strategy's `fall_back`

    def __call__(self, ctx: Context) -> Iterator[Event]:
        return self.run(ctx)


@overload
def stage(run: Run) -> Stage: ...
@overload
def stage(*, after_answer: bool = False, may_fall_back: bool = False) -> Callable[[Run], Stage]: ...
def stage(
    run: Run | None = None, *, after_answer: bool = False, may_fall_back: bool = False
) -> Stage | Callable[[Run], Stage]:
    """A stage of the function it decorates, named as the function is."""

    def record(function: Run) -> Stage:
        return Stage(function.__name__, function, after_answer, may_fall_back)

    return record(run) if run is not None else record
