"""Writes from facts: the model states the rows (constrained JSON), code writes the statements; with a
scripted model against a real DuckDB database (strategy "facts")."""

from __future__ import annotations

import json

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import FactsExtracted, FactsNotUsed
from jupyter_chatdb.recording import facts
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

from .conftest import plan

YARD = """
CREATE SEQUENCE delivery_seq START 1;
CREATE TABLE stables (stable_id INTEGER PRIMARY KEY, name VARCHAR UNIQUE NOT NULL, town VARCHAR);
CREATE SEQUENCE stable_seq START 1;
ALTER TABLE stables ALTER stable_id SET DEFAULT nextval('stable_seq');
CREATE SEQUENCE hay_seq START 1;
CREATE TABLE hay (hay_id INTEGER PRIMARY KEY DEFAULT nextval('hay_seq'), kind VARCHAR UNIQUE NOT NULL,
                  price DECIMAL(10, 2), bales_left INTEGER NOT NULL DEFAULT 0);
CREATE TABLE deliveries (delivery_id INTEGER PRIMARY KEY DEFAULT nextval('delivery_seq'),
                         stable_id INTEGER NOT NULL REFERENCES stables (stable_id), delivered_on DATE NOT NULL,
                         undone_on DATE);
CREATE TABLE delivery_lines (delivery_id INTEGER NOT NULL REFERENCES deliveries (delivery_id),
                             hay_id INTEGER NOT NULL REFERENCES hay (hay_id), bales INTEGER NOT NULL,
                             bale_cost DECIMAL(10, 2) NOT NULL);
INSERT INTO stables (name) VALUES ('Calder');
INSERT INTO hay (kind, price) VALUES ('timothy', 6);
"""
REQUEST = "On 2024-05-01 Quellmire took 12 bales of timothy at 4 and 3 of clover at 5."
ROWS = {
    "stables": [{"name": "Quellmire"}],
    "deliveries": [{"stable": "Quellmire", "delivered_on": "2024-05-01"}],
    "delivery_lines": [
        {"hay": "timothy", "bales": 12, "bale_cost": 4},
        {"hay": "clover", "bales": 3, "bale_cost": 5},
    ],
}


@pytest.fixture
def yard(scripted):
    chatdb = ChatDB(model=scripted, schema=YARD, summarize=False, strategy="facts")
    yield chatdb
    chatdb.close()


def table(db: ChatDB, sql: str) -> list[tuple]:
    return db.session.rows(sql)


def test_the_rows_a_request_states_are_written_by_code_parents_first_with_bound_values(yard, scripted):
    scripted.push({"route": "write"}, ROWS)
    seen = []
    reply = yard.ask(REQUEST, allow_writes=True, on_event=seen.append)
    assert [e.rows for e in seen if isinstance(e, FactsExtracted)] == [
        (("stables", 1), ("deliveries", 1), ("delivery_lines", 2))
    ]
    assert table(yard, "SELECT name FROM stables ORDER BY stable_id") == [("Calder",), ("Quellmire",)]
    assert table(yard, "SELECT kind FROM hay ORDER BY hay_id") == [("timothy",), ("clover",)]  # added when named
    assert table(
        yard,
        "SELECT s.name, d.delivered_on::VARCHAR, h.kind, l.bales, l.bale_cost::DOUBLE FROM delivery_lines l"
        " JOIN deliveries d USING (delivery_id) JOIN stables s USING (stable_id) JOIN hay h USING (hay_id) ORDER BY h.kind",
    ) == [("Quellmire", "2024-05-01", "clover", 3, 5.0), ("Quellmire", "2024-05-01", "timothy", 12, 4.0)]
    assert reply.answer == "Recorded: stables: 1 added; deliveries: 1 added; hay: 1 added; delivery_lines: 2 added."
    fields = scripted.calls[1].messages[-1]["content"]  # the model is shown the rows' fields, not ids
    assert "deliveries: stable (the name of a stables row), delivered_on (date), undone_on (date)" in fields
    assert "delivery_lines: hay (the name of a hay row), bales (integer), bale_cost (number); each belongs to" in fields
    assert all("'Quellmire'" not in sql for sql in (step.sql for step in reply.plan))  # bound, never spliced


def test_a_named_row_that_exists_gets_the_values_the_request_gives_and_quotes_stay_data(yard, scripted):
    odd = "o'hara'); UPDATE hay SET price = 0; --"
    scripted.push({"route": "write"}, {"hay": [{"kind": "timothy", "price": 7.5}, {"kind": odd}]})
    yard.ask(f"Timothy now sells at 7.50, and we keep the kind {odd}", allow_writes=True)
    assert table(yard, "SELECT kind, price::DOUBLE FROM hay ORDER BY hay_id") == [("timothy", 7.5), (odd, None)]


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (  # read once more for its lines; the second reading gives none either
            [{"deliveries": [{"stable": "Calder", "delivered_on": "2024-05-01"}]}] * 2,
            "not a change this can write",
        ),
        ({"delivery_lines": [{"hay": "timothy", "bales": 2, "bale_cost": 1}]}, "no deliveries row added with it"),
        ({"stables": [{"town": "Tansy"}]}, "without name"),
        ([{"stables": [{"name": "Stable A", "town": "Tansy"}]}, {}], "no rows to add"),  # never said: read again
        ({}, "no rows to add"),
    ],
    ids=[
        "a delivery without lines that changes nothing",
        "lines without their delivery",
        "a row without its name",
        "a made-up row",
        "nothing",
    ],
)
def test_what_code_cannot_write_from_rows_is_planned_instead(yard, scripted, rows, reason):
    readings = rows if isinstance(rows, list) else [rows]
    scripted.push({"route": "write"}, *readings, plan("UPDATE stables SET town = 'Tansy' WHERE name = 'Calder'"))
    seen = []
    reply = yard.ask(
        "Calder moved to Tansy on 2024-05-01 (2 bales of timothy at 1 left)", allow_writes=True, on_event=seen.append
    )
    assert any(reason in e.reason for e in seen if isinstance(e, FactsNotUsed))
    assert [step.sql for step in reply.plan] == ["UPDATE stables SET town = 'Tansy' WHERE name = 'Calder'"]
    # the plan leaves the 2 bales and their 1 unwritten: it waits, saying so; approved, it runs as planned
    assert reply.pending and "the request gives 2, 1, which nothing written holds" in reply.answer
    yard.apply(reply)
    assert table(yard, "SELECT town FROM stables WHERE name = 'Calder'") == [("Tansy",)]


def test_a_column_a_rule_keeps_true_is_not_asked_for_and_the_rule_fills_it(yard, scripted):
    yard.keep_rule(
        "bales",
        "UPDATE hay SET bales_left = coalesce((SELECT sum(l.bales) FROM delivery_lines l JOIN deliveries d"
        " USING (delivery_id) WHERE l.hay_id = hay.hay_id AND d.undone_on IS NULL), 0)",
    )
    scripted.push({"route": "write"}, ROWS)
    reply = yard.ask(REQUEST)  # writes not allowed: a preview, then the approval runs exactly it
    schema = scripted.calls[1].json_schema
    assert "bales_left" not in json.dumps(schema) and "price" in json.dumps(schema)
    assert reply.pending and table(yard, "SELECT count(*) FROM deliveries") == [(0,)]
    yard.apply(reply)
    assert table(yard, "SELECT kind, bales_left FROM hay ORDER BY hay_id") == [("timothy", 12), ("clover", 3)]


def test_shapes_name_references_by_the_natural_key_and_leave_out_generated_keys(yard):
    shapes = shapes_of(yard.session, Catalog.read(yard.session, samples=0))
    assert list(shapes) == ["stables", "hay", "deliveries", "delivery_lines"]  # parents first
    assert [f.name for f in shapes["deliveries"].fields] == ["stable", "delivered_on", "undone_on"]
    assert (shapes["hay"].natural_key, shapes["deliveries"].natural_key) == ("kind", "")
    assert shapes["deliveries"].returned_key == "delivery_id"
    assert [f.column for f in shapes["delivery_lines"].required_references] == ["delivery_id"]


def test_two_new_deliveries_with_lines_cannot_tell_whose_lines_are_whose(yard):
    shapes = shapes_of(yard.session, Catalog.read(yard.session, samples=0))
    two = {
        "deliveries": [
            {"stable": "Calder", "delivered_on": "2024-05-01"},
            {"stable": "Calder", "delivered_on": "2024-05-02"},
        ],
        "delivery_lines": [{"hay": "timothy", "bales": 1, "bale_cost": 1}],
    }
    with pytest.raises(facts.NotExpressible, match="several new deliveries rows"):
        facts.statements(shapes, two)
    writes, params = facts.statements(shapes, {"hay": [{"kind": "rye", "price": "2.5"}]})
    assert [w.goal for w in writes] == ["add hay 'rye' unless it exists", "set what the request says of hay 'rye'"]
    assert sorted(params.values(), key=str) == ["2.5", "rye"] and all("rye" not in w.sql for w in writes)


def test_a_delivery_stated_once_per_line_is_one_delivery(yard, scripted):
    shapes = shapes_of(yard.session, Catalog.read(yard.session, samples=0))
    delivery = {"stable": "Calder", "delivered_on": "2024-05-01"}
    writes, _ = facts.statements(shapes, {**ROWS, "deliveries": [delivery, dict(delivery)]})
    assert [w.goal for w in writes].count("add the deliveries row") == 1


def test_a_day_said_once_is_written_into_one_date_field_not_two(yard, scripted):
    """The delivery's day copied into its 'undone' day too: said once, it is the delivery's day alone."""
    reading = {
        "deliveries": [{"stable": "Calder", "delivered_on": "2024-05-01", "undone_on": "2024-05-01"}],
        "delivery_lines": [{"hay": "timothy", "bales": 2, "bale_cost": 4}],
    }
    scripted.push({"route": "write"}, reading)
    reply = yard.ask("On 2024-05-01 Calder took 2 bales of timothy at 4.", allow_writes=True)
    assert not reply.pending
    assert table(yard, "SELECT delivered_on::VARCHAR, undone_on FROM deliveries") == [("2024-05-01", None)]
