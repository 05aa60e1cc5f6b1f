"""New rows the model reads short of what the request settles. Without its day (`recording/undated.py`): the
one day the request gives dates it, whether the model read the record as adding a row or as changing the
row its other values name. Without the kept row it refers to (`recording/named_reference.py`): the one the
request names. Read so that it cannot be written (cut off): the values the change reading gave the new row
are. Real DuckDB, the scripted model, an invented boatyard's hull surveys."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

BOATYARD = """
CREATE TABLE boats (boat_code VARCHAR PRIMARY KEY, owner VARCHAR NOT NULL);
CREATE SEQUENCE surveyor_seq;
CREATE TABLE surveyors (
    surveyor_no INTEGER PRIMARY KEY DEFAULT nextval('surveyor_seq'),
    surveyor_name VARCHAR NOT NULL UNIQUE,
    licence VARCHAR NOT NULL
);
CREATE SEQUENCE survey_seq;
CREATE TABLE hull_surveys (
    survey_no INTEGER PRIMARY KEY DEFAULT nextval('survey_seq'),
    boat_code VARCHAR NOT NULL REFERENCES boats (boat_code),
    surveyed_on DATE NOT NULL,
    surveyor_no INTEGER NOT NULL REFERENCES surveyors (surveyor_no),
    blisters INTEGER NOT NULL,
    remarks VARCHAR,
    verdict VARCHAR NOT NULL DEFAULT 'awaiting_review' CHECK (verdict IN ('awaiting_review', 'passed', 'failed'))
);
INSERT INTO boats VALUES ('BT-4', 'Ines Mora'), ('BT-7', 'Kai Dunn');
INSERT INTO surveyors (surveyor_name, licence) VALUES ('Mia Lund', 'SL-40'), ('Oskar Berg', 'SL-41');
INSERT INTO hull_surveys (boat_code, surveyed_on, surveyor_no, blisters, remarks)
    VALUES ('BT-4', DATE '2025-02-01', 1, 5, 'fine');
"""
SURVEYS = "SELECT boat_code, surveyed_on::VARCHAR, surveyor_no, blisters, remarks FROM hull_surveys ORDER BY survey_no"
KEPT = ("BT-4", "2025-02-01", 1, 5, "fine")
CUT = '{"hull_surveys": [{"boat_code": "BT-7", "surveyor_no": "Mia'  # a reading that ran out of tokens


def test_a_log_line_read_as_a_change_of_the_row_its_values_name_is_a_new_row(scripted: ScriptedBackend):
    """The model read the survey's values as naming a survey whose remark it sets, and left its day out: no
    kept survey has them, and with the one day the line gives they are a whole new survey. The day reads two
    ways; the days kept settle it (12 March, near the survey of 1 February, not 3 December)."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    change = {
        "does": "change",
        "table": "hull_surveys",
        "which": [
            {"column": "boat_code", "value": "BT-4"},
            {"column": "surveyor_no", "value": "Oskar Berg"},
            {"column": "blisters", "value": "3"},
        ],
        "set": [{"column": "remarks", "how": "to", "value": "antifouling worn"}],
    }
    read = {
        "hull_surveys": [
            {"boat_code": "BT-4", "surveyor_no": "Oskar Berg", "blisters": 3, "remarks": "antifouling worn"}
        ]
    }
    scripted.push({"route": "write"}, change, read)
    reply = chatdb.ask(
        "12/03/2025 | hull survey | BT-4 | Oskar Berg | 3 blisters | antifouling worn", allow_writes=True
    )
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-4", "2025-03-12", 2, 3, "antifouling worn")]
    chatdb.close()


def test_a_row_read_as_added_without_its_day_is_dated_the_day_a_line_gives(scripted: ScriptedBackend):
    """`date: ...` names no column: the row read as added lacks only its day, the one the request gives
    (`key: value` lines with writes allowed are a write without a route call)."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    scripted.push(
        {"does": "add", "table": "hull_surveys", "which": [], "set": []},
        {"hull_surveys": [{"boat_code": "BT-7", "surveyor_no": "Mia Lund", "blisters": 0}]},
    )
    text = "hull survey\nboat: BT-7\nsurveyor: Mia Lund\nblisters: 0\ndate: 2025-03-14"
    reply = chatdb.ask(text, allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-7", "2025-03-14", 1, 0, None)]
    chatdb.close()


def test_a_change_naming_a_kept_row_stays_a_change(scripted: ScriptedBackend):
    """Values that name the kept survey (its boat and blisters) are a change of it, whatever day the request
    gives besides: its remark is set, and no row is added."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    change = {
        "does": "change",
        "table": "hull_surveys",
        "which": [{"column": "boat_code", "value": "BT-4"}, {"column": "blisters", "value": "5"}],
        "set": [{"column": "remarks", "how": "to", "value": "keel worn"}],
    }
    scripted.push({"route": "write"}, change)
    reply = chatdb.ask(
        "BT-4 | the survey that found 5 blisters | remark: keel worn (noted 20/03/2025)", allow_writes=True
    )
    assert not reply.pending and all(sql.lstrip().upper().startswith("UPDATE") for sql in reply.sql)
    assert chatdb.session.rows(SURVEYS) == [("BT-4", "2025-02-01", 1, 5, "keel worn")]
    chatdb.close()


def test_a_new_row_without_its_reference_refers_to_the_one_row_the_request_names(scripted: ScriptedBackend):
    """The surveyor is said by name, and the reading leaves the reference out: the one surveyor named."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    scripted.push(
        {"route": "write"},
        {"does": "add", "table": "hull_surveys", "which": [], "set": []},
        {"hull_surveys": [{"boat_code": "BT-7", "surveyed_on": "2025-04-02", "blisters": 1}]},
    )
    reply = chatdb.ask("Oskar Berg surveyed BT-7 on 2 April 2025 and found 1 blister", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-7", "2025-04-02", 2, 1, None)]
    chatdb.close()


def test_two_rows_named_that_the_reference_could_be_leave_it_out(scripted: ScriptedBackend):
    """Two surveyors named, the reading gives neither: no surveyor is picked for it, and nothing is added."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    scripted.push(
        {"route": "write"},
        {"does": "add", "table": "hull_surveys", "which": [], "set": []},
        {"hull_surveys": [{"boat_code": "BT-7", "surveyed_on": "2025-04-02", "blisters": 1}]},
        {"steps": [{"goal": "nothing to add", "sql": "SELECT count(*) FROM hull_surveys"}]},
    )
    chatdb.ask("Oskar Berg surveyed BT-7 on 2 April 2025 with Mia Lund: 1 blister", allow_writes=True)
    assert chatdb.session.rows(SURVEYS) == [KEPT]
    chatdb.close()


def test_rows_read_that_cannot_be_written_give_way_to_the_new_row_the_change_reading_gave(scripted: ScriptedBackend):
    """The rows read were cut off before their first row ended: the change reading's values of the new
    survey are written instead, kept to what the request says, with no plan asked for."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    change = {
        "does": "add",
        "table": "hull_surveys",
        "which": [
            {"column": "boat_code", "value": "BT-7"},
            {"column": "surveyor_no", "value": "Mia Lund"},
            {"column": "surveyed_on", "value": "2025-04-03"},
        ],
        "set": [{"column": "blisters", "how": "to", "value": "2"}],
    }
    scripted.push({"route": "write"}, change, CUT)
    reply = chatdb.ask("2025-04-03 | hull survey | BT-7 | Mia Lund | 2 blisters", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-7", "2025-04-03", 1, 2, None)]
    chatdb.close()


def test_values_of_the_change_reading_the_request_does_not_say_are_not_written(scripted: ScriptedBackend):
    """The change reading's remark is none of the request's words: left out, as from any reading."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    change = {
        "does": "add",
        "table": "hull_surveys",
        "which": [{"column": "boat_code", "value": "BT-7"}, {"column": "surveyor_no", "value": "Mia Lund"}],
        "set": [
            {"column": "blisters", "how": "to", "value": "2"},
            {"column": "remarks", "how": "to", "value": "hull sound"},
        ],
    }
    scripted.push({"route": "write"}, change, CUT)
    reply = chatdb.ask("2025-04-03 | hull survey | BT-7 | Mia Lund | 2 blisters", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-7", "2025-04-03", 1, 2, None)]
    chatdb.close()


def test_a_listed_value_a_new_row_gets_that_is_its_column_default_is_not_asked_again(scripted: ScriptedBackend):
    """The reading gives the survey the verdict its column holds unless told otherwise: no doubt, no second
    question, where any other unsaid entry is asked again."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    scripted.push(
        {"route": "write"},
        {"does": "add", "table": "hull_surveys", "which": [], "set": []},
        {
            "hull_surveys": [
                {
                    "boat_code": "BT-7",
                    "surveyor_no": "Mia Lund",
                    "surveyed_on": "2025-04-02",
                    "blisters": 1,
                    "verdict": "awaiting_review",
                }
            ]
        },
    )
    text = "Mia Lund surveyed BT-7 on 2 April 2025: 1 blister, the report awaits her signature"
    reply = chatdb.ask(text, allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows("SELECT boat_code, blisters, verdict FROM hull_surveys ORDER BY survey_no") == [
        ("BT-4", 5, "awaiting_review"),
        ("BT-7", 1, "awaiting_review"),
    ]
    chatdb.close()


def test_a_change_reading_that_names_and_sets_nothing_leaves_the_rows_read_to_add(scripted: ScriptedBackend):
    """ "change" with no row named and nothing set says nothing of kept rows: the new survey read is added."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    scripted.push(
        {"route": "write"},
        {"does": "change", "table": "hull_surveys", "which": [], "set": []},
        {
            "hull_surveys": [
                {"boat_code": "BT-7", "surveyor_no": "Mia Lund", "surveyed_on": "2025-04-02", "blisters": 1}
            ]
        },
    )
    reply = chatdb.ask("Mia Lund surveyed BT-7 on 2 April 2025 and found 1 blister", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-7", "2025-04-02", 1, 1, None)]
    chatdb.close()


def test_rows_read_for_a_new_row_the_change_reading_gave_values_must_hold_one(scripted: ScriptedBackend):
    """Read as adding a survey with its values, the rows read must give a survey (the reading's grammar
    requires one); read as adding without values (a kept header's lines are read so too), they need not."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    row = {
        "hull_surveys": [{"boat_code": "BT-7", "surveyor_no": "Mia Lund", "surveyed_on": "2025-04-02", "blisters": 1}]
    }
    with_values = {
        "does": "add",
        "table": "hull_surveys",
        "which": [{"column": "boat_code", "value": "BT-7"}],
        "set": [{"column": "blisters", "how": "to", "value": "1"}],
    }
    without = {"does": "add", "table": "hull_surveys", "which": [], "set": []}
    required = []
    for change in (with_values, without):
        scripted.push({"route": "write"}, change, row)
        chatdb.ask("Mia Lund surveyed BT-7 on 2 April 2025 and found 1 blister", allow_writes=True)
        extract = next(c for c in scripted.calls[::-1] if "hull_surveys" in (c.json_schema or {}).get("properties", {}))
        required.append(extract.json_schema.get("required", []))
    assert required == [["hull_surveys"], []]
    chatdb.close()


def test_a_change_naming_a_row_by_what_it_refers_to_and_setting_every_other_value_is_a_new_row(
    scripted: ScriptedBackend,
):
    """A second survey of BT-4 read as a change of BT-4's kept survey, named only by the boat, setting each
    other value a survey needs: a new survey, not the kept one rewritten."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    settings = [("surveyor_no", "Oskar Berg"), ("blisters", "2"), ("surveyed_on", "2025-03-20")]
    change = {
        "does": "change",
        "table": "hull_surveys",
        "which": [{"column": "boat_code", "value": "BT-4"}],
        "set": [{"column": c, "how": "to", "value": v} for c, v in settings],
    }
    read = {
        "hull_surveys": [{"boat_code": "BT-4", "surveyor_no": "Oskar Berg", "blisters": 2, "surveyed_on": "2025-03-20"}]
    }
    scripted.push(change, read)
    reply = chatdb.ask(
        "hull survey\nboat: BT-4\nsurveyor: Oskar Berg\nblisters: 2\ndate: 2025-03-20", allow_writes=True
    )
    assert not reply.pending and scripted.remaining == 0
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-4", "2025-03-20", 2, 2, None)]
    chatdb.close()


def test_a_change_setting_one_column_twice_on_a_row_named_by_what_it_refers_to_stays_a_change(
    scripted: ScriptedBackend,
):
    """BT-4's kept survey of 1 February named by the boat, its day and its surveyor, its blisters set
    twice: one value given beside the names, not two. The kept survey changes; no second survey is added."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    which = [("boat_code", "BT-4"), ("surveyed_on", "2025-02-01"), ("surveyor_no", "Mia Lund")]
    change = {
        "does": "change",
        "table": "hull_surveys",
        "which": [{"column": c, "value": v} for c, v in which],
        "set": [{"column": "blisters", "how": "to", "value": "3"}, {"column": "blisters", "how": "to", "value": "3"}],
    }
    scripted.push({"route": "write"}, change)
    reply = chatdb.ask("BT-4's survey by Mia Lund of 1 February 2025 counted 3 blisters", allow_writes=True)
    assert not reply.pending and reply.sql[0].startswith('UPDATE "hull_surveys"')
    assert chatdb.session.rows(SURVEYS) == [("BT-4", "2025-02-01", 1, 3, "fine")]
    chatdb.close()


def test_values_naming_a_kept_row_of_another_day_are_a_new_row_of_the_day_given(scripted: ScriptedBackend):
    """A second survey of BT-4 by Mia Lund with 5 blisters, read as setting the remark of the kept one
    its values name: that survey was on 1 February, the line gives 2 April, so it is a new survey; the
    same line on the kept survey's own day is a change of its remark."""
    chatdb = ChatDB(model=scripted, schema=BOATYARD, summarize=False)
    which = [
        {"column": "boat_code", "value": "BT-4"},
        {"column": "surveyor_no", "value": "Mia Lund"},
        {"column": "blisters", "value": "5"},
    ]
    change = {
        "does": "change",
        "table": "hull_surveys",
        "which": which,
        "set": [{"column": "remarks", "how": "to", "value": "all good"}],
    }
    read = {"hull_surveys": [{"boat_code": "BT-4", "surveyor_no": "Mia Lund", "blisters": 5, "remarks": "all good"}]}
    scripted.push({"route": "write"}, change, read)
    reply = chatdb.ask("2025-04-02 | hull survey | BT-4 | Mia Lund | 5 blisters | all good", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows(SURVEYS) == [KEPT, ("BT-4", "2025-04-02", 1, 5, "all good")]
    scripted.push({"route": "write"}, change)
    reply = chatdb.ask("2025-02-01 | hull survey | BT-4 | Mia Lund | 5 blisters | all good", allow_writes=True)
    assert scripted.remaining == 0 and all(sql.lstrip().upper().startswith("UPDATE") for sql in reply.sql)
    assert chatdb.session.rows(SURVEYS)[0] == ("BT-4", "2025-02-01", 1, 5, "all good")
    chatdb.close()
