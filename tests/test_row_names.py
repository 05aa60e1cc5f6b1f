"""Which text names a row: a lesson booked for a boat with an instructor on a day is named by no text of
its own (its topic is data). So a payment for a kept lesson names the lesson by what it holds (its boat),
not by a name, and a change may name its rows by what a row they refer to holds ("the lesson on Ria's
boat"); real DuckDB, scripted model."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import FactsNotUsed
from jupyter_chatdb.errors import ModelOutputError
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

SAILING = """
CREATE SEQUENCE owner_seq START 1;
CREATE TABLE owners (owner_id INTEGER PRIMARY KEY DEFAULT nextval('owner_seq'), owner_name VARCHAR NOT NULL UNIQUE);
CREATE TABLE boats (hull_code VARCHAR PRIMARY KEY, berth VARCHAR NOT NULL,
                    owner_id INTEGER NOT NULL REFERENCES owners (owner_id));
CREATE TABLE instructors (instr_code VARCHAR PRIMARY KEY, instr_name VARCHAR NOT NULL UNIQUE);
CREATE SEQUENCE lesson_seq START 1;
CREATE TABLE lessons (
    lesson_no INTEGER PRIMARY KEY DEFAULT nextval('lesson_seq'),
    hull_code VARCHAR NOT NULL REFERENCES boats (hull_code),
    instr_code VARCHAR NOT NULL,
    sail_day DATE NOT NULL,
    topic VARCHAR NOT NULL
);
CREATE SEQUENCE fee_seq START 1;
CREATE TABLE lesson_fees (
    fee_id INTEGER PRIMARY KEY DEFAULT nextval('fee_seq'),
    lesson_no INTEGER NOT NULL REFERENCES lessons (lesson_no),
    paid_on DATE NOT NULL,
    amount DECIMAL(8, 2) NOT NULL
);
CREATE TABLE stores (item_code VARCHAR PRIMARY KEY, in_store INTEGER NOT NULL);
CREATE TABLE issued (lesson_no INTEGER NOT NULL REFERENCES lessons (lesson_no),
                     item_code VARCHAR NOT NULL REFERENCES stores (item_code), qty INTEGER NOT NULL);
INSERT INTO owners (owner_name) VALUES ('Ria Sand'), ('Oskar Lund');
INSERT INTO boats VALUES ('HX-4', 'north pontoon', 1), ('HX-9', 'slipway', 2), ('HX-11', 'slipway', 2);
INSERT INTO instructors VALUES ('JAM', 'Jo Amara'), ('PEL', 'Pia Ellis');
INSERT INTO lessons (hull_code, instr_code, sail_day, topic) VALUES
    ('HX-4', 'JAM', DATE '2025-06-02', 'reefing'), ('HX-9', 'PEL', DATE '2025-06-03', 'capsize drill'),
    ('HX-11', 'PEL', DATE '2025-06-04', 'reefing');
INSERT INTO stores VALUES ('RP-2', 10), ('LJ-5', 4);
INSERT INTO issued VALUES (3, 'RP-2', 2);
"""


def test_a_row_tying_two_tables_together_on_a_day_is_named_by_no_text_of_its_own(scripted):
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    shapes = shapes_of(db.session, Catalog.read(db.session, samples=0))
    # not the instructor's code (named like the instructors' key), nor the topic (data of a booking)
    assert shapes["lessons"].natural_key == ""
    # so a fee belongs to a lesson of this request, named there by what it holds
    assert [f.column for f in shapes["lesson_fees"].required_references] == ["lesson_no"]
    assert shapes["instructors"].natural_key == "instr_code"
    db.close()


def test_a_payment_for_a_kept_lesson_named_by_its_boat_is_added_to_that_lesson(scripted):
    db = ChatDB(model=scripted, schema=SAILING, summarize=False, strategy="facts")
    reading = {"lessons": [{"hull_code": "HX-9"}], "lesson_fees": [{"paid_on": "2025-06-05", "amount": 48}]}
    scripted.push({"route": "write"}, reading)
    reply = db.ask("Paid 48 on 5 June 2025 for the lesson on HX-9", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith("SELECT")
    assert db.session.rows("SELECT lesson_no, paid_on::VARCHAR, amount::DOUBLE FROM lesson_fees") == [
        (2, "2025-06-05", 48.0)
    ]
    assert db.session.rows("SELECT count(*) FROM lessons") == [(3,)]
    db.close()


def change(which: list[tuple[str, str]], *settings: dict) -> dict:
    picks = [{"column": c, "value": v} for c, v in which]
    return {"does": "change", "table": "lessons", "which": picks, "set": list(settings)}


def test_a_change_names_its_row_by_what_the_row_it_refers_to_holds(scripted):
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    knots = {"column": "topic", "how": "to", "value": "knots"}
    scripted.push({"route": "write"}, change([("owner_name", "Ria Sand")], knots))
    reply = db.ask("Ria Sand's lesson is on knots now", allow_writes=True)
    assert not reply.pending and '"hull_code" IN (SELECT "hull_code" FROM "boats"' in reply.sql[0]
    assert db.session.rows("SELECT lesson_no, topic FROM lessons ORDER BY 1") == [
        (1, "knots"),
        (2, "capsize drill"),
        (3, "reefing"),
    ]
    # Oskar Lund's boats have two lessons: the change waits, saying so
    scripted.push({"route": "write"}, change([("owner_name", "Oskar Lund")], knots))
    reply = db.ask("Oskar Lund's lesson is on knots now", allow_writes=True)
    assert reply.pending and db.session.rows("SELECT count(*) FROM lessons WHERE topic = 'knots'") == [(1,)]
    db.close()


def test_a_made_up_key_is_left_out_and_the_rows_are_named_by_the_kept_rows_the_request_names(scripted):
    """'lesson_no 4471' is said nowhere and names no lesson: the lesson is Ria Sand's, through her boat."""
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    scripted.push(
        {"route": "write"}, change([("lesson_no", "4471")], {"column": "topic", "how": "to", "value": "knots"})
    )
    reply = db.ask("2025-06-01 | topic | Ria Sand's lesson | knots", allow_writes=True)
    assert not reply.pending and "4471" not in reply.sql[0]
    assert db.session.rows("SELECT lesson_no FROM lessons WHERE topic = 'knots'") == [(1,)]
    db.close()


def test_a_name_read_as_a_key_names_its_row_by_the_column_that_holds_it(scripted):
    """'instr_code: Pia Ellis' names no instructor by code; the one column holding that name names her."""
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    spelt = {"column": "instr_name", "how": "to", "value": "Pia Ellis-Berg"}
    reading = {"does": "change", "table": "instructors", "which": [{"column": "instr_code", "value": "Pia Ellis"}]}
    scripted.push({"route": "write"}, {**reading, "set": [spelt]})
    reply = db.ask("Pia Ellis is Pia Ellis-Berg now", allow_writes=True)
    assert not reply.pending and '"instr_name" = ' in reply.sql[0]
    assert db.session.rows("SELECT instr_code, instr_name FROM instructors ORDER BY 1") == [
        ("JAM", "Jo Amara"),
        ("PEL", "Pia Ellis-Berg"),
    ]
    db.close()


def test_a_payment_read_without_its_lesson_belongs_to_the_one_lesson_the_kept_rows_it_names_point_to(scripted):
    """The reading gives the fee alone: Ria Sand's one lesson (through her boat) is the one it is for; of
    Oskar Lund's two, the one on the day the request gives."""
    db = ChatDB(model=scripted, schema=SAILING, summarize=False, strategy="facts")
    scripted.push({"route": "write"}, {"lesson_fees": [{"paid_on": "2025-06-06", "amount": 40}]})
    db.ask("Ria Sand paid 40 on 6 June 2025 for her lesson", allow_writes=True)
    scripted.push({"route": "write"}, {"lesson_fees": [{"paid_on": "2025-06-07", "amount": 30}]})
    db.ask("Oskar Lund paid 30 on 7 June 2025 for the lesson of 4 June 2025", allow_writes=True)
    assert db.session.rows("SELECT lesson_no, amount::DOUBLE FROM lesson_fees ORDER BY fee_id") == [
        (1, 40.0),
        (3, 30.0),
    ]
    # no day to tell Oskar's two lessons apart: nothing is written by code (the plan is asked for)
    fee = {"lesson_fees": [{"paid_on": "2025-06-07", "amount": 30}]}
    scripted.push({"route": "write"}, fee, {"steps": []}, {"steps": []})
    seen: list = []
    with pytest.raises(ModelOutputError):
        db.ask("Oskar Lund paid another 30 on 7 June 2025 for his lesson", allow_writes=True, on_event=seen.append)
    assert [e.reason for e in seen if isinstance(e, FactsNotUsed)] == [
        "a lesson_fees row, and no lessons row added with it"
    ]
    assert db.session.rows("SELECT count(*) FROM lesson_fees") == [(2,)]
    db.close()


def test_a_change_that_sets_nothing_on_rows_that_are_not_kept_is_a_new_row(scripted):
    """Read as a change of fee 12 (no such fee) with nothing to set: a new fee, not a question."""
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    nothing = {"does": "change", "table": "lesson_fees", "which": [{"column": "fee_id", "value": "12"}], "set": []}
    scripted.push({"route": "write"}, nothing, {"lesson_fees": [{"paid_on": "2025-06-06", "amount": 40}]})
    reply = db.ask("Ria Sand's lesson fee: 40, paid 6 June 2025", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT lesson_no, amount::DOUBLE FROM lesson_fees") == [(1, 40.0)]
    db.close()


def test_a_reference_said_as_its_number_is_the_one_code_numbered_so(scripted):
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    scripted.push(
        {"route": "write"}, change([("owner_name", "Ria Sand")], {"column": "hull_code", "how": "to", "value": "9"})
    )
    reply = db.ask("Ria Sand's lesson moves to boat 9", allow_writes=True)
    assert not reply.pending and db.session.rows("SELECT hull_code FROM lessons WHERE lesson_no = 1") == [("HX-9",)]
    db.close()


def test_a_change_naming_no_row_that_sets_all_a_new_row_needs_is_that_new_row(scripted):
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    settings = [
        {"column": "paid_on", "how": "to", "value": "2025-06-06"},
        {"column": "amount", "how": "to", "value": "40"},
    ]
    reading = {"does": "change", "table": "lesson_fees", "which": [], "set": settings}
    scripted.push({"route": "write"}, reading, {"lesson_fees": [{"paid_on": "2025-06-06", "amount": 40}]})
    reply = db.ask("Ria Sand paid 40 on 6 June 2025 for her lesson", allow_writes=True)
    assert not reply.pending and reply.sql[-1].startswith('INSERT INTO "lesson_fees"')
    assert db.session.rows("SELECT lesson_no, amount::DOUBLE FROM lesson_fees") == [(1, 40.0)]
    db.close()


def test_a_number_added_to_lines_named_only_by_their_item_is_asked_again_with_the_item_itself(scripted):
    """'RP-2 | 6 more in' read as the issued lines of RP-2: asked again, the store's own count is picked."""
    db = ChatDB(model=scripted, schema=SAILING, summarize=False)
    reading = {
        "does": "change",
        "table": "issued",
        "which": [{"column": "item_code", "value": "RP-2"}],
        "set": [{"column": "qty", "how": "add", "value": "6"}],
    }
    scripted.push({"route": "write"}, reading, {"option": "add 6 to stores in_store"})
    reply = db.ask("2025-06-05 | delivery | RP-2 | 6 more in", allow_writes=True)
    assert "Options: add 6 to issued qty | add 6 to stores in_store" in str(scripted.calls[-1].messages)
    assert not reply.pending and db.session.rows("SELECT item_code, in_store FROM stores ORDER BY 1") == [
        ("LJ-5", 4),
        ("RP-2", 16),
    ]
    assert db.session.rows("SELECT qty FROM issued") == [(2,)]
    db.close()


def test_lines_dated_only_by_their_header_belong_to_the_kept_header_of_that_day_or_to_none(scripted):
    """An item issued at Ria's lesson of 2 June belongs to that lesson; one said for a day no lesson of
    hers is on belongs to a lesson not kept: code writes nothing (the plan is asked for)."""
    db = ChatDB(model=scripted, schema=SAILING, summarize=False, strategy="facts")
    scripted.push({"route": "write"}, {"issued": [{"item_code": "LJ-5", "qty": 1}]})
    db.ask("Ria Sand's lesson of 2 June 2025 took 1 LJ-5", allow_writes=True)
    assert db.session.rows("SELECT lesson_no, item_code, qty FROM issued ORDER BY lesson_no") == [
        (1, "LJ-5", 1),
        (3, "RP-2", 2),
    ]
    scripted.push({"route": "write"}, {"issued": [{"item_code": "LJ-5", "qty": 1}]}, {"steps": []}, {"steps": []})
    with pytest.raises(ModelOutputError):
        db.ask("Ria Sand's lesson of 9 June 2025 took 1 LJ-5", allow_writes=True)
    assert db.session.rows("SELECT count(*) FROM issued") == [(2,)]
    db.close()
