"""The undo journal on a real DuckDB database: exact states back, with and without primary keys."""

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
    assert [u.request_id for u in journal.undo()] == [1] and state(session) == states[0]  # parents deleted after their children
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
