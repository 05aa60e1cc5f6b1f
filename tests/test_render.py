"""The chain view's state and static rendering, as plain Python objects."""

import pandas as pd
from IPython.core.interactiveshell import InteractiveShell

from jupyter_chatdb.controller.events import (
    Answered,
    ModelText,
    Reply,
    RequestStarted,
    RolledBack,
    Step,
    StepDone,
    StepFailed,
    StepPlanned,
    StepStarted,
)
from jupyter_chatdb.llm.base import Usage
from jupyter_chatdb.sql.running import QueryResult
from jupyter_chatdb.widgets.render import chain_html, chain_markdown, chain_text, mime_bundle
from jupyter_chatdb.widgets.state import ChainState

RESULT = QueryResult("SELECT region FROM sales", pd.DataFrame({"region": ["North", "South<x>"]}), 2, 3.4)


def run_events():
    state = ChainState()
    state.apply(RequestStarted("Which regions?", "scripted", ("sales",), False))
    state.apply(ModelText("sql", '{"sql": "SELECT regoin'))
    assert state.generating == '{"sql": "SELECT regoin'
    state.apply(StepPlanned(1, "Which regions?", "SELECT regoin FROM sales"))
    assert state.generating == "" and state.cards[1].status == "waiting"
    state.apply(
        StepFailed(
            Step(1, "Which regions?", "SELECT regoin FROM sales", "failed", error="Unknown column 'regoin'"),
            will_retry=True,
        )
    )
    assert state.cards[1].status == "retrying"
    state.apply(StepPlanned(1, "Which regions?", "SELECT region FROM sales", attempt=2))
    state.apply(StepStarted(1, "SELECT region FROM sales"))
    assert state.cards[1].status == "running"
    state.apply(StepDone(Step(1, "Which regions?", "SELECT region FROM sales", "done", RESULT)))
    reply = Reply("Which regions?", "North and South<x>.", ["SELECT region FROM sales"], RESULT.frame)
    state.apply(Answered(reply))
    return state


def test_events_drive_the_state():
    state = run_events()
    card = state.cards[1]
    assert (card.status, card.attempt, card.row_count, card.error) == ("done", 2, 2, None)
    assert card.preview["region"].tolist() == ["North", "South<x>"]
    assert state.answer == "North and South<x>."


def test_html_escapes_and_shows_steps_and_answer():
    html = chain_html(run_events())
    assert '<div class="chatdb-step" data-index="1" data-status="done"' in html
    assert '<div class="chatdb-chain" data-phase="done">' in html
    assert "FROM" in html and "SELECT region FROM sales" not in html  # highlighted, keyword by keyword
    assert "<b>Step 1:</b> Which regions?" in html
    assert "South&lt;x&gt;" in html and "South<x>" not in html
    assert "<b>Answer:</b> North and South&lt;x&gt;." in html
    assert "attempt 2, 2 rows, 3 ms" in html


def test_markdown_and_text_read_without_a_kernel():
    state = run_events()
    markdown = chain_markdown(state)
    assert "**Step 1: Which regions?** (done, attempt 2, 2 rows, 3 ms)" in markdown
    assert "```sql\nSELECT region FROM sales\n```" in markdown
    assert "| region |\n| --- |\n| North |\n| South<x> |" in markdown
    assert markdown.rstrip().endswith("**Answer:** North and South<x>.")
    assert chain_text(state) == (
        "Request: Which regions?\nStep 1 (done, attempt 2, 2 rows, 3 ms): SELECT region FROM sales\n"
        "Answer: North and South<x>."
    )
    assert set(mime_bundle(state)) == {"text/plain", "text/html", "text/markdown"}


def test_rollback_and_writes_are_shown():
    state = ChainState()
    state.apply(RequestStarted("Add pear", "scripted", ("stock",), True))
    written = QueryResult("INSERT INTO stock VALUES ('pear', 5)", pd.DataFrame({"Count": [1]}), 1, 1.0)
    state.apply(StepDone(Step(1, "Add pear", written.sql, "done", written, rows_affected=1)))
    state.apply(RolledBack("statement 2 failed, so none of the 2 was applied"))
    text = chain_markdown(state)
    assert "(rolled back, its 1 row not written, 1 ms)" in text  # not "done": nothing was kept (issue 50)
    assert "Rolled back: statement 2 failed, so none of the 2 was applied." in text
    assert state.cards[1].preview is None


def test_reply_renders_the_same_way_once_the_extension_is_loaded():
    reply = Reply(
        "Which regions?",
        "Two.",
        ["SELECT region FROM sales"],
        RESULT.frame,
        [Step(1, "Which regions?", "SELECT region FROM sales", "done", RESULT)],
    )
    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    try:
        shown, _ = shell.display_formatter.format(reply)
        assert "**Answer:** Two." in shown["text/markdown"]
        assert 'data-status="done"' in shown["text/html"]
    finally:
        shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)
    assert "text/html" not in shell.display_formatter.format(reply)[0]  # plain data again


def test_pending_and_committed_writes_are_noted(scripted):
    from jupyter_chatdb import ChatDB
    from jupyter_chatdb.widgets.render import chain_html

    from .conftest import PLAN_WRITES, plan

    db = ChatDB(
        model=scripted,
        without=PLAN_WRITES,
        schema="CREATE TABLE notes (id INTEGER PRIMARY KEY, text VARCHAR);",
        summarize=False,
    )
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    state = ChainState()
    for event in db.events("Note: hi"):
        state.apply(event)
    assert state.note == "Not applied (writes are not allowed): it would change notes: 1 added."
    assert 'color:#d93025">Not applied' in chain_html(state)
    scripted.push({"route": "write"}, plan("INSERT INTO notes VALUES (1, 'hi')"))
    state = ChainState()
    for event in db.events("Note: hi", allow_writes=True):
        state.apply(event)
    assert state.note == "Saved as request 1; %chatdb undo (or ChatDB.undo()) takes it back."


def test_progress_says_what_the_model_does_and_hides_its_json():
    state = ChainState()
    state.apply(RequestStarted("Units per region?", "scripted", ("sales",), False))
    state.apply(ModelText("plan", '{"steps": [{"goal": "sum'))
    html = chain_html(state)
    assert "Planning the SQL steps..." in html and 'data-started="' in html and "{&quot;steps" not in html
    state.apply(ModelText("sql", "```sql\nSELECT region"))
    html = chain_html(state)
    assert "Writing SQL..." in html and "SELECT region" in html


def test_the_footer_gives_the_time_the_request_took():
    state = ChainState()
    state.apply(RequestStarted("Units?", "scripted", ("sales",), False))
    state.started_at = 100.0
    state.apply(Answered(Reply("Units?", "5.", [], None, usage=Usage(10, 2, 1))))
    state.ended_at = 103.25
    assert "scripted: 1 model call, 10 tokens in, 2 out; 3.2 s in all" in chain_html(state)


def test_an_answer_that_only_lists_the_rows_shown_is_left_out():
    frame = pd.DataFrame({"region": ["North", "South"], "units": [17, 4]})
    listed, phrased = ChainState(), ChainState()
    listed.apply(Answered(Reply("Units?", "North (17); South (4).", [], frame)))
    phrased.apply(Answered(Reply("Units?", "North sold the most.", [], frame)))
    assert "Answer:" not in chain_html(listed) and "Answer:" not in chain_markdown(listed)
    assert "<b>Answer:</b> North sold the most." in chain_html(phrased)
