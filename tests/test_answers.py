"""Answers checked against their result: labels paired with their own figures, top-N answers with their
figures and their ties, fractions rounded for reading (real DuckDB, scripted model)."""

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB

from .conftest import native

PER_REGION = "SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY region"


@pytest.fixture
def phrased(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="native")  # the model phrases the answers
    chatdb.register("sales", sales)
    yield chatdb
    chatdb.close()


def test_a_sentence_that_pairs_a_label_with_another_rows_figure_gives_way_to_the_rows(phrased, scripted):
    scripted.push(native(PER_REGION), {"answer": "East sold 17 units, North sold 3 and South sold 16."})
    assert phrased.ask("Units per region?").answer == "East (3); North (17); South (16)."
    scripted.push(native(PER_REGION), {"answer": "East sold 3 units, North sold 17 and South sold 16."})
    assert phrased.ask("Units per region?").answer == "East sold 3 units, North sold 17 and South sold 16."


def test_a_top_n_answer_keeps_its_figures_and_says_when_the_last_ties(phrased, scripted):
    top = "SELECT product, sum(units) AS units FROM sales GROUP BY product ORDER BY units DESC LIMIT 2"
    scripted.push(native(top), {"answer": "The top two products are apple and pear."})
    assert phrased.ask("Top 2 products by units?").answer == "apple (25); pear (11)."
    phrased.register("sales", pd.DataFrame({"product": ["fig", "kiwi", "plum"], "units": [9, 4, 4]}))
    scripted.push(native(top), {"answer": "fig has 9 units and kiwi has 4."})
    reply = phrased.ask("Top 2 products by units?")
    assert reply.answer in (
        "fig has 9 units and kiwi has 4. (plum ties with the 2nd shown: units 4.)",
        "fig has 9 units and kiwi has 4. (kiwi ties with the 2nd shown: units 4.)",
    )


def test_fractions_are_rounded_for_reading_and_kept_whole_in_the_table(scripted, sales):
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    chatdb.register("sales", sales)
    scripted.push(native("SELECT avg(units) / 7 AS seventh FROM sales"))
    reply = chatdb.ask("What are the average units of the sales?")
    assert reply.answer == "seventh: 1.03" and reply.result["seventh"].iat[0] == pytest.approx(7.2 / 7)
    chatdb.close()


def test_a_scratch_slice_of_a_frame_is_shown_to_the_model_only_when_named(scripted):
    chatdb = ChatDB(model=scripted, strategy="native", summarize=False)
    kites = pd.DataFrame({"name": ["Aria", "Bolt", "Cirrus"], "span": [2, 5, 3]})
    chatdb.register("kites", kites)
    chatdb.register("wide", kites[kites.span > 2])  # a notebook's scratch slice
    scripted.push(native("SELECT count(*) AS kites FROM kites"))
    assert chatdb.ask("How many kites are there?").answer == "kites: 3"
    prompt = "\n".join(m["content"] for m in scripted.calls[-1].messages)
    assert "CREATE TABLE kites" in prompt and "CREATE TABLE wide" not in prompt
    scripted.push(native("SELECT count(*) AS n FROM wide"))
    assert chatdb.ask("How many rows does wide have?").answer == "n: 2"
    assert "CREATE TABLE wide" in "\n".join(m["content"] for m in scripted.calls[-1].messages)
    chatdb.close()
