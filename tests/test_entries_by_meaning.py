"""A value read for a CHECK-listed column that is none of its entries is asked among the entries, those
closest in meaning to the words read first (the real MiniLM embedder): a small model leans to what it reads
first. The model's pick is what is written. Real DuckDB, scripted model, an invented ferry line."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.minilm import MiniLMEmbedder
from jupyter_chatdb.recording.change_choices import options_for
from jupyter_chatdb.recording.row_changes import parse_reading
from jupyter_chatdb.recording.shapes import shapes_of
from jupyter_chatdb.sql.catalog import Catalog

FERRIES = """
CREATE TABLE ferries (ferry VARCHAR PRIMARY KEY,
                      state VARCHAR NOT NULL DEFAULT 'docked'
                          CHECK (state IN ('docked', 'sailing', 'sunk', 'under_repair')));
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


def test_the_entries_are_offered_closest_in_meaning_first_and_the_pick_is_written(embedder: MiniLMEmbedder):
    """'being fixed in the yard': 'under_repair' first, the state Skua is in not offered; the model's pick
    is written where it is among the two entries nearest the words in meaning, and waits otherwise
    ('sunk', third)."""
    scripted = ScriptedBackend()
    chatdb = ChatDB(model=scripted, schema=FERRIES, summarize=False, embedder=embedder)
    pick = {"option": "set state to 'under_repair'"}
    scripted.push({"route": "write"}, FIXED, pick, pick)  # asked each way round
    assert not chatdb.ask("Skua | being fixed in the yard", allow_writes=True).pending
    offered = scripted.calls[-2].json_schema["properties"]["option"]["enum"]
    assert offered[0] == "set state to 'under_repair'" and "set state to 'docked'" not in offered
    assert chatdb.session.rows("SELECT state FROM ferries WHERE ferry = 'Skua'") == [("under_repair",)]
    scripted.push({"route": "write"}, {**FIXED, "which": [{"column": "ferry", "value": "Auk"}]})
    scripted.push({"option": "set state to 'sunk'"}, {"option": "set state to 'sunk'"})
    assert chatdb.ask("Auk | being fixed in the yard", allow_writes=True).pending
    assert chatdb.session.rows("SELECT state FROM ferries WHERE ferry = 'Auk'") == [("sailing",)]
    chatdb.close()


def test_without_closeness_the_entries_keep_their_order(scripted: ScriptedBackend):
    """No embedder at hand: the entries as the CHECK lists them, then the rows' removal."""
    chatdb = ChatDB(model=scripted, schema=FERRIES, summarize=False)
    shape = shapes_of(chatdb.session, Catalog.read(chatdb.session))["ferries"]
    options = [o.text for o in options_for(parse_reading(FIXED), shape, None)]
    entries = [f"set state to '{e}'" for e in ("docked", "sailing", "sunk", "under_repair")]
    assert options == [*entries, "remove the ferries rows"]
    chatdb.close()
