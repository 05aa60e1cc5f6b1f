"""A value read for a CHECK-listed column that is none of its entries is asked among the entries, those
closest in meaning to the words read first (the real MiniLM embedder); a pick other than the one clearly
closest waits, saying so (`change_choices.closest_entry`). Real DuckDB, scripted model, an invented ferry
line."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.minilm import MiniLMEmbedder
from jupyter_chatdb.recording.change_choices import closest_entry

FERRIES = """
CREATE TABLE ferries (ferry VARCHAR PRIMARY KEY,
                      state VARCHAR NOT NULL CHECK (state IN ('docked', 'sailing', 'sunk', 'under_repair')));
INSERT INTO ferries VALUES ('Skua', 'docked'), ('Auk', 'sailing');
"""
FIXED = {
    "does": "change",
    "table": "ferries",
    "which": [{"column": "ferry", "value": "Skua"}],
    "set": [{"column": "state", "how": "to", "value": "being fixed in the yard"}],
}


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def closeness_of(embedder: MiniLMEmbedder):
    def closeness(said, texts):
        vectors = embedder.embed([said, *texts])
        return [float(v @ vectors[0]) for v in vectors[1:]]

    return closeness


def test_the_entry_clearly_closest_in_meaning_is_found_or_none(embedder: MiniLMEmbedder):
    entries = ["docked", "sailing", "sunk", "under_repair"]
    assert closest_entry("being fixed in the yard", entries, closeness_of(embedder)) == "under_repair"
    assert closest_entry("tied up at the pier", ["sunk", "sailing"], closeness_of(embedder)) is None  # too near


def test_the_entries_are_offered_closest_first_and_a_pick_against_the_closest_waits(embedder: MiniLMEmbedder):
    scripted = ScriptedBackend()
    chatdb = ChatDB(model=scripted, schema=FERRIES, summarize=False, embedder=embedder)
    scripted.push({"route": "write"}, FIXED, {"option": "set state to 'sailing'"})
    reply = chatdb.ask("Skua | being fixed in the yard", allow_writes=True)
    offered = scripted.calls[-1].json_schema["properties"]["option"]["enum"]
    assert offered[0] == "set state to 'under_repair'" and "set state to 'docked'" not in offered
    assert reply.pending and "'under_repair' is closest in meaning" in reply.answer
    scripted.push({"route": "write"}, FIXED, {"option": "set state to 'under_repair'"})
    assert not chatdb.ask("Skua | being fixed in the yard", allow_writes=True).pending
    assert chatdb.session.rows("SELECT ferry, state FROM ferries ORDER BY 1") == [
        ("Auk", "sailing"),
        ("Skua", "under_repair"),
    ]
    chatdb.close()
