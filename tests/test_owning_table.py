"""A change the model reads on a table that only refers to the row the request names (a yacht's outings,
for "SG-7 moved to West jetty") is the change of that row, where the data says the value fits it and not
the table read (`recording/owning_table.py`). Real DuckDB, scripted model, on an invented sailing club."""

from __future__ import annotations

from jupyter_chatdb import ChatDB

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
