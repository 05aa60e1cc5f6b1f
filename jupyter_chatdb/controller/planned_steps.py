"""A plan: ordered SQL steps whose one-row results feed later steps through <name> placeholders."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
import sqlglot
from sqlglot import exp

from ..llm.base import JSONSchema
from ..options import MAX_STEPS

STEP_SCHEMA: JSONSchema = {
    "type": "object",
    "properties": {
        "goal": {"type": "string"},
        "sql": {"type": "string"},
        "binds": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["goal", "sql", "binds"],
    "additionalProperties": False,
}


def plan_schema(max_steps: int = MAX_STEPS) -> JSONSchema:
    """The JSON schema of a plan of 1 to `max_steps` steps (the model cannot write more)."""
    return {
        "type": "object",
        "properties": {"steps": {"type": "array", "items": STEP_SCHEMA, "minItems": 1, "maxItems": max_steps}},
        "required": ["steps"],
        "additionalProperties": False,
    }


PLAN_SCHEMA = plan_schema()
PLACEHOLDER = re.compile(r"'?<([A-Za-z_][A-Za-z0-9_]*)>'?")
BARE_PLACEHOLDER = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class PlannedStep:
    goal: str
    sql: str  # may hold <name> placeholders
    binds: tuple[str, ...] = ()  # result columns later steps use as <name>

    def placeholders(self) -> list[str]:
        """The names of earlier results it uses: <name> as the model writes it, $name as it runs.

        >>> PlannedStep("", "SELECT * FROM t WHERE id = <crate_id> AND c = '<city>'").placeholders()
        ['crate_id', 'city']
        >>> PlannedStep("", "SELECT * FROM t WHERE id = $crate_id").placeholders()
        ['crate_id']
        """
        return BARE_PLACEHOLDER.findall(self.sql) + PARAMETER.findall(self.sql)


def parse_plan(text: str) -> list[PlannedStep] | None:
    """The steps of the model's JSON plan, or None when it is not such a plan.

    >>> parse_plan('{"steps": [{"goal": "count", "sql": "SELECT 1", "binds": []}]}')
    [PlannedStep(goal='count', sql='SELECT 1', binds=())]
    >>> parse_plan('{"steps": []}') is None
    True
    """
    try:
        steps = json.loads(text)["steps"]
        planned = [
            PlannedStep(str(s["goal"]), str(s["sql"]).strip().rstrip(";").strip(), tuple(map(str, s.get("binds", []))))
            for s in steps
        ]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
        return None
    return planned if planned and all(step.sql for step in planned) else None


def parameterized(sql: str) -> str:
    """The step's SQL with each <name> placeholder as the query parameter $name, bound when it runs:
    a value is never spliced into SQL text, so no value can change what a statement does. A
    placeholder inside a string literal becomes a concatenation with the parameter.

    >>> parameterized("INSERT INTO t VALUES (<id>, '<fruit>', 'it''s')")
    "INSERT INTO t VALUES ($id, $fruit, 'it''s')"
    >>> parameterized("DELETE FROM t WHERE note LIKE '%<body>%'")
    "DELETE FROM t WHERE note LIKE ('%' || CAST($body AS VARCHAR) || '%')"
    """
    out: list[str] = []
    for text, quoted in _string_segments(sql):
        if not quoted:
            out.append(BARE_PLACEHOLDER.sub(r"$\1", text))
            continue
        body = text[1:-1]
        parts = BARE_PLACEHOLDER.split(body)  # literal, name, literal, name, ..., literal
        if len(parts) == 1:
            out.append(text)
        elif parts[0] == parts[-1] == "" and len(parts) == 3:
            out.append(f"${parts[1]}")
        else:
            pieces = [
                f"CAST(${part} AS VARCHAR)" if i % 2 else f"'{part}'" for i, part in enumerate(parts) if i % 2 or part
            ]
            out.append("(" + " || ".join(pieces) + ")")
    return "".join(out)


def _string_segments(sql: str) -> list[tuple[str, bool]]:
    """`sql` cut into (text, is a '...' string literal) pieces; "..." identifiers are kept as text.

    >>> _string_segments("a = 'x''y' AND b")
    [('a = ', False), ("'x''y'", True), (' AND b', False)]
    """
    segments: list[tuple[str, bool]] = []
    start, i, quote = 0, 0, ""
    while i < len(sql):
        char = sql[i]
        if quote:
            if char == quote and sql[i + 1 : i + 2] == quote:
                i += 2
                continue
            if char == quote:
                if quote == "'":
                    segments.append((sql[start : i + 1], True))
                    start = i + 1
                quote = ""
        elif char in "'\"":
            if char == "'" and i > start:
                segments.append((sql[start:i], False))
                start = i
            elif char == "'":
                start = i
            quote = char
        i += 1
    if start < len(sql):
        segments.append((sql[start:], quote == "'"))
    return [segment for segment in segments if segment[0]]


def fill(sql: str, values: Mapping[str, object]) -> str:
    """For reading only (messages, prompts): each known <name> (quoted or not) as the SQL literal of
    its value; unknown names stay. What runs binds them as parameters (`parameterized`).

    >>> values = {"crate_id": 7, "fruit": "O'Neil", "day": dt.date(2023, 1, 5)}
    >>> fill("INSERT INTO items VALUES (<crate_id>, '<fruit>', <day>)", values)
    "INSERT INTO items VALUES (7, 'O''Neil', DATE '2023-01-05')"
    """

    def literal(match: re.Match[str]) -> str:
        name = match.group(1)
        return sql_literal(values[name]) if name in values else match.group(0)

    return PLACEHOLDER.sub(literal, sql)


def with_values(sql: str, params: Mapping[str, object]) -> str:
    """For reading and editing: `sql` with each bound $name parameter written as its value.

    >>> with_values("DELETE FROM t WHERE note LIKE ('%' || CAST($body AS VARCHAR) || '%')", {"body": "x' OR 1=1"})
    "DELETE FROM t WHERE note LIKE ('%' || CAST('x'' OR 1=1' AS TEXT) || '%')"
    """
    if not params:
        return sql

    def literal(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder) and node.name in params:
            return sqlglot.parse_one(sql_literal(params[node.name]), read="duckdb")
        return node

    try:
        trees = sqlglot.parse(sql, read="duckdb")
        return "; ".join(tree.transform(literal).sql(dialect="duckdb") for tree in trees if tree is not None)
    except Exception:  # for reading only: the SQL as it ran is shown instead
        return sql


def sql_literal(value: object) -> str:
    """
    >>> [sql_literal(v) for v in (None, True, 3, 2.5, decimal.Decimal("1.30"), "a'b")]
    ['NULL', 'TRUE', '3', '2.5', '1.30', "'a''b'"]
    """
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float, decimal.Decimal)):
        return str(value)
    if hasattr(value, "item"):  # numpy scalars
        return sql_literal(value.item())
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return f"TIMESTAMP '{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date):
        return f"DATE '{value.isoformat()}'"
    return "'" + str(value).replace("'", "''") + "'"


def bound_values(binds: tuple[str, ...], result: pd.DataFrame) -> tuple[dict[str, object], str | None]:
    """The values a step binds from its one-row result, or why they cannot be bound.

    >>> bound_values(("id",), pd.DataFrame({"id": [4]}))
    ({'id': 4}, None)
    >>> bound_values(("id",), pd.DataFrame({"id": []}))[1]
    'it returned no row, and later steps need id'
    """
    if not binds:
        return {}, None
    if result.empty:
        return {}, f"it returned no row, and later steps need {', '.join(binds)}"
    if len(result) > 1:
        return {}, f"it returned {len(result)} rows where one was expected for {', '.join(binds)}"
    row = result.iloc[0]
    columns = {str(c).lower(): c for c in result.columns}
    missing = [name for name in binds if name.lower() not in columns]
    if missing and len(binds) == 1 and len(result.columns) == 1:  # one value, whatever its column is called
        return {binds[0]: _plain(row.iloc[0])}, None
    if missing:
        return {}, f"its result has no column {missing[0]!r} (columns: {', '.join(map(str, result.columns))})"
    return {name: _plain(row[columns[name.lower()]]) for name in binds}, None


def _plain(value: object) -> object:
    return value.item() if hasattr(value, "item") and not isinstance(value, (pd.Timestamp, str)) else value
