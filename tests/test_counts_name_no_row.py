"""A new record read as a change whose names include a count no row holds (`row_changes._Writer.found`,
`Unanswerable.names_a_row`): a count names no row the user may mean, so the record is not held as a
question about a missing row, and is read as the new row it is; and "no notes" for a notes column is
no note (`forms.no_such_value`). Real DuckDB, the scripted model, on an invented bird-ringing station."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

RINGING = """
CREATE SEQUENCE ringer_ids START 100;
CREATE TABLE ringers (ringer_no INTEGER PRIMARY KEY DEFAULT nextval('ringer_ids'),
                      ringer_name VARCHAR UNIQUE NOT NULL);
CREATE TABLE ringings (ring_code VARCHAR NOT NULL, ringed_on DATE NOT NULL,
                       ringer_no INTEGER NOT NULL REFERENCES ringers (ringer_no), weight_g INTEGER NOT NULL,
                       notes VARCHAR);
INSERT INTO ringers VALUES (1, 'Ola Berg'), (2, 'Ines Mora'), {more};
INSERT INTO ringings VALUES ('R-80', DATE '2025-06-01', 1, 19, 'left wing worn');
""".format(more=", ".join(f"({n}, 'Volunteer {n}')" for n in range(3, 16)))  # too many ringers to list

LOGGED = "June 3, 2025 | ringing | R-88 | Ola Berg | 21 g | no notes"
NEW_ROW = {"ringings": [{"ring_code": "R-88", "ringed_on": "2025-06-03", "ringer_no": "Ola Berg", "weight_g": 21,
                         "notes": "no notes"}]}  # fmt: skip


@pytest.fixture
def station(scripted: ScriptedBackend):
    chatdb = ChatDB(model=scripted, schema=RINGING, summarize=False)
    yield chatdb
    chatdb.close()


def _change(*which: tuple[str, str]) -> dict:
    picks = [{"column": column, "value": value} for column, value in which]
    return {"does": "change", "table": "ringings", "which": picks, "set": [{"column": "notes", "how": "clear"}]}


def test_a_count_among_the_names_of_a_new_record_does_not_hold_it(station: ChatDB, scripted: ScriptedBackend):
    """Read as clearing the notes of Ola's ringing of 21 g, which no ringing weighs: the new ringing is
    written, its notes empty."""
    scripted.push({"route": "write"}, _change(("ringer_no", "Ola Berg"), ("weight_g", "21")), NEW_ROW)
    reply = station.ask(LOGGED, allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert station.session.rows("SELECT ring_code, weight_g, notes FROM ringings ORDER BY ring_code") == [
        ("R-80", 19, "left wing worn"),
        ("R-88", 21, None),
    ]


def test_a_name_no_row_holds_still_holds_the_write(station: ChatDB, scripted: ScriptedBackend):
    """Read as a change of ring R-80's ringing by a ringer no row names: the user may mean a row that is
    not there, so whatever is written waits, saying so."""
    by_ada = {"ringings": [{**NEW_ROW["ringings"][0], "ring_code": "R-80", "ringer_no": "Ada Lund"}]}
    scripted.push({"route": "write"}, _change(("ring_code", "R-80"), ("ringer_no", "Ada Lund")), by_ada)
    reply = station.ask(LOGGED.replace("R-88 | Ola Berg", "R-80 | Ada Lund"), allow_writes=True)
    assert reply.pending, reply.answer
    assert "it reads as a change of kept rows, but no ringers row is 'Ada Lund'" in reply.answer
