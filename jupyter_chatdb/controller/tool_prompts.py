"""Prompts for questions about the database: picking a tool (constrained JSON, one call per round) and
answering from what the tools observed. Worked examples live on invented tables."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..errors import ModelOutputError
from ..llm.base import JSONSchema, Message
from ..sql.catalog import Catalog
from ..tools import POOL, Observation, ToolCall, call_text
from ..tools.base import counted
from .prompts import result_text

ANSWER_TOOL = "answer"  # not a tool: the observations so far answer the question
OBSERVED_ROWS = 20  # of each observation's table, in the answer prompt
COLUMNS_LISTED = 8  # of each table, in the prompt that picks a tool

PICK_INSTRUCTIONS = """\
You answer questions about a database's tables (not about the rows' content) by calling tools, one call per reply.
Reply with JSON {{"tool": "...", "table": "...", "sql": "...", "request": 0}}.
Tools:
{tools}
- answer: stop, as the observations so far answer the question.
"table" is for describe_table and profile_columns: one of the tables, the one the question is about.
"sql" is for explain_query: the SELECT written in the question, copied exactly ("" for the last query).
"request" is for changes: the request's number, or 0 for the latest.
Leave inputs a tool does not take as "" or 0. Call the one tool that answers the question; \
call another only when the question also asks for what it gives.

Worked example on other tables:
Tables:
horses: name, breed, coat, born, stable_id (40 rows)
stables: stable_id, town, owner (4 rows)
Question: Which fields of the horses table are sometimes blank?
{{"tool": "profile_columns", "table": "horses", "sql": "", "request": 0}}
Observation 1: horses: 40 rows, 5 columns profiled; missing values in 1: coat (3 of 40).
{{"tool": "answer", "table": "", "sql": "", "request": 0}}

Question: List the tables, then describe the biggest one.
{{"tool": "list_tables", "table": "", "sql": "", "request": 0}}
Observation 1: 2 tables; the largest is horses with 40 rows.
{{"tool": "describe_table", "table": "horses", "sql": "", "request": 0}}
Observation 2: horses (stored) has 40 rows and 5 columns; primary key: name.
{{"tool": "answer", "table": "", "sql": "", "request": 0}}"""

ANSWER_INSTRUCTIONS = """\
You answer a question about a database from what tools observed, in one to three short sentences.
Use only the observations: copy names and numbers exactly as they appear there, and compute nothing.
If they do not answer the question, say what they show instead.
Reply with JSON: {"answer": "<the answer>"}."""


def pick_schema(tables: Sequence[str], first: bool) -> JSONSchema:
    """The call's shape: a tool of the pool (or, after the first round, "answer") and its inputs."""
    tools = [tool.name for tool in POOL] + ([] if first else [ANSWER_TOOL])
    return {
        "type": "object",
        "properties": {
            "tool": {"type": "string", "enum": tools},
            "table": {"type": "string", "enum": [*tables, ""]},
            "sql": {"type": "string"},
            "request": {"type": "integer"},
        },
        "required": ["tool", "table", "sql", "request"],
        "additionalProperties": False,
    }


def pick_messages(question: str, tables: str, observations: Sequence[Observation | str]) -> list[Message]:
    """`tables`: `tables_text`; `observations`: those so far, or a failed call's error."""
    tools = "\n".join(f"- {tool.name}{_inputs(tool.inputs)}: {tool.does}." for tool in POOL)
    observed = "".join(f"\nObservation {i}: {_gist(o)}" for i, o in enumerate(observations, 1))
    if observations:
        called = ", ".join(_gist(o).split(":", 1)[0] if isinstance(o, str) else o.call.tool for o in observations)
        observed += (
            f"\nCalled so far: {called}. Does the question also ask for something else? Then call the tool for it; "
            "if not, answer."
        )
    return [
        {"role": "system", "content": PICK_INSTRUCTIONS.format(tools=tools)},
        {"role": "user", "content": f"Tables:\n{tables}\nQuestion: {question}{observed}"},
    ]


def tables_text(catalog: Catalog, names: Sequence[str]) -> str:
    """One line per table: its columns (the first few) and its rows.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> print(tables_text(Catalog([Table("hay", (Column("kg", "INTEGER"), Column("bale", "INTEGER")), 3)]), ["hay"]))
    hay: kg, bale (3 rows)
    """
    lines = []
    for name in names:
        table = catalog.tables[name]
        columns = [c.name for c in table.columns[:COLUMNS_LISTED]]
        more = ", ..." if len(table.columns) > COLUMNS_LISTED else ""
        lines.append(f"{name}: {', '.join(columns)}{more} ({counted(table.row_count, 'row')})")
    return "\n".join(lines)


def parse_call(text: str) -> ToolCall:
    """The model's reply as a call (ModelOutputError when it is not the JSON asked for).

    >>> parse_call('{"tool": "describe_table", "table": "horses", "sql": "", "request": 0}')
    ToolCall(tool='describe_table', table='horses', sql='', request=0)
    """
    try:
        value = json.loads(text)
        call = ToolCall(
            str(value["tool"]),
            str(value.get("table") or ""),
            str(value.get("sql") or ""),
            int(value.get("request") or 0),
        )
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        raise ModelOutputError(f"The model did not name a tool as asked: {text[:120]!r}.") from None
    return call


def answer_messages(question: str, observations: Sequence[Observation]) -> list[Message]:
    parts = [f"Question: {question}", "Observations:"]
    for index, observation in enumerate(observations, 1):
        parts.append(f"{index}. {call_text(observation.call)}: {observation.summary}")
        if len(observation.result.frame.columns):
            parts.append(result_text(observation.result.frame, OBSERVED_ROWS))
    return [
        {"role": "system", "content": ANSWER_INSTRUCTIONS},
        {"role": "user", "content": "\n".join(parts)},
    ]


def _inputs(inputs: tuple[str, ...]) -> str:
    return f" ({', '.join(inputs)})" if inputs else ""


def _gist(observation: Observation | str) -> str:
    return observation if isinstance(observation, str) else observation.summary
