"""The one-round strategy (the Foundation's baseline: one SQL as JSON, run as a plan's one step), driven by a
scripted model against a real DuckDB session."""

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import (
    Answered,
    ModelText,
    PlanMade,
    RequestStarted,
    RolledBack,
    StepDone,
    StepFailed,
    StepPlanned,
    StepStarted,
)
from jupyter_chatdb.errors import ChatDBError, ModelOutputError, QueryFailed, SQLRefused

from .conftest import chatdb_of_sales


@pytest.fixture
def db(scripted, sales):
    yield from chatdb_of_sales(scripted, sales, strategy="one-round")


def kinds(events):
    return [type(e).__name__ for e in events if not isinstance(e, ModelText)]


def test_question_is_answered_from_the_result(db, scripted):
    scripted.push(
        {"sql": "SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY units DESC LIMIT 1"},
        {"answer": "North sold the most: 17 units."},
    )
    events = []
    reply = db.ask("Which region sold the most units?", on_event=events.append)
    assert reply.answer == "North sold the most: 17 units."
    # ties are broken by the group key, as SQLite breaks them
    assert reply.sql == [
        "SELECT region, SUM(units) AS units FROM sales GROUP BY region ORDER BY units DESC, region DESC LIMIT 1"
    ]
    assert reply.result.to_dict("records") == [{"region": "North", "units": 17}]
    assert reply.usage.calls == 2
    assert kinds(events) == ["RequestStarted", "PlanMade", "StepPlanned", "StepStarted", "StepDone", "Answered"]
    assert any(isinstance(e, ModelText) for e in events)  # output streamed as it came


def test_prompt_has_compact_schema_with_samples_and_the_request(db, scripted):
    scripted.push({"sql": "SELECT count(*) AS n FROM sales"}, {"answer": "5"})
    db.ask("How many sales?")
    sql_call = scripted.calls[0]
    prompt = sql_call.messages[-1]["content"]
    assert "CREATE TABLE sales (" in prompt
    assert "region VARCHAR, -- e.g. 'North', 'South', 'East'" in prompt
    assert "); -- 5 rows" in prompt
    assert prompt.endswith("Request: How many sales?")
    assert sql_call.json_schema["required"] == ["sql"]
    assert "Only read data" in sql_call.messages[0]["content"]
    answer_prompt = scripted.calls[1].messages[-1]["content"]
    assert "Result (1 row):\nn\n5" in answer_prompt


def test_duckdb_error_gets_one_repair_round_with_the_error(db, scripted):
    scripted.push(
        {"sql": "SELECT region FROM sales WHERE units > 'many'"},
        {"sql": "SELECT region FROM sales WHERE units > 10"},
        {"answer": "South."},
    )
    events = []
    reply = db.ask("Which regions had a sale over 10 units?", on_event=events.append)
    assert reply.result["region"].tolist() == ["South"]
    failed = [e for e in events if isinstance(e, StepFailed)]
    assert len(failed) == 1 and failed[0].will_retry and "many" in failed[0].step.error
    repair = scripted.calls[1].messages
    assert repair[-2]["role"] == "assistant" and "'many'" in repair[-2]["content"]
    assert "Running that SQL failed with:" in repair[-1]["content"]
    assert [e.attempt for e in events if isinstance(e, StepPlanned)] == [1, 2]


def test_unknown_column_is_repaired_with_the_guard_suggestion(db, scripted):
    scripted.push({"sql": "SELECT regoin FROM sales"}, {"sql": "SELECT DISTINCT region FROM sales"}, {"answer": "3"})
    db.ask("Which regions are there?")
    assert "did you mean 'region'?" in scripted.calls[1].messages[-1]["content"]


def test_second_failure_is_reported_and_nothing_is_left_to_call(db, scripted):
    scripted.push({"sql": "SELECT nope FROM sales"}, {"sql": "SELECT still_nope FROM sales"})
    events = []
    with pytest.raises(QueryFailed, match="Unknown column 'still_nope'"):
        db.ask("?", on_event=events.append)
    assert [e.will_retry for e in events if isinstance(e, StepFailed)] == [True, False]
    assert scripted.remaining == 0


def test_policy_refusal_is_not_sent_back_for_repair(db, scripted):
    scripted.push({"sql": "DELETE FROM sales"})
    with pytest.raises(SQLRefused, match="allow writes"):
        db.ask("Remove all sales")
    assert len(scripted.calls) == 1


def test_writes_run_in_one_transaction_and_report_rows(db, scripted):
    db.session.run("CREATE TABLE stock (fruit VARCHAR PRIMARY KEY, kg DOUBLE)")
    db.session.run("INSERT INTO stock VALUES ('apple', 10)")
    scripted.push(
        {"sql": "INSERT INTO stock VALUES ('cherry', 24); UPDATE stock SET kg = kg - 2 WHERE fruit = 'apple'"}
    )
    reply = db.ask("We got 24 kg of cherry and sold 2 kg of apple", allow_writes=True)
    assert [s.rows_affected for s in reply.steps] == [2]  # one step of two statements
    assert reply.result is None
    assert reply.answer.startswith("Recorded: stock") and len(scripted.calls) == 1  # what changed, not phrased
    assert db.session.run("SELECT kg FROM stock ORDER BY fruit").frame["kg"].tolist() == [8.0, 24.0]


def test_failed_write_chain_rolls_back_every_statement(db, scripted):
    db.session.run("CREATE TABLE stock (fruit VARCHAR PRIMARY KEY, kg DOUBLE)")
    script = {"sql": "INSERT INTO stock VALUES ('pear', 5); INSERT INTO stock VALUES ('pear', 6)"}
    scripted.push(script, script)  # the repair round repeats the mistake
    events = []
    with pytest.raises(QueryFailed, match="(?i)duplicate key"):
        db.ask("Add pear twice", allow_writes=True, on_event=events.append)
    assert sum(isinstance(e, RolledBack) for e in events) == 1
    assert [e.will_retry for e in events if isinstance(e, StepFailed)] == [True, False]
    assert db.session.run("SELECT count(*) FROM stock").scalar == 0


def test_without_summary_the_answer_comes_from_the_result(scripted, sales):

    db = ChatDB(model=scripted, summarize=False, strategy="one-round")
    db.register("sales", sales)
    scripted.push({"sql": "SELECT sum(units) AS units FROM sales"})
    assert db.ask("Total units?").answer == "units: 36"
    assert len(scripted.calls) == 1


def test_non_json_model_output_is_a_clear_error(db, scripted):
    scripted.push("SELECT 1")
    with pytest.raises(ModelOutputError, match="did not return SQL"):
        db.ask("anything")


def test_empty_request_and_empty_database_are_explained(scripted):

    db = ChatDB(model=scripted, strategy="one-round")
    with pytest.raises(ChatDBError, match="request is empty"):
        db.ask("   ")
    with pytest.raises(ChatDBError, match="no data to query"):
        db.ask("How many?")
    assert scripted.calls == []


def test_events_describe_the_run_in_order(db, scripted):
    scripted.push({"sql": "SELECT 1 AS one"}, {"answer": "1"})
    events = [e for e in db.events("one?") if not isinstance(e, ModelText)]
    assert isinstance(events[0], RequestStarted) and events[0].tables == ("sales",)
    assert isinstance(events[1], PlanMade) and isinstance(events[2], StepPlanned)
    assert isinstance(events[3], StepStarted)
    assert isinstance(events[4], StepDone) and events[4].step.result.row_count == 1
    assert isinstance(events[-1], Answered)


def test_an_answer_with_numbers_not_in_the_result_falls_back_to_the_result(db, scripted):
    scripted.push(
        {"sql": "SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY units DESC"},
        {"answer": "22 + 16 + 3 = 41 units."},  # the model's own (wrong) arithmetic
    )
    assert db.ask("How many units did each region sell?").answer == "North (17); South (16); East (3)."
    scripted.push({"sql": "SELECT sum(units) AS units FROM sales"}, {"answer": "They sold 36 units."})
    assert db.ask("How many units in total?").answer == "They sold 36 units."
