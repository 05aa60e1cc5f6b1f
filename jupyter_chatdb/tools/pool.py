"""The tool pool: what each tool takes and does, and running one call of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import query_plan, status, tables
from .base import Observation, ToolCall, ToolInputError, Workbench


@dataclass(frozen=True)
class Tool:
    name: str
    inputs: tuple[str, ...]  # of "table", "sql", "request"
    does: str  # what it returns, for the model and the docs
    run: Callable[[ToolCall, Workbench], Observation]


POOL = (
    Tool("list_tables", (), "every table with its kind, row count and number of columns", tables.list_tables),
    Tool(
        "describe_table",
        ("table",),
        "one table's columns with their types, keys and example values, and its row count",
        tables.describe_table,
    ),
    Tool(
        "profile_columns",
        ("table",),
        "per column of one table: missing (null) values, distinct values, min, max and the most common value",
        tables.profile_columns,
    ),
    Tool(
        "explain_query",
        ("sql",),
        "runs one SELECT (the last query's when none is given) with EXPLAIN ANALYZE: each operator's time and rows, "
        "slowest first",
        query_plan.explain_query,
    ),
    Tool(
        "changes",
        ("request",),
        "what a write request changed: rows removed and added per table (request 0: the latest)",
        status.changes,
    ),
    Tool(
        "memory_status",
        (),
        "what the notebook's memory holds: thoughts by kind, procedures and rules",
        status.memory_status,
    ),
)
TOOLS: dict[str, Tool] = {tool.name: tool for tool in POOL}


def call_text(call: ToolCall) -> str:
    """The call as a person reads it.

    >>> call_text(ToolCall("profile_columns", table="horses")), call_text(ToolCall("list_tables", table="x"))
    ("profile_columns(table='horses')", 'list_tables()')
    """
    inputs = TOOLS[call.tool].inputs if call.tool in TOOLS else ()
    return f"{call.tool}({', '.join(f'{name}={getattr(call, name)!r}' for name in inputs)})"


def run_tool(call: ToolCall, bench: Workbench) -> Observation:
    """Run one call, its inputs checked first (ToolInputError says what is wrong)."""
    tool = TOOLS.get(call.tool)
    if tool is None:
        raise ToolInputError(f"There is no tool {call.tool!r}: the tools are {', '.join(TOOLS)}.")
    if "table" in tool.inputs and call.table not in bench.catalog.tables:
        known = ", ".join(bench.catalog.tables) or "none"
        raise ToolInputError(f"{tool.name} takes one of the tables ({known}), not {call.table!r}.")
    return tool.run(call, bench)
