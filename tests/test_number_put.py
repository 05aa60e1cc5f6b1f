"""A change read with nothing to set, where the request gives a number (issue 51): "add to attendance: 3"
read as naming the talk and setting nothing. The number is offered for each number column of the row
(added, taken off, set), asked each way round; two picks alike are written, two apart wait. Real DuckDB,
the scripted model; a lecture hall's talks."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

SCHEMA = """
CREATE TABLE talks (talk_no INTEGER PRIMARY KEY, hall VARCHAR NOT NULL, held_on DATE NOT NULL,
                    listeners INTEGER NOT NULL);
INSERT INTO talks VALUES (1, 'Lindenhall', DATE '2024-04-04', 20), (2, 'Eastwing', DATE '2024-04-04', 12);
"""
TEXT = "attendance correction\nhall: Lindenhall\nheld: 4 April 2024\nadd to listeners: 3"
NAMING_ONLY = {
    "does": "change",
    "table": "talks",
    "which": [{"column": "hall", "value": "Lindenhall"}, {"column": "held_on", "value": "4 April 2024"}],
    "set": [],
}


def asked(*options: str) -> tuple[ScriptedBackend, ChatDB]:
    model = ScriptedBackend()
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    model.push(NAMING_ONLY, *({"option": o} for o in options))
    return model, chatdb


def test_a_number_picked_alike_each_way_round_is_written() -> None:
    model, chatdb = asked("add 3 to listeners", "add 3 to listeners")
    reply = chatdb.ask(TEXT, allow_writes=True)
    assert not reply.pending and not model.remaining
    assert chatdb.session.rows("SELECT talk_no, listeners FROM talks ORDER BY 1") == [(1, 23), (2, 12)]
    chatdb.close()


def test_a_number_picked_two_ways_waits() -> None:
    _, chatdb = asked("add 3 to listeners", "set listeners to 3")
    reply = chatdb.ask(TEXT, allow_writes=True)
    assert reply.pending
    assert chatdb.session.rows("SELECT listeners FROM talks ORDER BY 1") == [(12,), (20,)]
    chatdb.close()
