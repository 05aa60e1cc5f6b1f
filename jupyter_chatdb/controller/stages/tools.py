"""Questions about the database (its tables' shape and quality, a query's plan, what a request changed,
the memory): the model calls read-only tools for a few rounds (Thought/Action/Observation), each call a
card like a step, then answers from the observations only (an answer saying a number they do not hold
gives way to their gist). And unsafe requests: refused, never planned."""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import ModelOutputError, QueryFailed
from ...grounding.schema_words import schema_stems
from ...tools import TOOLS, Observation, ToolCall, ToolInputError, Workbench, call_text, run_tool
from .. import prompts, tool_prompts
from ..answer import is_grounded
from ..context import Context
from ..events import Event, Refused, Reply, Step, StepDone, StepFailed, StepPlanned, StepStarted
from ..kinds import Route
from ..stage import stage
from ..unsafe import danger, refusal

TOOL_ROUNDS = 3  # calls at most, before answering from what was observed
PICK_MAX_TOKENS = 80  # a call: the tool, a table, a SELECT to explain
ANSWER_MAX_TOKENS = 120
OBSERVED_NUMBERS_ROWS = 50  # of each observation's table, whose numbers an answer may say


@stage
def refuse_unsafe(ctx: Context) -> Iterator[Event]:
    """A request routed unsafe is answered with why, and nothing is planned or run."""
    if ctx.route != Route.UNSAFE or ctx.reply is not None:
        return
    found = danger(ctx.request.text, schema_stems(ctx.catalog)) or refusal()
    yield Refused(found.kind, found.reason)
    ctx.reply = _reply(ctx, found.reason, [], route=Route.UNSAFE)


@stage
def use_tools(ctx: Context) -> Iterator[Event]:
    """A database question: at most TOOL_ROUNDS calls, chosen by the model among the tools (the first call
    must be a tool; "answer", or a call that adds nothing, ends the rounds), then one answer from the
    observations."""
    if ctx.route != Route.DATABASE or ctx.reply is not None:
        return
    services = ctx.services
    bench = Workbench(
        ctx.session,
        ctx.catalog,
        services.journal,
        services.memory,
        services.procedures,
        services.rules,
        services.keys,
        ctx.request.previous_sql,
    )
    names = ctx.table_names
    tables = tool_prompts.tables_text(ctx.catalog, names)
    seen: list[Observation | str] = []  # observations, and failed calls' errors, as the model reads them
    observations: list[Observation] = []
    steps: list[Step] = []
    calls: list[ToolCall] = []
    for _ in range(TOOL_ROUNDS):
        messages = tool_prompts.pick_messages(ctx.request.text, tables, seen)
        schema = tool_prompts.pick_schema(names, first=not observations)
        completion = yield from ctx.calls("tool", messages, schema, PICK_MAX_TOKENS)
        call = tool_prompts.parse_call(completion.text)
        if call.tool == tool_prompts.ANSWER_TOOL or _adds_nothing(call, calls):
            break
        calls.append(call)
        index, goal = len(steps) + 1, call_text(call)
        yield StepPlanned(index, goal, "")
        yield StepStarted(index, "")
        try:
            observation = run_tool(call, bench)
        except (ToolInputError, QueryFailed) as error:
            steps.append(Step(index, goal, call.sql, "failed", error=str(error)))
            yield StepFailed(steps[-1], will_retry=False)
            seen.append(f"{goal} failed: {error}")
            continue
        steps.append(Step(index, goal, observation.result.sql, "done", observation.result, note=observation.summary))
        yield StepDone(steps[-1])
        observations.append(observation)
        seen.append(observation)
    if not observations:
        raise ModelOutputError(
            "No tool gave an answer to this question: name the table it is about, or ask about the data in its rows."
        )
    messages = tool_prompts.answer_messages(ctx.request.text, observations)
    completion = yield from ctx.calls("answer", messages, prompts.ANSWER_SCHEMA, ANSWER_MAX_TOKENS)
    phrased = prompts.parse_json(completion.text, "answer")
    observed = "\n".join([ctx.request.text, *(_observed_text(o) for o in observations)])
    grounded = phrased is not None and is_grounded(phrased, None, None, observed)
    answer = phrased if grounded and phrased else " ".join(o.summary for o in observations)  # the gist, as observed
    ctx.reply = _reply(ctx, answer, steps, route=Route.DATABASE, observations=observations)


def _observed_text(observation: Observation) -> str:
    frame = observation.result.frame.head(OBSERVED_NUMBERS_ROWS)
    return observation.summary + "\n" + frame.to_csv(sep="\t", index=False)


def _adds_nothing(call: ToolCall, calls: list[ToolCall]) -> bool:
    """A call made before; or, of a tool that takes no table, a second call with another input (a small
    model asks for request 0 after request 2 said nothing was applied)."""
    if call in calls:
        return True
    takes_a_table = call.tool in TOOLS and "table" in TOOLS[call.tool].inputs
    return not takes_a_table and any(c.tool == call.tool for c in calls)


def _reply(
    ctx: Context, answer: str, steps: list[Step], *, route: Route, observations: list[Observation] | None = None
) -> Reply:
    last = observations[-1].result.frame if observations else None
    return Reply(
        ctx.request.text,
        answer,
        [o.result.sql for o in observations or () if o.result.sql],
        last,
        steps,
        ctx.calls.usage,
        ctx.services.model.name,
        route=route,
    )
