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

Examples, for tables hives(id, name, apiary, honey_kg) and apiaries(apiary, village):
Request: How many hives does each apiary have?
{{"sql": "SELECT apiary, count(*) FROM hives GROUP BY apiary"}}
Request: Which hive gave the most honey?
{{"sql": "SELECT name FROM hives ORDER BY honey_kg DESC LIMIT 1"}}
Request: List the names of hives kept in Elmstead.
{{"sql": "SELECT h.name FROM hives AS h JOIN apiaries AS a ON h.apiary = a.apiary WHERE a.village = 'Elmstead'"}}"""

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
