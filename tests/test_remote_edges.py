"""Edges of a remote engine, on real SQLite files through SQLAlchemy: literals that look like bind
parameters, databases that cannot be opened, odd table names, columns of mixed types, and the plan of a
remote read."""

from __future__ import annotations

import sqlite3
import warnings

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ConfigError
from jupyter_chatdb.sql.catalog import Catalog
from jupyter_chatdb.tools import ToolCall, ToolInputError, Workbench, run_tool

pytest.importorskip("sqlalchemy")


def database(path, *statements: str, rows: dict[str, list[tuple]] | None = None):
    with sqlite3.connect(path) as con:
        for statement in statements:
            con.execute(statement)
        for table, values in (rows or {}).items():
            marks = ", ".join("?" * len(values[0]))
            con.executemany(f'INSERT INTO "{table.replace(chr(34), chr(34) * 2)}" VALUES ({marks})', values)
    con.close()
    return path


@pytest.fixture
def notes_file(tmp_path):
    return database(
        tmp_path / "notes.sqlite",
        "CREATE TABLE notes (id INTEGER, note TEXT)",
        rows={"notes": [(1, ":kg and :farm"), (2, "\\:esc"), (3, "plain"), (4, "O'Brien :x")]},
    )


@pytest.fixture
def remote(scripted):
    made: list[ChatDB] = []

    def connected(path) -> ChatDB:
        made.append(ChatDB(model=scripted, summarize=False))
        made[-1].connect(f"sqlite:///{path}")
        return made[-1]

    yield connected
    for chatdb in made:
        chatdb.close()


# -- 1. literals that look like bind parameters -------------------------------------------------


@pytest.mark.parametrize("literal", [":kg and :farm", "\\:esc", "O''Brien :x"])
def test_a_literal_with_colons_is_read_exactly(notes_file, remote, literal):
    db = remote(notes_file)
    result = db.session.run(f"SELECT id FROM notes WHERE note = '{literal}'")
    assert len(result.frame) == 1


@pytest.mark.parametrize(("value", "found"), [(":kg and :farm", [1]), ("\\:esc", [2]), ("O'Brien :x", [4])])
def test_parameters_of_a_remote_read_still_bind(notes_file, remote, value, found):
    db = remote(notes_file)
    result = db.session.run("SELECT id FROM notes WHERE note = $note ORDER BY id", {"note": value})
    assert result.frame["id"].tolist() == found


# -- 2. databases that cannot be opened ---------------------------------------------------------


def test_a_missing_folder_is_a_config_error(scripted, tmp_path):
    db = ChatDB(model=scripted, summarize=False)
    with pytest.raises(ConfigError, match=r"^Cannot open .*x\.db: .*") as raised:
        db.connect(f"sqlite:///{tmp_path}/no/such/dir/x.db")
    assert "\n" not in str(raised.value)
    db.close()


def test_a_file_that_is_not_sqlite_is_a_config_error(scripted, tmp_path):
    (tmp_path / "junk.db").write_bytes(b"this is not a database, only some bytes " * 50)
    db = ChatDB(model=scripted, summarize=False)
    with pytest.raises(ConfigError, match=r"^Cannot open .*junk\.db: .*") as raised:
        db.connect(f"sqlite:///{tmp_path}/junk.db")
    assert "\n" not in str(raised.value)
    db.close()


# -- 3. a table with a double quote in its name -------------------------------------------------


def test_a_table_named_with_a_double_quote_is_read(tmp_path, remote):
    path = database(
        tmp_path / "odd.sqlite",
        'CREATE TABLE "we""ird" (id INTEGER, "odd""col" TEXT)',
        "CREATE TABLE plain (id INTEGER)",
        rows={'we"ird': [(1, "a"), (2, "b")], "plain": [(7,)]},
    )
    db = remote(path)
    assert sorted(db.status().remote_tables) == ["plain", 'we"ird']
    assert db.session.run('SELECT count(*) AS n FROM "we""ird"').frame["n"].tolist() == [2]
    assert db.session.run('SELECT "odd""col" FROM "we""ird" ORDER BY id').frame.iloc[:, 0].tolist() == ["a", "b"]
    assert db.session.run("SELECT id FROM plain").frame["id"].tolist() == [7]
    tables = db.session.tables().set_index("table")
    assert tables.loc['we"ird', "rows"] == 2
    reply = db.run_sql('SELECT "odd""col" AS c FROM "we""ird" WHERE id = 2')  # the guard and the journal too
    assert reply.result is not None and reply.result["c"].tolist() == ["b"]
    assert 'we"ird' in Catalog.read(db.session).tables


# -- 4. a column holding values of several types ------------------------------------------------


def test_a_column_of_mixed_types_is_read_as_text(tmp_path, remote):
    path = database(
        tmp_path / "mixed.sqlite",
        "CREATE TABLE bins (id INTEGER, qty INTEGER, kg REAL)",
        "CREATE TABLE plain (id INTEGER)",
        rows={"bins": [(1, 1, 2.5), (2, "two", 3.0), (3, 3.5, 4.0), (4, None, 5.0)], "plain": [(7,)]},
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        db = remote(path)
    said = [str(w.message) for w in caught]
    assert len(said) == 1 and "bins.qty" in said[0] and "\n" not in said[0]
    read = db.session.run("SELECT qty, kg FROM bins ORDER BY id").frame
    assert read["qty"].tolist()[:3] == ["1", "two", "3.5"] and read["qty"].isna().tolist() == [False] * 3 + [True]
    assert read["kg"].tolist() == [2.5, 3.0, 4.0, 5.0]
    assert db.session.rows("SELECT qty FROM bins ORDER BY id") == [("1",), ("two",), ("3.5",), (None,)]  # the sample
    assert db.session.run("SELECT id FROM plain").frame["id"].tolist() == [7]
    reply = db.run_sql("SELECT id FROM bins WHERE qty = 'two'")
    assert reply.result is not None and reply.result["id"].tolist() == [2]
    columns = {c.name: c.type for c in Catalog.read(db.session).tables["bins"].columns}
    assert columns["qty"] == "VARCHAR" and columns["kg"] == "FLOAT"


# -- 5. the plan of a remote read ---------------------------------------------------------------


def test_explain_of_a_remote_read_says_the_plan_is_the_engines(notes_file, remote):
    db = remote(notes_file)
    bench = Workbench(db.session, Catalog.read(db.session), db.journal)
    with pytest.raises(
        ToolInputError, match=r"^notes is read on the remote engine .*cannot be profiled here"
    ) as raised:
        run_tool(ToolCall("explain_query", sql="SELECT count(*) FROM notes"), bench)
    assert "\n" not in str(raised.value)


# -- 6. a table with a dot in its name ----------------------------------------------------------


def test_a_table_named_with_a_dot_is_left_out_with_one_warning(tmp_path, remote):
    path = database(
        tmp_path / "dotted.sqlite",
        'CREATE TABLE "dot.ted" (id INTEGER)',
        "CREATE TABLE trades (id INTEGER, tonnes REAL)",
        rows={"dot.ted": [(1,)], "trades": [(1, 40.0), (2, 12.5)]},
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        db = remote(path)
    assert [str(w.message) for w in caught] == [
        "The remote table 'dot.ted' has a dot in its name, which SQL reads as database.table: it is left out; "
        "rename it there to ask about it."
    ]
    assert db.status().remote_tables == ["trades"]
    assert db.session.tables()[["table", "rows"]].to_dict("records") == [{"table": "trades", "rows": 2}]
    reply = db.run_sql("SELECT sum(tonnes) AS tonnes FROM trades")
    assert reply.result is not None and reply.result["tonnes"].tolist() == [52.5]
    assert list(Catalog.read(db.session).tables) == ["trades"]
