"""Tools over the tables themselves: list them, describe one, profile one's columns."""

from __future__ import annotations

import pandas as pd

from ..sql.catalog import TEXT_TYPES, Table
from ..sql.names import quote_identifier, quote_string, quote_table
from .base import Observation, ToolCall, Workbench, counted, frame_result

PROFILED_COLUMNS = 60  # a wider table is profiled on its first columns
SCALAR_TYPES = ("[", "STRUCT", "MAP", "UNION")  # what min/max/mode cannot compare: counted, not ranged
# text that stands for a missing value, as CSV exports and old databases write it (compared trimmed, lower case)
PLACEHOLDERS = ("", "null", "none", "nan", "n/a", "na", "-", "?")


def list_tables(call: ToolCall, bench: Workbench) -> Observation:
    tables = list(bench.catalog.tables.values())
    rows = [{"table": t.name, "kind": _kind(t), "rows": t.row_count, "columns": len(t.columns)} for t in tables]
    frame = pd.DataFrame(rows, columns=["table", "kind", "rows", "columns"])
    biggest = max(tables, key=lambda table: table.row_count, default=None)
    summary = counted(len(tables), "table") + (
        f"; the largest is {biggest.name} with {counted(biggest.row_count, 'row')}." if biggest else "."
    )
    return Observation(call, frame_result(frame), summary)


def describe_table(call: ToolCall, bench: Workbench) -> Observation:
    table = bench.catalog.tables[call.table]
    references = {
        column: f"{key.table}({ref})" for key in table.foreign_keys for column, ref in zip(key.columns, key.references)
    }
    if bench.keys is not None:  # a DataFrame declares no keys: those its data implies, said so
        for implied in bench.keys.references(bench.catalog, bench.session):
            if implied.table == table.name and implied.column not in references:
                references[implied.column] = f"{implied.target}({implied.key}), implied by the data"

    rows = [
        {
            "column": column.name,
            "type": column.type,
            "key": _key(table, column.name, references),
            "examples": ", ".join(column.samples),
        }
        for column in table.columns
    ]
    frame = pd.DataFrame(rows, columns=["column", "type", "key", "examples"])
    key = ", ".join(table.primary_key) or "none declared"
    summary = (
        f"{table.name} ({_kind(table)}) has {counted(table.row_count, 'row')} and {counted(len(table.columns), 'column')}; "
        f"primary key: {key}."
    )
    return Observation(call, frame_result(frame), summary)


def profile_columns(call: ToolCall, bench: Workbench) -> Observation:
    table = bench.catalog.tables[call.table]
    columns = table.columns[:PROFILED_COLUMNS]
    sql = "\nUNION ALL\n".join(_profile_select(table.name, column.name, column.type) for column in columns)
    result = bench.session.run(sql)
    frame = result.frame
    of = f" of {table.row_count})"
    missing = [f"{column} ({count}{of}" for column, count in zip(frame["column"], frame["missing"]) if count]
    standing = [f"{column} ({count}{of}" for column, count in zip(frame["column"], frame["placeholders"]) if count]
    summary = f"{table.name}: {counted(table.row_count, 'row')}, {counted(len(columns), 'column')} profiled; " + (
        f"missing values in {len(missing)}: {', '.join(missing)}" if missing else "no column has missing (null) values"
    )
    if standing:
        summary += (
            f"; text standing for missing values ('null', 'n/a', '', ...) in {len(standing)}: {', '.join(standing)}"
        )
    summary += "."
    return Observation(call, result, summary)


def _profile_select(table: str, column: str, data_type: str) -> str:
    """One row of the profile: the column's missing values (and, for text, the values standing for missing
    ones), its distinct values and, for a comparable type, its range and its most common value (none when
    every value is distinct)."""
    c = quote_identifier(column)
    if data_type.upper().startswith(TEXT_TYPES):
        listed = ", ".join(quote_string(p) for p in PLACEHOLDERS)
        placeholders = f"count(*) FILTER (WHERE lower(trim({c})) IN ({listed}))"
    else:
        placeholders = "0"
    head = (
        f'SELECT {quote_string(column)} AS "column", count(*) - count({c}) AS missing, '
        f'{placeholders} AS placeholders, count(DISTINCT {c}) AS "distinct"'
    )
    if any(mark in data_type.upper() for mark in SCALAR_TYPES):
        tail = "NULL::VARCHAR AS min, NULL::VARCHAR AS max, NULL::VARCHAR AS most_common"
    else:
        tail = (
            f"min({c})::VARCHAR AS min, max({c})::VARCHAR AS max, "
            f"CASE WHEN count(DISTINCT {c}) < count({c}) THEN mode({c})::VARCHAR END AS most_common"
        )
    return f"{head}, {tail} FROM {quote_table(table)}"


def _kind(table: Table) -> str:
    if table.is_frame:
        return "DataFrame (read-only)"
    return "attached (read-only)" if "." in table.name else "stored"


def _key(table: Table, column: str, references: dict[str, str]) -> str:
    parts = ["primary key"] if column in table.primary_key else []
    if column in references:
        parts.append(f"references {references[column]}")
    return ", ".join(parts)
