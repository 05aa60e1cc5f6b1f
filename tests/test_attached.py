"""Attached DuckDB files: read-only tables named `database.table` that requests can join with DataFrames."""

import duckdb
import pandas as pd
import pytest

from jupyter_chatdb import ChatDB, ChatDBError
from jupyter_chatdb.controller.events import ValueCorrected
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.sql import guard
from jupyter_chatdb.sql.catalog import Catalog

from .conftest import plan


@pytest.fixture
def archive(tmp_path):
    path = tmp_path / "archive.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR, city VARCHAR)")
        con.execute("CREATE TABLE orders (id INTEGER, customer_id INTEGER REFERENCES customers (id), total DOUBLE)")
        con.execute("INSERT INTO customers VALUES (1, 'Ann', 'Oslo'), (2, 'Bo', 'Bergen')")
        con.execute("INSERT INTO orders VALUES (10, 1, 25.0), (11, 2, 5.0), (12, 1, 10.0)")
    return path


def test_attached_tables_are_in_the_catalog_with_their_keys(archive):
    db = ChatDB(model=ScriptedBackend([]))
    assert db.attach(archive) == "archive"
    db.register("targets", pd.DataFrame({"city": ["Oslo"], "goal": [30.0]}))
    catalog = Catalog.read(db.session)
    assert list(catalog.tables) == ["targets", "archive.customers", "archive.orders"]
    assert "REFERENCES archive.customers (id)" in catalog.tables["archive.orders"].ddl()
    tables = db.tables()
    assert tables[tables["kind"] == "attached (read-only)"]["table"].tolist() == ["archive.customers", "archive.orders"]
    with pytest.raises(ChatDBError, match="already attached"):
        db.attach(archive)
    with pytest.raises(ChatDBError, match="There is no DuckDB file at"):
        db.attach(archive.with_name("missing.duckdb"))


def test_a_request_joins_a_dataframe_with_an_attached_table_and_cannot_write_there(archive):
    model = ScriptedBackend(
        [
            {"route": "read"},
            plan(
                "SELECT c.city, sum(o.total) AS total FROM archive.orders AS o"
                " JOIN archive.customers AS c ON o.customer_id = c.id"
                " JOIN targets AS t ON t.city = c.city WHERE c.city = 'oslo' GROUP BY c.city"
            ),
        ]
    )
    db = ChatDB(model=model, strategy="chain", summarize=False)
    db.attach(archive)
    db.register("targets", pd.DataFrame({"city": ["Oslo"], "goal": [30.0]}))
    events = []
    reply = db.ask("Total orders of Oslo customers?", on_event=events.append)
    assert reply.result.to_dict("records") == [{"city": "Oslo", "total": 35.0}]
    assert [(e.table, e.old, e.new) for e in events if isinstance(e, ValueCorrected)] == [
        ("archive.customers", "oslo", "Oslo")
    ]
    schema = Catalog.read(db.session).schema()
    with pytest.raises(ChatDBError, match="archive.orders is in an attached database, which ChatDB only reads"):
        guard.check("DELETE FROM archive.orders WHERE id = 10", schema, allow_writes=True)
    with pytest.raises(ChatDBError, match="Unknown table 'archive.order'"):
        guard.check("SELECT * FROM archive.order", schema)


def test_attach_magic(archive, tmp_path, capsys):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_cell("%load_ext jupyter_chatdb", store_history=False)
    magics = shell.magics_manager.registry["ChatDBMagics"]
    magics.settings.memory = False
    magics.engine = ChatDB(model=ScriptedBackend([]))
    try:
        shell.run_cell(f"%chatdb attach {archive} old").raise_error()
        assert (
            "Attached " + str(archive) + " as old: its tables are old.customers, old.orders (read-only)."
            in capsys.readouterr().out
        )
        shell.run_cell(f"%chatdb attach {tmp_path / 'none.duckdb'}")
        assert "There is no DuckDB file at" in capsys.readouterr().out
        shell.run_cell("%chatdb attach")
        assert "UsageError: Use %chatdb attach FILE [NAME]" in capsys.readouterr().err
    finally:
        shell.run_cell("%unload_ext jupyter_chatdb", store_history=False)


def test_an_attached_table_named_without_its_database_is_qualified_and_its_literals_checked(archive):
    model = ScriptedBackend(
        [
            {"route": "read"},
            plan(
                "SELECT sum(orders.total) AS total FROM orders JOIN customers AS c ON orders.customer_id = c.id"
                " WHERE c.city = 'oslo'"
            ),
        ]
    )
    db = ChatDB(model=model, strategy="chain", summarize=False)
    db.attach(archive)
    events = []
    reply = db.ask("Total orders of Oslo customers?", on_event=events.append)
    assert reply.sql == [
        "SELECT SUM(orders.total) AS total FROM archive.orders AS orders JOIN archive.customers AS c ON orders.customer_id = c.id"
        " WHERE c.city = 'Oslo'"
    ]
    assert reply.result["total"].tolist() == [35.0]
    assert [(e.table, e.old, e.new) for e in events if isinstance(e, ValueCorrected)] == [
        ("archive.customers", "oslo", "Oslo")
    ]


def test_the_one_round_controller_qualifies_attached_tables_too(archive):
    db = ChatDB(
        model=ScriptedBackend([{"sql": "SELECT count(*) AS n FROM orders"}]), summarize=False, strategy="one-round"
    )
    db.attach(archive)
    reply = db.ask("How many orders are there?")
    assert reply.sql == ["SELECT COUNT(*) AS n FROM archive.orders"] and reply.result["n"].tolist() == [3]
