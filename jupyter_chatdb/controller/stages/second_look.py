"""A second look at a doubtful read: more statements written for it, voted on by what they return.

A native read whose statement is doubtful (it failed first and was repaired, it found nothing, or a
literal it compares is no stored value) gets `Options.second_look - 1` more statements sampled from the
same prompt. Each is prepared and run as the first was (fix-ups, grounded literals, the guard, read-only);
the result most of them return is kept, among those comparing only stored values. When no result is
returned by more than one, the model picks among the distinct results in one constrained call. A read
with no doubt pays nothing. A Stop or an interrupt ends the request as anywhere else.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from dataclasses import dataclass

import pandas as pd

from ...errors import ModelOutputError, SQLRefused
from ...llm.base import JSONSchema, Message
from .. import native_sql, prompts
from ..context import Chain, Context, StepProblem
from ..events import CandidatesVoted, Event, ModelText, Step, StepDone
from ..kinds import Form, Route
from ..planned_steps import PlannedStep
from ..stage import stage
from ..vote import signature
from .one_statement import SQL_MAX_TOKENS, native_step
from .run import found_nothing, run_step

SAMPLE_TEMPERATURE = 0.7
CHOICE_ROWS = 3
CHOICE_MAX_TOKENS = 12
MOST_SHOWN = 4  # distinct results the model chooses among


@dataclass
class Candidate:
    sql: str  # as the model wrote it
    chain: Chain
    step: Step
    done: PlannedStep
    votes: int = 1  # statements that returned its result


def doubtful(chain: Chain) -> bool:
    """Whether the read's one statement may not answer the request: it failed first and was repaired, it
    found nothing, or a value it compares is not stored."""
    result = chain.steps[-1].result
    found = result is not None and found_nothing(result.frame)
    return bool(chain.revisions) or found or bool(chain.missing_values)


@stage
def second_look(ctx: Context) -> Iterator[Event]:
    """More candidates for a doubtful native read, and the result most agree on (or the model's pick)."""
    chain = ctx.chain
    wanted = ctx.options.second_look
    if wanted <= 1 or ctx.route != Route.READ or ctx.form != Form.NATIVE or chain is None or chain.writes:
        return
    if len(chain.steps) != 1 or not ctx.messages or ctx.request.approved or ctx.procedure:
        return
    if not doubtful(chain):
        return
    first = Candidate(chain.planned[-1], chain, chain.steps[-1], chain.done[-1])
    candidates = [first]
    for _ in range(wanted - 1):
        completion = yield from ctx.calls(
            "sample", ctx.messages, None, SQL_MAX_TOKENS, SAMPLE_TEMPERATURE, stop=native_sql.STOP
        )
        try:
            planned = native_step(ctx, completion.text)
        except ModelOutputError:  # no SQL in the sample
            continue
        same_text = next((c for c in candidates if c.sql == planned.sql), None)
        if same_text is not None:  # the same statement again: a vote, without running it twice
            same_text.votes += 1
            continue
        ran = yield from _run_candidate(ctx, chain, planned)
        if ran is not None:
            _add(candidates, ran)
    chosen = yield from _chosen(ctx, candidates)
    total = sum(c.votes for c in candidates)
    yield CandidatesVoted(total, chosen.votes, chosen.step.sql)
    if chosen is not first:
        _keep(chain, chosen)
        yield StepDone(chosen.step)


def _run_candidate(ctx: Context, chain: Chain, planned: PlannedStep) -> Generator[Event, None, Candidate | None]:
    """A sampled statement run as the first was, on a chain of its own."""
    scratch = Chain(chain.mode, chain.schema, values=dict(ctx.params))
    try:
        step, done = yield from _quiet(run_step(ctx, scratch, 1, planned, False))
    except (StepProblem, SQLRefused, ModelOutputError):  # it does not run: no candidate
        return None
    return Candidate(planned.sql, scratch, step, done)


def _quiet(
    events: Generator[Event, None, tuple[Step, PlannedStep]],
) -> Generator[Event, None, tuple[Step, PlannedStep]]:
    """A candidate's run with only the model's text shown (a value chosen while it is prepared); its steps
    are not the request's until one is kept."""
    while True:
        try:
            event = next(events)
        except StopIteration as finished:
            return finished.value
        if isinstance(event, ModelText):
            yield event


def _add(candidates: list[Candidate], new: Candidate) -> None:
    """`new` as a vote for the candidate that returned the same result, or as a candidate of its own."""
    result = new.step.result
    assert result is not None
    key = signature(result.frame)
    for candidate in candidates:
        if candidate.step.result is not None and signature(candidate.step.result.frame) == key:
            candidate.votes += 1
            return
    candidates.append(new)


def _chosen(ctx: Context, candidates: list[Candidate]) -> Generator[Event, None, Candidate]:
    """The candidate most statements agree on, among those comparing only stored values (samples repeating
    a slip the repair put right, a value no row holds, must not outvote the repair); when none has more
    than one vote, the model's pick."""
    pool = [c for c in candidates if _clean(c)] or candidates
    most = max(c.votes for c in pool)
    leaders = [c for c in pool if c.votes == most]
    if len(leaders) == 1 and (most > 1 or len(pool) == 1):
        return leaders[0]
    shown = leaders[:MOST_SHOWN]
    messages = choice_messages(ctx.request.text, [(c.step.sql, c.step.result.frame) for c in shown])  # type: ignore[union-attr]
    completion = yield from ctx.calls("choose", messages, choice_schema(len(shown)), CHOICE_MAX_TOKENS)
    try:
        picked = json.loads(completion.text).get("choice")
    except (json.JSONDecodeError, AttributeError):
        picked = None
    return shown[picked - 1] if isinstance(picked, int) and 1 <= picked <= len(shown) else shown[0]


def _clean(candidate: Candidate) -> bool:
    """The candidate compares no value its column lacks (a count of 0 may be the answer; such a value is a slip)."""
    return not candidate.chain.missing_values


def _keep(chain: Chain, chosen: Candidate) -> None:
    """The chosen candidate's step in place of the first statement's."""
    step = Step(
        chain.steps[-1].index,
        chain.steps[-1].goal,
        chosen.step.sql,
        chosen.step.status,
        chosen.step.result,
        rows_affected=chosen.step.rows_affected,
        params=chosen.step.params,
    )
    chain.steps[-1], chain.done[-1], chain.planned[-1] = step, chosen.done, chosen.sql
    chain.missing_values[:] = chosen.chain.missing_values
    chosen.step = step


CHOICE_INSTRUCTIONS = """\
You check answers to a question about a database. Each candidate is a SQL query and the first rows it \
returned. Reply with JSON {"choice": N}: the number of the candidate whose result answers the question."""


def choice_messages(question: str, shown: list[tuple[str, pd.DataFrame]]) -> list[Message]:
    """
    >>> print(choice_messages("How many hives?", [("SELECT count(*) FROM hives", pd.DataFrame({"n": [4]}))])[1]["content"])
    Question: How many hives?
    <BLANKLINE>
    Candidate 1:
    SELECT count(*) FROM hives
    Result (1 row):
    n
    4
    """
    listed = "\n\n".join(
        f"Candidate {number}:\n{sql}\n{prompts.result_text(frame, rows=CHOICE_ROWS)}"
        for number, (sql, frame) in enumerate(shown, start=1)
    )
    return [
        {"role": "system", "content": CHOICE_INSTRUCTIONS},
        {"role": "user", "content": f"Question: {question}\n\n{listed}"},
    ]


def choice_schema(count: int) -> JSONSchema:
    return {
        "type": "object",
        "properties": {"choice": {"type": "integer", "enum": list(range(1, count + 1))}},
        "required": ["choice"],
        "additionalProperties": False,
    }
