"""Model-written SQL is untrusted: every hostile statement of issue 15 is refused or harmless, through
`ChatDB.ask` with the scripted model "writing" it; approvals change exactly what their preview showed."""

from pathlib import Path

import duckdb
import pandas as pd
import pytest

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ChatDBError, ModelUnavailable, QueryFailed, SQLRefused
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.llm.openai_backend import OpenAIBackend
from jupyter_chatdb.sql.engine import is_locked
from jupyter_chatdb.sql.guard import Mode, check

from .conftest import PLAN_WRITES, native, plan

CANARY = "canary-5f3a9c"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with files a statement must never read or write."""
    monkeypatch.chdir(tmp_path)
    for name in ("c.csv", "q.csv", "z.csv", "secret.txt"):
        (tmp_path / name).write_text(f"a\n{CANARY}\n")
    return tmp_path


@pytest.fixture
def shop(scripted: ScriptedBackend) -> ChatDB:
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, summarize=False, revisions=0)
    chatdb.session.run("CREATE SEQUENCE s START 1")
    chatdb.session.run("CREATE TABLE t (id INTEGER PRIMARY KEY, fruit VARCHAR, note VARCHAR, amount INTEGER)")
    chatdb.session.run("INSERT INTO t VALUES (1, 'apple', 'fresh', 3), (2, 'pear', 'ripe', 5)")
    yield chatdb
    chatdb.close()


def files(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_size for p in folder.rglob("*")}


ISSUE_STATEMENTS = [
    "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT content FROM read_text(''{folder}/secret.txt'')'))",
    "SUMMARIZE 'c.csv'",
    "SUMMARIZE TABLE 'q.csv?x'",
    "SUMMARIZE '*.csv'",
    'SELECT * FROM \'z.csv.zst\' UNION ALL SELECT * FROM (WITH "z.csv.zst" AS (SELECT 1 AS a) SELECT * FROM "z.csv.zst")',
    "SELECT * FROM 'x.csv?y'",
    "SELECT * FROM 'z.json.zst'",
    "FROM enable_profiling(format='json', save_location='{folder}/profile.json')",
    "FROM enable_logging(storage='file', storage_path='{folder}/logs')",
    "FROM enable_profiling()",
    "FROM checkpoint()",
    "FROM force_checkpoint()",
    "FROM truncate_duckdb_logs()",
    "SELECT html_escape('<a>')",
    "SELECT text(1,'0')",
    "FROM tpch_queries()",
    "FROM start_ui_server()",
    "FROM sql_auto_complete('SEL')",
    "SELECT nextval('s')",
    "SELECT 1 /* /* */",
    "SELECT $A$; DROP TABLE t$a$",
    "SELECT content FROM read_text('{folder}/secret.txt')",
    "SELECT current_setting('temp_directory')",
    "SELECT * FROM duckdb_settings()",
]


@pytest.mark.parametrize("sql", ISSUE_STATEMENTS)
def test_hostile_reads_are_refused_or_harmless(shop, scripted, folder, sql):
    sql = sql.replace("{folder}", str(folder))
    before, sequences = files(folder), shop.session.sequences()
    scripted.push({"route": "read"}, plan(sql), {"sql": sql}, {"sql": sql})  # the one-round fallback tries too
    try:
        said = repr(
            shop.ask("do it").result
        )  # harmless: what ran is the checked tree ("SELECT 1" of "SELECT 1 /* /* */")
    except ChatDBError as refused:
        said = str(refused)
    assert CANARY not in said
    assert files(folder) == before
    assert shop.session.sequences() == sequences
    assert shop.session.rows("SELECT count(*) FROM t") == [(2,)]
    assert shop.session.run("SELECT 1 AS ok").scalar == 1  # the session still works


def test_a_preview_runs_only_row_changes_whatever_the_model_routes(shop, scripted, folder):
    sql = "INSERT INTO t VALUES (3, 'kiwi', 'new', 1); CREATE TABLE t2 AS SELECT * FROM enable_profiling()"
    scripted.push({"route": "write"}, plan(sql))
    with pytest.raises(SQLRefused, match="allow writes"):
        shop.ask("add a kiwi")  # writes are not allowed: the model's "write" gets a preview at most
    scripted.push({"route": "write"}, plan("INSERT INTO t VALUES (3, 'kiwi', 'new', 1)", "CREATE TABLE t2 (a INTEGER)"))
    with pytest.raises(SQLRefused, match="allow writes"):
        shop.ask("add a kiwi and a table")
    assert "t2" not in shop.session.stored_tables()
    assert shop.session.rows("SELECT count(*) FROM t") == [(2,)]


def test_the_engine_itself_refuses_files_extensions_and_settings(shop, folder):
    assert is_locked(shop.session._con)
    for sql in (
        f"SELECT content FROM read_text('{folder}/secret.txt')",
        f"COPY t TO '{folder}/out.csv'",
        f"ATTACH '{folder}/other.duckdb' AS other",
        "INSTALL inet",
        "SET enable_external_access = true",
        "SET lock_configuration = false",
    ):
        with pytest.raises(QueryFailed):
            shop.session.run(sql)  # run() skips the guard: this is the engine alone
    assert "out.csv" not in files(folder) and "other.duckdb" not in files(folder)


def test_attach_and_a_database_file_work_with_the_engine_locked(scripted, tmp_path):
    archive = tmp_path / "archive.duckdb"
    con = duckdb.connect(str(archive))
    con.execute("CREATE TABLE orders AS SELECT 7 AS id, 'pear' AS fruit")
    con.close()
    chatdb = ChatDB(model=scripted, without=PLAN_WRITES, database=tmp_path / "own.duckdb", summarize=False)
    chatdb.register("wanted", pd.DataFrame({"fruit": ["pear"]}))
    chatdb.session.run("CREATE TABLE notes AS SELECT 1 AS n")
    assert chatdb.attach(archive) == "archive"
    assert is_locked(chatdb.session._con)
    scripted.push(
        native("SELECT o.id, n.n FROM archive.orders AS o JOIN wanted AS w ON o.fruit = w.fruit, notes AS n"),
    )
    assert chatdb.ask("which orders are wanted?").result.to_dict("records") == [{"id": 7, "n": 1}]
    chatdb.close()


def test_a_bound_value_cannot_widen_a_write(shop, scripted):
    shop.register("asked", pd.DataFrame({"body": [" OR amount IS NOT NULL OR note LIKE "]}))
    scripted.push(
        {"route": "write"},
        {"table": "t"},
        plan(("SELECT body FROM asked", ["body"]), "DELETE FROM t WHERE note LIKE '%<body>%' RETURNING id"),
    )
    with pytest.raises(ChatDBError, match="it changed no row"):
        shop.ask("delete the notes that say what was asked", allow_writes=True)
    assert shop.session.rows("SELECT count(*) FROM t") == [(2,)]


def test_quotes_in_a_bound_value_are_data(shop, scripted):
    shop.register("asked", pd.DataFrame({"name": ["O'Neil'); DELETE FROM t; --"]}))
    scripted.push(
        {"route": "write"},
        {"table": "t"},
        plan(("SELECT name FROM asked", ["name"]), "INSERT INTO t VALUES (3, <name>, 'x', 1)"),
    )
    reply = shop.ask("add what was asked, noted x, amount 1", allow_writes=True)
    assert shop.session.rows("SELECT fruit FROM t WHERE id = 3") == [("O'Neil'); DELETE FROM t; --",)]
    assert shop.session.rows("SELECT count(*) FROM t") == [(3,)]
    assert reply.plan[1].sql == "INSERT INTO t VALUES (3, $name, 'x', 1)"  # what an approval would run


def test_approve_after_the_data_changed_refuses(shop, scripted):
    shop.register("wanted", pd.DataFrame({"fruit": ["apple"]}))
    scripted.push(
        {"route": "write"},
        {"table": "t"},
        plan(("SELECT fruit FROM wanted", ["fruit"]), "DELETE FROM t WHERE fruit = <fruit>"),
    )
    reply = shop.ask("remove the fruit we no longer want")
    assert reply.pending and reply.changes[0].old["fruit"].tolist() == ["apple"]
    shop.register("wanted", pd.DataFrame({"fruit": ["pear"]}))
    with pytest.raises(ChatDBError, match="The data changed since the preview"):
        shop.apply(reply)
    assert shop.session.rows("SELECT fruit FROM t ORDER BY id") == [("apple",), ("pear",)]
    shop.register("wanted", pd.DataFrame({"fruit": ["apple"]}))
    shop.apply(reply)  # the same data again: it runs, and removes what was shown
    assert shop.session.rows("SELECT fruit FROM t ORDER BY id") == [("pear",)]


def test_approve_runs_with_new_sequence_ids_and_the_clock_of_its_own_run(shop, scripted):
    shop.session.run(
        "CREATE TABLE log (id INTEGER PRIMARY KEY DEFAULT nextval('s'), what VARCHAR, logged_at TIMESTAMP)"
    )
    scripted.push(
        {"route": "write"}, plan("INSERT INTO log (what, logged_at) VALUES ('restock', current_localtimestamp())")
    )
    reply = shop.ask("log a restock")
    assert reply.pending and reply.changes[0].new["id"].tolist() == [1]
    applied = shop.apply(reply)  # the preview spent id 1: approving gets id 2, and is still the same change
    assert not applied.pending
    assert shop.session.rows("SELECT id, what FROM log") == [(2, "restock")]


def test_a_write_that_changes_every_row_waits_for_approval_even_with_a_where(shop, scripted):
    scripted.push({"route": "write"}, plan("UPDATE t SET amount = amount + 1 WHERE id > 0"))
    reply = shop.ask("add one to every amount", allow_writes=True)
    assert reply.pending
    assert shop.session.rows("SELECT amount FROM t ORDER BY id") == [(3,), (5,)]
    scripted.push({"route": "write"}, plan("UPDATE t SET amount = amount + 1 WHERE id = 1"))
    assert not shop.ask("add one to the apples", allow_writes=True).pending


def test_create_or_replace_of_a_table_is_refused_and_a_new_table_from_star_is_not(shop):
    with pytest.raises(SQLRefused, match="CREATE OR REPLACE would replace the table t"):
        shop.run_sql("CREATE OR REPLACE TABLE t AS SELECT * FROM t WHERE id = 1", allow_writes=True)
    assert shop.session.rows("SELECT count(*) FROM t") == [(2,)]
    shop.run_sql("CREATE TABLE few AS SELECT * FROM t WHERE id = 1", allow_writes=True)
    assert shop.session.rows("SELECT fruit FROM few") == [("apple",)]
    assert shop.undo() and "few" not in shop.session.stored_tables()


def test_a_cte_counts_only_inside_its_own_query():
    schema = {"t": ["a"]}
    sql = 'SELECT * FROM "z" UNION ALL SELECT * FROM (WITH "z" AS (SELECT 1 AS a) SELECT * FROM "z")'
    with pytest.raises(SQLRefused, match="Unknown table 'z'"):
        check(sql, schema)
    assert check('WITH "z" AS (SELECT 1 AS a) SELECT * FROM z UNION ALL SELECT a FROM t', schema)


def test_sequences_advance_only_in_writes():
    with pytest.raises(SQLRefused, match="allowed only in a request that writes"):
        check("SELECT nextval('s') AS id")
    assert check("SELECT nextval('s') AS id", mode=Mode.PREVIEW)


def test_a_frame_duckdb_cannot_read_is_skipped_and_the_others_still_work(shop):
    namespace = {
        "empty": pd.DataFrame(),
        "waves": pd.DataFrame({"z": [1 + 2j]}),
        "months": pd.DataFrame({"m": pd.period_range("2024-01", periods=2, freq="M")}),
        "spans": pd.DataFrame({"s": pd.interval_range(0, 2)}),
        "ok": pd.DataFrame({"n": [1]}),
    }
    binding = shop.bind_frames(namespace)
    assert set(binding.skipped) == {"empty", "waves", "months", "spans"} and "ok" in binding.bound
    assert "DuckDB cannot read the DataFrame 'waves'" in binding.skipped["waves"]
    assert shop.session.run("SELECT n FROM ok").scalar == 1


def test_time_zone_aware_columns_keep_their_wall_clock(shop, scripted):
    times = pd.to_datetime(["2024-06-01 10:00", "2024-06-01 23:30"]).tz_localize("Europe/Oslo")
    shop.register("visits", pd.DataFrame({"at": times}))
    scripted.push(native("SELECT hour(at) AS h FROM visits ORDER BY at"))
    assert shop.ask("at which hours?").result["h"].tolist() == [10, 23]


def test_a_key_in_the_server_address_is_never_shown():
    backend = OpenAIBackend("m", base_url="http://user:sk-secret-42@127.0.0.1:9/v1", timeout=2, max_retries=0)
    chatdb = ChatDB(model=backend, summarize=False)
    assert "sk-secret-42" not in repr(chatdb)
    chatdb.register("t", pd.DataFrame({"a": [1]}))
    with pytest.raises(ModelUnavailable) as unreachable:
        chatdb.ask("how many?")
    assert "Cannot reach" in str(unreachable.value) and "sk-secret-42" not in str(unreachable.value)
    chatdb.close()
