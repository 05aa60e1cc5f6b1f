"""A new row whose own code the reading leaves out, where the request says it in words ("kite 15" beside
kept codes 'K-012'): written with the code as the kept ones are written (issue 51: a code built from parts
is a value the request gives). Real DuckDB, the scripted model, on the default strategy."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.facts import with_codes_said
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

KITE_LOFT = """
CREATE TABLE kites (kite_code VARCHAR PRIMARY KEY, kite_name VARCHAR NOT NULL, span_m DOUBLE NOT NULL);
INSERT INTO kites VALUES ('K-012', 'Grey Heron', 7.0), ('K-014', 'Kestrel', 9.5);
"""


def test_a_new_kites_code_left_out_is_written_as_the_request_says_it():
    model = ScriptedBackend()
    loft = ChatDB(model=model, schema=KITE_LOFT, summarize=False)
    read = {"kites": [{"kite_name": "Storm Petrel", "span_m": 9}]}
    model.push({"route": "write"}, read)  # no kept row named: no change call
    reply = loft.ask("2025-03-01 new kite: Storm Petrel, kite 15, 9 m span", allow_writes=True)
    assert not reply.pending and model.remaining == 0
    assert loft.session.rows("SELECT kite_code, kite_name FROM kites WHERE kite_name = 'Storm Petrel'") == [
        ("K-015", "Storm Petrel")
    ]
    loft.close()


def test_a_code_is_given_only_where_the_request_says_one_no_row_holds():
    loft = ChatDB(model=ScriptedBackend(), schema=KITE_LOFT, summarize=False)
    shapes = shapes_of(loft.session, Catalog.read(loft.session))
    stored = StoredRows(loft.session)
    row = {"kite_name": "Storm Petrel", "span_m": 9}

    def given(text: str) -> dict:
        return with_codes_said(shapes, {"kites": [dict(row)]}, text, stored)["kites"][0]

    assert given("new kite: Storm Petrel, kite 15, 9 m span")["kite_code"] == "kite 15"
    assert "kite_code" not in given("new kite: Storm Petrel, kite 15 or kite 16")  # two: not code's to choose
    assert "kite_code" not in given("new kite: Storm Petrel, like kite 14")  # a kept one names another row
    assert "kite_code" not in given("new kite: Storm Petrel, 9 m span")
    loft.close()
