"""A change whose row is named by words no row answers to ("Ada Holm's storm sail", where the sail kinds
listed are 'jib', 'mainsail' and 'spinnaker'), where the request describes several rows by the row they
refer to (Ada Holm's two sails): the model picks among them, asked twice with the rows each way round; the
same pick is written, a different one makes the write wait, showing both (issue 51). Real DuckDB, the
scripted model, on the default strategy."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, Event
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.described import described_among
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

SAIL_LOFT = """
CREATE TABLE sailors (sailor_id INTEGER PRIMARY KEY, sailor_name VARCHAR NOT NULL UNIQUE);
CREATE TABLE sails (
    sail_code VARCHAR PRIMARY KEY,
    sailor_id INTEGER NOT NULL REFERENCES sailors (sailor_id),
    kind VARCHAR NOT NULL CHECK (kind IN ('jib', 'mainsail', 'spinnaker'))
);
CREATE TABLE repairs (
    repair_no INTEGER PRIMARY KEY,
    sail_code VARCHAR NOT NULL REFERENCES sails (sail_code),
    quote DECIMAL(7, 2) NOT NULL
);
INSERT INTO sailors VALUES (1, 'Ada Holm'), (2, 'Bo Sand');
INSERT INTO sails VALUES ('SL-11', 1, 'jib'), ('SL-12', 1, 'mainsail'), ('SL-20', 2, 'jib');
INSERT INTO repairs VALUES (1, 'SL-11', 40), (2, 'SL-12', 90), (3, 'SL-20', 35);
"""

RAISE = {
    "does": "change",
    "table": "repairs",
    "which": [{"column": "sail_code", "value": "storm sail"}],
    "set": [{"column": "quote", "how": "add", "value": "20"}],
}
TEXT = "The quote for Ada Holm's storm sail goes up by 20"


def quotes(loft: ChatDB) -> list[tuple]:
    return loft.session.rows("SELECT sail_code, CAST(quote AS INT) FROM repairs ORDER BY 1")


def test_the_rows_described_by_the_row_they_refer_to_are_those_to_pick_among():
    loft = ChatDB(model=ScriptedBackend(), schema=SAIL_LOFT, summarize=False)
    shapes = shapes_of(loft.session, Catalog.read(loft.session))
    stored = StoredRows(loft.session)
    sails = next(s for s in shapes.values() if s.table == "sails")
    assert [r["sail_code"] for r in described_among(sails, TEXT, stored, 4)] == ["SL-11", "SL-12"]
    assert described_among(sails, "Bo Sand's storm sail", stored, 4) == []  # one sail: described, not picked
    assert described_among(sails, "Ada Holm's storm sail", stored, 1) == []  # more than may be shown
    loft.close()


def test_the_same_pick_both_ways_round_is_written():
    model = ScriptedBackend()
    loft = ChatDB(model=model, schema=SAIL_LOFT, summarize=False)
    model.push({"route": "write"}, RAISE, {"option": "SL-11, jib"}, {"option": "SL-11, jib"})
    reply = loft.ask(TEXT, allow_writes=True)
    assert not reply.pending and model.remaining == 0
    shown = [call.messages[-1]["content"].split("Options: ")[-1] for call in model.calls[-2:]]
    assert shown == ["SL-11, jib | SL-12, mainsail", "SL-12, mainsail | SL-11, jib"]
    assert quotes(loft) == [("SL-11", 60), ("SL-12", 90), ("SL-20", 35)]
    loft.close()


def test_a_different_pick_the_second_time_waits_showing_both():
    model = ScriptedBackend()
    loft = ChatDB(model=model, schema=SAIL_LOFT, summarize=False)
    model.push({"route": "write"}, RAISE, {"option": "SL-11, jib"}, {"option": "SL-12, mainsail"})
    events: list[Event] = []
    reply = loft.ask(TEXT, allow_writes=True, on_event=events.append)
    reason = next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    assert reply.pending and "which sails row: read as SL-11, jib, then as SL-12, mainsail" in reason
    assert quotes(loft) == [("SL-11", 40), ("SL-12", 90), ("SL-20", 35)]
    loft.apply(reply)
    assert quotes(loft) == [("SL-11", 60), ("SL-12", 90), ("SL-20", 35)]
    loft.close()
