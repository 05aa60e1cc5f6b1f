"""The change call is shown the kept rows referring to the rows a request names (issue 51): a change of
the row joining them ("Gull's hire of 3 June goes to Ana Pike") is read on the table holding it. Real
DuckDB, the scripted model."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.named_rows import NamedRow
from jupyter_chatdb.recording.referring_rows import MAX_PER_NAMED, referring_rows
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

SCHEMA = """
CREATE TABLE boats (boat_id INTEGER PRIMARY KEY, boat_name VARCHAR UNIQUE NOT NULL, berth VARCHAR);
INSERT INTO boats VALUES (1, 'Gull', 'B1'), (2, 'Tern', 'B2');
CREATE TABLE hires (hire_no INTEGER PRIMARY KEY, boat_id INTEGER NOT NULL REFERENCES boats (boat_id),
    hirer VARCHAR NOT NULL, hired_on DATE NOT NULL, hours INTEGER);
INSERT INTO hires VALUES (10, 1, 'Jo Hale', DATE '2024-06-01', 2), (11, 1, 'Mo Berg', DATE '2024-06-03', 3),
    (12, 2, 'Jo Hale', DATE '2024-06-03', NULL), (13, 1, 'Ida Lund', DATE '2024-06-05', 1),
    (14, 1, 'Ola Sten', DATE '2024-06-07', 4);
"""


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def marina(model: ScriptedBackend):
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    yield chatdb
    chatdb.close()


def test_rows_referring_to_a_named_row_are_shown_newest_first_by_the_names_they_refer_to(marina: ChatDB):
    shapes = shapes_of(marina.session, Catalog.read(marina.session, samples=0))
    found = referring_rows(marina.session, shapes, [NamedRow("boats", "boat_name", "Gull", "Gull")])
    assert len(found) == MAX_PER_NAMED and {row.table for row in found} == {"hires"}
    assert found[0].shown() == "hires (boat 'Gull', hire_no 14, hirer 'Ola Sten', hired_on 2024-06-07, hours 4)"
    assert [dict(row.values)["hirer"] for row in found] == ["Ola Sten", "Ida Lund", "Mo Berg"]
    tern = referring_rows(marina.session, shapes, [NamedRow("boats", "boat_name", "Tern", "Tern")])
    assert [row.shown() for row in tern] == ["hires (boat 'Tern', hire_no 12, hirer 'Jo Hale', hired_on 2024-06-03)"]
    assert referring_rows(marina.session, shapes, [NamedRow("boats", "boat_name", "Skua", "Skua")]) == []


def test_the_change_call_sees_the_rows_referring_to_those_named_and_the_change_is_theirs(
    marina: ChatDB, model: ScriptedBackend
):
    hire = {
        "does": "change",
        "table": "hires",
        "which": [{"column": "boat", "value": "Gull"}, {"column": "hired_on", "value": "2024-06-03"}],
        "set": [{"column": "hirer", "how": "to", "value": "Ana Pike"}],
    }
    model.push({"route": "write"}, hire)
    reply = marina.ask("Gull's hire of 3 June 2024 goes to Ana Pike", allow_writes=True)
    change_call = next(c for c in model.calls if c.json_schema is not None and "anyOf" in c.json_schema)
    shown = change_call.messages[-1]["content"]
    assert "Kept rows named: boats boat_name 'Gull'" in shown
    assert "Rows referring to them: hires (boat 'Gull', hire_no 14" in shown
    assert not reply.pending and reply.sql[0].startswith('UPDATE "hires"')
    assert marina.session.rows("SELECT hire_no FROM hires WHERE hirer = 'Ana Pike'") == [(11,)]


def test_a_request_naming_no_kept_row_shows_none(marina: ChatDB, model: ScriptedBackend):
    shapes = shapes_of(marina.session, Catalog.read(marina.session, samples=0))
    assert referring_rows(marina.session, shapes, []) == []
    assert (
        referring_rows(marina.session, {"hires": shapes["hires"]}, [NamedRow("boats", "boat_name", "Gull", "")]) == []
    )
