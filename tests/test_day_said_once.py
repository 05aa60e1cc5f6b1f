"""A day the request says once, read into two date columns of a new row, stays in the one the request names
apart: "home by" names the day a dog is due home, and not, by the same word, the day it went home. Real
DuckDB, the scripted model, on a kennel's stays."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

SCHEMA = """
CREATE TABLE stays (dog VARCHAR NOT NULL, arrived_on DATE NOT NULL, due_home DATE NOT NULL, went_home_on DATE);
"""


def test_a_day_said_once_stays_in_the_column_named_apart():
    model = ScriptedBackend()
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    read = {"dog": "Pip", "arrived_on": "2025-06-03", "due_home": "2025-06-10", "went_home_on": "2025-06-10"}
    model.push({"route": "write"}, {"stays": [read]})
    reply = chatdb.ask("Pip stays with us from 3 June 2025, home by 10 June 2025", allow_writes=True)
    assert not reply.pending and not model.remaining
    assert chatdb.session.rows("SELECT dog, due_home::VARCHAR, went_home_on FROM stays") == [
        ("Pip", "2025-06-10", None)
    ]
    chatdb.close()
