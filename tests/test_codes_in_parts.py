"""A kept code a request says in words, read back in part ("box kite no. 18" read as '18'), is written as the
code (`recording/named_rows.with_codes_named`); the words that name it are not values of its row; a number
said before a unit ("for 21 days") names no code, and a word that only announces a number ("number 8")
fits a code's letters least (`language/codes.code_fit`). Real DuckDB, the scripted model, on an invented
kite hire."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.named_rows import codes_said, with_codes_named
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

KITE_HIRE = """
CREATE SEQUENCE flyer_ids START 1;
CREATE SEQUENCE hire_ids START 1;
CREATE TABLE kites (kite_code VARCHAR PRIMARY KEY, kite_name VARCHAR NOT NULL,
                    kind VARCHAR NOT NULL CHECK (kind IN ('box', 'delta', 'foil', 'night')));
CREATE TABLE flyers (flyer_id INTEGER PRIMARY KEY DEFAULT nextval('flyer_ids'), flyer_name VARCHAR UNIQUE NOT NULL);
CREATE TABLE hires (hire_id INTEGER PRIMARY KEY DEFAULT nextval('hire_ids'),
                    flyer_id INTEGER NOT NULL REFERENCES flyers (flyer_id),
                    kite_code VARCHAR NOT NULL REFERENCES kites (kite_code), hired_on DATE NOT NULL,
                    back_on DATE);
INSERT INTO kites VALUES ('B-018', 'Red Baron', 'box'), ('D-021', 'Swallow', 'delta'), ('F-007', 'Nimbus', 'foil'),
                         ('N-004', 'Glow', 'night');
INSERT INTO flyers (flyer_name) VALUES ('Ida Lund'), ('Oskar Berg');
"""


def _kite_hire(scripted: ScriptedBackend) -> ChatDB:
    return ChatDB(model=scripted, schema=KITE_HIRE, summarize=False)


def test_a_code_read_back_in_part_is_written_as_the_kept_code(scripted: ScriptedBackend):
    """The reading gives the hire's kite as '18' and makes up a kites row named '18' titled with the
    words that named it: the hire is written for 'B-018', and no kite is added or renamed."""
    chatdb = _kite_hire(scripted)
    adds = {"does": "add", "table": "hires", "which": [], "set": []}
    read = {
        "kites": [{"kite_code": "18", "kite_name": "box", "kind": "box"}],
        "hires": [{"flyer": "Ida Lund", "kite_code": "18", "hired_on": "2025-03-11"}],
    }
    scripted.push({"route": "write"}, adds, read)
    reply = chatdb.ask("Ida Lund took out box kite no. 18 on 2025-03-11", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT flyer_id, kite_code, hired_on::VARCHAR FROM hires") == [
        (1, "B-018", "2025-03-11")
    ]
    assert chatdb.session.rows("SELECT kite_code, kite_name FROM kites ORDER BY 1") == [
        ("B-018", "Red Baron"),
        ("D-021", "Swallow"),
        ("F-007", "Nimbus"),
        ("N-004", "Glow"),
    ]
    chatdb.close()


def test_only_a_part_of_one_code_said_is_written_as_it(scripted: ScriptedBackend):
    chatdb = _kite_hire(scripted)
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session))

    def kite_read(text: str, kite: str) -> object:
        named = codes_said(text, shapes, StoredRows(chatdb.session))
        read = {"hires": [{"flyer": "Ida Lund", "kite_code": kite, "hired_on": "2025-03-11"}]}
        return with_codes_named(shapes, read, named)[0]["hires"][0]["kite_code"]

    assert kite_read("Ida Lund took box kite no. 18", "18") == "B-018"
    assert kite_read("Ida Lund took foil 7 and box kite 18", "7") == "F-007"
    assert kite_read("Ida Lund took kite 18", "17") == "17"  # no code said holds it
    assert kite_read("Ida Lund took box kite no. 18, back in 21 days", "21") == "21"  # a length, no code
    chatdb.close()


def test_a_number_before_its_unit_names_no_code_and_a_numbering_word_fits_least(scripted: ScriptedBackend):
    """ "for 21 days" is no kite 'D-021' (its letters would be words said after the number); a new kite said
    "delta number 9" is 'D-009' by "delta", not a night kite 'N-009' by "number"; and a list of a code and a
    length is one hire."""
    chatdb = _kite_hire(scripted)
    shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session))
    stored = StoredRows(chatdb.session)
    said = {row.value for row in codes_said("Oskar Berg took B-018 on 3 May, for 21 days", shapes, stored)}
    assert "D-021" not in said
    assert {row.value for row in codes_said("Oskar took delta number 21", shapes, stored)} == {"D-021"}
    assert stored.composed("kites", "kite_code", "delta number 9") == "D-009"
    adds = {"does": "add", "table": "hires", "which": [], "set": []}
    read = {"hires": [{"flyer": "Oskar Berg", "kite_code": "B-018", "hired_on": "2025-05-03"}]}
    scripted.push({"route": "write"}, adds, read)
    reply = chatdb.ask("On 2025-05-03 Oskar Berg came by. Took B-018, for 21 days.", allow_writes=True)
    assert scripted.remaining == 0 and not reply.pending, reply.answer
    assert chatdb.session.rows("SELECT kite_code FROM hires") == [("B-018",)]  # one hire, not one per "item"
    chatdb.close()


def test_a_kept_code_of_a_table_listed_by_its_names_is_taken_as_named(scripted: ScriptedBackend):
    """Kites are few, so the schema lists them by name; a hire read with the kite's own code 'D-021' names
    that kite: it is written, with no model call to choose among the names."""
    schema = KITE_HIRE.replace("kite_name VARCHAR NOT NULL,", "kite_name VARCHAR NOT NULL UNIQUE,")
    chatdb = ChatDB(model=scripted, schema=schema, summarize=False)
    adds = {"does": "add", "table": "hires", "which": [], "set": []}
    read = {"hires": [{"flyer": "Oskar Berg", "kite_code": "D-021", "hired_on": "2025-05-03"}]}
    scripted.push({"route": "write"}, adds, read)
    reply = chatdb.ask("2025-05-03 | hire | Oskar Berg | D-021", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT flyer_id, kite_code FROM hires") == [(2, "D-021")]
    chatdb.close()


def test_a_list_of_codes_said_in_words_is_a_row_per_code(scripted: ScriptedBackend):
    """ "foil 7 + box kite no. 18": the reading gives one hire, of the first kite, said in words; the other
    kite of the list is hired too, as the kept codes are written."""
    chatdb = _kite_hire(scripted)
    adds = {"does": "add", "table": "hires", "which": [], "set": []}
    read = {"hires": [{"flyer": "Ida Lund", "kite_code": "7", "hired_on": "2025-03-11"}]}
    scripted.push({"route": "write"}, adds, read)
    reply = chatdb.ask("Ida Lund, 2025-03-11: foil 7 + box kite no. 18", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert chatdb.session.rows("SELECT kite_code FROM hires ORDER BY 1") == [("B-018",), ("F-007",)]
    chatdb.close()
