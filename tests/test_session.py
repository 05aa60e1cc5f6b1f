import signal
import threading
import time

import pandas as pd
import pytest

from jupyter_chatdb.errors import ConfigError, QueryFailed, QueryInterrupted
from jupyter_chatdb.sql.session import Session


@pytest.fixture
def session():
    s = Session()
    yield s
    s.close()


def test_bound_frame_is_queryable_and_rebinding_sees_changes(session, sales):
    session.bind_frames({"sales": sales})
    assert session.run("SELECT count(*) FROM sales").scalar == 5
    sales.loc[len(sales)] = ["West", "kiwi", 1, 3.0]  # in place: the variable still names this object
    sales.loc[0, "units"] = 100
    session.bind_frames({"sales": sales})  # what every %%chatdb cell does first
    assert session.run("SELECT count(*), max(units) FROM sales").frame.iloc[0].tolist() == [6, 100]


def test_bind_frames_rebinds_reassigned_names_and_drops_stale_ones(session, sales):
    namespace = {"sales": sales, "other": pd.DataFrame({"x": [1]}), "_hidden": sales, "n": 3}
    binding = session.bind_frames(namespace)
    assert binding.bound == ["other", "sales"]
    namespace["sales"] = sales.head(2)  # the variable now names a different frame
    del namespace["other"]
    binding = session.bind_frames(namespace)
    assert binding.bound == ["sales"]
    assert session.run("SELECT count(*) FROM sales").scalar == 2
    with pytest.raises(QueryFailed, match="other"):
        session.run("SELECT * FROM other")


def test_stored_tables_are_not_shadowed_by_frames(session, sales):
    session.run("CREATE TABLE sales (id INTEGER)")
    binding = session.bind_frames({"sales": sales})
    assert binding.shadowed == ["sales"] and binding.bound == []
    assert session.run("SELECT count(*) FROM sales").scalar == 0
    with pytest.raises(ConfigError, match="already a table"):
        session.bind("sales", sales)


def test_bind_rejects_non_frames(session):
    with pytest.raises(ConfigError, match="not a pandas DataFrame"):
        session.bind("x", [1, 2])  # type: ignore[arg-type]


def test_result_has_rows_count_and_time(session):
    result = session.run("SELECT range AS n FROM range(10) ORDER BY n")
    assert list(result.frame["n"]) == list(range(10))
    assert result.row_count == 10 and not result.truncated
    assert result.elapsed_ms >= 0
    assert list(result.preview(3)["n"]) == [0, 1, 2]


def test_fetch_limit_caps_rows_but_counts_them_all():
    session = Session(fetch_limit=1000)
    result = session.run("SELECT * FROM range(50000)")
    assert len(result.frame) == 1000 and result.row_count == 50000 and result.truncated
    session.close()


def test_empty_result_keeps_columns(session):
    result = session.run("SELECT 1 AS a, 'x' AS b WHERE false")
    assert list(result.frame.columns) == ["a", "b"] and result.row_count == 0


def test_errors_are_query_failed(session):
    with pytest.raises(QueryFailed, match="nope"):
        session.run("SELECT * FROM nope")


def test_transaction_rolls_back_everything_on_failure(session):
    session.run("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    with pytest.raises(QueryFailed):
        with session.transaction():
            session.run("INSERT INTO t VALUES (1)")
            session.run("INSERT INTO t VALUES (1)")  # duplicate key
    assert session.run("SELECT count(*) FROM t").scalar == 0


def test_interrupt_stops_a_long_query_and_the_session_stays_usable(session):
    # Jupyter interrupts a kernel with SIGINT; deliver one to this (the main) thread, every half second
    # until the query stops (on a loaded machine one may come before the query has started)
    main = threading.main_thread().ident
    stopped = threading.Event()

    def press_ctrl_c() -> None:
        while not stopped.wait(0.5):
            signal.pthread_kill(main, signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    started = time.monotonic()
    # a kernel handles Ctrl-C; a process started in the background ignores SIGINT until told otherwise
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser.start()
    try:
        with pytest.raises(QueryInterrupted, match="interrupted"):
            session.run("SELECT count(*) FROM range(100000000000) AS a(x) WHERE x % 7 = 3")
    finally:
        try:
            stopped.set()
            presser.join()
        except KeyboardInterrupt:  # a press that came as the query stopped
            presser.join()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 30
    assert session.run("SELECT 42").scalar == 42


def test_own_tables_persist_in_a_file(tmp_path):
    path = tmp_path / "memory.duckdb"
    first = Session(path)
    first.run("CREATE TABLE notes AS SELECT 'kept' AS body")
    first.close()
    second = Session(path)
    assert second.run("SELECT body FROM notes").scalar == "kept"
    assert second.stored_tables() == {"notes"}
    second.close()


def test_namespace_binding_leaves_explicit_bindings_alone(session, sales):
    session.bind("registered", sales)
    session.bind_frames({"frame": sales})
    session.bind_frames({})
    assert sorted(session.frames) == ["registered"]
