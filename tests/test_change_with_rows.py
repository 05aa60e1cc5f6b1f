"""A change of one kept row that brings rows of its own (a stay ended, with a damage charged to it): the
change is written as read, and the numbers it leaves unwritten are read as new rows belonging to the
changed row, found by the row as it was before the change (`stages/change_rows.py` marks the row,
`stages/from_facts._rows_of_the_changed_row` reads them). Real DuckDB, the scripted model, on an invented
kennels."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

KENNELS = """
CREATE SEQUENCE dog_ids START 1;
CREATE SEQUENCE stay_ids START 1;
CREATE SEQUENCE damage_ids START 1;
CREATE TABLE dogs (dog_id INTEGER PRIMARY KEY DEFAULT nextval('dog_ids'), name VARCHAR UNIQUE NOT NULL,
                   breed VARCHAR NOT NULL);
CREATE TABLE stays (stay_id INTEGER PRIMARY KEY DEFAULT nextval('stay_ids'),
                    dog_id INTEGER NOT NULL REFERENCES dogs (dog_id), arrived_on DATE NOT NULL, left_on DATE);
CREATE TABLE damages (damage_id INTEGER PRIMARY KEY DEFAULT nextval('damage_ids'),
                      stay_id INTEGER NOT NULL REFERENCES stays (stay_id), repair_cost DECIMAL(6, 2) NOT NULL,
                      days_to_fix INTEGER, noted_on DATE NOT NULL);
INSERT INTO dogs (name, breed) VALUES ('Bramble', 'collie'), ('Pip', 'terrier');
INSERT INTO stays (dog_id, arrived_on, left_on) VALUES (1, DATE '2025-03-01', DATE '2025-03-04'),
    (1, DATE '2025-05-01', NULL), (2, DATE '2025-05-02', NULL);
"""

LEFT = {
    "does": "change",
    "table": "stays",
    "which": [{"column": "dog", "value": "Bramble"}, {"column": "arrived_on", "value": "2025-05-01"}],
    "set": [{"column": "left_on", "how": "to", "value": "2025-05-06"}],
}


def test_a_stay_ended_with_a_damage_writes_the_damage_on_that_stay(scripted: ScriptedBackend):
    """Bramble's stay from 1 May ends on 6 May; the chewed bed's 12.50 is a damage of that stay, not left
    out (the write would wait, saying 12.50 is unwritten) nor put on her earlier stay. The write waits
    with the damage shown; approved, it writes both."""
    chatdb = ChatDB(model=scripted, schema=KENNELS, summarize=False)
    scripted.push({"route": "write"}, LEFT, {"damages": [{"repair_cost": 12.5, "noted_on": "2025-05-06"}]})
    reply = chatdb.ask("Bramble (in since 1 May 2025) went home on 6 May 2025; chewed bed, 12.50", allow_writes=True)
    assert reply.pending and scripted.remaining == 0, reply.answer  # rows read beside a change wait, shown
    assert "1 damages row(s) read beside the change" in reply.answer and "nothing written holds" not in reply.answer
    chatdb.apply(reply)  # approved as shown
    assert chatdb.session.rows("SELECT stay_id, left_on::VARCHAR FROM stays ORDER BY stay_id") == [
        (1, "2025-03-04"),
        (2, "2025-05-06"),
        (3, None),
    ]
    assert chatdb.session.rows("SELECT stay_id, repair_cost::DOUBLE, noted_on::VARCHAR FROM damages") == [
        (2, 12.5, "2025-05-06")
    ]
    chatdb.close()


def test_rows_holding_none_of_the_numbers_left_leave_the_change_alone(scripted: ScriptedBackend):
    """Rows read beside the change that hold none of the numbers it leaves are not written: the change
    alone waits, saying which number nothing written holds."""
    chatdb = ChatDB(model=scripted, schema=KENNELS, summarize=False)
    scripted.push({"route": "write"}, LEFT, {"damages": [{"repair_cost": 3, "noted_on": "2025-05-06"}]})
    reply = chatdb.ask("Bramble (in since 1 May 2025) went home on 6 May 2025; chewed bed, 12.50", allow_writes=True)
    assert reply.pending and scripted.remaining == 0, reply.answer
    assert "the request gives 12.50, which nothing written holds" in reply.answer
    assert [step.sql.split()[0] for step in reply.plan] == ["UPDATE"]
    assert chatdb.session.rows("SELECT count(*) FROM damages") == [(0,)]
    chatdb.close()


def test_a_change_that_writes_every_number_reads_no_rows_of_its_own(scripted: ScriptedBackend):
    """A change whose numbers are all written asks nothing more: no reading of rows beside it."""
    chatdb = ChatDB(model=scripted, schema=KENNELS, summarize=False)
    scripted.push({"route": "write"}, LEFT)
    reply = chatdb.ask("Bramble (in since 1 May 2025) went home on 6 May 2025", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT left_on::VARCHAR FROM stays WHERE stay_id = 2") == [("2025-05-06",)]
    chatdb.close()


def test_a_number_both_the_change_and_its_rows_write_makes_the_write_wait(scripted: ScriptedBackend):
    """ "3 days to fix" read by the change as moving her arrival 3 days on, and by the damage as its days: a
    number given once is written twice, and the write waits, saying so."""
    chatdb = ChatDB(model=scripted, schema=KENNELS, summarize=False)
    shifted = {**LEFT, "set": [*LEFT["set"], {"column": "arrived_on", "how": "add", "value": "3"}]}
    damage = {"damages": [{"repair_cost": 12.5, "days_to_fix": 3, "noted_on": "2025-05-06"}]}
    scripted.push({"route": "write"}, shifted, damage)
    text = "Bramble (in since 1 May 2025) went home on 6 May 2025; chewed bed, 12.50, 3 days to fix"
    reply = chatdb.ask(text, allow_writes=True)
    assert reply.pending and scripted.remaining == 0, reply.answer
    assert "the request gives 3 once, which both the change and the rows beside it write" in reply.answer
    assert chatdb.session.rows("SELECT count(*) FROM damages") == [(0,)]
    chatdb.close()
