"""What a column means, from wherever the data or the user says it: a DuckDB comment, a DataFrame's attrs,
a SQLite file's CREATE TABLE comments read through SQLAlchemy, or `%chatdb describe TABLE.COLUMN`, kept
with the notebook. Every prompt shows it beside the column; tables without meanings are shown as before."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.sql.catalog import Catalog

from .conftest import native


def meanings(db: ChatDB) -> dict[str, dict[str, str]]:
    return Catalog.read(db.session).meanings()


def test_a_duckdb_comment_is_the_column_s_meaning_in_the_prompt(scripted):
    db = ChatDB(model=scripted, summarize=False)
    db.session.run("CREATE TABLE wards (ward VARCHAR, c7 INTEGER, c9 INTEGER)")
    db.session.run("INSERT INTO wards VALUES ('North', 4, 30), ('East', 0, 12)")
    db.session.run("COMMENT ON COLUMN wards.c7 IS 'beds free tonight'")
    assert meanings(db) == {"wards": {"c7": "beds free tonight"}}
    scripted.push(native("SELECT sum(c7) AS beds FROM wards"))
    assert db.ask("How many beds are free tonight?").result["beds"].tolist() == [4]
    prompt = scripted.calls[-1].messages[-1]["content"]
    assert "  c7 INTEGER, -- beds free tonight\n  c9 INTEGER\n);" in prompt
    db.close()


def test_a_dataframe_says_its_columns_meanings_in_its_attrs(scripted):
    frame = pd.DataFrame({"ward": ["North"], "c7": [4]})
    frame.attrs["column_descriptions"] = {"c7": "beds free tonight", "ward": "  "}
    db = ChatDB(model=scripted, summarize=False)
    db.register("wards", frame)
    assert meanings(db) == {"wards": {"c7": "beds free tonight"}}  # a blank one says nothing
    db.close()


def test_a_user_s_description_wins_and_is_kept_with_the_notebook(scripted, tmp_path):
    kept = tmp_path / "nb.values.sqlite"
    db = ChatDB(model=scripted, summarize=False, values_path=kept)
    db.session.run("CREATE TABLE wards (ward VARCHAR, c7 INTEGER)")
    db.session.run("COMMENT ON COLUMN wards.c7 IS 'c7'")
    db.describe("wards.C7", "beds free tonight")  # the column in any case
    assert meanings(db) == {"wards": {"c7": "beds free tonight"}}
    database = db.session.database
    db.close()

    again = ChatDB(model=scripted, summarize=False, values_path=kept, database=database)
    again.session.run("CREATE TABLE wards (ward VARCHAR, c7 INTEGER)")
    assert meanings(again) == {"wards": {"c7": "beds free tonight"}}
    again.describe("wards.c7", "")  # an empty description forgets it
    assert meanings(again) == {}
    again.close()


def test_describing_a_column_that_is_not_there_says_what_is(scripted):
    db = ChatDB(model=scripted, summarize=False)
    db.session.run("CREATE TABLE wards (ward VARCHAR, c7 INTEGER)")
    with pytest.raises(ChatDBError, match="wards has no column 'c8'; it has ward, c7"):
        db.describe("wards.c8", "beds")
    with pytest.raises(ChatDBError, match="There is no table 'beds.c7'"):
        db.describe("beds.c7", "beds")
    db.close()


def test_a_sqlite_file_s_create_table_comments_are_read_through_sqlalchemy(scripted, tmp_path):
    pytest.importorskip("sqlalchemy")
    path = tmp_path / "wards.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE wards (\n  ward TEXT,\n  c7 INTEGER, -- beds free tonight\n  c9 INTEGER\n)")
        con.execute("INSERT INTO wards VALUES ('North', 4, 30)")
    db = ChatDB(model=scripted, summarize=False)
    db.connect(f"sqlite:///{path}")
    assert meanings(db) == {"wards": {"c7": "beds free tonight"}}
    db.close()
