"""The undo journal on a real DuckDB database: exact states back, with and without primary keys."""

import signal

import pytest

from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.sql import guard
from jupyter_chatdb.sql.journal import Journal
from jupyter_chatdb.sql.session import Session

SCHEMA = """
CREATE TABLE suppliers (supplier_id INTEGER PRIMARY KEY, name VARCHAR);
CREATE TABLE purchases (purchase_id INTEGER PRIMARY KEY, supplier_id INTEGER REFERENCES suppliers (supplier_id));
CREATE TABLE purchase_items (purchase_id INTEGER REFERENCES purchases (purchase_id), fruit VARCHAR, kg DECIMAL(10, 2));
CREATE TABLE notes (text VARCHAR);
"""
TABLES = ("suppliers", "purchases", "purchase_items", "notes")


@pytest.fixture
def session():
    session = Session()
    session.rows(SCHEMA)
    yield session
    session.close()


def apply(session, journal, request, statements):
    recorder = journal.recorder()
    with session.transaction():
        for sql in statements:
            statement = guard.check(sql, allow_writes=True).statements[0]
            recorder.before(statement)
            session.run(sql)
        return recorder.commit(request, statements)


def state(session):
    return {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in TABLES}


def test_undo_and_restore_across_keys_foreign_keys_and_duplicate_rows(session):
    journal = Journal(session)
    states = [state(session)]
    apply(
        session,
        journal,
        "first",
        [
            "INSERT INTO suppliers VALUES (1, 'Golden Fields')",
            "INSERT INTO purchases VALUES (10, 1)",
            "INSERT INTO purchase_items VALUES (10, 'apple', 27), (10, 'pear', 5)",
            "INSERT INTO notes VALUES ('x'), ('x')",  # no key: duplicates must come back as two rows
        ],
    )
    states.append(state(session))
    apply(
        session,
        journal,
        "second",
        [
            "UPDATE suppliers SET name = 'Golden Fields Ltd' WHERE supplier_id = 1",
            "DELETE FROM purchase_items WHERE fruit = 'pear'",
            "INSERT INTO notes VALUES ('x')",
        ],
    )
    states.append(state(session))
    apply(
        session,
        journal,
        "third",
        [
            "CREATE TABLE extra (a INTEGER)",
            "INSERT INTO extra VALUES (1)",
            "DELETE FROM notes WHERE text = 'x'",
        ],
    )
    assert [u.request_id for u in journal.undo()] == [3] and state(session) == states[2]
    assert "extra" not in session.stored_tables()
    assert [u.request_id for u in journal.restore(1)] == [2] and state(session) == states[1]
    assert [u.request_id for u in journal.undo()] == [1] and state(session) == states[
        0
    ]  # parents deleted after their children
    assert journal.history()["undone_at"].notna().all()
    with pytest.raises(ChatDBError, match="nothing to undo"):
        journal.undo()


def test_undo_asks_for_a_count_it_can_do(session):
    journal = Journal(session)
    apply(session, journal, "one", ["INSERT INTO notes VALUES ('a')"])
    with pytest.raises(ChatDBError, match=r"Only 1 request\(s\) can be undone; call undo\(1\)"):
        journal.undo(2)
    with pytest.raises(ChatDBError, match="not an applied request"):
        journal.restore(7)


def test_a_request_that_changed_nothing_is_not_journalled(session):
    journal = Journal(session)
    assert apply(session, journal, "nothing", ["DELETE FROM notes WHERE text = 'missing'"]) is None
    assert journal.history().empty


# -- undo restores exactly on tables with UNIQUE and GENERATED columns, keys and references (issue 50) --


def undone_exactly(session, schema: str, statements: list[str]) -> None:
    """Apply `statements` as one request on `schema` and undo it: every table is exactly as before."""
    session.rows(schema)
    tables = [name for (name,) in session.rows("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")]
    before = {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in tables}
    journal = Journal(session)
    apply(session, journal, "change", statements)
    assert {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in tables} != before
    (undone,) = journal.undo()
    assert {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in tables} == before, undone.summary
    assert journal.history()["undone_at"].notna().all()


def test_undo_of_an_update_beside_a_unique_column_without_a_key():
    session = Session()
    schema = "CREATE TABLE kites (tag VARCHAR UNIQUE, span INTEGER); INSERT INTO kites VALUES ('K1', 2), ('K2', 3);"
    undone_exactly(session, schema, ["UPDATE kites SET span = 9 WHERE tag = 'K1'"])


def test_undo_of_a_unique_value_moved_to_a_new_row_beside_a_key():
    session = Session()
    schema = "CREATE TABLE kites (kite_id INTEGER PRIMARY KEY, tag VARCHAR UNIQUE); INSERT INTO kites VALUES (1, 'K1');"
    undone_exactly(
        session, schema, ["UPDATE kites SET tag = 'K9' WHERE kite_id = 1", "INSERT INTO kites VALUES (2, 'K1')"]
    )


def test_undo_of_unique_values_swapped_between_rows():
    session = Session()
    schema = "CREATE TABLE kites (kite_id INTEGER PRIMARY KEY, tag VARCHAR UNIQUE); INSERT INTO kites VALUES (1, 'A'), (2, 'B');"
    undone_exactly(
        session,
        schema,
        [
            "UPDATE kites SET tag = 'X' WHERE kite_id = 1",
            "UPDATE kites SET tag = 'A' WHERE kite_id = 2",
            "UPDATE kites SET tag = 'B' WHERE kite_id = 1",
        ],
    )


@pytest.mark.parametrize(
    "statement",
    [
        "DELETE FROM hives WHERE hive_id = 1",
        "UPDATE hives SET frames = 12 WHERE hive_id = 2",
        "INSERT INTO hives (hive_id, frames) VALUES (3, 4)",
    ],
    ids=["delete", "update", "insert"],
)
@pytest.mark.parametrize("key", ["hive_id INTEGER PRIMARY KEY", "hive_id INTEGER"], ids=["key", "no key"])
def test_undo_on_a_table_with_a_generated_column(statement: str, key: str):
    session = Session()
    schema = (
        f"CREATE TABLE hives ({key}, frames INTEGER, bees INTEGER GENERATED ALWAYS AS (frames * 2000));"
        " INSERT INTO hives (hive_id, frames) VALUES (1, 8), (2, 10);"
    )
    undone_exactly(session, schema, [statement])


def test_undo_points_a_child_back_before_deleting_the_new_parent_it_had_moved_to():
    session = Session()
    schema = """
    CREATE TABLE yards (yard_id INTEGER PRIMARY KEY, name VARCHAR);
    CREATE TABLE hives (hive_id INTEGER PRIMARY KEY, yard_id INTEGER REFERENCES yards (yard_id));
    INSERT INTO yards VALUES (1, 'Calder'); INSERT INTO hives VALUES (10, 1);
    """
    undone_exactly(
        session, schema, ["INSERT INTO yards VALUES (2, 'Ryde')", "UPDATE hives SET yard_id = 2 WHERE hive_id = 10"]
    )


def test_undo_says_what_it_took_back(session):
    journal = Journal(session)
    apply(session, journal, "Golden Fields supplies us now", ["INSERT INTO suppliers VALUES (1, 'Golden Fields')"])
    apply(session, journal, "rename", ["UPDATE suppliers SET name = 'GF' WHERE supplier_id = 1", "DELETE FROM notes"])
    (second,) = journal.undo()
    assert second.summary == 'Undid request 2 ("rename"): suppliers: 1 row changed back.'
    (first,) = journal.undo()
    assert first.summary == 'Undid request 1 ("Golden Fields supplies us now"): suppliers: 1 row removed.'


class Stopping(Session):
    """A session whose `stop_at`-th statement raises KeyboardInterrupt (Ctrl-C between undo's statements)."""

    stop_at: int | None = None

    def rows(self, sql, params=None):
        if self.stop_at is not None:
            self.stop_at -= 1
            if self.stop_at == 0:
                raise KeyboardInterrupt
        return super().rows(sql, params)


def test_an_interrupted_undo_leaves_all_or_nothing_and_the_next_undo_finishes_it():
    schema = """
    CREATE TABLE yards (yard_id INTEGER PRIMARY KEY, name VARCHAR);
    CREATE TABLE hives (hive_id INTEGER PRIMARY KEY, yard_id INTEGER REFERENCES yards (yard_id), frames INTEGER);
    INSERT INTO yards VALUES (1, 'Calder'); INSERT INTO hives VALUES (10, 1, 8);
    """
    statements = [
        "INSERT INTO yards VALUES (2, 'Ryde')",
        "INSERT INTO hives VALUES (11, 2, 4)",
        "UPDATE hives SET frames = 9 WHERE hive_id = 10",
    ]
    stops = 0
    for stop_at in range(1, 200):
        session = Stopping()
        session.rows(schema)
        before = {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("yards", "hives")}
        journal = Journal(session)
        apply(session, journal, "new yard", statements)
        after = {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("yards", "hives")}
        session.stop_at = stop_at
        try:
            journal.undo()
        except KeyboardInterrupt:
            stops += 1
            session.stop_at = None
            now = {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("yards", "hives")}
            half = journal._unfinished()
            assert now == after or half == [1], f"stopped at statement {stop_at}: half undone and not noted"
            assert not session.in_transaction
            journal.undo()  # finishes what was begun, or undoes it all
        else:
            session.close()
            break
        assert {t: session.rows(f"SELECT * FROM {t} ORDER BY ALL") for t in ("yards", "hives")} == before
        assert journal.history()["undone_at"].notna().all()
        session.close()
    assert stops > 5


class Signalling(Session):
    """A session that sends itself SIGINT (Ctrl-C) when it runs a statement starting with `at`."""

    at: str | None = None

    def rows(self, sql, params=None):
        if self.at is not None and sql.startswith(self.at):
            self.at = None
            signal.raise_signal(signal.SIGINT)
        return super().rows(sql, params)


@pytest.fixture
def python_handles_ctrl_c():
    """As in a kernel: a suite started in the background (nohup, CI) inherits SIGINT ignored, and an ignored
    Ctrl-C is never raised at all."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_during_an_undo_waits_until_it_has_committed(python_handles_ctrl_c):
    session = Signalling()
    session.rows(SCHEMA)
    journal = Journal(session)
    apply(session, journal, "new supplier", ["INSERT INTO suppliers VALUES (1, 'Golden Fields')"])
    session.at = "DELETE FROM main"  # the undo's first statement of its own
    with pytest.raises(KeyboardInterrupt):
        journal.undo()
    assert session.rows("SELECT count(*) FROM suppliers") == [(0,)]
    assert journal.history()["undone_at"].notna().all()
    session.close()
