"""Data-value memory: stored values of text columns, candidates for a literal, and SQL literal uses."""

import pandas as pd
import pytest

from jupyter_chatdb.grounding.literals import literal_uses, replace_literals
from jupyter_chatdb.grounding.values import ValueIndex, clear_choice
from jupyter_chatdb.sql.session import Session
from jupyter_chatdb.sql.trees import parse

SCHEMA = {"customers": ["name", "city", "language"], "orders": ["id", "customer", "status"]}


@pytest.fixture
def session():
    session = Session()
    session.bind(
        "customers",
        pd.DataFrame(
            {
                "name": ["Ann Lee", "Bob Lewis", "Chen Wei", "Dana Ruiz"],
                "city": ["LA", "New York", "LA", "San Francisco"],
                "language": ["English", "Spanish", "English", "Mandarin"],
            }
        ),
    )
    session.bind(
        "orders", pd.DataFrame({"id": [1, 2], "customer": ["Ann Lee", "Bob Lewis"], "status": ["shipped", "cancelled"]})
    )
    return session


def test_candidates_by_case_initials_and_spelling(session):
    values = ValueIndex(session)
    assert values.candidates("customers", "language", "English") == []  # stored as written
    assert [(c.value, c.how) for c in values.candidates("customers", "language", "english")] == [("English", "case")]
    assert [(c.value, c.how) for c in values.candidates("customers", "city", "Los Angeles")][:1] == [("LA", "initials")]
    assert values.candidates("orders", "status", "canceled")[0].value == "cancelled"
    assert values.candidates("customers", "city", "Tokyo") == []
    assert values.candidates("orders", "id", "1") == []  # not a text column


def test_abbreviated_words_find_the_whole_value(session):
    values = ValueIndex(session)
    assert [(c.value, c.how) for c in values.candidates("customers", "name", "C. Wei")] == [
        ("Chen Wei", "abbreviation")
    ]
    assert all(
        c.how != "abbreviation" for c in values.candidates("customers", "city", "San Fran")
    )  # "Fran" is no initial
    assert values.candidates("customers", "city", "NY")[0].value == "New York"


def test_values_are_read_again_when_the_data_changes(session):
    values = ValueIndex(session)
    assert values.candidates("orders", "status", "Returned") == []
    session.bind("orders", pd.DataFrame({"id": [3], "customer": ["Chen Wei"], "status": ["returned"]}))
    assert values.candidates("orders", "status", "Returned")[0].value == "returned"


def test_the_cap_on_distinct_values_is_reported(session):
    session.bind("codes", pd.DataFrame({"code": [f"c{i}" for i in range(50)]}))
    capped = ValueIndex(session, max_values=10).column("codes", "code")
    assert capped.capped and len(capped.values) == 10


def test_clear_choice_needs_a_good_and_lonely_candidate(session):
    values = ValueIndex(session)
    assert clear_choice(values.candidates("customers", "language", "ENGLISH")).value == "English"
    assert clear_choice([]) is None


def test_literal_uses_find_comparisons_in_where_in_join_and_case():
    sql = (
        "SELECT c.name, CASE WHEN o.status = 'Shipped' THEN 1 ELSE 0 END FROM customers AS c "
        "JOIN orders AS o ON o.customer = c.name AND o.status <> 'lost' "
        "WHERE c.city IN ('Los Angeles', 'NY') AND language = 'english' AND c.name LIKE 'A%'"
    )
    uses = {(u.table, u.column, u.literal, u.pattern) for u in literal_uses(parse(sql)[0], SCHEMA)}
    assert uses == {
        ("orders", "status", "Shipped", ""),
        ("orders", "status", "lost", ""),
        ("customers", "city", "Los Angeles", ""),
        ("customers", "city", "NY", ""),
        ("customers", "language", "english", ""),
        ("customers", "name", "A%", "LIKE"),
    }


def test_replace_literals_changes_only_the_named_ones():
    sql = "SELECT * FROM customers WHERE city = 'Los Angeles' OR name = 'Los Angeles'"
    tree = parse(sql)[0]
    fixed = replace_literals(tree, SCHEMA, {("customers", "city", "Los Angeles"): "LA"}).sql("duckdb")
    assert tree.sql("duckdb") == sql  # a copy is changed
    assert fixed == "SELECT * FROM customers WHERE city = 'LA' OR name = 'Los Angeles'"


class CountingEmbedder:
    """The real MiniLM embedder, counting the texts it is asked to embed."""

    def __init__(self, embedder):
        self.embedder, self.name, self.dimensions, self.texts = embedder, embedder.name, embedder.dimensions, []

    def embed(self, texts):
        self.texts += texts
        return self.embedder.embed(texts)


def test_values_and_their_vectors_are_kept_between_sessions(tmp_path):
    from jupyter_chatdb.grounding.saved_values import SavedValues
    from jupyter_chatdb.llm.minilm import MiniLMEmbedder

    frame = pd.DataFrame({"city": ["LA", "New York", "LA"]})
    path = tmp_path / "notebook.values.sqlite"
    first = Session()
    first.bind("customers", frame)
    earlier = ValueIndex(first, CountingEmbedder(MiniLMEmbedder()), saved=SavedValues(path, ":memory:"))
    expected = earlier.candidates("customers", "city", "Big Apple")
    later_session = Session()  # a restarted kernel: the same DataFrame, a new DuckDB session
    later_session.bind("customers", frame.copy())
    embedder = CountingEmbedder(MiniLMEmbedder())
    later = ValueIndex(later_session, embedder, saved=SavedValues(path, ":memory:"))
    assert later.column("customers", "city").values == ("LA", "New York")
    assert later.candidates("customers", "city", "Big Apple") == expected
    assert embedder.texts == ["Big Apple"]  # the column's vectors came from the file
    later_session.bind("customers", pd.DataFrame({"city": ["Boston"]}))
    assert later.column("customers", "city").values == ("Boston",)  # changed data is read again


def test_without_the_embedder_packages_values_and_tables_match_by_spelling(monkeypatch):
    from jupyter_chatdb import ChatDB
    from jupyter_chatdb.llm import ScriptedBackend, minilm

    monkeypatch.setattr(minilm, "PACKAGES", ("no_such_package_for_chatdb",))
    db = ChatDB(model=ScriptedBackend([]))
    assert db.values.embedder is None and db.table_index.embedder is None


def test_mentioned_values_are_named_by_words_or_stems(session):
    from jupyter_chatdb.grounding.mentions import mentioned_values

    session.bind(
        "kits",
        pd.DataFrame(
            {"kind": ["canoe", "stove", "sleeping bag"], "home": ["New York", "Oslo", "Ely"], "age": [1, 2, 3]}
        ),
    )
    index = ValueIndex(session)
    columns = [("kits", "kind"), ("kits", "home"), ("kits", "age")]
    found = mentioned_values("How many canoes and sleeping bags are kept in new york?", index, columns)
    assert [(m.column, m.value) for m in found] == [("kind", "sleeping bag"), ("home", "New York"), ("kind", "canoe")]
    assert mentioned_values("How old is the oldest stove?", index, columns)[0].value == "stove"


def test_a_value_of_several_words_is_named_by_their_forms_in_order(session):
    """A label said in the plural, or with its number and unit run together, names it; the same words in
    another order, or one of them missing, name nothing."""
    from jupyter_chatdb.grounding.mentions import mentioned_values

    session.bind("fuel", pd.DataFrame({"label": ["230 g gas canister", "450 g gas canister", "water filter"]}))
    index = ValueIndex(session)
    columns = [("fuel", "label")]
    found = mentioned_values("Sold three 230g gas canisters and a water filter", index, columns)
    assert [m.value for m in found] == ["230 g gas canister", "water filter"]
    assert mentioned_values("gas canisters of 230 g, filters for water", index, columns) == []


def test_a_value_held_by_several_columns_is_shown_for_the_one_the_request_names(session):
    from jupyter_chatdb.grounding.mentions import mentioned_values

    session.bind("moorings", pd.DataFrame({"MooringName": ["Calder", "Aire"], "Wharf": ["Calder", "Ouse"]}))
    index = ValueIndex(session)
    columns = [("moorings", "MooringName"), ("moorings", "Wharf")]
    named = mentioned_values("Which moorings are at the wharf Calder?", index, columns)
    assert [(m.column, m.value) for m in named] == [("Wharf", "Calder")]
    unnamed = mentioned_values("What is known about Calder?", index, columns)
    assert sorted(m.column for m in unnamed) == ["MooringName", "Wharf"]
