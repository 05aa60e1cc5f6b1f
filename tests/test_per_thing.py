"""A ranking of single rows that names a thing many rows hold is written again once, told so: "which
product brought in the most revenue" is the product whose sales add up to most, not that of the best sale."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ReadRechecked

from .conftest import native

PER_ROW = "SELECT product FROM sales ORDER BY units * unit_price DESC LIMIT 1"
PER_PRODUCT = "SELECT product FROM sales GROUP BY product ORDER BY sum(units * unit_price) DESC LIMIT 1"


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


def test_a_ranking_of_sales_naming_a_product_is_written_again_per_product(db, scripted):
    scripted.push(native(PER_ROW), native(PER_PRODUCT))
    events = list(db.events("Which product brought in the most revenue (units times unit price)?"))
    reply = events[-1].reply
    assert reply.result["product"].tolist() == ["fig"]
    (checked,) = [e for e in events if isinstance(e, ReadRechecked)]
    assert (checked.before, checked.after) == (
        PER_ROW,
        "SELECT product FROM sales GROUP BY product ORDER BY SUM(units * unit_price) DESC LIMIT 1",
    )
    told = scripted.calls[1].messages[-1]["content"]
    assert "product repeats across them: 'fig' is in 3 rows" in told and "GROUP BY product" in told


def test_a_query_the_model_writes_the_same_again_stands(db, scripted):
    scripted.push(native(PER_ROW), native(PER_ROW))
    reply = db.ask("Which product was in the sale that brought in the most?")
    assert reply.result["product"].tolist() == ["kale"] and len(scripted.calls) == 2


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
