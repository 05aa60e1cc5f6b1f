"""%%chatdb through a real IPython InteractiveShell, with a scripted model."""

import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from .conftest import plan
from jupyter_chatdb import ChatDB
from jupyter_chatdb.magics.chatdb import ChatDBMagics


@pytest.fixture
def shell(scripted):
    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.engine = ChatDB(model=scripted)
    shell.user_ns["sales"] = pd.DataFrame({"region": ["North", "South", "North"], "units": [10, 4, 7]})
    yield shell
    shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)
    for name in ("sales", "top", "result"):
        shell.user_ns.pop(name, None)


def test_cell_shows_sql_result_and_answer_and_stores_the_result(shell, scripted, capsys):
    scripted.push(
        {"route": "read"},
        plan("SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY units DESC"),
        {"answer": "North leads with 17."},
    )
    result = shell.run_cell("%%chatdb -o top\nWhich region sold the most units?")
    result.raise_error()
    shown = capsys.readouterr().out
    assert "Request: Which region sold the most units?" in shown
    assert "Step 1 (done, 2 rows" in shown
    assert "SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY units DESC" in shown
    assert "Answer: North leads with 17." in shown
    assert shell.user_ns["top"].to_dict("records") == [{"region": "North", "units": 17}, {"region": "South", "units": 4}]


def test_frames_are_rebound_every_cell(shell, scripted):
    scripted.push({"route": "read"}, plan("SELECT count(*) AS n FROM sales"), {"answer": "3"})
    shell.run_cell("%%chatdb -o result\nHow many rows?").raise_error()
    shell.user_ns["sales"] = pd.DataFrame({"region": ["West"], "units": [1]})
    scripted.push({"route": "read"}, plan("SELECT count(*) AS n FROM sales"), {"answer": "1"})
    shell.run_cell("%%chatdb -o result\nHow many rows now?").raise_error()
    assert shell.user_ns["result"]["n"].tolist() == [1]


def test_refused_write_shows_one_line_not_a_traceback(shell, scripted, capsys):
    scripted.push({"route": "write"}, plan("DELETE FROM sales WHERE units < 5"))
    result = shell.run_cell("%%chatdb --write\nDelete the small sales")
    out = capsys.readouterr().out
    assert result.error_in_exec is not None
    assert (
        "SQLRefused: sales is a DataFrame of the notebook: change it with pandas, "
        "or store it as a table (CREATE TABLE ... AS SELECT) to change it here."
    ) in out
    assert "Traceback" not in out


def test_bad_options_are_usage_errors(shell, capsys):
    shell.run_cell("%%chatdb --nope\nquestion")
    assert "UsageError: unrecognized arguments: --nope" in capsys.readouterr().err
    shell.run_cell("%%chatdb -o 1x\nquestion")
    assert "UsageError: -o needs a Python variable name, not '1x'." in capsys.readouterr().err
    shell.run_cell("%%chatdb\n   ")
    assert "UsageError: Write your question in the cell, below %%chatdb." in capsys.readouterr().err


def test_help_documents_the_options(shell):
    doc = shell.magics_manager.magics["cell"]["chatdb"].__doc__
    assert "-o VAR, --out VAR" in doc and "--write" in doc


def test_magics_are_configurable(shell):
    magics = shell.magics_manager.registry["ChatDBMagics"]
    assert magics in shell.configurables
    assert {"model", "database", "preview_rows", "summarize"} <= set(ChatDBMagics.class_own_traits(config=True))


def test_changing_the_model_setting_takes_effect_at_the_next_cell(shell):
    magics = shell.magics_manager.registry["ChatDBMagics"]
    assert magics.engine.model.name == "scripted"
    shell.run_cell("%config ChatDBMagics.model = 'local'").raise_error()
    assert magics.engine.model.name == "qwen2.5-coder-1.5b-instruct-q4_k_m"
    shell.run_cell("%config ChatDBMagics.model = ''").raise_error()


def test_dry_run_shows_what_would_change_and_changes_nothing(shell, scripted, capsys):
    engine = ChatDB(model=scripted, schema="CREATE TABLE notes (id INTEGER PRIMARY KEY, text VARCHAR);")
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    shell.run_cell("%%chatdb --write --dry-run\nNote: hi").raise_error()
    assert "Not applied (this is a dry run): it would change notes: 1 added." in capsys.readouterr().out
    assert engine.session.rows("SELECT count(*) FROM notes") == [(0,)]
