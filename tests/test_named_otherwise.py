"""A change named by the very value it sets (issue 51): a small model reads "from now on write to me at
this address" as the row holding that address. No row holds it yet, so the row is the one kept row of the
table the request names. Real DuckDB, the scripted model; a bell foundry's patrons."""

from __future__ import annotations

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.scripted import ScriptExhausted

SCHEMA = """
CREATE TABLE patrons (patron_no INTEGER PRIMARY KEY, patron_name VARCHAR NOT NULL, email VARCHAR);
INSERT INTO patrons VALUES (1, 'Ines Maro', 'ines@old.example'), (2, 'Oskar Vell', 'oskar@example.org');
"""


def by_the_value_set(address: str) -> dict:
    """The reading naming the row by the address it is about to hold."""
    return {
        "does": "change",
        "table": "patrons",
        "which": [{"column": "email", "value": address}],
        "set": [{"column": "email", "how": "to", "value": address}],
    }


def test_a_row_named_by_the_value_it_gets_is_the_one_the_request_names() -> None:
    model = ScriptedBackend()
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    model.push({"route": "write"}, by_the_value_set("ines.m@example.org"))
    reply = chatdb.ask("Ines Maro wrote: please use ines.m@example.org from now on.", allow_writes=True)
    assert not reply.pending and [s.split()[0] for s in reply.sql] == ["UPDATE"]
    assert chatdb.session.rows("SELECT patron_name, email FROM patrons ORDER BY 1") == [
        ("Ines Maro", "ines.m@example.org"),
        ("Oskar Vell", "oskar@example.org"),
    ]
    chatdb.close()


def test_with_two_patrons_named_it_is_not_guessed() -> None:
    model = ScriptedBackend()
    chatdb = ChatDB(model=model, schema=SCHEMA, summarize=False)
    model.push({"route": "write"}, by_the_value_set("shared@example.org"))
    text = "Ines Maro and Oskar Vell wrote: please use shared@example.org from now on."
    try:  # not code's to write: the request goes on to readings this script does not answer, or waits
        assert chatdb.ask(text, allow_writes=True).pending
    except ScriptExhausted:
        pass
    assert chatdb.session.rows("SELECT email FROM patrons ORDER BY 1") == [
        ("ines@old.example",),
        ("oskar@example.org",),
    ]
    chatdb.close()
