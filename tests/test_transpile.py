"""Writing a checked DuckDB read for a remote engine: rewrites that keep its meaning on Spark, refusals
where none does, parameters bound as literals; and the remote link's refusals, with a fake engine
(the real Spark runs in test_spark_parity.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

from jupyter_chatdb.errors import QueryFailed, QueryInterrupted
from jupyter_chatdb.sql.remote import duckdb_type
from jupyter_chatdb.sql.remote_link import RemoteLink
from jupyter_chatdb.sql.session import Session
from jupyter_chatdb.sql.transpile import Untranslatable, transpiled

TYPES = {"rides": {"rider": "VARCHAR", "day": "DATE", "rating": "DOUBLE", "fee": "DECIMAL(8,2)", "minutes": "INTEGER"}}


def spark(sql: str, params: dict | None = None) -> str:
    return transpiled(sql, "spark", TYPES, params)


@pytest.mark.parametrize(
    "sql, written",
    [
        ("SELECT CAST(rating AS INTEGER) FROM rides", "CAST(BROUND(rides.rating) AS INT)"),
        ("SELECT CAST(fee AS INTEGER) FROM rides", "CAST(ROUND(rides.fee) AS INT)"),
        ("SELECT CAST(minutes AS BIGINT) FROM rides", "CAST(rides.minutes AS BIGINT)"),
        ("SELECT CAST(trunc(rating) AS INTEGER) FROM rides", "CAST(CAST(rides.rating AS BIGINT) AS INT)"),
        ("SELECT dayofweek(day) FROM rides", "DAYOFWEEK(rides.day) - 1"),
        ("SELECT extract(dow FROM day) FROM rides", "DAYOFWEEK(rides.day) - 1"),
        ("SELECT isodow(day) FROM rides", "((DAYOFWEEK(rides.day) + 5) % 7 + 1)"),
        ("SELECT day - DATE '2024-01-01' FROM rides", "DATEDIFF(rides.day, CAST('2024-01-01' AS DATE))"),
        ("SELECT day + INTERVAL 1 DAY FROM rides", "CAST((rides.day + INTERVAL '1' DAY) AS TIMESTAMP)"),
        ("SELECT quantile_cont(minutes, 0.25) FROM rides", "PERCENTILE(rides.minutes, 0.25)"),
        ("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY minutes) FROM rides", "PERCENTILE(rides.minutes, 0.5)"),
        ("SELECT avg(fee) FROM rides", "AVG(CAST(rides.fee AS DOUBLE))"),
        ("SELECT regexp_replace(rider, 'a', 'o', 'g') FROM rides", "REGEXP_REPLACE(rides.rider, 'a', 'o')"),
    ],
)
def test_constructs_that_mean_something_else_on_spark_are_rewritten_to_keep_their_meaning(sql, written):
    assert written in spark(sql)


@pytest.mark.parametrize(
    "sql, reason",
    [
        ("SELECT regexp_replace(rider, 'a', 'o') FROM rides", "add 'g'"),
        ("SELECT quantile_disc(minutes, 0.5) FROM rides", "quantile_disc has no exact equal"),
        ("SELECT CAST(x AS INTEGER) FROM (SELECT rating AS x FROM rides UNION SELECT 1)", None),
    ],
)
def test_constructs_without_an_equal_are_refused_with_a_reason(sql, reason):
    if reason is None:  # the union's type is known to sqlglot: no refusal is the honest outcome then
        spark(sql)
        return
    with pytest.raises(Untranslatable, match=reason):
        spark(sql)


def test_parameters_are_bound_as_literals_never_spliced_text():
    sly = "x' OR '1'='1"
    written = spark("SELECT rider FROM rides WHERE rider = $name AND minutes > $least", {"name": sly, "least": 40})
    assert "rides.rider = 'x\\' OR \\'1\\'=\\'1'" in written and "rides.minutes > 40" in written
    with pytest.raises(Untranslatable, match=r"No value was given for \$least"):
        spark("SELECT rider FROM rides WHERE minutes > $least", {})


def test_other_dialects_are_written_at_sqlglots_strict_level():
    assert "DATE_TRUNC" in transpiled("SELECT date_trunc('month', day) FROM rides", "trino", TYPES).upper()


def test_remote_types_map_to_duckdb_types():
    assert [duckdb_type(t) for t in ("string", "bigint", "decimal(10, 2)", "timestamp_ntz", "map<string,int>")] == [
        "VARCHAR",
        "BIGINT",
        "DECIMAL(10,2)",
        "TIMESTAMP",
        "VARCHAR",
    ]


class ListedEngine:
    """A remote engine over pandas frames, run by DuckDB in Spark's dialect: what the session asks of one."""

    dialect = "spark"

    def __init__(self, frames: dict[str, pd.DataFrame]) -> None:
        self.frames, self.ran = frames, []

    def describe(self) -> str:
        return "listed frames"

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        return {
            name: [(c, "VARCHAR" if pd.api.types.is_string_dtype(f[c]) else "DOUBLE") for c in f]
            for name, f in self.frames.items()
        }

    def read(self, sql: str, limit: int) -> pd.DataFrame:
        import duckdb

        self.ran.append(sql)
        con = duckdb.connect()
        for name, frame in self.frames.items():
            con.register(name, frame)
        return con.execute(sql.replace("`", '"')).df().head(limit)

    def interrupt(self) -> None: ...

    def close(self) -> None: ...


def test_a_session_reads_remote_tables_there_and_keeps_a_sample_here():
    engine = ListedEngine({"bales": pd.DataFrame({"farm": ["Calder", "Tansy", "Calder"], "kg": [20.0, 15.0, 5.0]})})
    session = Session()
    assert session.connect_remote(engine, sample_rows=2) == ["bales"]
    assert session.rows("SELECT count(*) FROM bales") == [(2,)]  # the sample kept for the catalog
    result = session.run("SELECT farm, sum(kg) AS kg FROM bales GROUP BY farm ORDER BY kg DESC")
    assert result.frame.to_dict("list") == {"farm": ["Calder", "Tansy"], "kg": [25.0, 15.0]}  # all rows, there
    assert "SUM(bales.kg)" in engine.ran[-1]
    with pytest.raises(QueryFailed, match="only read"):
        session.run("UPDATE bales SET kg = 0")
    listed = session.tables().set_index("table")
    assert listed.loc["bales", "kind"] == "remote: listed frames (read there)" and listed.loc["bales", "rows"] == 3
    with pytest.raises(QueryFailed, match="Only a SELECT runs on the remote engine"):
        session.run("DESCRIBE bales")
    session.disconnect_remote()
    assert session.remote is None and "bales" not in session.tables()["table"].tolist()
    session.close()


def test_a_remote_table_named_like_a_local_one_is_refused():
    session = Session()
    session.rows("CREATE TABLE bales (kg DOUBLE)")
    with pytest.raises(Exception, match="named like local ones \\(bales\\)"):
        session.connect_remote(ListedEngine({"bales": pd.DataFrame({"kg": [1.0]})}))
    session.close()


def test_tables_of_a_read_are_told_apart_remote_from_local():
    link = RemoteLink(ListedEngine({}), {"bales": [("kg", "DOUBLE")]})
    assert link.tables_in("WITH b AS (SELECT 1) SELECT * FROM bales, notes, b, arch.t") == (
        {"bales"},
        {"notes", "arch.t"},
    )
    # a CTE named like a remote table hides it only where the CTE is seen: this read is remote
    hidden_inside = "SELECT * FROM bales UNION SELECT * FROM (WITH bales AS (SELECT 1) SELECT * FROM bales)"
    assert link.tables_in(hidden_inside)[0] == {"bales"}
    with ThreadPoolExecutor(1) as worker, pytest.raises(QueryFailed, match="joins remote tables"):
        link.read("SELECT * FROM bales JOIN notes USING (kg)", None, 10, worker)


class InterruptedEngine(ListedEngine):
    """A remote read during which Ctrl-C arrives (raised where the session waits for it)."""

    def __init__(self, frames: dict[str, pd.DataFrame]) -> None:
        super().__init__(frames)
        self.interrupting, self.stopped = False, False

    def read(self, sql: str, limit: int) -> pd.DataFrame:
        if self.interrupting:
            raise KeyboardInterrupt
        return super().read(sql, limit)

    def interrupt(self) -> None:
        self.stopped = True


def test_ctrl_c_during_a_remote_read_stops_it_there():
    engine = InterruptedEngine({"bales": pd.DataFrame({"kg": [1.0]})})
    session = Session()
    session.connect_remote(engine)
    engine.interrupting = True
    with pytest.raises(QueryInterrupted, match="interrupted on the remote engine"):
        session.run("SELECT sum(kg) FROM bales")
    assert engine.stopped
    session.close()


def test_a_function_that_reaches_outside_the_query_is_never_sent():
    with pytest.raises(Untranslatable, match="reaches outside the query"):
        transpiled("SELECT reflect('java.lang.System', 'exit', '0') FROM rides", "spark", TYPES)
