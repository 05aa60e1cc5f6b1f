"""The change call's reply constrained by the schema (issue 51): a reading names the rows and sets the
columns of the table it picked (or names them by a column of a row they refer to), and a CHECK-listed
column is never counted (its value stays
the request's words, mapped by code). Real DuckDB for the shapes; `jsonschema` checks replies against the
schema the model is given; the embedded model's grammar is built from it."""

from __future__ import annotations

import json

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.change_reply import change_schema
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

from .conftest import change_reading

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = """
CREATE TABLE pilots (pilot_id INTEGER PRIMARY KEY, pilot_name VARCHAR UNIQUE NOT NULL, phone VARCHAR);
INSERT INTO pilots VALUES (1, 'Jo Hale', '555-0101'), (2, 'Ana Pike', NULL);
CREATE TABLE kites (tag VARCHAR PRIMARY KEY, colour VARCHAR CHECK (colour IN ('red', 'blue', 'green')),
    state VARCHAR NOT NULL CHECK (state IN ('ready', 'grounded', 'retired')), span_m DOUBLE,
    pilot_id INTEGER REFERENCES pilots (pilot_id));
INSERT INTO kites VALUES ('KT-1', 'red', 'ready', 2.5, 1), ('KT-2', 'blue', 'grounded', 3.0, 2);
CREATE TABLE flights (flight_no INTEGER PRIMARY KEY, tag VARCHAR REFERENCES kites (tag), flown_on DATE,
    minutes INTEGER);
INSERT INTO flights VALUES (1, 'KT-1', DATE '2024-06-03', 40);
"""


@pytest.fixture
def schema():
    chatdb = ChatDB(model=ScriptedBackend(), schema=SCHEMA, summarize=False)
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session, samples=0))
    yield change_schema(shapes)
    chatdb.close()


def fits(schema: dict, answer: dict) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(answer)


def test_a_reading_sets_only_columns_of_the_table_it_picked(schema: dict):
    assert fits(schema, change_reading("kites", [("tag", "KT-1")], ("span_m", "add", "0.5")))
    assert not fits(schema, change_reading("flights", [("flight_no", "1")], ("span_m", "add", "0.5")))  # a kites column
    assert not fits(schema, change_reading("kites", [("tag", "KT-1")], ("minutes", "to", "30")))  # a flights column


def test_a_listed_column_is_set_emptied_or_copied_in_the_requests_words(schema: dict):
    assert fits(schema, change_reading("kites", [("tag", "KT-1")], ("state", "to", "grounded")))
    assert fits(schema, change_reading("kites", [("tag", "KT-1")], ("state", "to", "on the ground")))  # mapped by code
    assert fits(schema, change_reading("kites", [("tag", "KT-1")], ("colour", "clear", "")))
    assert not fits(
        schema, change_reading("kites", [("tag", "KT-1")], ("state", "add", "ready"))
    )  # an entry is no number
    assert fits(schema, change_reading("kites", [("tag", "KT-1")], ("span_m", "add", "0.5")))


def test_rows_may_be_named_by_a_column_of_a_row_they_refer_to(schema: dict):
    """A flight named by its kite's pilot ("Jo Hale's flight of 3 June"): a column two references away."""
    assert fits(
        schema, change_reading("flights", [("pilot", "Jo Hale"), ("flown_on", "2024-06-03")], ("minutes", "to", "45"))
    )
    assert not fits(
        schema, change_reading("pilots", [("minutes", "40")], ("phone", "to", "555-0199"))
    )  # pilots refer to none


def test_the_embedded_models_grammar_is_built_from_the_choice_of_tables(schema: dict):
    llama_grammar = pytest.importorskip("llama_cpp.llama_grammar")
    grammar = llama_grammar.json_schema_to_gbnf(json.dumps(schema))
    assert '"\\"kites\\""' in grammar and '"\\"flights\\""' in grammar


def test_one_table_is_one_object_as_strict_servers_take_it():
    chatdb = ChatDB(model=ScriptedBackend(), schema=SCHEMA, summarize=False)
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session, samples=0))
    chatdb.close()
    one = change_schema({"kites": shapes["kites"]})
    assert one["type"] == "object" and one["properties"]["table"]["enum"] == ["kites"]
