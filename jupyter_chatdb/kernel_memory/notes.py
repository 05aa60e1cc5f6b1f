"""Notes: what a request tells the memory to keep that the tables cannot say (definitions, preferences,
corrections, facts to remember), read by one model call and kept as thoughts. Only a request with a note's
cue pays for that call (`worth_keeping.py`).
"""

from __future__ import annotations

import json

from ..language.terms import term_key
from ..llm.base import Message
from .thoughts import MAX_THOUGHTS, Thought

NOTE_KINDS = ("definition", "preference", "correction", "fact")
NOTES_SCHEMA = {
    "type": "object",
    "properties": {
        "notes": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": list(NOTE_KINDS)},
                    "term": {"type": "string"},
                    "sentence": {"type": "string"},
                },
                "required": ["kind", "term", "sentence"],
                "additionalProperties": False,
            },
            "maxItems": MAX_THOUGHTS,
        }
    },
    "required": ["notes"],
    "additionalProperties": False,
}
NOTES_INSTRUCTIONS = """\
You keep a data analyst's notebook notes of what the tables cannot say. From the user's message, write \
0 to 3 notes, each with its kind, the words it is about (term, as the user writes them) and one plain sentence:
- definition: what the user means by a word or phrase;
- preference: how the user wants answers given;
- correction: what the previous answer got wrong and what the user wants instead;
- fact: something the user states and asks to be remembered.
Keep the user's own condition and numbers in the sentence. Only what the user says: never explain \
ordinary words or column names, no figures the tables give, no questions. Reply with JSON {"notes": [...]}."""
NOTES_EXAMPLE = (  # on an invented stable, so no benchmark word is in the prompt
    "A heavy horse is one over 600 kg. How many heavy horses are in the stables?",
    '{"notes": [{"kind": "definition", "term": "heavy horse", '
    '"sentence": "A heavy horse is a horse whose weight is over 600 kg."}]}',
)


def notes_messages(request: str, previous: str = "") -> list[Message]:
    """The prompt that reads 0-3 notes (definitions, preferences, corrections, facts) in a request;
    `previous`: the request before it, which a correction is about."""
    asked, said = NOTES_EXAMPLE
    before = f"Previous request: {previous}\n" if previous else ""
    return [
        {"role": "system", "content": NOTES_INSTRUCTIONS},
        {"role": "user", "content": f"Message: {asked}"},
        {"role": "assistant", "content": said},
        {"role": "user", "content": f"{before}Message: {request}"},
    ]


def parse_notes(text: str) -> list[Thought]:
    """
    >>> [note] = parse_notes('{"notes": [{"kind": "definition", "term": "Big order", "sentence": "Big: qty > 10."}]}')
    >>> note.triple, note.kind, note.terms
    (('big order', 'definition', 'Big: qty > 10.'), 'definition', ('big order',))
    >>> parse_notes("not json"), parse_notes('{"notes": [{"kind": "fact", "term": "", "sentence": " "}]}')
    ([], [])
    >>> same = '{"kind": "%s", "term": "big", "sentence": "Big is above 9."}'
    >>> [n.kind for n in parse_notes('{"notes": [%s, %s]}' % (same % "definition", same % "correction"))]
    ['definition']
    """
    try:
        items = json.loads(text)["notes"]
        notes = [(str(n["kind"]), term_key(str(n["term"])), str(n["sentence"]).strip()) for n in items]
    except (ValueError, KeyError, TypeError):
        return []
    said: dict[str, tuple[str, str]] = {}  # one note per sentence: the model may give one twice, as two kinds
    for kind, term, sentence in notes:
        if sentence and kind in NOTE_KINDS:
            said.setdefault(sentence, (kind, term))
    return [
        Thought(term, kind, sentence, sentence, kind, (term,) if term and kind != "fact" else ())
        for sentence, (kind, term) in list(said.items())[:MAX_THOUGHTS]
    ]
