"""A day a change moves a row to, said in figures that read two ways ("to 07/06/2025"), is the day the
column's kept days settle (`day_order.ordered_day`, in `row_changes._Writer.in_their_order`), whichever way
the model read it; a day they do not settle makes the write wait, saying both. Real DuckDB, the scripted
model, on an invented boat hire."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

from .conftest import change_reading

BOAT_HIRE = """
CREATE TABLE hires (hire_no INTEGER PRIMARY KEY, boat VARCHAR NOT NULL, hired_on DATE NOT NULL);
INSERT INTO hires VALUES (1, 'BT-4', DATE '2025-05-28'), (2, 'BT-9', DATE '2025-06-02'), (3, 'BT-2', DATE '2025-06-05');
"""


def _moved(boat: str, day: str) -> dict:
    return change_reading("hires", [("boat", boat)], ("hired_on", "to", day))


@pytest.fixture
def hire(scripted: ScriptedBackend):
    chatdb = ChatDB(model=scripted, schema=BOAT_HIRE, summarize=False)
    yield chatdb
    chatdb.close()


def test_a_day_read_month_first_is_the_one_the_kept_days_settle(hire: ChatDB, scripted: ScriptedBackend):
    """Read as 6 July; the hires are kept from late May to early June: 7 June."""
    scripted.push({"route": "write"}, _moved("BT-4", "2025-07-06"))
    reply = hire.ask("Ada rang on 2 June 2025 to move the hire of BT-4 to 07/06/2025", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert str(hire.session.rows("SELECT hired_on FROM hires WHERE hire_no = 1")[0][0]) == "2025-06-07"


def test_a_day_the_kept_days_do_not_settle_waits(scripted: ScriptedBackend):
    """Hires kept across the whole year: 07/06/2025 may be either day, so the write waits."""
    schema = BOAT_HIRE + "INSERT INTO hires VALUES (4, 'BT-5', DATE '2025-01-03'), (5, 'BT-6', DATE '2025-12-20');"
    chatdb = ChatDB(model=scripted, schema=schema, summarize=False)
    scripted.push({"route": "write"}, _moved("BT-4", "2025-07-06"))
    reply = chatdb.ask("Ada rang on 2 June 2025 to move the hire of BT-4 to 07/06/2025", allow_writes=True)
    assert reply.pending and scripted.remaining == 0, reply.answer
    assert str(chatdb.session.rows("SELECT hired_on FROM hires WHERE hire_no = 1")[0][0]) == "2025-05-28"
    chatdb.close()
