"""Parity with a real local Spark: the statements of `fixtures/parity/statements.sql` run on DuckDB and,
through the remote engine seam (transpiled by `sql/transpile.py`), on Spark over the same data, and give
the same rows, or are refused before they run; and a %%chatdb cell answers over a Spark table.

Spark needs Java and pyspark; `make test` installs both and sets CHATDB_REQUIRE_SPARK, so that there a
missing Spark fails instead of skipping."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import os
import re
import shutil
import signal
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
import sqlglot

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import QueryFailed
from jupyter_chatdb.sql.remote_spark import SparkEngine
from jupyter_chatdb.sql.session import Session
from jupyter_chatdb.sql.transpile import Untranslatable

from .conftest import chatdb_kernel
from .fixtures.parity.yard import PARAMS, TABLES

pytestmark = pytest.mark.spark
FIXTURES = Path(__file__).parent / "fixtures" / "parity"
ARTIFACTS = Path(__file__).parent / "artifacts"
SPARK_TYPES = {"DECIMAL(8,2)": "decimal(8,2)", "TIMESTAMP": "timestamp_ntz", "VARCHAR": "string"}


def statements() -> list[tuple[str, str]]:
    """(expected, statement): expected is "same", "refused" or "fails", from the heading above it."""
    expected, found = "same", []
    for line in (FIXTURES / "statements.sql").read_text().splitlines():
        line = line.strip()
        if line.startswith("--"):
            expected = (
                "refused" if line.startswith("-- refused") else "fails" if line.startswith("-- fails") else "same"
            )
        elif line:
            found.append((expected, line))
    return found


@pytest.fixture(scope="module")
def spark():
    if os.environ.get("CHATDB_REQUIRE_SPARK") != "1":
        pytest.importorskip("pyspark")
        if shutil.which("java") is None:
            pytest.skip("Spark needs Java (make test installs it)")
    from pyspark.sql import SparkSession

    ctrl_c = signal.getsignal(signal.SIGINT)  # pyspark puts its own handler in, and leaves it after stop()
    session = (
        SparkSession.builder.master("local[1]")
        .appName("chatdb-parity")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    for name, (columns, rows) in TABLES.items():
        schema = ", ".join(f"{column} {SPARK_TYPES.get(kind, kind)}" for column, kind in columns)
        session.createDataFrame(rows, schema).createOrReplaceTempView(name)
    yield session
    session.stop()
    signal.signal(signal.SIGINT, ctrl_c)


@pytest.fixture(scope="module")
def local() -> Session:
    """The same data in DuckDB's own tables."""
    session = Session()
    for name, (columns, rows) in TABLES.items():
        session.rows(f"CREATE TABLE {name} ({', '.join(f'{c} {t}' for c, t in columns)})")
        for row in rows:
            session.rows(f"INSERT INTO {name} VALUES ({', '.join('?' * len(row))})", list(row))
    yield session
    session.close()


@pytest.fixture(scope="module")
def remote(spark) -> Session:
    session = Session()
    session.connect_remote(SparkEngine(spark))
    yield session
    session.close()


def test_every_statement_gives_the_same_rows_on_spark_or_is_refused_before_it_runs(local, remote):
    outcomes: Counter[str] = Counter()
    wrong: list[str] = []
    for expected, sql in statements():
        params = {name: PARAMS[name] for name in re.findall(r"\$(\w+)", sql)}
        here = local.run(sql, params)
        try:
            there = remote.run(sql, params)
        except Untranslatable:
            outcome = "refused"
        except QueryFailed:
            outcome = "fails"
        else:
            ordered = sqlglot.parse_one(sql, read="duckdb").args.get("order") is not None
            outcome = "same" if _rows(here.frame, ordered) == _rows(there.frame, ordered) else "different"
        outcomes[outcome] += 1
        if outcome != expected:
            wrong.append(f"{sql}: {outcome}, expected {expected}")
    ARTIFACTS.mkdir(exist_ok=True)
    summary = (
        f"{sum(outcomes.values())} statements tried: {outcomes['same']} identical, {outcomes['refused']} refused "
        f"before they ran, {outcomes['fails']} failed on Spark with its error, {outcomes['different']} different"
    )
    (ARTIFACTS / "spark_parity.txt").write_text(summary + "\n" + "\n".join(wrong) + "\n")
    print(summary)
    assert sum(outcomes.values()) >= 100
    assert not wrong, "\n".join(wrong)


def test_writes_and_reads_mixing_remote_and_local_tables_are_refused_with_a_reason(remote):
    with pytest.raises(QueryFailed, match="only read: writes there are refused"):
        remote.run("DELETE FROM rides")
    remote.rows("CREATE TABLE notes (horse_id INTEGER, note VARCHAR)")
    with pytest.raises(QueryFailed, match=r"joins remote tables \(horses\) with local ones \(notes\)"):
        remote.run("SELECT h.name, n.note FROM horses AS h JOIN notes AS n USING (horse_id)")
    assert remote.run("SELECT count(*) FROM notes").scalar == 0  # local tables still run here


@pytest.fixture
def shell(tmp_path, scripted):
    yield from chatdb_kernel(ChatDB(model=scripted, summarize=False), tmp_path)


def test_a_chatdb_cell_answers_over_a_spark_table_in_a_real_kernel(spark, shell, scripted, capsys):
    shell.user_ns["spark"] = spark
    shell.run_cell("%chatdb connect spark").raise_error()
    assert "Connected to Spark" in capsys.readouterr().out
    shell.run_cell("%chatdb").raise_error()
    assert "Remote: Spark" in capsys.readouterr().out
    sql = "SELECT owner, count(*) AS horses FROM horses GROUP BY owner ORDER BY horses DESC, owner"
    scripted.push(f"```sql\n{sql}\n```", {"answer": "Ada Quick has the most horses: 3."})
    result = shell.run_cell("%%chatdb --no-plot\nHow many horses does each owner have, most first?")
    result.raise_error()
    assert result.result.iloc[0].tolist() == ["Ada Quick", 3]
    assert "Answer: Ada Quick has the most horses: 3." in capsys.readouterr().out
    shell.run_cell("%chatdb disconnect").raise_error()
    shell.user_ns.pop("spark", None)


def _rows(frame: pd.DataFrame, ordered: bool) -> list[tuple]:
    rows = [tuple(_value(v) for v in row) for row in frame.itertuples(index=False, name=None)]
    return rows if ordered else sorted(rows, key=repr)


def _value(value: object) -> object:
    """One engine's value as comparable: numbers as floats to 9 digits, times as ISO text, NULLs as None."""
    if value is None or value is pd.NA or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, decimal.Decimal)) or hasattr(value, "dtype"):
        number = float(value)  # type: ignore[arg-type]
        return number if math.isinf(number) else float(f"{number:.9g}")
    if isinstance(value, (dt.date, dt.datetime, pd.Timestamp)):
        return pd.Timestamp(value).isoformat()
    return value
