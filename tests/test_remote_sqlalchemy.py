"""Any SQLAlchemy database as a remote engine, on a real SQLite file: its tables read with the inspector,
reads run there in SQLite's dialect, writes refused, and %chatdb connect with a URL."""

from __future__ import annotations

import sqlite3

import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ConfigError, QueryFailed

sqlalchemy = pytest.importorskip("sqlalchemy")


@pytest.fixture
def yard_file(tmp_path):
    path = tmp_path / "yard.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE bales (farm TEXT, kg REAL, day DATE)")
        con.executemany(
            "INSERT INTO bales VALUES (?, ?, ?)",
            [("Calder", 20.0, "2024-01-02"), ("Tansy", 15.5, "2024-01-03"), ("Calder", 4.5, "2024-02-01")],
        )
    return path


def test_a_sqlite_database_is_read_there_through_sqlalchemy(yard_file, scripted):
    db = ChatDB(model=scripted, summarize=False)
    assert db.connect(f"sqlite:///{yard_file}") == ["bales"]
    assert db.status().remote == f"sqlite at {yard_file}"
    result = db.session.run("SELECT farm, sum(kg) / count(*) AS mean FROM bales GROUP BY farm ORDER BY farm")
    assert result.frame.to_dict("list") == {"farm": ["Calder", "Tansy"], "mean": [12.25, 15.5]}
    with pytest.raises(QueryFailed, match="only read"):
        db.session.run("INSERT INTO bales VALUES ('Quellmire', 1, '2024-03-01')")
    with pytest.raises(QueryFailed, match="The database could not run it"):
        db.session.run("SELECT list_sort([kg]) FROM bales")  # DuckDB's own function: SQLite has none
    db.close()


def test_a_url_that_cannot_be_used_says_so(scripted):
    db = ChatDB(model=scripted, summarize=False)
    with pytest.raises(ConfigError, match="Cannot use that database URL"):
        db.connect("nosuchdb://somewhere/x")
    db.close()
