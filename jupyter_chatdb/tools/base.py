"""What a tool call is, what it returns, and what the tools read."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..errors import ChatDBError
from ..grounding.keys import ImpliedKeys
from ..kernel_memory.procedures import ProcedureBook
from ..kernel_memory.thoughts import ThoughtMemory
from ..sql.catalog import Catalog
from ..sql.journal import Journal
from ..sql.rules import RuleBook
from ..sql.running import QueryResult
from ..sql.session import Session


class ToolInputError(ChatDBError):
    """A tool was called with an input it cannot use (an unknown table, no SELECT to explain)."""


@dataclass(frozen=True)
class ToolCall:
    """One call: the tool's name and its inputs (those it does not take stay empty)."""

    tool: str
    table: str = ""
    sql: str = ""
    request: int = 0


@dataclass(frozen=True)
class Observation:
    """What one call returned: a table, the SQL that read it (empty when read from the catalog or the
    notebook's memory) and a line that says the gist."""

    call: ToolCall
    result: QueryResult
    summary: str


def frame_result(frame: pd.DataFrame) -> QueryResult:
    """A tool's table read from what the request already holds (the catalog, the journal's list, the
    memory), not by a query of its own: no SQL ran."""
    return QueryResult("", frame, len(frame), 0.0)


def counted(number: int, noun: str) -> str:
    """
    >>> counted(1, "row"), counted(3, "column")
    ('1 row', '3 columns')
    """
    return f"{number} {noun}{'s' if number != 1 else ''}"


@dataclass(frozen=True)
class Workbench:
    """What the tools read: the session and what the notebook keeps beside it."""

    session: Session
    catalog: Catalog
    journal: Journal
    memory: ThoughtMemory | None = None
    procedures: ProcedureBook | None = None
    rules: RuleBook | None = None
    keys: ImpliedKeys | None = None  # references the data implies, for tables that declare none
    previous_sql: str = ""  # the SELECT of the last read answered: what explain_query runs without one
