"""The product names no benchmark: no compound table or column name and no proper-name value of a dataset in
../shared/datasets or of our own trades (benchmarks/trades) appears in jupyter_chatdb/.

Worked examples, prompt sentences, word lists and docstrings live on invented trades; a gain fitted to a
benchmark's own names would vanish on a user's data. Single common words ("name", "orders") are not
checked: every schema has them.
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ROOT.parent / "shared" / "datasets"
PRODUCT = ROOT / "jupyter_chatdb"
sys.path.insert(0, str(ROOT / "benchmarks"))

# names the product defines for its own data (the thought memory's records, the model it runs, who made
# a saved vector), which some dataset happens to share
OWN = {"record_id", "model_name", "made_by"}
# names found before the names were checked, to be rewritten: this list may only shrink
KNOWN: dict[str, set[str]] = {}  # none left: the worked examples were rewritten on invented trades
PROPER_NAME = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)+")


def dataset_names() -> tuple[set[str], set[str]]:
    """(compound table and column names in lower case, proper-name values) of every dataset and trade."""
    names: set[str] = set()
    values: set[str] = set()
    spider = DATASETS / "spider_dev"
    if spider.is_dir():
        for db in json.loads((spider / "tables.json").read_text()):
            names.update(t.lower() for t in db["table_names_original"])
            names.update(c.lower() for _, c in db["column_names_original"] if c != "*")
        for path in sorted((spider / "database").glob("*.sqlite")):
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
                con.text_factory = lambda raw: raw.decode(errors="replace")
                tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                for table in tables:
                    for column in [row[1] for row in con.execute(f'PRAGMA table_info("{table}")')]:
                        query = f'SELECT DISTINCT "{column}" FROM "{table}" LIMIT 500'
                        values.update(v.strip() for (v,) in con.execute(query) if isinstance(v, str))
    for shop in sorted(DATASETS.glob("fruitshop*")):
        con = duckdb.connect()
        con.execute((shop / "schema.sql").read_text())
        names.update(_duckdb_names(con))
        con.close()
        for line in (shop / "records.jsonl").read_text().splitlines():
            if line.strip():
                values.update(_strings(json.loads(line)["facts"]))
    trades = pytest.importorskip("trades")
    for name in trades.TRADES:
        trade = trades.build(name)
        con = duckdb.connect()
        con.execute(trade.schema)
        names.update(_duckdb_names(con))
        con.close()
        for record in trade.records:
            values.update(_strings(record.facts))
    return {n for n in names if "_" in n}, {v for v in values if PROPER_NAME.fullmatch(v)}


def _duckdb_names(con: duckdb.DuckDBPyConnection) -> set[str]:
    rows = con.execute("SELECT table_name, column_name FROM duckdb_columns() WHERE NOT internal").fetchall()
    return {n.lower() for row in rows for n in row}


def _strings(value: object) -> set[str]:
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, (list, tuple)):
        return {s for v in value for s in _strings(v)}
    return {value.strip()} if isinstance(value, str) else set()


def found_in_product(names: set[str], values: set[str]) -> dict[str, set[str]]:
    """file (relative to the package) -> the benchmark names and values it holds."""
    found: dict[str, set[str]] = defaultdict(set)
    words = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    for path in sorted(PRODUCT.rglob("*")):
        if path.suffix not in (".py", ".txt", ".json", ".md") or "__pycache__" in path.parts:
            continue
        text, where = path.read_text(), str(path.relative_to(PRODUCT))
        found[where] |= {w.lower() for w in words.findall(text) if "_" in w and w.lower() in names} - OWN
        found[where] |= {v for v in values if v in text}
    return {where: hits for where, hits in found.items() if hits}


def test_no_benchmark_name_or_value_is_in_the_product():
    names, values = dataset_names()
    assert len(names) > 100 and len(values) > 100, "the datasets were not read"
    found = found_in_product(names, values)
    new = {where: sorted(hits - KNOWN.get(where, set())) for where, hits in found.items()}
    assert {where: hits for where, hits in new.items() if hits} == {}, (
        "benchmark names in the product: write examples and docstrings on invented trades"
    )
    fixed = {where: sorted(hits - found.get(where, set())) for where, hits in KNOWN.items()}
    assert {where: hits for where, hits in fixed.items() if hits} == {}, "fixed: take these out of KNOWN"
