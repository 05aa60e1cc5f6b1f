"""The chain-of-memory controller, driven by a scripted model against a real DuckDB database."""

import threading

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import (
    Answered,
    ApprovalNeeded,
    CandidatesVoted,
    Committed,
    PlanMade,
    RolledBack,
    Routed,
    StepFailed,
    ValueCorrected,
)
from jupyter_chatdb.errors import ChatDBError, ModelOutputError, QueryFailed, SQLRefused
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.widgets.render import chain_html
from jupyter_chatdb.widgets.state import ChainState

from .conftest import PLAN_WRITES, chatdb_of_sales, plan

SHOP = """
CREATE SEQUENCE customer_seq START 1;
CREATE SEQUENCE sale_seq START 1;
CREATE TABLE fruits (fruit_id INTEGER PRIMARY KEY, name VARCHAR UNIQUE, price DECIMAL(10, 2), stock_kg DECIMAL(10, 2));
CREATE TABLE customers (customer_id INTEGER PRIMARY KEY DEFAULT nextval('customer_seq'), name VARCHAR);
CREATE TABLE sales (sale_id INTEGER PRIMARY KEY DEFAULT nextval('sale_seq'),
                    customer_id INTEGER REFERENCES customers (customer_id), sale_date DATE);
CREATE TABLE sale_items (sale_id INTEGER REFERENCES sales (sale_id), fruit_id INTEGER REFERENCES fruits (fruit_id),
                         kg DECIMAL(10, 2), unit_price DECIMAL(10, 2));
INSERT INTO fruits VALUES (1, 'apple', 2.70, 27), (2, 'pear', 1.10, 30);
INSERT INTO customers (name) VALUES ('Bob Lewis');
"""

SALE = [
    ("SELECT customer_id FROM customers WHERE name = 'Bob Lewis'", ["customer_id"]),
    (
        "INSERT INTO sales (customer_id, sale_date) VALUES (<customer_id>, DATE '2023-01-01') RETURNING sale_id",
        ["sale_id"],
    ),
    "INSERT INTO sale_items SELECT <sale_id>, fruit_id, 8, price FROM fruits WHERE name = 'apple'",
    "UPDATE fruits SET stock_kg = stock_kg - 8 WHERE name = 'apple'",
]


@pytest.fixture
def db(scripted, sales):
    """The chain's own tests plan every read as JSON steps (strategy "chain"; reads default to "native")."""
    yield from chatdb_of_sales(scripted, sales, strategy="chain")


@pytest.fixture
def shop(scripted):
    chatdb = ChatDB(model=scripted, schema=SHOP, summarize=False, strategy="chain")
    yield chatdb
    chatdb.close()


def state(db):
    return {
        t: db.session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("fruits", "customers", "sales", "sale_items")
    }


def test_a_record_becomes_a_chain_whose_results_feed_later_steps(shop, scripted):
    scripted.push({"route": "write"}, plan(*SALE))
    events = []
    reply = shop.ask("Bob Lewis bought 8 kg of apple on 2023-01-01.", allow_writes=True, on_event=events.append)
    assert shop.session.rows("SELECT * FROM sales") == [(1, 1, __import__("datetime").date(2023, 1, 1))]
    assert shop.session.rows("SELECT sale_id, fruit_id, kg, unit_price FROM sale_items")[0][:2] == (1, 1)
    assert shop.session.rows("SELECT stock_kg FROM fruits WHERE name = 'apple'") == [(19,)]
    assert (
        reply.sql[1]
        == "INSERT INTO sales (customer_id, sale_date) VALUES (1, CAST('2023-01-01' AS DATE)) RETURNING sale_id"
    )
    assert reply.sql[2].startswith("INSERT INTO sale_items SELECT 1, fruit_id")
    assert reply.request_id == 1 and not reply.pending
    assert reply.answer == "Recorded: sales: 1 added; sale_items: 1 added; fruits: 1 changed."
    assert [type(e) for e in events if isinstance(e, (Routed, PlanMade, Committed, Answered))] == [
        Routed,
        PlanMade,
        Committed,
        Answered,
    ]
    assert scripted.calls[1].json_schema["properties"]["steps"]["maxItems"] == 12


def test_planning_prompt_has_schema_with_keys_examples_and_the_request(shop, scripted):
    scripted.push({"route": "write"}, plan(*SALE))
    shop.ask("Bob Lewis bought 8 kg of apple on 2023-01-01.", allow_writes=True)
    system, user = (m["content"] for m in scripted.calls[1].messages)
    assert "Worked examples on other tables" in system and "RETURNING run_id" in system
    assert "FOREIGN KEY (customer_id) REFERENCES customers (customer_id)" in user
    assert user.endswith("Request: Bob Lewis bought 8 kg of apple on 2023-01-01.")
    assert scripted.calls[0].json_schema["properties"]["route"]["enum"] == [
        "read",
        "write",
        "database",
        "unsafe",
        "chat",
    ]


def test_an_empty_lookup_gets_the_rest_of_the_plan_revised(shop, scripted):
    scripted.push(
        {"route": "write"},
        plan(("SELECT customer_id FROM customers WHERE name = 'Ann Lee'", ["customer_id"]), *SALE[1:2]),
        plan(
            ("INSERT INTO customers (name) VALUES ('Ann Lee') RETURNING customer_id", ["customer_id"]),
            SALE[1],
        ),
    )
    events = []
    reply = shop.ask("Ann Lee bought something on 2023-01-01.", allow_writes=True, on_event=events.append)
    failed = [e for e in events if isinstance(e, StepFailed)]
    assert len(failed) == 1 and failed[0].will_retry and "returned no row" in failed[0].step.error
    assert [e.first for e in events if isinstance(e, PlanMade)] == [1, 1]
    revise_prompt = scripted.calls[2].messages[-1]["content"]
    assert (
        "Step 1 failed:\nSELECT customer_id FROM customers WHERE name = 'Ann "
        "Lee'\nProblem: it returned no row, and later steps need customer_id" in revise_prompt
    )
    assert shop.session.rows("SELECT c.name FROM sales JOIN customers AS c USING (customer_id)") == [("Ann Lee",)]
    assert len(reply.steps) == 2


def test_an_execution_error_mid_chain_is_revised_after_replaying_the_steps_done(shop, scripted):
    scripted.push(
        {"route": "write"},
        plan(
            SALE[0],
            SALE[1],
            "INSERT INTO sale_items SELECT <sale_id>, fruit_id, 8, 'cheap' FROM fruits WHERE name = 'apple'",
        ),
        plan(SALE[2]),
    )
    reply = shop.ask("Bob bought 8 kg of apple on 2023-01-01.", allow_writes=True)
    # DuckDB aborted the transaction at the error; the two steps done were run again, binding the new sale id
    assert shop.session.rows("SELECT count(*) FROM sales") == [(1,)]
    assert shop.session.rows("SELECT sale_id FROM sale_items") == shop.session.rows("SELECT sale_id FROM sales")
    assert len(reply.steps) == 3


def test_a_failed_chain_rolls_back_everything_and_names_the_step(shop, scripted):
    before = state(shop)
    scripted.push(
        {"route": "write"},
        plan(*SALE[:2], "UPDATE fruits SET stock_kg = stock_kg - 8 WHERE name = 'kiwi'"),
        plan("UPDATE fruits SET stock_kg = stock_kg - 8 WHERE name = 'kiwi'"),
        plan("UPDATE fruits SET stock_kg = stock_kg - 8 WHERE name = 'kiwi'"),
    )
    events = []
    with pytest.raises(QueryFailed, match=r"Step 3 \(step 1\) failed: it changed no row"):
        shop.ask("Bob bought 8 kg of kiwi.", allow_writes=True, on_event=events.append)
    assert state(shop) == before
    assert isinstance(events[-1], RolledBack) and "step 3 did not complete" in events[-1].reason
    assert shop.history().empty


def test_writes_without_permission_are_a_dry_run_that_apply_runs(shop, scripted):
    before = state(shop)
    scripted.push({"route": "write"}, plan(*SALE))
    events = []
    pending = shop.ask("Bob Lewis bought 8 kg of apple on 2023-01-01.", on_event=events.append)
    assert pending.pending and state(shop) == before
    approval = next(e for e in events if isinstance(e, ApprovalNeeded))
    assert approval.reason == "writes are not allowed"
    touched = {c.table: c for c in approval.changes}
    assert touched["fruits"].new["stock_kg"].tolist() == [19] and touched["fruits"].old["stock_kg"].tolist() == [27]
    assert pending.answer == "Would change (not applied yet): sales: 1 added; sale_items: 1 added; fruits: 1 changed."
    calls = len(scripted.calls)
    applied = shop.apply(pending)
    assert len(scripted.calls) == calls  # no model call: the approved plan runs as it is
    assert applied.request_id == 1 and shop.session.rows("SELECT stock_kg FROM fruits WHERE name = 'apple'") == [(19,)]
    with pytest.raises(ChatDBError, match="no pending writes"):
        shop.apply(applied)


def test_changing_every_row_needs_approval_even_with_writes_allowed(shop, scripted):
    scripted.push({"route": "write"}, plan("UPDATE fruits SET price = price * 1.1"))
    reply = shop.ask("Raise all prices by 10%.", allow_writes=True)
    assert reply.pending and shop.session.rows("SELECT price::VARCHAR FROM fruits ORDER BY 1") == [("1.10",), ("2.70",)]
    shop.apply(reply)
    assert shop.session.rows("SELECT price::VARCHAR FROM fruits ORDER BY 1") == [("1.21",), ("2.97",)]


def test_unparseable_plan_gets_one_retry_then_a_clear_failure(shop, scripted):
    scripted.push({"route": "read"}, "SELECT 1", {"steps": []})
    with pytest.raises(ModelOutputError, match="did not return a usable plan"):
        shop.ask("How many fruits?")
    assert "That is not a plan" in scripted.calls[2].messages[-1]["content"]


def test_policy_refusals_are_not_sent_back_to_the_model(shop, scripted):
    scripted.push({"route": "write"}, plan("DROP TABLE sales"))
    with pytest.raises(SQLRefused, match="DROP is not allowed"):
        shop.ask("Forget all sales.", allow_writes=True)
    assert len(scripted.calls) == 2


def test_chat_requests_are_answered_without_sql(shop, scripted):
    scripted.push({"route": "chat"}, {"answer": "Hello! Ask me about your fruits."})
    reply = shop.ask("Hi there")
    assert reply.route == "chat" and reply.sql == [] and reply.answer.startswith("Hello")


def test_reads_answer_from_the_last_result(shop, scripted):
    scripted.push({"route": "read"}, plan("SELECT name, stock_kg FROM fruits ORDER BY stock_kg DESC LIMIT 1"))
    reply = shop.ask("Which fruit has the most stock?")
    assert reply.result.to_dict("records") == [{"name": "pear", "stock_kg": 30}]
    assert reply.answer == "name: pear; stock_kg: 30.00." or reply.answer.startswith("name: pear")


def test_self_consistency_keeps_the_result_most_candidates_agree_on(scripted):
    db = ChatDB(model=scripted, schema=SHOP, summarize=False, candidates=3, strategy="chain")
    scripted.push(
        {"route": "read"},
        plan("SELECT name FROM fruits ORDER BY price LIMIT 1"),
        plan("SELECT name FROM fruits ORDER BY price DESC LIMIT 1"),
        plan("SELECT name FROM fruits WHERE price = (SELECT max(price) FROM fruits)"),
    )
    events = []
    reply = db.ask("Which fruit is the most expensive?", on_event=events.append)
    assert reply.result["name"].tolist() == ["apple"]
    vote = next(e for e in events if isinstance(e, CandidatesVoted))
    assert (vote.candidates, vote.agreeing) == (3, 2)
    assert [c.temperature for c in scripted.calls[1:]] == [0.0, 0.7, 0.7]


def test_undo_and_restore_bring_back_exact_states(shop, scripted):
    states = [state(shop)]
    for day in (1, 2, 3):
        scripted.push(
            {"route": "write"},
            plan(
                *[
                    s.replace("2023-01-01", f"2023-01-0{day}")
                    if isinstance(s, str)
                    else (s[0].replace("2023-01-01", f"2023-01-0{day}"), s[1])
                    for s in SALE
                ]
            ),
        )
        shop.ask(f"Bob bought 8 kg of apple on 2023-01-0{day}.", allow_writes=True)
        states.append(state(shop))
    assert shop.history()["request_id"].tolist() == [1, 2, 3]
    assert [u.request_id for u in shop.undo()] == [3] and state(shop) == states[2]
    assert [u.request_id for u in shop.restore(1)] == [2] and state(shop) == states[1]
    assert [u.request_id for u in shop.restore(0)] == [1] and state(shop) == states[0]
    history = shop.history()
    assert history["undone_at"].notna().all()
    assert history["statements"][0][0] == "SELECT customer_id FROM customers WHERE name = 'Bob Lewis'"
    with pytest.raises(ChatDBError, match="nothing to undo"):
        shop.undo()


def test_undo_keeps_changes_made_outside_the_request(shop, scripted):
    scripted.push({"route": "write"}, plan(*SALE))
    shop.ask("Bob bought 8 kg of apple on 2023-01-01.", allow_writes=True)
    shop.session.rows("INSERT INTO customers (name) VALUES ('Walk-in')")
    shop.session.rows("UPDATE fruits SET price = 1.25 WHERE name = 'pear'")
    shop.undo()
    assert shop.session.rows("SELECT name FROM customers ORDER BY 1") == [("Bob Lewis",), ("Walk-in",)]
    assert shop.session.rows("SELECT name, price::VARCHAR, stock_kg FROM fruits ORDER BY 1") == [
        ("apple", "2.70", 27),
        ("pear", "1.25", 30),
    ]


def test_the_journal_survives_a_restart_with_a_file_database(tmp_path):
    path = tmp_path / "shop.duckdb"
    first = ChatDB(
        model=ScriptedBackend([{"route": "write"}, plan(*SALE)]),
        database=path,
        schema=SHOP,
        summarize=False,
        without=PLAN_WRITES,
    )
    before = state(first)
    first.ask("Bob bought 8 kg of apple on 2023-01-01.", allow_writes=True)
    first.close()
    second = ChatDB(
        model=ScriptedBackend(), database=path, schema=SHOP, summarize=False
    )  # schema skipped: tables exist
    assert second.history()["request"].tolist() == ["Bob bought 8 kg of apple on 2023-01-01."]
    second.undo()
    assert state(second) == before
    second.close()


def test_an_empty_database_can_be_given_tables_by_a_write_request(scripted):
    db = ChatDB(model=scripted, summarize=False, strategy="chain")
    scripted.push(
        {"route": "write"},
        plan(
            "CREATE TABLE expenses (expense_id INTEGER PRIMARY KEY, item VARCHAR, amount DECIMAL(10, 2))",
            "INSERT INTO expenses VALUES (1, 'coffee', 3.50)",
        ),
    )
    reply = db.ask("Track my expenses: coffee 3.50.", allow_writes=True)
    assert db.session.rows("SELECT item, amount FROM expenses") == [("coffee", 3.50)]
    assert reply.answer == "Recorded: expenses: created, 1 rows."
    db.undo()
    assert "expenses" not in db.session.stored_tables()


def test_create_is_refused_in_a_read(shop, scripted):
    scripted.push({"route": "read"}, plan("CREATE TABLE t (a INTEGER)"))
    with pytest.raises(SQLRefused, match="allow writes"):
        shop.ask("make a table")


def test_schema_file_must_exist(scripted, tmp_path):
    with pytest.raises(ChatDBError, match="No schema file"):
        ChatDB(model=scripted, schema=tmp_path / "missing.sql")


def test_ctrl_c_during_generation_stops_the_chain_and_rolls_back(shop):
    class InterruptingModel(ScriptedBackend):
        def complete(self, messages, **kwargs):
            if len(self.calls) == 2:  # the revision call
                raise KeyboardInterrupt
            return super().complete(messages, **kwargs)

    model = InterruptingModel([{"route": "write"}, plan(*SALE[:2], ("SELECT 1 WHERE false", ["x"]))])
    db = ChatDB(model=model, schema=SHOP, summarize=False, strategy="chain")
    before = state(db)
    events = []
    with pytest.raises(KeyboardInterrupt):
        db.ask("Bob bought apples.", allow_writes=True, on_event=events.append)
    assert state(db) == before and isinstance(events[-1], RolledBack)
    assert threading.active_count() < 20


def test_sql_with_other_dialects_habits_is_transpiled_for_duckdb(shop, scripted):
    scripted.push({"route": "read"}, plan("SELECT `name` FROM fruits ORDER BY `name` LIMIT 1, 1"))
    reply = shop.ask("Second fruit by name?")
    assert reply.sql == [
        'SELECT "name" FROM fruits ORDER BY "name" NULLS FIRST LIMIT 1 OFFSET 1'
    ]  # MySQL's NULL order kept
    assert reply.result["name"].tolist() == ["pear"]


def test_a_view_that_stops_listening_leaves_nothing_written(shop, scripted):
    before = state(shop)
    scripted.push({"route": "write"}, plan(*SALE))
    events = shop.events("Bob bought 8 kg of apple.", allow_writes=True)
    for event in events:
        if isinstance(event, StepFailed) or type(event).__name__ == "StepDone" and event.step.index == 3:
            break
    events.close()
    assert state(shop) == before
    shop.session.rows("BEGIN TRANSACTION")  # the session is not left inside a transaction
    shop.session.rows("ROLLBACK")


def test_a_read_whose_plan_keeps_failing_gets_one_plain_sql_try(shop, scripted):
    bad = plan("SELECT name FROM products")
    scripted.push({"route": "read"}, bad, bad, bad, {"sql": "SELECT name FROM fruits ORDER BY stock_kg DESC LIMIT 1"})
    events = []
    reply = shop.ask("Which fruit has the most stock?", on_event=events.append)
    assert reply.result["name"].tolist() == ["pear"]
    assert any(type(e).__name__ == "FellBack" and "Unknown table 'products'" in e.reason for e in events)
    assert reply.usage.calls == 5


def test_an_invented_join_is_dropped_when_the_own_table_has_the_columns(shop, scripted):
    scripted.push(
        {"route": "read"},
        plan(
            "SELECT p.name FROM fruits AS f JOIN products AS p ON f.fruit_id = p.fruit_id ORDER BY p.stock_kg DESC LIMIT 1"
        ),
    )
    reply = shop.ask("Which fruit has the most stock?")
    assert reply.sql == ["SELECT f.name FROM fruits AS f ORDER BY f.stock_kg DESC LIMIT 1"]
    assert reply.result["name"].tolist() == ["pear"]


def test_a_schema_that_does_not_load_says_so(scripted):
    with pytest.raises(ChatDBError, match="The schema did not load: Parser Error"):
        ChatDB(model=scripted, schema="CREATE TABLE (oops;")


# -- data-value memory ---------------------------------------------------------------------------


@pytest.fixture
def customers(scripted):
    db = ChatDB(model=scripted, summarize=False, strategy="chain")
    db.register(
        "customers",
        pd.DataFrame(
            {"name": ["Ann", "Bob", "Chen"], "city": ["LA", "New York", "LA"], "region": ["North", "Norte", "South"]}
        ),
    )
    yield db
    db.close()


def test_a_literal_the_column_does_not_hold_is_corrected_and_shown(customers, scripted):
    scripted.push({"route": "read"}, plan("SELECT count(*) AS n FROM customers WHERE city = 'Los Angeles'"))
    events = list(customers.events("How many customers live in Los Angeles?"))
    (correction,) = [e for e in events if isinstance(e, ValueCorrected)]
    assert (correction.old, correction.new, correction.how) == ("Los Angeles", "LA", "initials")
    reply = events[-1].reply
    assert reply.sql == ["SELECT COUNT(*) AS n FROM customers WHERE city = 'LA'"] and reply.result["n"].tolist() == [2]
    state = ChainState()
    for event in events:
        state.apply(event)
    assert "Value corrections:" in chain_html(state) and "&#x27;Los Angeles&#x27; → &#x27;LA&#x27;" in chain_html(state)


def test_the_value_correction_left_out_leaves_the_literal_as_written(scripted):
    db = ChatDB(model=scripted, summarize=False, strategy="chain", without=("correct_values",))
    db.register("customers", pd.DataFrame({"name": ["Ann", "Bob"], "city": ["LA", "New York"]}))
    scripted.push({"route": "read"}, plan("SELECT count(*) AS n FROM customers WHERE city = 'Los Angeles'"))
    try:
        events = list(db.events("How many customers live in Los Angeles?"))
    finally:
        db.close()
    assert not [e for e in events if isinstance(e, ValueCorrected)]
    assert events[-1].reply.sql == ["SELECT COUNT(*) AS n FROM customers WHERE city = 'Los Angeles'"]


def test_several_close_values_are_a_constrained_choice_for_the_model(customers, scripted):
    scripted.push({"route": "read"}, plan("SELECT name FROM customers WHERE region = 'Nort'"), {"value": "North"})
    reply = customers.ask("Who is in the Nort region?")
    assert scripted.calls[-1].json_schema["properties"]["value"]["enum"][-1] == "Nort"
    assert set(scripted.calls[-1].json_schema["properties"]["value"]["enum"][:-1]) == {"North", "Norte"}
    assert reply.result["name"].tolist() == ["Ann"]


def test_an_empty_result_for_an_unknown_value_says_so(customers, scripted):
    scripted.push({"route": "read"}, plan("SELECT name FROM customers WHERE city = 'Tokyo'"))
    reply = customers.ask("Who lives in tokyo?")
    assert reply.answer.endswith("(No rows: 'Tokyo' is not a value of customers.city, nor close to one.)")


def test_a_like_pattern_that_matches_nothing_gets_the_stored_value_inside_its_wildcards(customers, scripted):
    scripted.push({"route": "read"}, plan("SELECT count(*) AS n FROM customers WHERE city LIKE '%new york%'"))
    events = list(customers.events("How many customers live in New York?"))
    (correction,) = [e for e in events if isinstance(e, ValueCorrected)]
    assert (correction.old, correction.new, correction.how) == ("%new york%", "%New York%", "case")
    assert events[-1].reply.result["n"].tolist() == [1]
    scripted.push(
        {"route": "read"}, plan("SELECT count(*) AS n FROM customers WHERE city ILIKE '%new york%' OR name LIKE 'A_n'")
    )
    events = list(customers.events("How many customers live in New York, or are called Ann?"))
    assert not [e for e in events if isinstance(e, ValueCorrected)]  # patterns that match a stored value are kept
    scripted.push({"route": "read"}, plan("SELECT name FROM customers WHERE city LIKE '%Tokyo%'"))
    assert customers.ask("Who lives in tokyo?").answer.endswith(
        "(No rows: no value of customers.city matches '%Tokyo%' or is close to it.)"
    )


def test_sql_written_by_the_user_is_never_corrected(customers):
    reply = customers.run_sql("SELECT count(*) AS n FROM customers WHERE city = 'Los Angeles'")
    assert reply.result["n"].tolist() == [0]


def test_an_approved_write_runs_with_the_literal_as_corrected_in_its_preview(customers, scripted):
    customers.run_sql("CREATE TABLE la_customers (name VARCHAR)", allow_writes=True)
    scripted.push(
        {"route": "write"},
        {"table": "la_customers"},
        plan("INSERT INTO la_customers SELECT name FROM customers WHERE city = 'Los Angeles'"),
    )
    reply = customers.ask("Copy the customers of Los Angeles")
    assert reply.pending and "2 added" in reply.answer
    customers.apply(reply)
    assert sorted(customers.run_sql("SELECT name FROM la_customers").result["name"]) == ["Ann", "Chen"]


def test_a_request_that_may_write_is_told_which_tables_are_read_only_dataframes(db, scripted):
    scripted.push(
        {"route": "write"}, {"table": "a new table"}, plan("INSERT INTO sales VALUES ('West', 'fig', 1, 2.0)")
    )
    with pytest.raises(ChatDBError):
        db.ask("Add a sale of 1 fig in the West at 2.0", allow_writes=True)
    planned = scripted.calls[2].messages[-1]["content"]
    assert "-- 5 rows, a DataFrame of the notebook: read-only, never written" in planned
