"""Verified reads (issue 52, item 4): a read the user marks right or corrects is kept as an example, shown to
the model with later questions close to it, and nothing changes for a question with none close."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import ExamplesRecalled
from jupyter_chatdb.kernel_memory.verified_reads import VerifiedReadError, VerifiedReads, sql_shape
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.widgets.render import chain_text
from jupyter_chatdb.widgets.state import ChainState

from .conftest import native


class WordsEmbedder:
    """Each word a direction (hashed into 256): texts close in words are close in meaning, no model loaded."""

    name, dimensions = "words", 256

    def embed(self, texts: list[str]) -> np.ndarray:
        rows = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in zip(rows, texts, strict=True):
            for word in re.findall(r"[a-z]+", text.lower()):
                row[sum(map(ord, word)) * 31 % self.dimensions] += 1
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


@pytest.fixture
def kites() -> pd.DataFrame:
    return pd.DataFrame({"kite": ["Swift", "Dart", "Moth"], "colour": ["red", "blue", "red"], "span_cm": [90, 120, 75]})


@pytest.fixture
def chatdb(scripted: ScriptedBackend, kites: pd.DataFrame):
    chatdb = ChatDB(model=scripted, summarize=False, embedder=WordsEmbedder())
    chatdb.register("kites", kites)
    yield chatdb
    chatdb.close()


def test_kept_reads_are_one_select_each_replaced_by_question_and_survive_a_restart(tmp_path):
    path = tmp_path / "nb.reads.sqlite"
    reads = VerifiedReads(path)
    reads.keep("How many red kites?", "SELECT count(*) FROM kites WHERE colour = 'red';", "corrected")
    kept = reads.keep("How  many red kites?", "SELECT count(*) FROM Kites WHERE colour = 'red'", "marked right")
    assert (kept.tables, kept.sql) == (("kites",), "SELECT count(*) FROM Kites WHERE colour = 'red'")
    with pytest.raises(VerifiedReadError, match="Only a read"):
        reads.keep("Drop them", "DELETE FROM kites", "corrected")
    with pytest.raises(VerifiedReadError, match="Only a read"):
        reads.keep("Two", "SELECT 1; SELECT 2", "corrected")
    with pytest.raises(ChatDBError, match="does not parse"):
        reads.keep("Broken", "SELEC kite FROM", "corrected")
    reads.close()
    again = VerifiedReads(path)
    assert [(r.question, r.how) for r in again] == [("How many red kites?", "marked right")]
    again.forget("How many red kites?")
    assert len(again) == 0
    with pytest.raises(VerifiedReadError, match="No verified read"):
        again.forget("How many red kites?")


def test_the_closest_are_over_tables_held_close_enough_and_of_different_shapes():
    reads = VerifiedReads(None, WordsEmbedder())
    reads.keep("How many red kites are there?", "SELECT count(*) FROM kites WHERE colour = 'red'", "corrected")
    reads.keep("Count the red kites.", "SELECT count(*) FROM kites WHERE colour = 'blue'", "corrected")  # same shape
    reads.keep("How many red ferries are there?", "SELECT count(*) FROM ferries WHERE colour = 'red'", "corrected")
    reads.keep("Which kite is widest?", "SELECT kite FROM kites ORDER BY span_cm DESC LIMIT 1", "corrected")
    kites = {"kites": ["kite", "colour", "span_cm"]}
    recalled = reads.closest("How many blue kites are there?", kites)
    assert [r.read.question for r in recalled] == ["How many red kites are there?"]  # ferries: a table not held
    assert recalled[0].similarity >= 0.8
    assert reads.closest("List every colour of kite and its span.", kites) == []  # none close enough
    assert len(reads.closest("How many blue kites are there?", kites, k=3, least=0.0)) == 2  # one per shape
    assert reads.closest("How many blue kites are there?", {"kites": ["kite", "span_cm"]}) == []  # colour dropped
    assert sql_shape("SELECT a FROM t WHERE b = 1") != sql_shape("SELECT a FROM t WHERE b > 1")


def test_a_question_close_to_a_verified_read_is_asked_with_it_and_the_reply_says_so(chatdb, scripted):
    chatdb.verify("How many red kites are there?", "SELECT count(*) AS kites FROM kites WHERE colour = 'red'")
    scripted.push(native("SELECT count(*) AS kites FROM kites WHERE colour = 'blue'"))
    events: list[object] = []
    reply = chatdb.ask("How many blue kites are there?", on_event=events.append)
    prompt = scripted.calls[-1].messages[-1]["content"]
    example = "-- How many red kites are there?\nSELECT count(*) AS kites FROM kites WHERE colour = 'red';\n"
    assert example in prompt and prompt.index(example) < prompt.index("-- How many blue kites are there?")
    assert reply.examples == ("How many red kites are there?",)
    assert reply.result["kites"].tolist() == [1]
    [recalled] = [e for e in events if isinstance(e, ExamplesRecalled)]
    state = ChainState()
    for event in events:
        state.apply(event)
    assert "Asked with the verified example: How many red kites are there?" in chain_text(state)
    assert recalled.examples[0][0] == "How many red kites are there?"


def test_a_question_with_no_close_example_is_asked_exactly_as_before(scripted, kites):
    prompts = []
    for verified in (False, True):
        model = ScriptedBackend([native("SELECT kite FROM kites ORDER BY span_cm DESC LIMIT 1")])
        chatdb = ChatDB(model=model, summarize=False, embedder=WordsEmbedder())
        chatdb.register("kites", kites)
        if verified:
            chatdb.verify("How many red kites are there?", "SELECT count(*) FROM kites WHERE colour = 'red'")
        reply = chatdb.ask("Which kite has the widest span?")
        prompts.append(model.calls[-1].messages)
        assert reply.examples == ()
        chatdb.close()
    assert prompts[0] == prompts[1]


def test_marking_a_read_right_keeps_its_sql_and_only_a_read_can_be(chatdb, scripted):
    scripted.push(native("SELECT kite FROM kites WHERE colour = 'red' ORDER BY kite"))
    reply = chatdb.ask("Which kites are red?")
    kept = chatdb.verify(reply)
    assert (kept.question, kept.how, kept.tables) == ("Which kites are red?", "marked right", ("kites",))
    assert kept.sql == reply.sql[0]
    written = chatdb.run_sql("CREATE TABLE logbook (flown DATE)", allow_writes=True)
    with pytest.raises(ChatDBError, match="Only a read"):
        chatdb.verify(written)
    with pytest.raises(ChatDBError, match="Give the SQL"):
        chatdb.verify("Which kites are blue?")
    chatdb.unverify("Which kites are red?")
    assert len(chatdb.reads) == 0


def test_an_edited_read_is_kept_as_corrected(chatdb):
    chatdb.run_sql("SELECT kite FROM kites WHERE span_cm > 80", corrects="Which kites are wide?")
    assert [(r.question, r.how) for r in chatdb.reads] == [("Which kites are wide?", "corrected")]


def test_the_examples_tables_are_shown_even_when_selection_left_them_out(scripted, kites):
    chatdb = ChatDB(model=scripted, summarize=False, embedder=WordsEmbedder())
    chatdb.configure(select_over=0)  # schema selection on every question
    chatdb.register("kites", kites)
    chatdb.register("pilots", pd.DataFrame({"pilot": ["Ada"], "kite": ["Swift"]}))
    joined = "SELECT p.pilot FROM pilots p JOIN kites k ON k.kite = p.kite WHERE k.colour = "
    chatdb.verify("Who flies the kites that are red?", joined + "'red'")
    scripted.push({"tables": ["kites"]}, native(joined + "'blue'"))
    reply = chatdb.ask("Who flies the kites that are blue?")
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "CREATE TABLE pilots" in prompt and "CREATE TABLE kites" in prompt
    assert reply.examples == ("Who flies the kites that are red?",)
    chatdb.close()
