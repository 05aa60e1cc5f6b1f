"""The prompts that choose a saved procedure for a write request and read its values (pure builders)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ..llm.base import JSONSchema, Message

CHOOSE_INSTRUCTIONS = """\
For each saved procedure, say whether it carries out a request to change a database: true when the \
request asks for the same kind of change as the procedure's example request (the names, numbers and \
wording may differ), else false. Reply with JSON."""


def choose_messages(request: str, procedures: Sequence[tuple[str, str, str]]) -> list[Message]:
    """The messages that ask which of `procedures` (name, example request, what it does) carry out `request`."""
    return [
        {"role": "system", "content": CHOOSE_INSTRUCTIONS},
        {"role": "user", "content": _procedures_and_request(request, procedures)},
    ]


def choose_schema(names: Sequence[str]) -> JSONSchema:
    """A yes or no for each procedure (one enum of names instead drew the model to the first listed)."""
    return {
        "type": "object",
        "properties": {name: {"type": "boolean"} for name in names},
        "required": list(names),
        "additionalProperties": False,
    }


NONE_PICKED = "none"
PICK_INSTRUCTIONS = """\
Which saved procedure carries out a request to change a database? Pick the one whose example request \
asks for the same kind of change (the names, numbers and wording may differ), or "none". Reply with JSON."""


def pick_messages(request: str, procedures: Sequence[tuple[str, str, str]]) -> list[Message]:
    """After a no to each of `procedures`: the messages that ask for one of them, or none."""
    return [
        {"role": "system", "content": PICK_INSTRUCTIONS},
        {"role": "user", "content": _procedures_and_request(request, procedures)},
    ]


def _procedures_and_request(request: str, procedures: Sequence[tuple[str, str, str]]) -> str:
    listed = "\n".join(f"- {name}: {does}. Example: {example}" for name, example, does in procedures)
    return f"Procedures:\n{listed}\nRequest: {request}"


def pick_schema(names: Sequence[str]) -> JSONSchema:
    return _one_of("procedure", [*names, NONE_PICKED])


FILL_INSTRUCTIONS = """\
You read the values of a saved procedure's parameters in a request. Copy each name, word and number as \
the request writes it; list every item the request names. Reply with JSON only."""


def fill_messages(name: str, example_request: str, example: Mapping[str, object], request: str) -> list[Message]:
    """The messages that ask for a procedure's values in `request`, after its own request and values (if known)."""
    messages: list[Message] = [{"role": "system", "content": f"{FILL_INSTRUCTIONS}\nProcedure: {name}"}]
    if example:
        messages += [
            {"role": "user", "content": f"Request: {example_request}"},
            {"role": "assistant", "content": json.dumps(example, default=str)},
        ]
    return [*messages, {"role": "user", "content": f"Request: {request}"}]


ENTRY_INSTRUCTIONS = """\
A request gives words for a column that holds one entry of a list. Say which entry the request means, or \
"none" when it means none of them. Reply with JSON."""
NO_ENTRY = "none"


def entry_messages(request: str, column: str, entries: Sequence[str], said: str) -> list[Message]:
    """The messages that ask which of a listed column's `entries` the words `said` for it mean."""
    listed = ", ".join(entries)
    content = f"Column: {column} (one of: {listed})\nRequest: {request}\nWords for {column}: {said}"
    return [{"role": "system", "content": ENTRY_INSTRUCTIONS}, {"role": "user", "content": content}]


def entry_schema(entries: Sequence[str]) -> JSONSchema:
    return _one_of("entry", [*entries, NO_ENTRY])


WORDS_INSTRUCTIONS = """\
A value was read from a request for a column, but the request does not say it. Copy the request's own \
words for that column exactly as written, or "" when the request does not give it. Reply with JSON."""


def words_messages(request: str, column: str, said: str) -> list[Message]:
    """The messages that read a column's value in `request` again, after `said` was read, which it does not say."""
    content = f"Column: {column}\nRequest: {request}\nRead as: {said}"
    return [{"role": "system", "content": WORDS_INSTRUCTIONS}, {"role": "user", "content": content}]


WORDS_SCHEMA: JSONSchema = {
    "type": "object",
    "properties": {"value": {"type": "string"}},
    "required": ["value"],
    "additionalProperties": False,
}


def _one_of(key: str, options: Sequence[str]) -> JSONSchema:
    """A reply of one key whose value is one of `options`."""
    return {
        "type": "object",
        "properties": {key: {"enum": list(options)}},
        "required": [key],
        "additionalProperties": False,
    }
