"""The Foundation's one-SQL prompt: the one-round baseline, and the fallback of a read the plan could not
answer. One statement (several writes, when allowed) as JSON over the tables as compact CREATE TABLEs."""

from __future__ import annotations

from ..llm.base import JSONSchema, Message

SQL_SCHEMA: JSONSchema = {
    "type": "object",
    "properties": {"sql": {"type": "string"}},
    "required": ["sql"],
    "additionalProperties": False,
}
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


def sql_messages(schema_text: str, request: str, *, allow_writes: bool) -> list[Message]:
    instructions = SQL_INSTRUCTIONS.format(writes=READ_WRITE if allow_writes else READ_ONLY)
    return [
        {"role": "system", "content": instructions},
        {"role": "user", "content": f"Tables:\n{schema_text}\n\nRequest: {request}"},
    ]
