"""A change the database refuses (a value its CHECK does not allow) is tried and rolled back before anything
runs: it is no change to write, and a state the request may say is asked for instead. Real DuckDB, scripted
model, an invented ferry line."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

FERRIES = """
CREATE TABLE ferries (ferry VARCHAR PRIMARY KEY, crew INTEGER NOT NULL CHECK (crew BETWEEN 2 AND 12),
                      state VARCHAR NOT NULL CHECK (state IN ('docked', 'sailing', 'laid_up')));
INSERT INTO ferries VALUES ('Skua', 4, 'docked'), ('Auk', 6, 'sailing');
"""
NO_CREW = {
    "does": "change",
    "table": "ferries",
    "which": [{"column": "ferry", "value": "Auk"}],
    "set": [{"column": "crew", "how": "to", "value": "0"}],
}


def test_a_value_the_database_refuses_is_asked_as_a_state(scripted: ScriptedBackend):
    """'no crew, laid up for the winter' read as a crew of 0, which the CHECK refuses: asked among the
    states, the one picked is written; the refused value never runs."""
    chatdb = ChatDB(model=scripted, schema=FERRIES, summarize=False)
    scripted.push({"route": "write"}, NO_CREW, {"option": "set state to 'laid_up'"})
    reply = chatdb.ask("Auk | no crew, laid up for the winter", allow_writes=True)
    offered = scripted.calls[-1].json_schema["properties"]["option"]["enum"]
    assert "set state to 'laid_up'" in offered
    assert not reply.pending and all("crew" not in sql for sql in reply.sql)
    assert chatdb.session.rows("SELECT ferry, crew, state FROM ferries ORDER BY 1") == [
        ("Auk", 6, "laid_up"),
        ("Skua", 4, "docked"),
    ]
    chatdb.close()


def test_a_refused_change_with_no_state_picked_writes_nothing(scripted: ScriptedBackend):
    """The model leaves the row as it is: the refused value is never run; the rows read (none) and the plan
    (a read) write nothing, and the session stays usable."""
    chatdb = ChatDB(model=scripted, schema=FERRIES, summarize=False)
    scripted.push({"route": "write"}, NO_CREW, {"option": "leave the ferries row as it is"}, {})
    scripted.push({"steps": [{"goal": "nothing to change", "sql": "SELECT crew FROM ferries WHERE ferry = 'Auk'"}]})
    chatdb.ask("Auk | no crew", allow_writes=True)
    assert chatdb.session.rows("SELECT ferry, crew, state FROM ferries ORDER BY 1") == [
        ("Auk", 6, "sailing"),
        ("Skua", 4, "docked"),
    ]
    assert not chatdb.session.in_transaction
    chatdb.close()
