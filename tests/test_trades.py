"""The multi-trade benchmark's data (benchmarks/trades): each trade's texts, gold SQL and expected state agree."""

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
trades = pytest.importorskip("trades")


@pytest.mark.parametrize("name", trades.TRADES)
def test_a_trade_passes_its_self_check(name):
    from trades.base import self_check

    trade = trades.build(name)
    assert self_check(trade) == []


@pytest.mark.parametrize("name", trades.TRADES)
def test_a_trade_is_the_same_for_the_same_seed_and_another_for_another(name):
    assert trades.build(name, 0) == trades.build(name, 0)
    assert [r.text for r in trades.build(name, 0).records] != [r.text for r in trades.build(name, 1).records]


def test_tune_and_report_trades_do_not_overlap():
    assert not set(trades.TUNE) & set(trades.REPORT) and len(trades.REPORT) >= 2


# -- what a record does to rows, and how records.py scores a write (no model) ---------------------------


def test_the_helpers_doctests_pass():
    import doctest

    import record_scores
    from trades import base

    assert doctest.testmod(base).failed == 0
    assert doctest.testmod(record_scores).failed == 0


@pytest.mark.parametrize("name", trades.TRADES)
def test_a_trade_has_each_class_of_change_in_its_wordings_and_facts_into_empty_tables(name):
    from trades.base import fills_empty

    trade = trades.build(name)
    for how in ("set", "clear", "copy", "add"):
        records = [r for r in trade.records if r.does == f"change:{how}"]
        assert len(records) >= 2, how
        assert len({r.wording for r in records}) >= min(3, len(records)), how
    assert sum(r.does == "new" for r in trade.records) >= 20
    assert len(fills_empty(trade)) >= 2


class _HashEmbedder:
    """Vectors from a hash: no model loaded."""

    name, dimensions = "hash", 8

    def embed(self, texts):
        import hashlib

        import numpy as np

        rows = np.array([list(hashlib.sha256(t.encode()).digest()[:8]) for t in texts], dtype=np.float32) + 1
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_a_change_written_as_an_insert_is_scored_as_junk_and_an_insert(capsys):
    import records

    from jupyter_chatdb.llm import ScriptedBackend

    trade = trades.build("library")
    number = next(i for i, r in enumerate(trade.records) if r.kind == "attendance")
    record = trade.records[number]
    wrong = (
        "INSERT INTO branch_events (branch_code, held_on, activity, attendees) "
        "VALUES ('CEN', DATE '2024-01-01', 'craft session', 4)"
    )
    rows = []
    for sql in (record.gold[0], wrong):
        model = ScriptedBackend([{"sql": sql}] * 3)  # the one-round baseline: SQL as JSON
        rows.append(records.attempt_record(trade, number, "one-round", model, _HashEmbedder()))
    right, junk = rows
    assert (right["outcome"], right["does"], right["junk_rows"], right["insert_for_change"]) == (
        "exact",
        "change:add",
        0,
        False,
    )
    # the old head count is left as it was (missing, not junk); the row added is junk
    assert (junk["outcome"], junk["junk_rows"], junk["insert_for_change"]) == ("inexact", 1, True)
    assert right["calls_by_purpose"] == {"sql": 1} and right["wait_reason"] == ""

    old = {k: v for k, v in right.items() if k not in ("does", "junk_rows", "insert_for_change", "calls_by_purpose")}
    waited = {**right, "outcome": "pending", "junk_rows": None, "wait_reason": "it changes every row of members"}
    records.summarize([old, right, junk, waited, {**junk, "trade": "clinic"}])
    out = capsys.readouterr().out
    assert "changes exact 1/3 (33.3%)" in out and "new records exact 0/0" in out
    assert "junk rows applied 1 (in 1 of 2 applied); changes written as inserts 1" in out
    assert "waiting for approval 1 (25.0%), 1 with a reason" in out and "'it changes every row of members' x1" in out
    assert "by wording:" in out and "per record, by purpose: sql 1.00 calls" in out
    assert "tune trades together (library, clinic)" in out


class _Clerk:
    """A model that knows one record's answer: a write, its own kind's procedure, the values its gold
    statements hold (a fake for the taught part's bookkeeping; what the embedded model does is measured)."""

    name = "clerk"

    def __init__(self, kind: str, values: dict) -> None:
        self.kind, self.values, self.purposes = kind, values, []

    def complete(self, messages, *, json_schema=None, **kwargs):
        import json

        from jupyter_chatdb.llm.base import Completion, Usage

        properties = (json_schema or {}).get("properties", {})
        if "route" in properties:
            reply: dict = {"route": "write"}
        elif properties and all(p.get("type") == "boolean" for p in properties.values()):
            reply = {name: name == self.kind for name in properties}  # a yes to its own kind only
        elif "procedure" in properties:
            reply = {"procedure": self.kind}
        else:
            reply = self.values
        self.purposes.append(sorted(properties))
        return Completion(json.dumps(reply), Usage(1, 1, 1))


def test_the_taught_part_keeps_each_kinds_first_record_and_scores_the_procedure_run(capsys):
    import records

    trade = trades.build("library")
    first, procedures = records.taught_procedures(trade)
    assert len(procedures) == len(first) == len({r.kind for r in trade.records})
    event = next(p for p in procedures if p.name == "event")
    # the activity, a CHECK entry its request says in words sharing one ("craft"), is a value of the request
    assert [p.name for p in event.parameters] == ["activity", "attendees", "held_on", "branch_name"]
    taught = trade.records[first["event"]].facts
    number = next(  # a later event of the activity the procedure was kept with (it holds it as written)
        i
        for i, r in enumerate(trade.records)
        if r.kind == "event" and i != first["event"] and r.facts["activity"] == taught["activity"]
    )
    facts = trade.records[number].facts
    values = {
        "activity": facts["activity"],
        "attendees": facts["attendees"],
        "held_on": facts["date"],
        "branch_name": facts["branch"],
    }
    # the event's procedure alone is kept here: the hash embedder ranks procedures by chance, not by meaning
    row = records.attempt_record(trade, number, "native", _Clerk("event", values), _HashEmbedder(), [event])
    assert (row["outcome"], row["procedure"], row["own_procedure"]) == ("exact", "event", True)
    cold = records.attempt_record(trade, number, "one-round", _Clerk("event", {"sql": "SELECT 1"}), _HashEmbedder())
    assert cold["procedure"] == "" and not cold["own_procedure"]
    records.summarize([{**row, "way": "native+taught"}])
    assert "procedure run: its own kind's 1 (exact 1/1), another kind's 0, none 0" in capsys.readouterr().out
