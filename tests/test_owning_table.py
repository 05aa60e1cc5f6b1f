"""A change the model reads on a table that only refers to the row the request names (a yacht's outings,
for "SG-7 moved to West jetty") is the change of that row, where the data says the value fits it and not
the table read (`recording/owning_table.py`). Real DuckDB, scripted model, on an invented sailing club."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.recording.owning_table import linked
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.row_changes import parse_reading
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

YACHTS = """
CREATE TABLE skippers (skipper_code VARCHAR PRIMARY KEY, skipper_name VARCHAR NOT NULL UNIQUE);
CREATE TABLE jetties (jetty_code VARCHAR PRIMARY KEY, jetty_name VARCHAR NOT NULL UNIQUE);
-- the yacht's references are named like the keys they hold, without REFERENCES: DuckDB (1.5) refuses an
-- UPDATE of a foreign-key column of a table other tables reference
CREATE TABLE yachts (sail_no VARCHAR PRIMARY KEY, skipper_code VARCHAR NOT NULL, jetty_code VARCHAR NOT NULL);
CREATE TABLE outings (sail_no VARCHAR NOT NULL REFERENCES yachts (sail_no), out_on DATE NOT NULL,
                      relief VARCHAR REFERENCES skippers (skipper_code), PRIMARY KEY (sail_no, out_on));
INSERT INTO skippers VALUES ('SK-1', 'Lea Brun'), ('SK-2', 'Tam Ord'), ('SK-3', 'Ove Sand');
INSERT INTO jetties VALUES ('J-E', 'East jetty'), ('J-W', 'West jetty');
INSERT INTO yachts VALUES ('SG-7', 'SK-1', 'J-E'), ('SG-9', 'SK-2', 'J-E');
INSERT INTO outings VALUES ('SG-7', DATE '2025-05-01', 'SK-3'), ('SG-7', DATE '2025-05-08', NULL);
"""


def outing_change(*settings: dict) -> dict:
    """The reading a small model gives: a change of SG-7's outings, named by the yacht."""
    return {
        "does": "change",
        "table": "outings",
        "which": [{"column": "sail_no", "value": "SG-7"}],
        "set": list(settings),
    }


def test_a_value_that_is_a_row_the_named_row_refers_to_sets_that_reference(scripted):
    db = ChatDB(model=scripted, schema=YACHTS, summarize=False)
    moved = {"column": "relief", "how": "to", "value": "West jetty"}
    day = {"column": "out_on", "how": "to", "value": "2025-05-12"}
    scripted.push({"route": "write"}, outing_change(moved, day))
    reply = db.ask("2025-05-12 | moved | SG-7 | to West jetty", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT sail_no, jetty_code FROM yachts ORDER BY 1") == [("SG-7", "J-W"), ("SG-9", "J-E")]
    # the outings keep their days and reliefs: the record's day belongs to no column of the yacht
    assert db.session.rows("SELECT out_on::VARCHAR, relief FROM outings ORDER BY 1") == [
        ("2025-05-01", "SK-3"),
        ("2025-05-08", None),
    ]
    assert "2025-05-12 read as the day of the record" in reply.steps[0].goal
    db.close()


def test_a_value_naming_another_row_of_the_named_rows_table_is_copied_from_it(scripted):
    db = ChatDB(model=scripted, schema=YACHTS, summarize=False)
    scripted.push(outing_change({"column": "relief", "how": "to", "value": "the skipper of SG-9"}))  # key: value lines
    reply = db.ask("skipper change\nyacht: SG-7\nnew skipper: the skipper of SG-9", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT sail_no, skipper_code FROM yachts ORDER BY 1") == [
        ("SG-7", "SK-2"),
        ("SG-9", "SK-2"),
    ]
    db.close()


def test_a_value_the_table_read_may_hold_stays_on_it(scripted):
    """Tam Ord is a skipper: a relief on SG-7's outing is what the reading says, and it is not moved."""
    db = ChatDB(model=scripted, schema=YACHTS, summarize=False)
    reading = outing_change({"column": "relief", "how": "to", "value": "Tam Ord"})
    reading["which"].append({"column": "out_on", "value": "2025-05-08"})
    scripted.push({"route": "write"}, reading)
    reply = db.ask("SG-7's outing of 8 May 2025: Tam Ord was the relief", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT relief FROM outings ORDER BY out_on") == [("SK-3",), ("SK-2",)]
    assert db.session.rows("SELECT skipper_code FROM yachts WHERE sail_no = 'SG-7'") == [("SK-1",)]
    db.close()


def test_a_change_of_the_row_given_as_the_new_value_is_the_named_rows_reference_to_it(scripted):
    """'new skipper: Tam Ord' read as setting Tam Ord's own name to itself (it changes nothing): the data
    reads the one yacht the request names, set to refer to Tam Ord."""
    db = ChatDB(model=scripted, schema=YACHTS, summarize=False)
    same = {"column": "skipper_name", "how": "to", "value": "Tam Ord"}
    reading = {"does": "change", "table": "skippers", "which": [{"column": "skipper_name", "value": "Tam Ord"}]}
    scripted.push({**reading, "set": [same]})  # key: value lines: no route asked
    reply = db.ask("skipper change\nyacht: SG-7\nnew skipper: Tam Ord", allow_writes=True)
    assert not reply.pending and "read from the rows the request names" in reply.steps[0].goal
    assert db.session.rows("SELECT sail_no, skipper_code FROM yachts ORDER BY 1") == [
        ("SG-7", "SK-2"),
        ("SG-9", "SK-2"),
    ]
    db.close()


def test_a_change_that_changes_nothing_waits_saying_so(scripted):
    db = ChatDB(model=scripted, schema=YACHTS, summarize=False)
    same = {"column": "skipper_name", "how": "to", "value": "Tam Ord"}
    reading = {"does": "change", "table": "skippers", "which": [{"column": "skipper_name", "value": "Tam Ord"}]}
    scripted.push({"route": "write"}, {**reading, "set": [same]})
    reply = db.ask("Tam Ord is still called Tam Ord", allow_writes=True)
    assert reply.pending and "it changes nothing: the skippers row already holds what it sets" in reply.answer
    db.close()


def test_a_copy_from_rows_named_only_by_the_row_they_refer_to_is_a_copy_between_those_rows(scripted):
    """'SG-7 is skippered by whoever skippers SG-9' read as copying an outing's relief from SG-9's outings
    (none to copy from): the yacht copies the skipper of the yacht SG-9."""
    db = ChatDB(model=scripted, schema=YACHTS, summarize=False)
    copied = {"column": "relief", "how": "copy", "value": "", "from": [{"column": "sail_no", "value": "SG-9"}]}
    scripted.push({"route": "write"}, outing_change(copied))
    reply = db.ask("From 2025-05-20 SG-7 is skippered by whoever skippers SG-9", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT sail_no, skipper_code FROM yachts ORDER BY 1") == [
        ("SG-7", "SK-2"),
        ("SG-9", "SK-2"),
    ]
    db.close()


TUNINGS = """
CREATE TABLE pianos (piano_tag VARCHAR PRIMARY KEY, maker VARCHAR NOT NULL);
CREATE TABLE tuners (tuner_code VARCHAR PRIMARY KEY, tuner_name VARCHAR NOT NULL UNIQUE);
CREATE TABLE tunings (tuning_no INTEGER PRIMARY KEY, piano_tag VARCHAR NOT NULL REFERENCES pianos (piano_tag),
                      tuner_code VARCHAR NOT NULL, due_on DATE NOT NULL);
INSERT INTO pianos (piano_tag, maker) VALUES ('PN-4', 'Aldor'), ('PN-6', 'Brant');
INSERT INTO tuners VALUES ('TU-1', 'Mia Holt'), ('TU-2', 'Ivo Lehto');
INSERT INTO tunings VALUES (1, 'PN-4', 'TU-1', DATE '2025-03-10'), (2, 'PN-6', 'TU-1', DATE '2025-03-12');
"""


def tuner_renamed(code: str, name: str) -> dict:
    """The reading a small model gives: the tuner coded `code` renamed `name`."""
    return {
        "does": "change",
        "table": "tuners",
        "which": [{"column": "tuner_code", "value": code}],
        "set": [{"column": "tuner_name", "how": "to", "value": name}],
    }


def test_a_change_naming_a_row_of_another_table_is_the_change_of_the_row_joining_the_two_named(scripted):
    """'PN-4 | now Ivo Lehto' read as tuner PN-4 renamed: PN-4 is a piano and Ivo Lehto a tuner, and the
    tunings alone join the two: PN-4's tuning gets Ivo Lehto. Where the piano has a tuner of its own, that
    may be meant as well, and the reading is left as the model gave it."""
    renamed = tuner_renamed("PN-4", "Ivo Lehto")
    db = ChatDB(model=scripted, schema=TUNINGS, summarize=False)
    scripted.push({"route": "write"}, renamed)
    reply = db.ask("2025-03-02 | tuner change | PN-4 | now Ivo Lehto", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT tuning_no, tuner_code FROM tunings ORDER BY 1") == [(1, "TU-2"), (2, "TU-1")]
    assert db.session.rows("SELECT * FROM tuners ORDER BY 1") == [("TU-1", "Mia Holt"), ("TU-2", "Ivo Lehto")]
    db.close()
    own = TUNINGS.replace("maker VARCHAR NOT NULL", "maker VARCHAR NOT NULL, tuner_code VARCHAR")
    db = ChatDB(model=scripted, schema=own, summarize=False)
    shapes = shapes_of(db.session, Catalog.read(db.session, samples=0))
    reading = parse_reading(renamed)
    assert reading is not None and linked(reading, shapes, StoredRows(db.session)) is None
    db.close()


def test_a_change_of_the_row_given_as_the_new_value_is_the_joining_rows_reference_to_it(scripted):
    """'piano: PN-4 / tuner: TU-2' read as tuner TU-2 renamed to words the request does not give: the
    piano has no tuner of its own, so PN-4's tuning is set to TU-2."""
    db = ChatDB(model=scripted, schema=TUNINGS, summarize=False)
    renamed = tuner_renamed("TU-2", "new tuner name")
    scripted.push(renamed)  # key: value lines: no routing call
    reply = db.ask("tuner change\npiano: PN-4\ntuner: TU-2\ndate: 2 March 2025", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT tuning_no, tuner_code FROM tunings ORDER BY 1") == [(1, "TU-2"), (2, "TU-1")]
    assert db.session.rows("SELECT * FROM tuners ORDER BY 1") == [("TU-1", "Mia Holt"), ("TU-2", "Ivo Lehto")]
    db.close()


def test_a_row_named_by_its_code_and_set_nothing_beside_a_row_of_another_table_is_the_joining_rows_change(
    scripted,
):
    """'PN-4 goes to TU-2' read as a change of tuner TU-2 setting nothing: the tunings alone join the piano
    and the tuner, so PN-4's tuning is given TU-2."""
    db = ChatDB(model=scripted, schema=TUNINGS, summarize=False)
    unset = {"does": "change", "table": "tuners", "which": [{"column": "tuner_code", "value": "TU-2"}], "set": []}
    scripted.push(unset)  # key: value lines: no routing call
    reply = db.ask("tuning\npiano: PN-4\ntuner: TU-2\ndate: 2 March 2025", allow_writes=True)
    assert not reply.pending
    assert db.session.rows("SELECT tuning_no, tuner_code FROM tunings ORDER BY 1") == [(1, "TU-2"), (2, "TU-1")]
    db.close()
