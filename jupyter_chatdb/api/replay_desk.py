"""Replays as requests: an answered request's plan is recorded; run again, it says whether its result is the same."""

from __future__ import annotations

from ..controller.events import Replayed, Reply
from ..controller.kinds import Route
from ..controller.planned_steps import PlannedStep, with_values
from ..controller.request import Request
from ..errors import ChatDBError
from ..sql.replays import Recorded, Replays, result_digest


def record(replays: Replays, reply: Reply) -> None:
    """Keep the plan of an answered (not pending) request for `replay`."""
    steps = reply.plan or tuple(PlannedStep("", sql) for sql in reply.sql)
    if steps and not reply.pending and reply.route != Route.CHAT:
        values = dict(reply.params)  # a procedure's values, as literals: the recorded plan runs alone
        plan: list[dict[str, object]] = [
            {"goal": s.goal, "sql": with_values(s.sql, values), "binds": list(s.binds)} for s in steps
        ]
        replays.record(Recorded(reply.request, reply.route, plan, reply.model, result_digest(reply.result)))


def replay_request(replays: Replays, text: str, allow_writes: bool) -> tuple[Request, Recorded]:
    """The request that runs the plan recorded for `text`, approved as recorded."""
    recorded = replays.find(text)
    if recorded is None:
        raise ChatDBError("Nothing is recorded for this request yet: run it once without --replay.")
    steps = tuple(PlannedStep(str(s["goal"]), str(s["sql"]), tuple(s["binds"])) for s in recorded.steps)  # type: ignore[arg-type]
    request = Request(text, allow_writes=allow_writes, summarize=False, approved=steps, route=Route(recorded.route))
    return request, recorded


def replayed(recorded: Recorded, reply: Reply) -> Replayed:
    """Whether the replay's result is the recorded one (None: either has no result)."""
    digest = result_digest(reply.result)
    same = None if recorded.result_sha256 is None or digest is None else digest == recorded.result_sha256
    return Replayed(recorded.model, same)
