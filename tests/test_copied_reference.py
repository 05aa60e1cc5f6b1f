"""A new row's reference the request does not give, where it describes another kept row: a small model
copies a code from the rows it is shown ('K-013' for "Ada Roy's sea kayak"); the row refers to the kayak
described. Real DuckDB, the scripted model, on a kayak club's repairs."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from tests.conftest import ADDS

SCHEMA = """
CREATE TABLE owners (owner_id INTEGER PRIMARY KEY, owner_name VARCHAR NOT NULL UNIQUE);
INSERT INTO owners VALUES (1, 'Ada Roy'), (2, 'Bo Lind');
CREATE TABLE kayaks (kayak_code VARCHAR PRIMARY KEY, owner_id INTEGER NOT NULL REFERENCES owners (owner_id),
    kind VARCHAR NOT NULL CHECK (kind IN ('sea', 'river')));
INSERT INTO kayaks VALUES ('K-013', 2, 'sea'), ('K-021', 1, 'sea'), ('K-022', 1, 'river');
CREATE TABLE repairs (kayak_code VARCHAR NOT NULL REFERENCES kayaks (kayak_code), booked_for DATE NOT NULL,
    work VARCHAR NOT NULL);
"""


def test_a_reference_copied_from_the_rows_shown_is_the_row_described():
    model = ScriptedBackend()
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    read = {"kayak_code": "K-013", "booked_for": "2025-05-12", "work": "new skeg"}
    model.push({"route": "write"}, ADDS, {"repairs": [read]})
    reply = chatdb.ask("Ada Roy's sea kayak is booked in for a new skeg on 12 May 2025", allow_writes=True)
    assert not reply.pending and not model.remaining
    assert chatdb.session.rows("SELECT kayak_code, work FROM repairs") == [("K-021", "new skeg")]
    chatdb.close()


def test_a_reference_the_request_gives_stays():
    """'K-013' said as it is stays, though the request describes another kayak too."""
    model = ScriptedBackend()
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    read = {"kayak_code": "K-013", "booked_for": "2025-05-12", "work": "new skeg"}
    model.push({"route": "write"}, ADDS, {"repairs": [read]})
    chatdb.ask("K-013, like Ada Roy's sea kayak, is booked in for a new skeg on 12 May 2025", allow_writes=True)
    assert chatdb.session.rows("SELECT kayak_code FROM repairs") == [("K-013",)]
    chatdb.close()
