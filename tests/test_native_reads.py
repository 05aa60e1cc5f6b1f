"""Reads in the model's native form (strategy "native"): real DuckDB, scripted model."""

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import Routed, StepFailed
from jupyter_chatdb.controller.native_sql import reply_sql, schema_text
from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.grounding.keys import ImpliedKeys
from jupyter_chatdb.sql.catalog import Catalog


@pytest.fixture
def lots(scripted) -> ChatDB:
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.register(
        "lots",
        pd.DataFrame({"lot_id": [1, 2, 3], "town_id": [1, 1, 2], "price": ["100", "250", "n/a"]}),
    )
    chatdb.register(
        "towns", pd.DataFrame({"town_id": [1, 2], "town": ["Ely", "Wells"], "county": ["Cambs", "Somerset"]})
    )
    yield chatdb
    chatdb.close()


def test_a_question_about_the_data_is_one_call_of_native_sql(lots, scripted):
    scripted.push(
        "```sql\nSELECT t.town, SUM(l.price) AS total FROM lots AS l JOIN towns AS t ON t.town_id = l.town_id"
        " WHERE t.town LIKE 'ely' GROUP BY t.town;\n```"
    )
    seen = []
    reply = lots.ask("What is the total price of lots per town?", on_event=seen.append)
    assert [e.route for e in seen if isinstance(e, Routed)] == ["read"]
    assert len(scripted.calls) == 1 and scripted.calls[0].json_schema is None  # no route call, free text
    # SQLite's LIKE ignores case; the prices stored as text are summed as numbers
    assert reply.sql == [
        "SELECT t.town, SUM(TRY_CAST(l.price AS DOUBLE)) AS total FROM lots AS l JOIN towns AS t"
        " ON t.town_id = l.town_id WHERE t.town ILIKE 'ely' GROUP BY t.town"
    ]
    assert reply.result.to_dict("records") == [{"town": "Ely", "total": 350.0}]


def test_the_prompt_shows_tables_as_create_table_with_example_rows_and_the_keys_the_data_implies(lots):
    catalog = Catalog.read(lots.session)
    text = schema_text(catalog, lots.session, None, ImpliedKeys().references(catalog, lots.session))
    assert "CREATE TABLE lots (\n  lot_id BIGINT,\n  town_id BIGINT,\n  price VARCHAR,\n" in text
    assert "FOREIGN KEY (town_id) REFERENCES towns (town_id)" in text
    assert "REFERENCES lots" not in text  # the key is unique in towns only
    assert "  county VARCHAR,\n  PRIMARY KEY (town_id)\n);" in text
    assert "3 example rows:\nSELECT * FROM lots LIMIT 3;\nlot_id town_id price\n1 1 100\n" in text


def test_a_failed_statement_is_repaired_in_the_same_form(lots, scripted):
    scripted.push("SELECT countie FROM towns", '```sql\nSELECT county FROM towns WHERE town = "Wells"\n```')
    seen = []
    reply = lots.ask("Which county is Wells in?", on_event=seen.append)
    assert [e.step.error for e in seen if isinstance(e, StepFailed)][0].startswith("Unknown column 'countie'")
    assert "Error: Unknown column 'countie'" in scripted.calls[1].messages[-1]["content"]
    assert scripted.calls[1].json_schema is None
    assert reply.sql == ["SELECT county FROM towns WHERE town = 'Wells'"]  # SQLite's double-quoted string
    assert reply.result.to_dict("records") == [{"county": "Somerset"}]


def test_a_repair_that_repeats_the_failed_statement_is_sampled_once_more(lots, scripted):
    scripted.push("SELECT countie FROM towns", "SELECT countie FROM towns", "SELECT county FROM towns")
    reply = lots.ask("Which counties are the towns in?")
    assert [call.temperature for call in scripted.calls] == [0.0, 0.0, 0.7]
    assert reply.sql == ["SELECT county FROM towns"]


def test_a_column_of_a_referenced_table_is_joined_without_a_repair(lots, scripted):
    scripted.push("```sql\nSELECT lot_id FROM lots WHERE county = 'Somerset';\n```")  # county is in towns
    reply = lots.ask("Which lots are in Somerset?")
    assert len(scripted.calls) == 1
    assert reply.sql == [
        "SELECT lots.lot_id FROM lots JOIN towns ON lots.town_id = towns.town_id WHERE towns.county = 'Somerset'"
    ]
    assert reply.result["lot_id"].tolist() == [3]


def test_a_date_matched_against_a_pattern_is_read_as_text(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.register("hikes", pd.DataFrame({"day": pd.to_datetime(["2024-03-01", "2024-04-02"]), "walkers": [3, 5]}))
    scripted.push("```sql\nSELECT SUM(walkers) AS n FROM hikes WHERE day LIKE '2024-03%';\n```")
    assert chatdb.ask("How many walkers came in March 2024?").result["n"].tolist() == [3]
    assert len(scripted.calls) == 1
    chatdb.close()


def test_a_bare_column_beside_a_max_is_read_from_the_row_of_the_max_as_sqlite_does(lots, scripted):
    scripted.push("```sql\nSELECT county, MAX(town_id) FROM towns;\n```")
    reply = lots.ask("Which county has the town with the highest town id?")
    assert len(scripted.calls) == 1  # DuckDB alone refuses a bare column: no repair was needed
    assert reply.result.to_dict("records") == [{"county": "Somerset", "max_town_id": 2}]


def test_other_requests_are_routed_by_the_model_and_planned(lots, scripted):
    scripted.push({"route": "chat"}, {"answer": "I answer questions about your tables."})
    reply = lots.ask("Hello there")
    assert reply.answer == "I answer questions about your tables."
    assert scripted.calls[0].json_schema is not None


def test_a_reply_without_sql_says_so(lots, scripted):
    scripted.push("I cannot answer that.", "Still no.")
    with pytest.raises(ChatDBError, match="did not write SQL"):
        lots.ask("What is the price of lot 1?")


@pytest.mark.parametrize(
    ("reply", "sql"),
    [
        ("```sqlite\nSELECT 1;\n```", "SELECT 1"),
        ("The query:\nWITH a AS (SELECT 1) SELECT * FROM a;\nDone.", "WITH a AS (SELECT 1) SELECT * FROM a"),
        ("```\nSELECT a\nFROM t\n", "SELECT a\nFROM t"),
    ],
)
def test_reply_sql(reply, sql):
    assert reply_sql(reply) == sql


def test_no_rows_for_a_value_the_column_lacks_gets_one_repair(lots, scripted):
    scripted.push(
        "SELECT county FROM towns WHERE town = 'Qwxz'",
        "SELECT county FROM towns WHERE town = 'Wells'",
    )
    seen = []
    reply = lots.ask("Which county is the town of Wells in?", on_event=seen.append)
    failed = [e.step.error for e in seen if isinstance(e, StepFailed)]
    assert failed == [
        "it returned no rows: 'Qwxz' is not a value of towns.town, nor close to one; compare with the example rows"
    ]
    assert reply.result.to_dict("records") == [{"county": "Somerset"}]


def test_a_value_compared_with_the_wrong_column_is_said_to_be_a_value_of_its_own(lots, scripted):
    scripted.push(
        "SELECT l.lot_id FROM lots AS l JOIN towns AS t ON t.town_id = l.town_id WHERE t.town = 'somerset'",
        "SELECT l.lot_id FROM lots AS l JOIN towns AS t ON t.town_id = l.town_id WHERE t.county = 'Somerset'",
    )
    seen = []
    reply = lots.ask("Which lots are in Somerset?", on_event=seen.append)
    assert [e.step.error for e in seen if isinstance(e, StepFailed)] == [
        "it returned no rows: 'somerset' is not a value of towns.town, nor close to one; it is a value of"
        " towns.county; compare with the example rows"
    ]
    assert reply.result.to_dict("records") == [{"lot_id": 3}]


def test_a_count_of_zero_for_a_value_the_column_lacks_gets_one_repair(lots, scripted):
    scripted.push(
        "SELECT COUNT(*) FROM lots AS l JOIN towns AS t ON t.town_id = l.town_id WHERE t.town = 'Somerset'",
        "SELECT COUNT(*) FROM lots AS l JOIN towns AS t ON t.town_id = l.town_id WHERE t.county = 'Somerset'",
    )
    seen = []
    reply = lots.ask("How many lots are in Somerset?", on_event=seen.append)
    assert [e.step.error for e in seen if isinstance(e, StepFailed)][0].startswith(
        "it returned nothing (0 or NULL): 'Somerset' is not a value of towns.town"
    )
    assert reply.result.iat[0, 0] == 1


def test_no_rows_is_an_answer_when_no_repair_is_left(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native", revisions=0)
    chatdb.register("towns", pd.DataFrame({"town": ["Ely", "Wells"], "county": ["Cambs", "Somerset"]}))
    scripted.push("SELECT county FROM towns WHERE town = 'Qwxz'")
    reply = chatdb.ask("Which county is the town of qwxz in?")
    assert reply.result.empty and "No rows" in reply.answer
    chatdb.close()


def test_the_prompt_names_the_stored_values_the_question_mentions(lots, scripted):
    scripted.push("SELECT county FROM towns WHERE town = 'Wells'")
    lots.ask("Which county is the town of wells in?")
    prompt = scripted.calls[0].messages[-1]["content"]
    assert "-- Values in the tables that the question mentions: towns.town = 'Wells'\n" in prompt
    assert prompt.index("mentions") > prompt.index("CREATE TABLE towns")  # after the cached tables


def test_a_function_word_is_not_taken_for_a_stored_value(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.register("kits", pd.DataFrame({"kind": ["With", "Without"], "maker": ["Ostler", "Vane"]}))
    scripted.push("```sql\nSELECT kind FROM kits WHERE maker = 'Vane';\n```")
    chatdb.ask("Which kits come with a manual from Vane?")
    prompt = scripted.calls[0].messages[-1]["content"]
    assert "-- Values in the tables that the question mentions: kits.maker = 'Vane'\n" in prompt
    chatdb.close()


def test_a_word_that_names_a_column_is_not_taken_for_a_value(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.register("parcels", pd.DataFrame({"delivery_option": ["Option", "Express"], "tracked": ["yes", "no"]}))
    scripted.push("SELECT delivery_option FROM parcels WHERE tracked = 'yes'")
    chatdb.ask("What are the delivery options of tracked parcels?")
    assert "mentions" not in scripted.calls[0].messages[-1]["content"]
    chatdb.close()


def test_a_question_naming_a_stored_value_is_a_read_without_a_route_call(lots, scripted):
    scripted.push("```sql\nSELECT county FROM towns WHERE town = 'Ely'\n```")
    reply = lots.ask("Where is Ely?")  # no table's or column's word, but a town's name
    assert len(scripted.calls) == 1 and scripted.calls[0].json_schema is None
    assert reply.result.to_dict("records") == [{"county": "Cambs"}]


def test_a_question_naming_nothing_in_the_data_is_routed_by_the_model(lots, scripted):
    scripted.push({"route": "chat"}, {"answer": "I answer questions about your tables."})
    reply = lots.ask("What can you do?")
    assert reply.route == "chat" and scripted.calls[0].json_schema is not None


def test_a_moment_compared_with_a_day_reads_that_whole_day(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    moments = pd.to_datetime(["2025-02-03 09:30", "2025-02-03 16:00", "2025-02-04 10:00"])
    chatdb.register("voyages", pd.DataFrame({"voyage_id": [1, 2, 3], "sets_off": moments}))
    scripted.push("SELECT voyage_id FROM voyages WHERE sets_off = '2025-02-03'")
    try:
        reply = chatdb.ask("Which voyages are on 3 February 2025?")
    finally:
        chatdb.close()
    assert reply.sql == ["SELECT voyage_id FROM voyages WHERE CAST(sets_off AS DATE) = '2025-02-03'"]
    assert reply.result["voyage_id"].tolist() == [1, 2]  # as written, midnight only: no voyage


@pytest.fixture
def crossings(scripted) -> ChatDB:
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native")
    chatdb.register(
        "ferries",
        pd.DataFrame({"ferry_id": [1, 2, 3], "kind": ["car", "car", "foot"], "call_sign": ["Tern", "Skua", "Puffin"]}),
    )
    chatdb.register("crossings", pd.DataFrame({"crossing_id": [10, 11, 12], "ferry_id": [1, 3, 1]}))
    yield chatdb
    chatdb.close()


def test_a_reference_joined_only_to_be_shown_shows_the_label_of_its_row(crossings, scripted):
    scripted.push("SELECT c.crossing_id, c.ferry_id FROM crossings AS c JOIN ferries AS f ON c.ferry_id = f.ferry_id")
    reply = crossings.ask("Which ferry made each crossing?")
    # the label is the first text column whose values all differ (kind repeats)
    assert reply.sql == [
        "SELECT c.crossing_id, f.call_sign FROM crossings AS c JOIN ferries AS f ON c.ferry_id = f.ferry_id"
    ]
    assert reply.result["call_sign"].tolist() == ["Tern", "Puffin", "Tern"]


def test_a_reference_the_request_names_is_shown_as_written(crossings, scripted):
    scripted.push("SELECT c.crossing_id, c.ferry_id FROM crossings AS c JOIN ferries AS f ON c.ferry_id = f.ferry_id")
    reply = crossings.ask("Give each crossing's ferry id.")
    assert reply.result["ferry_id"].tolist() == [1, 3, 1]


def test_a_fix_up_rule_left_out_leaves_its_sql_as_written(scripted):
    chatdb = ChatDB(model=scripted, summarize=False, strategy="native", without=("labels_for_keys",))
    chatdb.register("ferries", pd.DataFrame({"ferry_id": [1, 3], "call_sign": ["Tern", "Puffin"]}))
    chatdb.register("crossings", pd.DataFrame({"crossing_id": [10, 11], "ferry_id": [1, 3]}))
    sql = "SELECT c.crossing_id, c.ferry_id FROM crossings AS c JOIN ferries AS f ON c.ferry_id = f.ferry_id"
    scripted.push(sql)
    try:
        reply = chatdb.ask("Which ferry made each crossing?")
    finally:
        chatdb.close()
    assert reply.sql == [sql]
