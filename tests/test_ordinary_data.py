"""Ordinary data never breaks a cell, and undo always undoes: every column type DuckDB holds through every
path (read, preview, approve, undo, render), approvals compared NULL-safely and applied once, and undo
exact on tables with UNIQUE and GENERATED columns, keys and references. Real DuckDB, the scripted model;
each test reproduces a finding of an adversarial review (issue 50)."""

from __future__ import annotations

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import Event
from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.widgets.render import chain_html, chain_markdown, chain_text
from jupyter_chatdb.widgets.state import ChainState
from tests.conftest import native

# one column of each kind of type DuckDB holds; the second row is NULL in every column
EVERY_TYPE = """
CREATE TABLE kites (
    kite_id INTEGER PRIMARY KEY,
    flown_at TIMESTAMPTZ, flight INTERVAL, tag UUID, photo BLOB, knots INTEGER[],
    rig STRUCT(line VARCHAR, metres INTEGER), colours MAP(VARCHAR, INTEGER), price DECIMAL(9, 2),
    flown BOOLEAN, launched DATE, at_time TIME, stamp TIMESTAMP, weight DOUBLE, big HUGEINT, name VARCHAR);
INSERT INTO kites VALUES
    (1, TIMESTAMPTZ '2024-05-05 10:30:00+02', INTERVAL 90 MINUTE, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
     '\\xAA\\x00'::BLOB, [1, 2, 3], {'line': 'dyneema', 'metres': 30}, MAP {'red': 2, 'blue': 1}, 12.50,
     true, DATE '2024-05-05', TIME '10:30:00', TIMESTAMP '2024-05-05 10:30:00', 1.5, 170141183460469231731687303715884105727,
     'Aria'),
    (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
"""
NEW_KITE = (
    "INSERT INTO kites VALUES (3, TIMESTAMPTZ '2024-06-01 08:00:00+00', INTERVAL 2 HOUR,"
    " 'b1eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '\\xBB'::BLOB, [4], {'line': 'kevlar', 'metres': 20},"
    " MAP {'green': 3}, 9.99, false, DATE '2024-06-01', TIME '08:00:00', TIMESTAMP '2024-06-01 08:00:00', 2.5, 7,"
    " 'Bolt')"
)
NULL_KITE = "INSERT INTO kites (kite_id) VALUES (4)"


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture(params=["key", "no key"])
def kites(model: ScriptedBackend, request: pytest.FixtureRequest):
    schema = (
        EVERY_TYPE if request.param == "key" else EVERY_TYPE.replace("kite_id INTEGER PRIMARY KEY", "kite_id INTEGER")
    )
    chatdb = ChatDB(model=model, schema=schema, summarize=False)
    yield chatdb
    chatdb.close()


def state(chatdb: ChatDB, table: str = "kites") -> list[tuple]:
    return chatdb.session.rows(f"SELECT * FROM {table} ORDER BY ALL")


def rendered(events: list[Event]) -> list[str]:
    view = ChainState()
    for event in events:
        view.apply(event)
    return [chain_html(view), chain_markdown(view), chain_text(view)]


# -- every column type through every path ----------------------------------------------------------


def test_a_time_zone_column_in_one_table_leaves_native_reads_of_another_working(model: ScriptedBackend):
    chatdb = ChatDB(model=model, summarize=False)
    try:
        chatdb.run_sql("CREATE TABLE log AS SELECT now() AS at", allow_writes=True)
        chatdb.register("hives", pd.DataFrame({"hive": ["North", "South"], "frames": [8, 10]}))
        model.push(native("SELECT count(*) AS n FROM hives"))
        assert chatdb.ask("How many rows are in hives?").result["n"].tolist() == [2]
    finally:
        chatdb.close()


def test_every_column_type_reads_and_renders(kites: ChatDB, model: ScriptedBackend):
    events: list[Event] = []
    model.push(native("SELECT * FROM kites ORDER BY kite_id"))
    reply = kites.ask("Show every kite.", on_event=events.append)
    assert len(reply.result) == 2 and reply.result["name"].tolist()[0] == "Aria"
    for page in rendered(events):
        assert "Aria" in page and "dyneema" in page


@pytest.mark.parametrize("insert", [NEW_KITE, NULL_KITE], ids=["values", "nulls"])
def test_every_column_type_previews_approves_undoes_and_renders(kites: ChatDB, insert: str):
    before = state(kites)
    events: list[Event] = []
    pending = kites.run_sql(insert, on_event=events.append)
    assert pending.pending and state(kites) == before
    applied = kites.apply(pending, on_event=events.append)
    assert applied.request_id == 1 and len(state(kites)) == 3
    for page in rendered(events):
        assert "kites" in page
    (undone,) = kites.undo()
    assert "kites: 1 row removed" in undone.summary
    assert state(kites) == before


def test_every_column_type_survives_an_update_and_its_undo(kites: ChatDB):
    before = state(kites)
    sql = (
        "UPDATE kites SET flight = flight + INTERVAL 1 MINUTE, knots = list_append(knots, 9), name = NULL,"
        " colours = MAP {'white': 1}, flown = NOT flown WHERE kite_id = 1"
    )
    kites.apply(kites.run_sql(sql))
    assert state(kites) != before
    kites.undo()
    assert state(kites) == before


# -- approvals: NULL-safe, once, and exactly what was shown -----------------------------------------


@pytest.mark.parametrize("kind", ["INTEGER", "BOOLEAN", "UUID", "BLOB", "DECIMAL(5, 2)", "TIMESTAMPTZ"])
def test_a_write_leaving_a_column_null_can_be_approved(model: ScriptedBackend, kind: str):
    chatdb = ChatDB(model=model, schema=f"CREATE TABLE n (v VARCHAR, x {kind})", summarize=False)
    try:
        reply = chatdb.apply(chatdb.run_sql("INSERT INTO n (v) VALUES ('b')"))
        assert reply.request_id == 1 and chatdb.session.rows("SELECT v, x FROM n") == [("b", None)]
    finally:
        chatdb.close()


def test_a_reply_is_applied_once(kites: ChatDB):
    pending = kites.run_sql(NULL_KITE.replace("(4)", "(5)").replace("kite_id", "kite_id"))
    kites.apply(pending)
    with pytest.raises(ChatDBError, match="already applied"):
        kites.apply(pending)
    assert kites.session.rows("SELECT count(*) FROM kites WHERE kite_id = 5") == [(1,)]


def test_an_approval_whose_read_value_moved_with_the_sequence_is_refused(model: ScriptedBackend):
    schema = """
    CREATE SEQUENCE s;
    CREATE TABLE items (item_id INTEGER);
    CREATE TABLE tallies (tally_id INTEGER, items_then INTEGER);
    """
    chatdb = ChatDB(model=model, schema=schema, summarize=False)
    try:
        chatdb.run_sql("INSERT INTO items VALUES (1)", allow_writes=True)
        pending = chatdb.run_sql("INSERT INTO tallies SELECT nextval('s'), (SELECT count(*) FROM items)")
        (change,) = pending.changes
        assert change.new.values.tolist() == [[1, 1]]
        chatdb.run_sql("INSERT INTO items VALUES (2)", allow_writes=True)  # the count moves as the sequence did
        with pytest.raises(ChatDBError, match="changed since the preview"):
            chatdb.apply(pending)
        assert chatdb.session.rows("SELECT count(*) FROM tallies") == [(0,)]
    finally:
        chatdb.close()


def test_an_approval_with_a_sequence_default_still_applies(model: ScriptedBackend):
    schema = "CREATE SEQUENCE s; CREATE TABLE tallies (tally_id INTEGER DEFAULT nextval('s'), note VARCHAR);"
    chatdb = ChatDB(model=model, schema=schema, summarize=False)
    try:
        pending = chatdb.run_sql("INSERT INTO tallies (note) VALUES ('first')")
        chatdb.apply(pending)
        assert chatdb.session.rows("SELECT tally_id, note FROM tallies") == [(2, "first")]  # the preview spent 1
    finally:
        chatdb.close()


def test_an_approval_that_fails_leaves_no_card_saying_done(tmp_path):
    """In a notebook: Approve runs the write (its card says done), the comparison with the preview fails,
    and the card must then say the write was rolled back, not done."""
    from tests.conftest import chatdb_kernel

    model = ScriptedBackend()
    engine = ChatDB(
        model=model,
        schema="CREATE SEQUENCE s; CREATE TABLE items (i INTEGER); CREATE TABLE tallies (t INTEGER, n INTEGER);",
    )
    for shell in chatdb_kernel(engine, tmp_path):
        magics = shell.magics_manager.registry["ChatDBMagics"]
        shell.run_cell(
            "%%chatdb --sql\nINSERT INTO tallies SELECT nextval('s'), (SELECT count(*) FROM items)"
        ).raise_error()
        view = magics.last_view
        engine.run_sql("INSERT INTO items VALUES (1)", allow_writes=True)  # the count the write reads moves
        shell.run_cell("%chatdb approve")
        statuses = [card.status for card in view.state.cards.values()]
        assert statuses == ["rolled back"] and view.state.phase == "failed"
        assert "not written" in chain_text(view.state)
        assert engine.session.rows("SELECT count(*) FROM tallies") == [(0,)]
    engine.close()


def test_a_read_of_a_time_zone_aware_frame_column_says_how_it_was_read(model: ScriptedBackend):
    chatdb = ChatDB(model=model, summarize=False)
    try:
        landed = pd.to_datetime(["2024-06-01 10:00", "2024-06-01 23:30"]).tz_localize("Europe/Oslo")
        chatdb.register("ferries", pd.DataFrame({"ferry": ["Ryde", "Calder"], "landed": landed}))
        model.push(native("SELECT ferry, landed FROM ferries ORDER BY landed"))
        reply = chatdb.ask("When did each ferry land?")
        assert [str(t) for t in reply.result["landed"]] == ["2024-06-01 10:00:00", "2024-06-01 23:30:00"]
        assert "ferries.landed is read as the wall-clock time of Europe/Oslo" in reply.answer
        model.push(native("SELECT count(*) AS n FROM ferries"))
        assert "wall-clock" not in chatdb.ask("How many ferries are there?").answer
    finally:
        chatdb.close()
