"""Values a plan's own INSERT spells out (issue 51): each must be one the request gives, a listed entry it
says, the key of a row it names, or, in a new row, the column's DEFAULT; any other makes the write wait,
naming it. Real DuckDB, the scripted model, on the chain strategy, which plans every write (native holds
any plan it writes after code's reading of a write was not written: `stages/guessed.py`)."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, Event
from jupyter_chatdb.llm import ScriptedBackend

KITE_SCHOOL = """
CREATE TABLE coaches (coach_code VARCHAR PRIMARY KEY, coach_name VARCHAR NOT NULL UNIQUE);
CREATE TABLE lessons (
    pupil VARCHAR NOT NULL,
    coach_code VARCHAR NOT NULL REFERENCES coaches (coach_code),
    taught_on DATE NOT NULL,
    minutes INTEGER NOT NULL,
    state VARCHAR NOT NULL DEFAULT 'planned' CHECK (state IN ('planned', 'flown', 'called_off')),
    kite_size VARCHAR
);
INSERT INTO coaches VALUES ('C-07', 'Ines Roca'), ('C-12', 'Theo Marr');
CREATE TABLE kites (kite_no INTEGER PRIMARY KEY, size VARCHAR NOT NULL);
INSERT INTO kites VALUES (1, '7m'), (2, '12m');
"""


@pytest.fixture
def school(scripted: ScriptedBackend):
    chatdb = ChatDB(model=scripted, schema=KITE_SCHOOL, summarize=False, strategy="chain")
    yield chatdb
    chatdb.close()


def planned(sql: str) -> dict:
    return {"steps": [{"goal": "add the lesson", "sql": sql, "binds": []}]}


def ask(chatdb: ChatDB, model: ScriptedBackend, text: str, sql: str) -> tuple[bool, str]:
    """The request written by the plan `sql`: whether it waits, and why."""
    model.push({"route": "write"}, planned(sql))
    events: list[Event] = []
    reply = chatdb.ask(text, allow_writes=True, on_event=events.append)
    reason = next((e.reason for e in events if isinstance(e, ApprovalNeeded)), "")
    return reply.pending, reason


def test_a_planned_new_row_with_a_value_the_request_does_not_give_waits_naming_it(school, scripted):
    """The plan fills in a kite size nobody said and marks the lesson flown: the write waits, naming both;
    approved, it runs as shown."""
    pending, reason = ask(
        school,
        scripted,
        "Mia Lund has a 60 minute lesson with Ines Roca on 2025-06-02",
        "INSERT INTO lessons VALUES ('Mia Lund', 'C-07', DATE '2025-06-02', 60, 'flown', '9m')",
    )
    assert pending
    assert "lessons.state is set to 'flown', which the request does not give" in reason
    assert "lessons.kite_size is set to '9m', which the request does not give" in reason
    assert "Mia Lund" not in reason and "'C-07'" not in reason and "60" not in reason


def test_a_planned_new_row_with_the_default_and_a_coach_named_by_name_is_written(school, scripted):
    """Each value is given: the words and figures the request says, the code of the coach it names by
    name, and the state a lesson holds unless told otherwise."""
    pending, reason = ask(
        school,
        scripted,
        "Mia Lund has a 60 minute lesson with Theo Marr on 2025-06-02",
        "INSERT INTO lessons (pupil, coach_code, taught_on, minutes, state) "
        "VALUES ('Mia Lund', 'C-12', DATE '2025-06-02', 60, 'planned')",
    )
    assert not pending, reason
    assert school.session.rows("SELECT pupil, coach_code, state FROM lessons") == [("Mia Lund", "C-12", "planned")]


def test_a_kept_rows_change_to_the_columns_default_still_waits(scripted):
    """The DEFAULT is what a new row holds: a plan setting a kept lesson back to it, unsaid, waits."""
    kept = "INSERT INTO lessons VALUES ('Mia Lund', 'C-12', DATE '2025-06-02', 60, 'flown', NULL);"
    school = ChatDB(model=scripted, schema=KITE_SCHOOL + kept, summarize=False, strategy="chain")
    pending, reason = ask(
        school,
        scripted,
        "Mia Lund's lesson on 2025-06-02 runs 90 minutes",
        "UPDATE lessons SET minutes = 90, state = 'planned' WHERE pupil = 'Mia Lund'",
    )
    assert pending and "lessons.state is set to 'planned', which the request does not give" in reason
    assert "minutes" not in reason
    school.close()


def test_a_planned_new_rows_number_where_an_integer_is_its_key_is_nobodys_to_say(school, scripted):
    """A new kite numbered by the plan: the number is the table's key, which nobody says."""
    pending, reason = ask(school, scripted, "New kite in, size 9m", "INSERT INTO kites VALUES (3, '9m')")
    assert not pending, reason
    assert school.session.rows("SELECT kite_no, size FROM kites WHERE size = '9m'") == [(3, "9m")]
