"""Tools over what the notebook keeps beside the tables: the journal of writes, and the memory."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from .base import Observation, ToolCall, ToolInputError, Workbench, counted, frame_result


def changes(call: ToolCall, bench: Workbench) -> Observation:
    """What write request `call.request` changed (0: the latest applied)."""
    history = bench.journal.history()
    if history.empty:
        empty = pd.DataFrame(columns=["table", "removed or changed", "added or changed", "created"])
        return Observation(call, frame_result(empty), "No write request has been applied to this database yet.")
    ids = [int(i) for i in history["request_id"]]
    request_id = call.request or ids[-1]
    if request_id not in ids:
        raise ToolInputError(f"There is no write request {request_id}: the requests are {ids[0]} to {ids[-1]}.")
    row = history[history["request_id"] == request_id].iloc[0]
    frame = bench.journal.changed(request_id)
    undone = f", undone at {_when(row['undone_at'])}" if pd.notna(row["undone_at"]) else ""
    changed = "; ".join(
        f"{r['table']}: created"
        if r["created"]
        else f"{r['table']}: {counted(r['removed or changed'], 'row')} out, {r['added or changed']} in"
        for _, r in frame.iterrows()
    )
    when = f"applied at {_when(row['applied_at'])}{undone}"
    summary = f"Request {request_id} ({row['request']!r}, {when}) changed {changed or 'nothing'}."
    return Observation(call, frame_result(frame), summary)


def memory_status(call: ToolCall, bench: Workbench) -> Observation:
    rows: list[dict[str, object]] = []
    if bench.memory is not None:
        kinds = Counter(record.kind for record in bench.memory.store.live())
        rows += [{"kept": f"thoughts: {kind}", "count": count, "names": ""} for kind, count in sorted(kinds.items())]
    procedures = [p.name for p in bench.procedures] if bench.procedures is not None else []
    rules = [r.name for r in bench.rules] if bench.rules is not None else []
    rows += [
        {"kept": "procedures", "count": len(procedures), "names": ", ".join(procedures)},
        {"kept": "rules", "count": len(rules), "names": ", ".join(rules)},
    ]
    frame = pd.DataFrame(rows, columns=["kept", "count", "names"])
    thoughts = (
        f"{sum(kinds.values())} live thoughts"
        if bench.memory is not None
        else "no thought memory (%config ChatDB.memory = True keeps one)"
    )
    return Observation(
        call,
        frame_result(frame),
        f"The notebook keeps {thoughts}, {len(procedures)} procedures and {len(rules)} rules.",
    )


def _when(timestamp: object) -> str:
    return pd.Timestamp(timestamp).strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[arg-type]
