"""A new row's one date column where the request gives several days and one is written nowhere
(`recording/day_unsaid.py`, `controller/stages/day_picked.py`): the model picks the day, the days each way
round. Real DuckDB, the scripted model, on an invented chimney sweep."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

SWEEPS = """
CREATE TABLE sweeps (house VARCHAR NOT NULL, sweep_on DATE NOT NULL, fee DECIMAL(6, 2) NOT NULL);
"""

BOOKED = "Rang on 2025-04-30: the sweep at Mill House is set for 6 May 2025, fee 60"
READ = {"sweeps": [{"house": "Mill House", "sweep_on": "2025-04-30", "fee": 60}]}


def test_a_row_dated_by_the_day_it_was_entered_is_dated_by_the_day_picked(scripted: ScriptedBackend):
    """Read as swept on the day of the call, 6 May written nowhere: the model picks 6 May both ways round,
    and the sweep is dated 6 May."""
    chatdb = ChatDB(model=scripted, schema=SWEEPS, summarize=False)
    scripted.push({"route": "write"}, READ, {"value": "2025-05-06"}, {"value": "2025-05-06"})
    reply = chatdb.ask(BOOKED, allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    offered = [call.json_schema["properties"]["value"]["enum"] for call in scripted.calls[-2:]]
    assert offered == [["2025-04-30", "2025-05-06"], ["2025-05-06", "2025-04-30"]]
    assert "sweep_on" in scripted.calls[-1].messages[0]["content"]
    assert chatdb.session.rows("SELECT house, CAST(sweep_on AS VARCHAR) FROM sweeps") == [("Mill House", "2025-05-06")]
    chatdb.close()


def test_a_day_picked_two_ways_waits(scripted: ScriptedBackend):
    """Picked one way, then the other: a guess, so the write waits, saying which days the request gives."""
    chatdb = ChatDB(model=scripted, schema=SWEEPS, summarize=False)
    scripted.push({"route": "write"}, READ, {"value": "2025-05-06"}, {"value": "2025-04-30"})
    reply = chatdb.ask(BOOKED, allow_writes=True)
    assert reply.pending and scripted.remaining == 0
    assert "sweeps.sweep_on: the request gives 2025-04-30, 2025-05-06; read as '2025-04-30'" in reply.answer
    assert chatdb.session.rows("SELECT count(*) FROM sweeps") == [(0,)]
    chatdb.close()


def test_a_row_holding_every_day_given_is_not_asked_about(scripted: ScriptedBackend):
    """One day given, and written: nothing is asked."""
    chatdb = ChatDB(model=scripted, schema=SWEEPS, summarize=False)
    scripted.push({"route": "write"}, {"sweeps": [{"house": "Mill House", "sweep_on": "2025-05-06", "fee": 60}]})
    reply = chatdb.ask("The sweep at Mill House is set for 6 May 2025, fee 60", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT CAST(sweep_on AS VARCHAR) FROM sweeps") == [("2025-05-06",)]
    chatdb.close()
