"""A removal dated by the day its record was written (a log line's opening day, a `date:` line) applies, where
the rows removed have no day left to fill; where they have one (a hire not yet back), the unused day may be
one to set, and the removal waits. Real DuckDB, the scripted model, on a piano hire's tables."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, Event
from jupyter_chatdb.llm import ScriptedBackend

SCHEMA = """
CREATE TABLE tunings (piano VARCHAR NOT NULL, tuned_on DATE NOT NULL, tuner VARCHAR NOT NULL,
    PRIMARY KEY (piano, tuned_on));
INSERT INTO tunings VALUES ('P-4', DATE '2025-06-02', 'Ines Varga'), ('P-4', DATE '2025-05-05', 'Ines Varga'),
    ('P-7', DATE '2025-06-02', 'Ola Berg');
CREATE TABLE hires (hire_no INTEGER PRIMARY KEY, piano VARCHAR NOT NULL, hired_on DATE NOT NULL, back_on DATE);
INSERT INTO hires VALUES (1, 'P-7', DATE '2025-05-20', NULL);
"""


def removal(table: str, *which: tuple[str, str]) -> dict:
    return {"does": "remove", "table": table, "which": [{"column": c, "value": v} for c, v in which], "set": []}


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def pianos(model: ScriptedBackend) -> ChatDB:
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    yield chatdb
    chatdb.close()


def tunings_left(chatdb: ChatDB) -> list[tuple]:
    return chatdb.session.rows("SELECT piano, tuned_on::VARCHAR FROM tunings ORDER BY 1, 2")


def test_a_removal_dated_by_its_log_lines_day_applies(pianos: ChatDB, model: ScriptedBackend):
    model.push({"route": "write"}, removal("tunings", ("piano", "P-4"), ("tuned_on", "2025-06-02")))
    reply = pianos.ask("12 June 2025 | delete | tuning of P-4 on 2025-06-02 | entered twice", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith("DELETE")
    assert tunings_left(pianos) == [("P-4", "2025-05-05"), ("P-7", "2025-06-02")]


def test_a_removal_dated_on_a_date_line_applies(pianos: ChatDB, model: ScriptedBackend):
    """The `date:` line, in figures that read two ways, names no column of the tunings: it dates the record."""
    model.push(removal("tunings", ("piano", "P-7"), ("tuned_on", "2025-06-02")))
    reply = pianos.ask("tuning struck\npiano: P-7\ntuned on: 2 June 2025\ndate: 05/06/2025", allow_writes=True)
    assert not reply.pending
    assert tunings_left(pianos) == [("P-4", "2025-05-05"), ("P-4", "2025-06-02")]


def test_a_removal_of_a_row_with_a_day_to_fill_waits_on_the_records_day(pianos: ChatDB, model: ScriptedBackend):
    """The hire of P-7 is not back yet: '12 June 2025' may be its day back, not a hire to remove."""
    model.push({"route": "write"}, removal("hires", ("piano", "P-7")))
    events: list[Event] = []
    reply = pianos.ask("12 June 2025 | P-7 | hire ended", allow_writes=True, on_event=events.append)
    assert reply.pending and pianos.session.rows("SELECT count(*) FROM hires") == [(1,)]
    reason = next(e for e in events if isinstance(e, ApprovalNeeded)).reason
    assert "the request gives 12 June 2025, which removing rows does not use" in reason


def test_a_day_on_a_line_whose_key_names_a_column_is_no_records_day(pianos: ChatDB, model: ScriptedBackend):
    """'tuned on: 2 June 2025' names the tuning's day: a removal of the tuning of 5 May leaves it unused, and waits."""
    model.push(removal("tunings", ("piano", "P-4"), ("tuned_on", "2025-05-05")))
    reply = pianos.ask("tuning struck\npiano: P-4\ntuned on: 2 June 2025", allow_writes=True)
    assert reply.pending and len(tunings_left(pianos)) == 3
    assert "the request gives 2 June 2025, which removing rows does not use" in reply.answer
