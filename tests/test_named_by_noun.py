"""A code said as its table's noun and its number ("courtesy kayak 2" for 'L-2', where the code's letters are
no words said) names its row when one code of such tables holds that number. Real DuckDB."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.recording.named_rows import NamedRow, codes_said
from jupyter_chatdb.recording.resolve import StoredRows
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

KAYAK_HIRE = """
CREATE TABLE kayaks (kayak_code VARCHAR PRIMARY KEY, owner VARCHAR NOT NULL);
CREATE TABLE loaner_kayaks (tag VARCHAR PRIMARY KEY, seats INTEGER NOT NULL);
INSERT INTO kayaks VALUES ('KY-1', 'Ola Berg'), ('KY-7', 'Ines Mora');
INSERT INTO loaner_kayaks VALUES ('L-1', 1), ('L-2', 2);
"""


def _named(text: str) -> list[NamedRow]:
    chatdb = ChatDB(model=ScriptedBackend(), schema=KAYAK_HIRE, summarize=False)
    try:
        shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session))
        return codes_said(text, shapes, StoredRows(chatdb.session))
    finally:
        chatdb.close()


def test_the_one_code_of_the_tables_named_by_the_noun_holding_the_number():
    assert [(n.table, n.value, n.said) for n in _named("Lent Ola a courtesy kayak 2 while KY-1 is with us")] == [
        ("loaner_kayaks", "L-2", "kayak 2")
    ]


def test_a_noun_and_number_two_tables_hold_names_nothing():
    """'kayak 1' may be the loaner 'L-1' or the customer's 'KY-1': neither is taken for it."""
    assert _named("Lent Ola a courtesy kayak 1 today") == []


def test_a_code_whose_letters_the_words_spell_is_found_as_before():
    assert [n.value for n in _named("loaner kayak 1 is back")] == ["L-1"]


SKATE_SHOP = """
CREATE TABLE skates (skate_code VARCHAR PRIMARY KEY, owner VARCHAR NOT NULL);
CREATE TABLE spare_skates (tag VARCHAR PRIMARY KEY, size INTEGER NOT NULL);
INSERT INTO skates VALUES ('SK-7', 'Ola Berg');
INSERT INTO spare_skates VALUES ('PS-1', 38), ('PS-2', 42);
"""


def test_a_noun_that_is_another_word_of_the_tables_name_names_the_one_code_holding_the_number():
    """ "spare 2": no table's name ends in 'spare', and the letters of 'PS-2' are no words said; the one
    table with 'spare' in its name holds one code of that number."""
    chatdb = ChatDB(model=ScriptedBackend(), schema=SKATE_SHOP, summarize=False)
    try:
        shapes = shapes_of(chatdb.session, Catalog.read(chatdb.session))
        named = codes_said("lent: spare 2 while SK-7 is sharpened", shapes, StoredRows(chatdb.session))
    finally:
        chatdb.close()
    assert [(n.table, n.value) for n in named if n.table == "spare_skates"] == [("spare_skates", "PS-2")]
