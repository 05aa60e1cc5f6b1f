"""The real embedded model (Qwen2.5-Coder-1.5B on the CPU): constrained JSON and one real question."""

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


def test_a_question_is_answered_end_to_end(model):
    db = ChatDB(model=model)
    db.register("sales", pd.DataFrame({"region": ["North", "South", "North", "East"], "units": [10, 4, 7, 3]}))
    reply = db.ask("How many units were sold in the North region in total?")
    assert reply.result.iat[0, 0] == 17
    assert "17" in reply.answer
    assert reply.usage.calls == 2
