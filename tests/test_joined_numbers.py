"""A number joined to a word by a hyphen ("12-litre") is a piece of what a thing is called, not an amount the
write leaves out (`recording/unused.numbers_given`): a stock change naming a kept item so is applied, not held
for the "12" nothing writes. An amount the request gives that nothing writes still holds the write. Real
DuckDB, the scripted model, on an invented dive shop's stock."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend

from .conftest import change_reading

DIVE_SHOP = """
CREATE TABLE stock (item_code VARCHAR PRIMARY KEY, item_name VARCHAR UNIQUE NOT NULL, on_hand INTEGER NOT NULL);
INSERT INTO stock VALUES ('ST-A', 'Tank 12-litre', 9), ('ST-B', 'Tank 15-litre', 14);
"""
# the record's day, 14/04/2025, holds a count a kept row holds (14): the change call is offered the stock table


def _taken_off(count: str) -> dict:
    return change_reading("stock", [("item_code", "12-litre tanks")], ("on_hand", "subtract", count))


@pytest.fixture
def shop(scripted: ScriptedBackend):
    chatdb = ChatDB(model=scripted, schema=DIVE_SHOP, summarize=False)
    yield chatdb
    chatdb.close()


def test_a_number_joined_to_a_word_is_no_amount_left_out(shop: ChatDB, scripted: ScriptedBackend):
    scripted.push(_taken_off("two"))
    reply = shop.ask("stock\nitem: 12-litre tanks\nwritten off: two\nday: 14/04/2025", allow_writes=True)
    assert not reply.pending and scripted.remaining == 0, reply.answer
    assert shop.session.rows("SELECT item_code, on_hand FROM stock ORDER BY 1") == [("ST-A", 7), ("ST-B", 14)]


def test_an_amount_nothing_writes_still_holds_the_write(shop: ChatDB, scripted: ScriptedBackend):
    """The 5 the request gives for a refund is written nowhere: the write waits, saying so."""
    scripted.push(_taken_off("two"))
    reply = shop.ask("stock\nitem: 12-litre tanks\nwritten off: two\nday: 14/04/2025\nrefund: 5", allow_writes=True)
    assert reply.pending and "5" in (reply.answer or ""), reply.answer
    assert shop.session.rows("SELECT on_hand FROM stock ORDER BY item_code") == [(9,), (14,)]
