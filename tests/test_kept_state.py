"""The state a kept row is in after a record writes rows under it (`controller/stages/kept_state.py`): the
model picks among leaving the row as it is and the entries of its table's states (listed columns with a
default), and only the picked entry is written, on the one row the new rows belong to. Real DuckDB, the
scripted model, on an invented bicycle courier."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

COURIER = """
CREATE SEQUENCE run_ids START 1;
CREATE TABLE riders (rider_id INTEGER PRIMARY KEY, name VARCHAR UNIQUE NOT NULL);
CREATE TABLE runs (run_id INTEGER PRIMARY KEY DEFAULT nextval('run_ids'),
                   rider_id INTEGER NOT NULL REFERENCES riders (rider_id), run_on DATE NOT NULL,
                   bike VARCHAR NOT NULL CHECK (bike IN ('cargo', 'road')),
                   state VARCHAR NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'ridden', 'called off')));
CREATE TABLE drops (run_id INTEGER NOT NULL REFERENCES runs (run_id), address VARCHAR NOT NULL,
                    fee DECIMAL(6, 2) NOT NULL);
INSERT INTO riders VALUES (1, 'Tomas Ek'), (2, 'Lin Wu');
INSERT INTO runs (rider_id, run_on, bike) VALUES (1, DATE '2025-06-05', 'cargo'), (2, DATE '2025-06-05', 'road');
"""

ADDS = {"does": "add", "table": "drops", "which": [], "set": []}
DROPS = {"drops": [{"address": "Elm Street 4", "fee": 4.5}, {"address": "Pier 2", "fee": 6}]}


def test_drops_of_a_run_ridden_set_the_runs_state_the_model_picks(scripted: ScriptedBackend):
    """Tomas's run of 5 June is ridden: its two drops are written under it, and its state is the entry
    picked; Lin's run of the same day stays planned. The bike, listed but no state (no default), is not
    offered."""
    chatdb = ChatDB(model=scripted, schema=COURIER, summarize=False)
    ridden = {"option": "set state to 'ridden'"}
    scripted.push({"route": "write"}, ADDS, DROPS, ridden, ridden)  # asked each way round
    reply = chatdb.ask("Tomas Ek rode his 5 June 2025 run: Elm Street 4 (4.50), Pier 2 (6.00)", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    offered = [call.json_schema["properties"]["option"]["enum"] for call in scripted.calls[-2:]]
    assert offered[0] == ["leave the runs row as it is", "set state to 'called off'", "set state to 'ridden'"]
    assert offered[1] == offered[0][::-1]
    assert chatdb.session.rows("SELECT run_id, state FROM runs ORDER BY run_id") == [(1, "ridden"), (2, "planned")]
    assert chatdb.session.rows("SELECT run_id, address FROM drops ORDER BY address") == [
        (1, "Elm Street 4"),
        (1, "Pier 2"),
    ]
    chatdb.close()


def test_a_state_picked_one_way_round_only_is_not_written(scripted: ScriptedBackend):
    """Asked again with the options the other way round, the model picks another: the run is left as it is."""
    chatdb = ChatDB(model=scripted, schema=COURIER, summarize=False)
    picks = {"option": "set state to 'ridden'"}, {"option": "set state to 'called off'"}
    scripted.push({"route": "write"}, ADDS, DROPS, *picks)
    reply = chatdb.ask("Tomas Ek's 5 June 2025 run: Elm Street 4 (4.50), Pier 2 (6.00)", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT state FROM runs ORDER BY run_id") == [("planned",), ("planned",)]
    assert chatdb.session.rows("SELECT count(*) FROM drops WHERE run_id = 1") == [(2,)]
    chatdb.close()


def test_a_run_left_as_it_is_keeps_its_state(scripted: ScriptedBackend):
    """Drops added to a planned run, the model leaving the run as it is: its state is not written."""
    chatdb = ChatDB(model=scripted, schema=COURIER, summarize=False)
    scripted.push({"route": "write"}, ADDS, DROPS, {"option": "leave the runs row as it is"})
    reply = chatdb.ask(
        "Two more drops on Tomas Ek's 5 June 2025 run: Elm Street 4 4.50, Pier 2 6.00", allow_writes=True
    )
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT state FROM runs ORDER BY run_id") == [("planned",), ("planned",)]
    assert not any("UPDATE" in sql for sql in reply.sql)
    assert chatdb.session.rows("SELECT count(*) FROM drops WHERE run_id = 1") == [(2,)]
    chatdb.close()


def test_a_run_past_its_starting_state_is_not_asked_about(scripted: ScriptedBackend):
    """Lin's run is called off already (no longer 'planned', the state runs start in): drops written under
    it ask nothing about its state, which stays as it is."""
    chatdb = ChatDB(model=scripted, schema=COURIER, summarize=False)
    chatdb.session.rows("UPDATE runs SET state = 'called off' WHERE run_id = 2")
    scripted.push({"route": "write"}, ADDS, {"drops": [{"address": "Pier 2", "fee": 6}]})
    reply = chatdb.ask("Lin Wu's 5 June 2025 run: Pier 2 (6.00)", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT state FROM runs ORDER BY run_id") == [("planned",), ("called off",)]
    assert chatdb.session.rows("SELECT run_id, address FROM drops") == [(2, "Pier 2")]
    chatdb.close()
