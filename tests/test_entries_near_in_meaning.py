"""An entry the model picks for words none of the list, the same each way round, is checked against the
entries nearest those words in meaning (the real MiniLM embedder): one far from them waits. Real DuckDB,
scripted model, an invented alterations tailor."""

from __future__ import annotations

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import ApprovalNeeded, Event
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.minilm import MiniLMEmbedder
from tests.conftest import change_reading

TAILOR = """
CREATE TABLE alterations (tag VARCHAR PRIMARY KEY, garment VARCHAR NOT NULL,
                          state VARCHAR NOT NULL DEFAULT 'waiting'
                              CHECK (state IN ('waiting', 'pinned', 'sewn', 'collected')));
INSERT INTO alterations VALUES ('T-12', 'linen jacket', 'waiting'), ('T-15', 'wool skirt', 'waiting');
"""
STITCHED = ("state", "to", "being stitched now")


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def states(chatdb: ChatDB) -> list[tuple]:
    return chatdb.session.rows("SELECT tag, state FROM alterations ORDER BY tag")


def test_an_entry_near_the_words_picked_each_way_is_written(embedder: MiniLMEmbedder):
    scripted = ScriptedBackend()
    chatdb = ChatDB(model=scripted, schema=TAILOR, summarize=False, embedder=embedder)
    sewn = {"option": "set state to 'sewn'"}
    scripted.push({"route": "write"}, change_reading("alterations", [("tag", "T-12")], STITCHED), sewn, sewn)
    reply = chatdb.ask("T-12 linen jacket: being stitched now", allow_writes=True)
    assert not reply.pending, reply.answer
    assert states(chatdb) == [("T-12", "sewn"), ("T-15", "waiting")]
    chatdb.close()


def test_an_entry_far_from_the_words_picked_each_way_waits_naming_the_nearer(embedder: MiniLMEmbedder):
    """'being stitched now' read as 'collected' both ways round: 'sewn' and 'pinned' are nearer in meaning,
    so nothing is written; the card names them, and Approve runs what it shows."""
    scripted = ScriptedBackend()
    chatdb = ChatDB(model=scripted, schema=TAILOR, summarize=False, embedder=embedder)
    collected = {"option": "set state to 'collected'"}
    scripted.push({"route": "write"}, change_reading("alterations", [("tag", "T-15")], STITCHED))
    scripted.push(collected, collected)
    events: list[Event] = []
    reply = chatdb.ask("T-15 wool skirt: being stitched now", allow_writes=True, on_event=events.append)
    assert reply.pending and states(chatdb) == [("T-12", "waiting"), ("T-15", "waiting")]
    reason = next(e.reason for e in events if isinstance(e, ApprovalNeeded))
    assert "nearer in meaning: set state to 'sewn' | set state to 'pinned'" in reason
    chatdb.apply(reply)
    assert states(chatdb) == [("T-12", "waiting"), ("T-15", "collected")]
    chatdb.close()
