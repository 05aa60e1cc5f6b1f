"""A ranking of single rows that names a thing many rows hold: the model picks between it and each
thing's total, written by code: "which product brought in the most revenue" is the product whose sales
add up to most, not that of the best sale."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ReadRechecked
from jupyter_chatdb.widgets.state import ChainState

from .conftest import native

PER_ROW = "SELECT product FROM sales ORDER BY units * unit_price DESC LIMIT 1"
PER_PRODUCT = "SELECT product FROM sales GROUP BY product ORDER BY SUM(units * unit_price) DESC LIMIT 1"


@pytest.fixture
def db(scripted):
    sales = pd.DataFrame(
        {
            "product": ["fig", "kale", "fig", "fig"],
            "units": [3, 10, 4, 5],
            "unit_price": [2.0, 1.5, 2.0, 2.0],  # fig 24 in three sales, kale 15 in its one
        }
    )
    db = ChatDB(model=scripted, summarize=False)
    db.register("sales", sales)
    yield db
    db.close()


def test_a_ranking_of_sales_naming_a_product_is_totalled_per_product_when_the_model_picks_it(db, scripted):
    scripted.push(native(PER_ROW), {"choice": 2})
    events = list(db.events("Which product brought in the most revenue (units times unit price)?"))
    reply = events[-1].reply
    assert reply.result["product"].tolist() == ["fig"]
    (checked,) = [e for e in events if isinstance(e, ReadRechecked)]
    assert checked.before == PER_ROW and checked.after == PER_PRODUCT
    assert "GROUP BY product ORDER BY SUM(units * unit_price) DESC" in reply.sql[0]
    state = ChainState()
    for event in events:
        state.apply(event)
    assert any("the model picked each one's total" in decision for decision in state.decisions)
    shown = scripted.calls[1].messages[-1]["content"]
    assert "2: each product's rows added up, the products with the highest total units * unit_price" in shown
    assert "('fig' is in 3 rows)" in shown


def test_the_ranking_of_rows_stands_when_the_model_picks_it(db, scripted):
    scripted.push(native(PER_ROW), {"choice": 1})
    reply = db.ask("Which product was in the sale that brought in the most?")
    assert reply.result["product"].tolist() == ["kale"] and reply.sql == [PER_ROW] and len(scripted.calls) == 2


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT product FROM sales ORDER BY units DESC LIMIT 1",  # one stored value: single rows are meant
        PER_PRODUCT,
        "SELECT product, units * unit_price AS revenue FROM sales ORDER BY revenue DESC LIMIT 1",  # shown
    ],
)
def test_other_reads_are_not_asked_again(db, scripted, sql):
    scripted.push(native(sql))
    db.ask("Which product sold best?")
    assert len(scripted.calls) == 1
