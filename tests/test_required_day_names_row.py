"""The day a change names its row by: read as a column to empty, or said in figures that read two ways; a sail
loft's repairs (real DuckDB, the scripted model)."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.scripted import ScriptExhausted
from tests.conftest import change_reading

LOFT = """
CREATE SEQUENCE repair_seq START 1;
CREATE TABLE sails (sail_code VARCHAR PRIMARY KEY, owner VARCHAR NOT NULL);
INSERT INTO sails VALUES ('SL-4', 'Ines Vidal'), ('SL-9', 'Tomas Ek');
CREATE TABLE repairs (repair_no INTEGER PRIMARY KEY DEFAULT nextval('repair_seq'),
                      sail_code VARCHAR NOT NULL REFERENCES sails (sail_code), came_in DATE NOT NULL,
                      seam_m DECIMAL(5, 1),
                      stage VARCHAR NOT NULL DEFAULT 'waiting' CHECK (stage IN ('waiting', 'cutting', 'stitched')));
INSERT INTO repairs (sail_code, came_in, seam_m) VALUES ('SL-4', DATE '2024-03-02', 1.5),
                                                         ('SL-4', DATE '2024-05-21', 2.0),
                                                         ('SL-9', DATE '2024-05-12', 0.5);
"""


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


def stages(chatdb: ChatDB) -> list[tuple]:
    return chatdb.session.rows("SELECT repair_no, came_in::VARCHAR, stage FROM repairs ORDER BY repair_no")


def test_a_required_day_read_as_emptied_names_the_one_row_it_is_given_for(model: ScriptedBackend):
    """'SL-4 (came in 21/05/2024)' read with the day it came in emptied beside the stage: the day, which
    cannot be emptied, names the repair of the two SL-4 has; only its stage changes."""
    chatdb = ChatDB(model=model, schema=LOFT, summarize=False)
    model.push(
        change_reading("repairs", [("sail_code", "SL-4")], ("stage", "to", "stitched"), ("came_in", "clear", ""))
    )
    reply = chatdb.ask("sail: SL-4 (came in 21/05/2024)\nstage: stitched\ndate: 2024-06-01", allow_writes=True)
    assert not reply.pending, reply.answer
    assert stages(chatdb) == [(1, "2024-03-02", "waiting"), (2, "2024-05-21", "stitched"), (3, "2024-05-12", "waiting")]
    chatdb.close()


def test_a_required_day_emptied_that_names_no_row_is_not_read_as_naming_one(model: ScriptedBackend):
    """The same reading where the day the request gives is no day SL-4 came in: nothing is narrowed by it,
    the change is not code's to write, and the request goes on to be read for the rows it states."""
    chatdb = ChatDB(model=model, schema=LOFT, summarize=False)
    model.push(
        change_reading("repairs", [("sail_code", "SL-4")], ("stage", "to", "stitched"), ("came_in", "clear", ""))
    )
    with pytest.raises(ScriptExhausted):  # the next call reads the request for rows
        chatdb.ask("sail: SL-4 (came in 20/05/2024)\nstage: stitched\ndate: 2024-06-01", allow_writes=True)
    assert "repairs" in model.calls[-1].json_schema["properties"]
    assert stages(chatdb) == [(1, "2024-03-02", "waiting"), (2, "2024-05-21", "waiting"), (3, "2024-05-12", "waiting")]
    chatdb.close()


def test_a_day_in_figures_that_reads_two_ways_names_the_row_that_holds_one_of_them(model: ScriptedBackend):
    """'came in 03/02/2024' is 3 February or 2 March: SL-4 has a repair on 2 March only, so that is the
    one changed. Where it has one on each day, the data does not settle it: the change waits."""
    chatdb = ChatDB(model=model, schema=LOFT, summarize=False)
    seam = ("seam_m", "to", "2.5")
    model.push(change_reading("repairs", [("sail_code", "SL-4")], seam))
    reply = chatdb.ask("sail: SL-4 (came in 03/02/2024)\nseam: 2.5", allow_writes=True)
    assert not reply.pending, reply.answer
    seams = "SELECT repair_no, seam_m::VARCHAR FROM repairs ORDER BY repair_no"
    assert chatdb.session.rows(seams) == [(1, "2.5"), (2, "2.0"), (3, "0.5")]
    chatdb.session.rows("INSERT INTO repairs (sail_code, came_in) VALUES ('SL-4', DATE '2024-02-03')")
    model.push(change_reading("repairs", [("sail_code", "SL-4")], ("seam_m", "to", "3.0")))
    reply = chatdb.ask("sail: SL-4 (came in 03/02/2024)\nseam: 3.0", allow_writes=True)
    assert reply.pending and chatdb.session.rows(seams) == [(1, "2.5"), (2, "2.0"), (3, "0.5"), (4, None)]
    chatdb.close()
