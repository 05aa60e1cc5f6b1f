"""The explain tool: a guarded SELECT run under EXPLAIN ANALYZE, its plan read as one row per operator.

A read of a remote engine's tables runs there: its plan is the engine's, and DuckDB's plan of the sample
kept here is not it, so such a read is not explained."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pandas as pd

from ..errors import SQLRefused
from ..sql import guard
from ..sql.running import QueryResult
from .base import Observation, ToolCall, ToolInputError, Workbench

DETAILS = ("Table", "Join Type", "Conditions", "Groups", "Aggregates", "Filters", "Function")  # worth a glance
DETAIL_CHARS = 80


def explain_query(call: ToolCall, bench: Workbench) -> Observation:
    """Run `call.sql` (one SELECT the guard allows, as the guard wrote it back; without one, the last read's)
    with EXPLAIN ANALYZE."""
    sql = call.sql.strip() or bench.previous_sql
    if not sql:
        raise ToolInputError("explain_query takes the SELECT to explain: write it in the request.")
    try:
        checked = guard.check(sql, bench.catalog.schema())
    except SQLRefused as error:
        raise ToolInputError(f"explain_query runs only a SELECT the guard allows: {error}") from None
    if len(checked.statements) != 1 or checked.statements[0].kind is not guard.Kind.READ:
        raise ToolInputError("explain_query takes exactly one SELECT.")
    select = checked.statements[0].sql
    _refuse_remote(select, bench)
    ran = bench.session.run(f"EXPLAIN (ANALYZE, FORMAT JSON) {select}")
    profile = json.loads(str(ran.frame.iat[0, 1]))
    frame = operators(profile)
    result = QueryResult(select, frame, len(frame), ran.elapsed_ms)
    return Observation(call, result, plan_summary(frame, float(profile.get("latency") or 0.0)))


def _refuse_remote(select: str, bench: Workbench) -> None:
    remote = bench.session.remote
    tables = sorted(remote.tables_in(select)[0]) if remote is not None else []
    if remote is not None and tables:
        raise ToolInputError(
            f"{', '.join(tables)} {'is' if len(tables) == 1 else 'are'} read on the remote engine "
            f"({remote.engine.describe()}): the plan is the engine's and cannot be profiled here; "
            "explain it with the engine's own tools."
        )


def operators(profile: dict) -> pd.DataFrame:
    """One row per operator of a DuckDB JSON profile, slowest first (EXPLAIN's own node left out).

    >>> leaf = {"operator_name": "TABLE_SCAN", "operator_timing": 0.002, "operator_cardinality": 9,
    ...         "extra_info": {"Table": "horses"}, "children": []}
    >>> top = {"operator_name": "HASH_GROUP_BY", "operator_timing": 0.001, "operator_cardinality": 3,
    ...        "extra_info": {"Groups": "#0"}, "children": [leaf]}
    >>> operators({"children": [top]})[["operator", "ms", "rows", "depth"]].values.tolist()
    [['TABLE_SCAN', 2.0, 9, 1], ['HASH_GROUP_BY', 1.0, 3, 0]]
    """
    rows = [
        {
            "operator": node.get("operator_name", "").strip(),
            "ms": round(float(node.get("operator_timing") or 0.0) * 1000, 3),
            "rows": int(node.get("operator_cardinality") or 0),
            "detail": _detail(node.get("extra_info") or {}),
            "depth": depth,
        }
        for node, depth in _nodes(profile, -1)
        if node.get("operator_name", "").strip() not in ("", "EXPLAIN_ANALYZE")
    ]
    frame = pd.DataFrame(rows, columns=["operator", "ms", "rows", "detail", "depth"])
    return frame.sort_values("ms", ascending=False, kind="stable").reset_index(drop=True)


def plan_summary(frame: pd.DataFrame, latency_s: float) -> str:
    """
    >>> plan = pd.DataFrame({"operator": ["HASH_JOIN", "TABLE_SCAN"], "ms": [3.0, 1.0], "rows": [40, 9]})
    >>> plan_summary(plan, 0.005)
    'The query took 5.0 ms over 2 operators; the slowest is HASH_JOIN (3.0 ms, 75% of operator time, 40 rows out).'
    """
    if frame.empty:
        return f"The query took {latency_s * 1000:.1f} ms."
    slowest, total = frame.iloc[0], float(frame["ms"].sum()) or 1.0
    return (
        f"The query took {latency_s * 1000:.1f} ms over {len(frame)} operators; the slowest is {slowest['operator']} "
        f"({slowest['ms']:.1f} ms, {slowest['ms'] / total:.0%} of operator time, {slowest['rows']} rows out)."
    )


def _nodes(node: dict, depth: int) -> Iterator[tuple[dict, int]]:
    """Every node under `node` with its depth among the operators (the root and EXPLAIN's node do not count)."""
    for child in node.get("children") or ():
        counted = child.get("operator_name", "").strip() not in ("", "EXPLAIN_ANALYZE")
        yield child, depth + counted
        yield from _nodes(child, depth + counted)


def _detail(info: dict) -> str:
    parts = []
    for key in DETAILS:
        value = info.get(key)
        if value:
            text = "; ".join(value) if isinstance(value, list) else str(value)
            parts.append(f"{key}: {text}")
    return " | ".join(parts)[:DETAIL_CHARS]
