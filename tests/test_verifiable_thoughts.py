"""Result thoughts checked against the data (real DuckDB), and memory files made before the kinds of
thought existed."""

import sqlite3

import pandas as pd
import pytest

from jupyter_chatdb.kernel_memory import evidence
from jupyter_chatdb.kernel_memory.store import Store
from jupyter_chatdb.sql.session import Session

SQL = "SELECT count(*) AS heavy FROM horses WHERE kg > 600"


@pytest.fixture
def stable():
    session = Session()
    horses = pd.DataFrame({"name": ["Calder", "Quellmire", "Brindle"], "kg": [650, 580, 710]})
    session.bind("horses", horses)
    yield session, horses
    session.close()


def kept(session: Session) -> Store:
    store = Store()
    thought = evidence.result_thought("How many heavy horses?", session.run(SQL).frame, SQL, session)
    assert thought is not None and thought.object == "heavy: 2"
    store.add(thought.sentence, thought.triple, kind=thought.kind, sql=thought.sql, tables=thought.tables)
    return store


def test_a_result_thought_stands_while_its_frame_is_unchanged(stable):
    session, _ = stable
    record = kept(session).live()[0]
    checked = evidence.check(record, session)
    assert checked.state == "fresh" and checked.figures == "heavy: 2"
    assert evidence.freshness(record, session).startswith("true of the tables now")


def test_a_changed_value_reads_the_figure_again(stable):
    session, horses = stable
    record = kept(session).live()[0]
    horses.loc[horses.name == "Quellmire", "kg"] = 640  # a notebook cell changes the frame
    session.bind("horses", horses)  # as %%chatdb binds the notebook's frames before each request
    assert evidence.freshness(record, session) == "tables changed since: read again when recalled"
    checked = evidence.check(record, session)
    assert checked.state == "changed" and checked.figures == "heavy: 3" and checked.tables != record.tables


def test_a_changed_row_that_leaves_the_figure_is_fresh_at_new_fingerprints(stable):
    session, horses = stable
    record = kept(session).live()[0]
    horses.loc[horses.name == "Calder", "kg"] = 660
    session.bind("horses", horses)
    checked = evidence.check(record, session)
    assert checked.state == "fresh" and checked.tables != record.tables


def test_a_renamed_column_withholds_the_thought(stable):
    session, horses = stable
    record = kept(session).live()[0]
    session.bind("horses", horses.rename(columns={"kg": "weight"}))
    checked = evidence.check(record, session)
    assert checked.state == "withheld" and "kg" in checked.why


def test_a_large_result_or_a_write_is_no_result_thought(stable):
    session, _ = stable
    many = pd.DataFrame({"n": range(6)})
    assert evidence.result_thought("Six?", many, "SELECT * FROM horses", session) is None
    one = pd.DataFrame({"n": [1]})
    assert evidence.result_thought("Delete?", one, "DELETE FROM horses", session) is None


def test_a_memory_file_from_before_gets_the_new_columns(tmp_path):
    path = tmp_path / "old.memory.sqlite"
    with sqlite3.connect(path) as old:
        old.executescript(
            "CREATE TABLE records (id INTEGER PRIMARY KEY, text TEXT NOT NULL, subject TEXT NOT NULL DEFAULT '',"
            " relation TEXT NOT NULL DEFAULT '', object TEXT NOT NULL DEFAULT '', embedding BLOB,"
            " source TEXT NOT NULL DEFAULT '', created TEXT NOT NULL, superseded_by INTEGER, valid_to TEXT);"
            " INSERT INTO records (text, source, created, embedding) VALUES"
            " ('Calder is shod on Mondays.', '%%mem add: Calder is shod on Mondays', '2026-01-01', x'0000803f'),"
            " ('Calder weighs 650 kg.', 'How heavy is Calder?', '2026-01-01', x'0000803f');"
        )
    store = Store(path)
    stated, answered = store.all()
    assert (stated.kind, stated.terms, stated.verifiable) == ("fact", (), False)
    assert answered.kind == "unchecked" and list(store.vectors()) == [stated.id]  # an old figure: never recalled
    assert evidence.freshness(answered, Session()).endswith("never recalled")
    added = store.add(
        "Heavy: over 600 kg.", ("heavy horse", "definition", "x"), kind="definition", terms=("heavy horse",)
    )
    assert store.with_terms() == [added]
    store.close()


def test_a_kept_statement_that_is_not_one_select_never_runs(stable):
    session, _ = stable
    session.run("CREATE TABLE stalls AS SELECT * FROM range(2) AS t(n)")
    planted = Store().add(  # as an edited memory file might hold
        "Stalls? n: 2",
        ("Stalls?", "answer", "n: 2"),
        kind="result",
        sql="DELETE FROM stalls",
        tables=(("stalls", "0"),),
    )
    checked = evidence.check(planted, session)
    assert checked.state == "withheld" and session.run("SELECT count(*) FROM stalls").scalar == 2
