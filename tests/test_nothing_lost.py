"""Nothing lost, nothing stuck: writes a fix-up would widen, bulk changes on every write path, sessions left
in a transaction, frames and tables the catalog cannot use, values pandas cannot hold, random() in writes.
Real DuckDB, the scripted model; each test reproduces a finding of an adversarial review."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.controller.events import Committed
from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.llm import ScriptedBackend
from tests.conftest import PLAN_WRITES, chatdb_kernel, native, plan

ORDERS = """
CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER, note VARCHAR);
INSERT INTO orders SELECT i, i, 'n' || i FROM range(1, 21) t(i);
CREATE TABLE refunds (id INTEGER PRIMARY KEY);
INSERT INTO refunds VALUES (3), (4);
"""


@pytest.fixture
def model() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def shop(model: ScriptedBackend):
    chatdb = ChatDB(model=model, schema=ORDERS, summarize=False, without=PLAN_WRITES)
    yield chatdb
    chatdb.close()


def count(chatdb: ChatDB, table: str = "orders") -> int:
    return chatdb.session.rows(f"SELECT count(*) FROM {table}")[0][0]


def assert_no_transaction(chatdb: ChatDB) -> None:
    """The session is usable: no transaction of a request is left open (a new one can begin and end)."""
    assert not chatdb.session.in_transaction
    chatdb.session.begin()
    chatdb.session.rollback()


# -- 1. a fix-up never widens a write -------------------------------------------------------------


def test_user_sql_joining_a_misspelled_table_is_refused_not_widened(shop: ChatDB):
    sql = "DELETE FROM orders WHERE id IN (SELECT o.id FROM orders o JOIN refundz r ON r.id = o.id)"
    with pytest.raises(ChatDBError, match="would remove the table refundz"):
        shop.run_sql(sql, allow_writes=True)
    assert count(shop) == 20
    assert_no_transaction(shop)


def test_a_models_write_joining_a_misspelled_table_is_revised_not_widened(shop: ChatDB, model: ScriptedBackend):
    widened = (
        "DELETE FROM orders WHERE id IN (SELECT o.id FROM orders o JOIN refundz r ON r.id = o.id WHERE o.amount <= 9)"
    )
    right = "DELETE FROM orders WHERE id IN (SELECT r.id FROM refunds r)"
    model.push(
        {"route": "write"},
        {"steps": [{"goal": "delete refunded orders", "sql": widened, "binds": []}]},
        {"steps": [{"goal": "delete refunded orders", "sql": right, "binds": []}]},
    )
    reply = shop.ask("Delete the refunded orders", allow_writes=True)
    assert not reply.pending
    assert count(shop) == 18  # the two refunded, not the nine the dropped join would have matched
    assert "would remove the table refundz" in model.calls[-1].messages[-1]["content"]


# -- 3. bulk changes need an approval on every write path -------------------------------------------


@pytest.mark.parametrize(
    "sql", ["UPDATE orders SET note = 'x'", "DELETE FROM orders WHERE amount < 15", "UPDATE orders SET amount = 1"]
)
def test_run_sql_and_procedures_ask_before_a_bulk_change(shop: ChatDB, sql: str):
    reply = shop.run_sql(sql, allow_writes=True)
    assert reply.pending and count(shop) == 20
    assert shop.session.rows("SELECT count(*) FROM orders WHERE note = 'x' OR amount = 1")[0][0] <= 1
    shop.teach("bulk", sql, ["change them all"])
    assert shop.run_procedure("bulk", {}, allow_writes=True).pending
    applied = shop.apply(reply)  # the approval is the approval
    assert not applied.pending and applied.request_id is not None


def test_replay_asks_before_a_bulk_change(shop: ChatDB, model: ScriptedBackend):
    model.push({"route": "write"}, {"steps": [{"goal": "g", "sql": "UPDATE orders SET note = 'x'", "binds": []}]})
    first = shop.ask("Mark every order", allow_writes=True)
    assert first.pending
    shop.apply(first)
    shop.undo()
    assert shop.replay("Mark every order", allow_writes=True).pending


def test_every_row_matched_counts_even_when_some_keep_their_value(model: ScriptedBackend):
    chatdb = ChatDB(model=model, summarize=False, without=PLAN_WRITES)
    chatdb.session.rows(
        "CREATE TABLE t (id INTEGER, flag BOOLEAN);"
        "INSERT INTO t VALUES (1, true), (2, false), (3, false), (4, false), (5, false)"
    )
    model.push({"route": "write"}, {"steps": [{"goal": "g", "sql": "UPDATE t SET flag = true", "binds": []}]})
    reply = chatdb.ask("Flag them", allow_writes=True)
    assert reply.pending, "an UPDATE of every row went through because one row kept its value"
    assert chatdb.session.rows("SELECT count(*) FROM t WHERE flag")[0][0] == 1
    chatdb.close()


# -- 2. no way out of a request leaves a transaction open -------------------------------------------


def test_a_failed_native_read_and_failed_fallback_write_leave_no_transaction(shop: ChatDB, model: ScriptedBackend):
    chatdb = ChatDB(model=model, schema=ORDERS, summarize=False)
    model.push(
        *[native("SELECT nope FROM orders")] * 3,  # the native read and its repairs
        *[{"sql": "INSERT INTO orders VALUES (1, 1, 'dup')"}] * 3,  # the fallback's write and its repairs
    )
    with pytest.raises(ChatDBError):
        chatdb.ask("How many orders are there?", allow_writes=True)
    assert_no_transaction(chatdb)
    chatdb.run_sql("INSERT INTO orders VALUES (21, 21, 'n21')", allow_writes=True)
    assert count(chatdb) == 21
    chatdb.close()


class Interrupt(Exception):
    """Stands for Ctrl-C in a view: raised while it draws an event."""


def test_an_exception_in_the_view_at_any_event_writes_nothing_and_leaves_the_session_usable(shop: ChatDB):
    """Fault injection: the view fails at each event of a write's run in turn (KeyboardInterrupt, as Ctrl-C
    while a card draws, and an ordinary exception); each time before the commit nothing is written, and a
    second write in the same session succeeds."""
    sql = "INSERT INTO refunds VALUES (7); UPDATE orders SET note = 'refunded' WHERE id = 7"
    events: list[object] = []
    shop.run_sql(sql, allow_writes=True, on_event=events.append)
    shop.undo()
    committed = next(i for i, event in enumerate(events) if isinstance(event, Committed))
    assert committed >= 5
    stopped = []  # kept, as IPython keeps the last traceback: it holds the interrupted request's frames
    for fault in (KeyboardInterrupt, Interrupt):
        for at in range(len(events)):
            seen = 0

            def view(event: object, at: int = at, fault: type[BaseException] = fault) -> None:
                nonlocal seen
                seen += 1
                if seen > at:
                    raise fault

            with pytest.raises(fault) as error:
                shop.run_sql(sql, allow_writes=True, on_event=view)
            stopped.append(error)
            kept = at >= committed  # the view failed on the event that says it was committed, or after it
            assert count(shop, "refunds") == 2 + kept, f"event {at} of {len(events)}"
            assert_no_transaction(shop)
            shop.run_sql("INSERT INTO refunds VALUES (8)", allow_writes=True)  # the session is usable
            shop.undo(1 + kept)
            assert count(shop, "refunds") == 2


# -- 4. odd frames and table names do not break every cell -----------------------------------------


def test_a_frame_with_duplicate_columns_is_left_out_with_a_warning(shop: ChatDB, model: ScriptedBackend):
    twice = pd.DataFrame([[1, 2]], columns=["a", "a"])
    binding = shop.bind_frames({"twice": twice, "fine": pd.DataFrame({"x": [1]})})
    assert "twice" in binding.skipped and "a" in binding.skipped["twice"]
    assert "fine" in binding.bound
    model.push(native("SELECT count(*) AS n FROM orders"))
    assert shop.ask("How many orders are there?").answer == "n: 20"
    with pytest.raises(ChatDBError, match="twice"):
        shop.register("twice", twice)


def test_a_stored_table_whose_name_holds_a_dot_is_left_out_with_a_warning(shop: ChatDB, model: ScriptedBackend):
    shop.session.rows('CREATE TABLE "odd.name" (x INTEGER); INSERT INTO "odd.name" VALUES (1)')
    assert set(shop.tables()["table"]) == {"orders", "refunds"}
    assert "rename it" in shop.bind_frames({}).skipped["odd.name"]
    model.push(native("SELECT count(*) AS n FROM orders"))
    assert shop.ask("How many orders are there?").answer == "n: 20"
    assert shop.run_sql("SELECT count(*) AS n FROM refunds").answer == "n: 2"


# -- 6. values pandas cannot hold; random() and uuid() in writes ----------------------------------


def test_a_write_of_an_infinite_date_gets_one_line_and_writes_nothing(model: ScriptedBackend):
    chatdb = ChatDB(model=model, schema="CREATE TABLE visits (id INTEGER, day DATE);", summarize=False)
    with pytest.raises(ChatDBError, match="infinity"):
        chatdb.run_sql("INSERT INTO visits VALUES (1, DATE 'infinity')", allow_writes=True)
    assert chatdb.session.rows("SELECT count(*) FROM visits")[0][0] == 0
    assert_no_transaction(chatdb)
    chatdb.close()


def test_a_write_with_random_values_can_be_approved_as_previewed(shop: ChatDB):
    shop.session.rows("CREATE TABLE tokens (id INTEGER, token UUID, roll DOUBLE)")
    preview = shop.run_sql("INSERT INTO tokens SELECT 1, uuid(), random()", allow_writes=False)
    assert preview.pending
    shown = preview.changes[0].new
    applied = shop.apply(preview)
    assert applied.request_id is not None
    stored = shop.session.frame("SELECT * FROM tokens")
    assert str(stored["token"][0]) == str(shown["token"][0]) and stored["roll"][0] == shown["roll"][0]
    again = shop.run_sql("INSERT INTO tokens SELECT 2, uuid(), random()", allow_writes=True)
    assert not again.pending
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert shop.session.rows("SELECT count(DISTINCT token) FROM tokens")[0][0] == 2


def test_a_cell_stopped_inside_a_write_leaves_the_next_cells_working(model: ScriptedBackend, tmp_path, capsys):
    """Ctrl-C in a `%%chatdb --write` cell while its transaction is open (here: while the model revises the
    plan after a step wrote); the cell says nothing was written, and the next write cell runs."""

    def interrupt(messages: object) -> str:
        raise KeyboardInterrupt

    chatdb = ChatDB(model=model, schema=ORDERS, summarize=False)
    kernel = chatdb_kernel(chatdb, tmp_path)
    shell = next(kernel)
    # every request a plan (native revises no plan made after code's reading of a write was not written)
    shell.magics_manager.registry["ChatDBMagics"].settings.strategy = "chain"  # this kernel's only
    insert, nothing = "INSERT INTO refunds VALUES (9)", ("SELECT id FROM refunds WHERE false", ["x"])
    model.push({"route": "write"}, plan(insert, nothing), interrupt)
    result = shell.run_cell("%%chatdb --write\nRefund order 9")
    assert "Stopped: nothing was written." in str(result.error_in_exec)
    assert count(chatdb, "refunds") == 2
    model.push({"route": "write"}, plan(insert))
    shell.run_cell("%%chatdb --write\nRefund order 9").raise_error()
    assert count(chatdb, "refunds") == 3
    next(kernel, None)
    chatdb.close()


def test_a_remote_refusal_inside_a_write_leaves_no_transaction(model: ScriptedBackend, tmp_path):
    """A write request whose later step reads a remote table with a local one is refused there: the insert
    before it is rolled back and the next write runs."""
    sqlite3 = pytest.importorskip("sqlite3")
    pytest.importorskip("sqlalchemy")
    path = tmp_path / "yard.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE bales (farm TEXT, kg REAL)")
        con.execute("INSERT INTO bales VALUES ('Calder', 20.0)")
    chatdb = ChatDB(model=model, schema=ORDERS, summarize=False)
    chatdb.connect(f"sqlite:///{path}")
    mixed = "INSERT INTO refunds VALUES (11); SELECT b.farm FROM bales AS b JOIN refunds AS r ON r.id = b.kg"
    with pytest.raises(ChatDBError):
        chatdb.run_sql(mixed, allow_writes=True)
    assert count(chatdb, "refunds") == 2
    assert_no_transaction(chatdb)
    chatdb.run_sql("INSERT INTO refunds VALUES (12)", allow_writes=True)
    assert count(chatdb, "refunds") == 3
    chatdb.close()
