"""Pure prompt builders. The fixed instructions come first so the model can reuse their cache."""

from __future__ import annotations

import json

import pandas as pd

from ..llm.base import JSONSchema, Message

SQL_SCHEMA: JSONSchema = {
    "type": "object",
    "properties": {"sql": {"type": "string"}},
    "required": ["sql"],
    "additionalProperties": False,
}
ANSWER_SCHEMA: JSONSchema = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
RESULT_ROWS_IN_PROMPT = 10

SQL_INSTRUCTIONS = """\
You translate a request into one DuckDB SQL statement over the tables the user lists.
Rules:
- Use only the listed tables and columns, spelled exactly as listed.
- Return only the columns the request asks for, in the order it asks.
- Join tables only when the request needs columns from more than one table.
- "How many" means count(*); "for each"/"per" means GROUP BY; "the most"/"the highest" means ORDER BY ... DESC LIMIT 1.
- Compare text with single-quoted values written like the sample values.
- {writes}
Reply with JSON: {{"sql": "<the statement>"}}.

Examples, for tables employees(id, name, dept, salary) and depts(dept, city):
Request: How many employees does each department have?
{{"sql": "SELECT dept, count(*) FROM employees GROUP BY dept"}}
Request: Who has the highest salary?
{{"sql": "SELECT name FROM employees ORDER BY salary DESC LIMIT 1"}}
Request: List the names of employees working in Oslo.
{{"sql": "SELECT e.name FROM employees AS e JOIN depts AS d ON e.dept = d.dept WHERE d.city = 'Oslo'"}}"""

READ_ONLY = "Only read data: write a single SELECT statement."
READ_WRITE = (
    "To record, change or remove data write INSERT, UPDATE or DELETE statements separated by ';'; "
    "otherwise a single SELECT."
)

ANSWER_INSTRUCTIONS = """\
You answer a question from the result of a SQL query, in one or two short sentences.
Use only the values in the result and copy numbers exactly as they appear there; never add, subtract or compute anything.
If the result is empty, say that nothing matched.
Reply with JSON: {"answer": "<the answer>"}."""


def sql_messages(schema_text: str, request: str, *, allow_writes: bool) -> list[Message]:
    instructions = SQL_INSTRUCTIONS.format(writes=READ_WRITE if allow_writes else READ_ONLY)
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": f"Tables:\n{schema_text}\n\nRequest: {request}"},
    ]


def repair_messages(previous: list[Message], reply: str, error: str) -> list[Message]:
    """Keep the conversation (and its cached prefix) and add the error to fix."""
    return [
        *previous,
        {"role": "assistant", "content": reply},
        {
            "role": "user",
            "content": f"Running that SQL failed with:\n{error}\nWrite a corrected statement for the same request.",
        },
    ]


def answer_messages(request: str, sql: list[str], result: pd.DataFrame | None, rows_affected: int | None) -> list[Message]:
    parts = [f"Question: {request}", "SQL: " + ";\n".join(sql)]
    if rows_affected is not None:
        parts.append(f"Rows changed: {rows_affected}")
    if result is not None:
        parts.append(result_text(result))
    return [
        {"role": "system", "content": ANSWER_INSTRUCTIONS},
        {"role": "user", "content": "\n".join(parts)},
    ]


def result_text(result: pd.DataFrame, rows: int = RESULT_ROWS_IN_PROMPT) -> str:
    """
    >>> print(result_text(pd.DataFrame({"n": [1, 2]})))
    Result (2 rows):
    n
    1
    2
    """
    shown = "" if len(result) <= rows else f", first {rows} shown"
    header = f"Result ({len(result)} row{'s' if len(result) != 1 else ''}{shown}):"
    return header + "\n" + result.head(rows).to_csv(index=False).strip()


def parse_json(text: str, key: str) -> str | None:
    """The string under `key` in the model's JSON reply, or None when the reply is not that JSON.

    >>> parse_json('{"sql": "SELECT 1"}', "sql")
    'SELECT 1'
    """
    try:
        value = json.loads(text)[key]
    except (json.JSONDecodeError, KeyError, TypeError):
        return None
    return value if isinstance(value, str) else None
