"""Procedures as requests: keep an approved write, or SQL the user teaches, as a procedure; run one
without the model."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ..controller.events import Reply
from ..controller.planned_steps import PlannedStep, with_values
from ..controller.request import Request
from ..kernel_memory.generalize import generalize
from ..kernel_memory.procedure_sql import parameter_types
from ..kernel_memory.procedures import Procedure, ProcedureBook, ProcedureError
from ..sql import guard
from ..sql.catalog import Catalog
from ..sql.check_lists import check_lists
from ..sql.session import Session


def learned(reply: Reply, name: str, session: Session) -> Procedure:
    """The writes of an applied reply the user approved (or wrote) as procedure `name`, the session's CHECK
    lists saying which entries it wrote are values of its request (`generalize`)."""
    if reply.rule is not None:
        raise ProcedureError("A rule is kept when it is approved; it is not a procedure.")
    if reply.request_id is None or not reply.seen or reply.pending:
        raise ProcedureError(
            "Only writes you approved (or wrote) and that were applied can become a procedure: "
            "approve the pending request first."
        )
    params = dict(reply.params)
    steps = [(s.goal, with_values(s.sql, params), s.binds) for s in reply.plan]
    general = generalize(reply.request, steps, listed=check_lists(session))
    return Procedure.learned(name, reply.request, general, f"request {reply.request_id}")


def taught(
    session: Session, name: str, sql: str, requests: Sequence[str], example: Mapping[str, object] | None
) -> Procedure:
    """SQL with $name parameters, checked as a write on the session's tables, as procedure `name`."""
    catalog = Catalog.read(session, samples=0)
    statements = [s.sql for s in guard.check(sql, catalog.schema(), mode=guard.Mode.WRITE).statements]
    if not requests:
        raise ProcedureError("Say what requests it is for: a comment line such as '-- Ada bought 2 saddles'.")
    procedure = Procedure.taught(name, statements, requests, parameter_types(statements, catalog))
    if example is not None:
        procedure = dataclasses.replace(procedure, example=procedure.checked_values(example))
    return procedure


def run_request(book: ProcedureBook, name: str, values: Mapping[str, object], allow_writes: bool) -> Request:
    """The request that runs procedure `name` with `values`, its statements approved as they expand."""
    procedure = book.get(name)
    steps, bound = procedure.expanded(procedure.checked_values(values))
    return Request(
        f"procedure {name}",
        allow_writes=allow_writes,
        summarize=False,
        approved=tuple(PlannedStep(s.goal, s.sql, s.binds) for s in steps),
        params=tuple(bound.items()),
        seen=True,
    )
