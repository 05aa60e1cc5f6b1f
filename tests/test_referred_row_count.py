"""A number added to rows that refer to a kept row, where none are kept: the row's own count, as the model
picks it (a seed shop's packets; real DuckDB, the scripted model)."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.scripted import ScriptExhausted
from tests.conftest import change_reading

SEEDS = """
CREATE TABLE packets (packet_code VARCHAR PRIMARY KEY, variety VARCHAR NOT NULL, grams INTEGER NOT NULL,
                      in_store INTEGER NOT NULL CHECK (in_store >= 0));
CREATE TABLE orders (order_no INTEGER PRIMARY KEY, customer VARCHAR NOT NULL);
CREATE TABLE order_lines (order_no INTEGER NOT NULL REFERENCES orders (order_no),
                          packet_code VARCHAR NOT NULL REFERENCES packets (packet_code),
                          packets INTEGER NOT NULL, PRIMARY KEY (order_no, packet_code));
INSERT INTO packets VALUES ('PK-7', 'basil', 20, 40), ('PK-9', 'chard', 15, 12);
INSERT INTO orders VALUES (1, 'Ana Ruiz');
INSERT INTO order_lines VALUES (1, 'PK-9', 2);
"""
ADDED = ("packets", "add", "30")


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


def option(text: str) -> dict:
    return {"option": text}


def test_a_number_added_to_lines_none_kept_is_the_count_of_the_row_they_refer_to(model: ScriptedBackend):
    """'PK-7 packets | +30' read as adding 30 to the order lines of PK-7, of which none is kept: the model
    picks among PK-7's own number columns, each way round, and its stock goes up."""
    chatdb = ChatDB(model=model, schema=SEEDS, summarize=False)
    stock = "add 30 to packets in_store"
    model.push({"route": "write"}, change_reading("order_lines", [("packet_code", "PK-7")], ADDED))
    model.push(option(stock), option(stock))
    reply = chatdb.ask("2024-06-11 | packed | PK-7 packets | +30", allow_writes=True)
    offered = model.calls[2].json_schema["properties"]["option"]["enum"]
    assert offered == ["add 30 to packets grams", stock]
    assert not reply.pending, reply.answer
    assert chatdb.session.rows("SELECT packet_code, grams, in_store FROM packets ORDER BY 1") == [
        ("PK-7", 20, 70),
        ("PK-9", 15, 12),
    ]
    chatdb.close()


def test_two_picks_that_differ_wait_showing_both(model: ScriptedBackend):
    """Asked the other way round, the model picks another column: nothing is written; the write waits."""
    chatdb = ChatDB(model=model, schema=SEEDS, summarize=False)
    model.push({"route": "write"}, change_reading("order_lines", [("packet_code", "PK-7")], ADDED))
    model.push(option("add 30 to packets in_store"), option("add 30 to packets grams"))
    reply = chatdb.ask("2024-06-11 | packed | PK-7 packets | +30", allow_writes=True)
    assert reply.pending and chatdb.session.rows("SELECT in_store FROM packets ORDER BY packet_code") == [(40,), (12,)]
    chatdb.close()


ONE_COUNT = (
    SEEDS.replace("grams INTEGER NOT NULL,", "")
    .replace("'basil', 20, 40", "'basil', 40")
    .replace("'chard', 15, 12", "'chard', 12")
)


@pytest.mark.parametrize(
    "schema, text",
    [
        (SEEDS, "2024-06-11 | Ana Ruiz's order 1 | PK-7 packets | +30"),
        (ONE_COUNT, "2024-06-11 | packed | PK-7 packets | +30"),
    ],
    ids=["another kept row named", "one number column"],
)
def test_nothing_is_asked_where_the_count_of_the_row_is_no_question(model: ScriptedBackend, schema: str, text: str):
    """Where the request names Ana Ruiz's order too (lines of that order, not the stock), or the row referred
    to has one number column (a pick among one option says nothing), nothing is asked: the request goes on
    to be read for the rows it states, and nothing is written unasked."""
    chatdb = ChatDB(model=model, schema=schema, summarize=False)
    model.push({"route": "write"}, change_reading("order_lines", [("packet_code", "PK-7")], ADDED))
    with pytest.raises(ScriptExhausted):  # the next call reads the request for rows
        chatdb.ask(text, allow_writes=True)
    assert "option" not in (model.calls[-1].json_schema or {}).get("properties", {})
    assert chatdb.session.rows("SELECT in_store FROM packets ORDER BY packet_code") == [(40,), (12,)]
    chatdb.close()
