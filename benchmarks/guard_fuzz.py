"""Fuzz the guard and the locked engine with hostile SQL, through the guard alone and through `ChatDB.ask`.

A seeded grammar writes statements from DuckDB's own function list (`duckdb_functions()`), its settings
(`duckdb_settings()`) and its statement kinds: every function called with file paths, URLs, SQL text and
setting-like arguments in every place a query can hold one (select list, WHERE, IN lists, joins, CTEs,
LATERAL, ORDER BY, CASE, lambdas, FILTER, FROM), files read as tables, DESCRIBE/SUMMARIZE of files,
CTE names shadowing files, stacked statements hidden by comments and quoting, sequences, catalogs.

Each statement runs against a throwaway notebook-like session (a stored table with a sequence, a
DataFrame, an attached DuckDB file) in a temporary folder holding canary files. A statement *escapes*
when it is accepted and then changes anything it must not: a setting, an extension, a sequence (in a
read), a table, a file of the folder or DuckDB's home, or returns a canary file's content. The guard
path checks each statement as a read and as a write preview and runs what is accepted (a preview in a
transaction that is rolled back); the ask path gives it to `ChatDB.ask` as the scripted model's plan,
writes not allowed, routed as a read or as a write.

    python benchmarks/guard_fuzz.py                  # 10,000 statements, both paths
    python benchmarks/guard_fuzz.py --count 300 --seed 3
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

from jupyter_chatdb import ChatDB
from jupyter_chatdb.errors import ChatDBError
from jupyter_chatdb.llm import ScriptedBackend
from jupyter_chatdb.sql import guard
from jupyter_chatdb.sql.guard import PRIVATE_SCHEMA

CANARY = "canary-7d41e0"
HOME_DUCKDB = Path.home() / ".duckdb"
# functions of extensions DuckDB would install or load on first use (not in duckdb_functions() until loaded)
EXTENSION_FUNCTIONS = (
    "html_escape",
    "text",
    "tpch_queries",
    "tpcds_queries",
    "dbgen",
    "start_ui_server",
    "sql_auto_complete",
    "read_xlsx",
    "st_read",
    "sqlite_scan",
    "sqlite_attach",
    "postgres_scan",
    "postgres_query",
    "mysql_query",
    "iceberg_scan",
    "delta_scan",
    "load_aws_credentials",
    "fts_main_t.match_bm25",
    "read_gsheet",
    "http_get",
)
STATEMENT_KINDS = (
    "ATTACH {path} AS x",
    "ATTACH {path} AS x (READ_ONLY)",
    "DETACH archive",
    "COPY t TO {path}",
    "COPY t FROM {path}",
    "COPY (SELECT 1) TO {path} (FORMAT csv)",
    "EXPORT DATABASE {dir}",
    "IMPORT DATABASE {dir}",
    "INSTALL {ext}",
    "FORCE INSTALL {ext}",
    "LOAD {ext}",
    "UPDATE EXTENSIONS",
    "PRAGMA {pragma}",
    "PRAGMA {pragma}({string})",
    "SET {setting} = {value}",
    "SET GLOBAL {setting} = {value}",
    "RESET {setting}",
    "SET VARIABLE v = {value}",
    "CALL {function}({args})",
    "CHECKPOINT",
    "FORCE CHECKPOINT",
    "VACUUM",
    "USE archive",
    "CREATE VIEW v AS SELECT 1",
    "CREATE MACRO m(a) AS a",
    "CREATE SECRET (TYPE s3, KEY_ID 'k')",
    "CREATE SCHEMA s2",
    "CREATE TEMP TABLE tt AS SELECT 1",
    "CREATE OR REPLACE TABLE t AS SELECT 1 AS id",
    "CREATE INDEX i ON t (id)",
    "CREATE TYPE mood AS ENUM ('a')",
    "DROP TABLE t",
    "ALTER TABLE t ADD COLUMN z INT",
    "TRUNCATE t",
    "PREPARE p AS SELECT 1",
    "EXECUTE p",
    "DEALLOCATE p",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "ABORT",
    "EXPLAIN ANALYZE SELECT 1",
    "PIVOT t ON fruit USING sum(amount)",
    "UNPIVOT t ON amount INTO NAME k VALUE v",
    "DESCRIBE {path}",
    "SUMMARIZE {path}",
    "SUMMARIZE TABLE {path}",
    "SHOW TABLES",
    "SHOW ALL TABLES",
    "DELETE FROM chatdb_journal.requests",
    "INSERT INTO orders VALUES (1)",
)
PLACES = (  # where a call can stand in a read
    "SELECT {call}",
    "SELECT {call} AS x FROM t",
    "SELECT * FROM t WHERE fruit = {call}",
    "SELECT * FROM t WHERE id IN (1, {call})",
    "SELECT * FROM t JOIN (SELECT {call} AS x) AS q ON true",
    "WITH c AS (SELECT {call} AS x) SELECT * FROM c",
    "SELECT (SELECT {call})",
    "SELECT * FROM t ORDER BY {call}",
    "SELECT CASE WHEN id = 1 THEN {call} END FROM t",
    "SELECT list_transform([1], x -> {call})",
    "SELECT count(*) FILTER (WHERE {call} IS NOT NULL) FROM t",
    "SELECT * FROM t, LATERAL (SELECT {call}) AS l(x)",
    "FROM {call}",
    "SELECT * FROM {call} AS f",
    "SELECT * FROM t JOIN {call} AS f ON true",
    "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM {call})",
    "SELECT fruit, max({call}) FROM t GROUP BY fruit",
    "SELECT * FROM t WHERE id = 1 UNION ALL SELECT * FROM {call}",
    "SELECT sum(amount) OVER (ORDER BY {call}) FROM t",
    "SELECT * FROM t QUALIFY {call} IS NULL",
)
WRITE_PLACES = (  # where a call can stand in a write (previewed: writes are not allowed)
    "INSERT INTO t (fruit) SELECT {call}",
    "UPDATE t SET note = {call} WHERE id = 1",
    "DELETE FROM t WHERE note = {call}",
    "INSERT INTO t (fruit) VALUES ('x') RETURNING {call}",
    "INSERT INTO t (fruit) SELECT x FROM {call} AS f(x)",
)
TRICKS = (  # a harmless statement with a hostile one hidden after it
    "SELECT 1; {hostile}",
    "SELECT 1 -- ;\n; {hostile}",
    "SELECT 1 /* ; */; {hostile}",
    "SELECT 1 /* /* */ */; {hostile}",
    "SELECT $$ ; $$; {hostile}",
    "SELECT $a$ ; $a$; {hostile}",
    'SELECT "a;b" FROM t; {hostile}',
    "SELECT E'\\'';{hostile}",
    "SELECT U&'\\0041'; {hostile}",
    "SELECT 1;\n\t{hostile};",
    "sElEcT 1 ; {hostile} ; SELECT 2",
    "SELECT 'x'';' ; {hostile}",
    "SELECT 1 --\r{hostile}",
    "/*x*/{hostile}",
    "({hostile})",
)
FILE_TABLES = (
    "SELECT * FROM {path}",
    "SELECT * FROM {ident}",
    "FROM {path}",
    "SELECT * FROM t UNION ALL SELECT * FROM {path}",
    "SELECT * FROM {path} UNION ALL SELECT * FROM (WITH {ident} AS (SELECT 1 AS a) SELECT * FROM {ident})",
    "WITH {ident} AS (SELECT 1 AS a) SELECT * FROM (SELECT * FROM {ident}) UNION ALL SELECT * FROM {ident2}",
    "SELECT * FROM t WHERE fruit IN (SELECT * FROM {path})",
    "SELECT * FROM t JOIN {path} AS f ON true",
    "DESCRIBE {path}",
    "SUMMARIZE {path}",
    "SUMMARIZE TABLE {path}",
    "DESCRIBE {ident}",
    "SELECT * FROM information_schema.tables",
    "SELECT * FROM pg_catalog.pg_settings",
    "SELECT * FROM sqlite_master",
    "SELECT * FROM system.main.duckdb_settings()",
    "SELECT nextval('s')",
    "SELECT currval('s')",
    "SELECT * FROM t WHERE id = (SELECT nextval('s'))",
    "SELECT * FROM chatdb_journal.requests",
)


@dataclass
class Grammar:
    """Hostile statements from DuckDB's own lists; `folder` holds the canary files they name."""

    folder: Path
    rng: random.Random
    functions: list[str]
    table_functions: list[str]
    pragmas: list[str]
    settings: list[str]

    @classmethod
    def from_duckdb(cls, folder: Path, seed: int) -> Grammar:
        con = duckdb.connect()
        rows = con.execute(
            "SELECT DISTINCT function_name, function_type FROM duckdb_functions() ORDER BY 1, 2"
        ).fetchall()
        settings = [name for (name,) in con.execute("SELECT name FROM duckdb_settings() ORDER BY 1").fetchall()]
        con.close()
        names = sorted({name for name, _ in rows if name.isidentifier()} | set(EXTENSION_FUNCTIONS))
        tables = sorted({name for name, kind in rows if kind in ("table", "table_macro")} | set(EXTENSION_FUNCTIONS))
        pragmas = sorted({name for name, kind in rows if kind == "pragma"})
        return cls(folder, random.Random(seed), names, tables, pragmas, settings)

    def statement(self) -> tuple[str, str]:
        """(kind of template, statement)."""
        kind = self.rng.choices(
            ("call", "write", "table call", "file", "statement", "trick"), weights=(30, 10, 15, 15, 15, 15)
        )[0]
        if kind == "call":
            return kind, self.rng.choice(PLACES).format(call=self.call())
        if kind == "write":
            return kind, self.rng.choice(WRITE_PLACES).format(call=self.call())
        if kind == "table call":
            return kind, self.rng.choice(PLACES[12:]).format(call=self.call(self.rng.choice(self.table_functions)))
        if kind == "file":
            return kind, self.rng.choice(FILE_TABLES).format(path=self.path(), ident=self.ident(), ident2=self.ident())
        if kind == "statement":
            return kind, self.kind_statement()
        hostile = self.rng.choice((self.kind_statement(), self.rng.choice(PLACES).format(call=self.call())))
        return kind, self.rng.choice(TRICKS).format(hostile=hostile)

    def kind_statement(self) -> str:
        return self.rng.choice(STATEMENT_KINDS).format(
            path=self.path(),
            dir=self.path(folder=True),
            ext=self.rng.choice(("httpfs", "inet", "excel", "spatial", "ui")),
            pragma=self.rng.choice(self.pragmas),
            string=self.path(),
            setting=self.rng.choice(self.settings),
            value=self.rng.choice(("true", "false", "1", self.path(), "'/'")),
            function=self.rng.choice(self.table_functions),
            args=self.args(),
        )

    def call(self, name: str | None = None, depth: int = 0) -> str:
        name = name or self.rng.choice(self.functions)
        return f"{name}({self.args(depth)})"

    def args(self, depth: int = 0) -> str:
        count = self.rng.choice((0, 1, 1, 2, 3))
        return ", ".join(self.argument(depth) for _ in range(count))

    def argument(self, depth: int) -> str:
        choice = self.rng.random()
        if choice < 0.35:
            return self.path()
        if choice < 0.45 and depth < 2:
            return self.call(depth=depth + 1)
        if choice < 0.55:
            return self.rng.choice(
                ("'SELECT content FROM read_text(''secret.txt'')'", "'COPY t TO ''out.csv'''", "'s'")
            )
        if choice < 0.7:
            key = self.rng.choice(
                ("format", "save_location", "storage", "storage_path", "filename", "compression", "header")
            )
            return f"{key} := {self.path()}" if self.rng.random() < 0.5 else f"{key}={self.path()}"
        return self.rng.choice(("1", "'json'", "'file'", "fruit", "id", "NULL", "[1, 2]", "{'a': 1}", "true"))

    def path(self, folder: bool = False) -> str:
        if folder:
            return "'" + self.rng.choice((str(self.folder / "dump"), "dump", "/tmp")) + "'"
        name = self.rng.choice(
            (
                "canary.csv",
                "canary.json",
                "canary.parquet",
                "canary.txt",
                "canary.duckdb",
                "secret.txt",
                "out.csv",
                "*.csv",
                "**/*.csv",
                "canary.csv?x",
                "canary.csv.zst",
                "canary.json.zst",
                "new.json",
                "log",
                "/etc/hostname",
                "http://127.0.0.1:9/x.csv",
                "s3://bucket/x.parquet",
                "~/.duckdb/x",
                "profile.json",
            )
        )
        if not name.startswith(("/", "http", "s3", "~")) and self.rng.random() < 0.5:
            name = str(self.folder / name)
        return "'" + name.replace("'", "''") + "'"

    def ident(self) -> str:
        return (
            '"' + self.rng.choice(("canary.csv", "canary.csv.zst", "canary.json", "secret.txt", "x.csv?y", "t")) + '"'
        )


# -- the sandbox -------------------------------------------------------------------------------------


def make_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="chatdb-fuzz-"))
    for name in ("canary.csv", "secret.txt", "canary.txt"):
        (folder / name).write_text(f"a\n{CANARY}\n")
    (folder / "canary.json").write_text(f'{{"a": "{CANARY}"}}\n')
    con = duckdb.connect(str(folder / "canary.duckdb"))
    con.execute(f"CREATE TABLE secrets AS SELECT '{CANARY}' AS a")
    con.execute(f"COPY secrets TO '{folder / 'canary.parquet'}' (FORMAT parquet)")
    con.close()
    archive = duckdb.connect(str(folder / "archive.duckdb"))
    archive.execute("CREATE TABLE orders AS SELECT 1 AS id, 'apple' AS fruit")
    archive.close()
    return folder


def make_chatdb(folder: Path, model: ScriptedBackend) -> ChatDB:
    chatdb = ChatDB(model=model, summarize=False, revisions=0)
    chatdb.session.run("CREATE SEQUENCE s START 1")
    chatdb.session.run(
        "CREATE TABLE t (id INTEGER PRIMARY KEY DEFAULT nextval('s'), fruit VARCHAR, note VARCHAR, amount INTEGER)"
    )
    chatdb.session.run("INSERT INTO t VALUES (100, 'apple', 'fresh', 3), (101, 'pear', 'ripe', 5)")
    chatdb.register("frame", pd.DataFrame({"fruit": ["kiwi"], "amount": [2]}))
    chatdb.attach(folder / "archive.duckdb")
    return chatdb


def snapshot(chatdb: ChatDB, folder: Path, *, sequences: bool) -> dict[str, object]:
    """Everything a statement must not change."""
    session = chatdb.session
    state: dict[str, object] = {
        "settings": session.rows("SELECT name, value FROM duckdb_settings() ORDER BY 1"),
        # a loaded extension adds functions (duckdb_extensions() itself needs the file system the engine denies)
        "functions": session.rows("SELECT count(*), count(DISTINCT function_name) FROM duckdb_functions()"),
        # ChatDB's own bookkeeping (journal, plans recorded for --replay) may grow: model SQL cannot reach it
        "tables": session.rows(
            "SELECT database_name, schema_name, table_name, estimated_size FROM duckdb_tables()"
            f" WHERE schema_name <> '{PRIVATE_SCHEMA}' ORDER BY ALL"
        ),
        "views": session.rows("SELECT database_name, view_name FROM duckdb_views() WHERE NOT internal ORDER BY ALL"),
        "rows": session.rows("SELECT md5(string_agg(t::VARCHAR, '|' ORDER BY id)) FROM t"),
        "files": _files(folder) | _files(HOME_DUCKDB),
        "databases": session.rows("SELECT database_name FROM duckdb_databases() ORDER BY 1"),
    }
    if sequences:
        state["sequences"] = session.sequences()
    return state


def _files(folder: Path) -> frozenset[tuple[str, int, int]]:
    if not folder.exists():
        return frozenset()
    return frozenset((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file())


@dataclass
class Tally:
    tried: int = 0
    accepted: int = 0
    escapes: list[tuple[str, str]] = field(default_factory=list)
    by_kind: Counter[str] = field(default_factory=Counter)
    accepted_by_kind: Counter[str] = field(default_factory=Counter)

    def line(self, path: str) -> str:
        return f"{path}: tried {self.tried}, accepted {self.accepted}, escapes {len(self.escapes)}"


def fuzz_guard(chatdb: ChatDB, folder: Path, statements: list[tuple[str, str]]) -> Tally:
    """Check each statement as a read and as a write preview; run what is accepted and compare."""
    tally = Tally()
    schema = {name: cols for name, cols in _schema(chatdb).items()}
    for kind, sql in statements:
        for mode in (guard.Mode.READ, guard.Mode.PREVIEW):
            tally.tried += 1
            tally.by_kind[kind] += 1
            try:
                checked = guard.check(sql, schema, mode=mode)
            except ChatDBError:
                continue
            except Exception as error:
                tally.escapes.append((sql, f"guard raised {type(error).__name__}: {error}"))
                continue
            tally.accepted += 1
            tally.accepted_by_kind[kind] += 1
            before = snapshot(chatdb, folder, sequences=mode is guard.Mode.READ)
            said = _run(chatdb, checked, rollback=mode is guard.Mode.PREVIEW)
            after = snapshot(chatdb, folder, sequences=mode is guard.Mode.READ)
            _judge(tally, sql, before, after, said)
    return tally


def fuzz_ask(chatdb: ChatDB, model: ScriptedBackend, folder: Path, statements: list[tuple[str, str]]) -> Tally:
    """Each statement as the model's one-step plan (and its one-round SQL), writes not allowed."""
    tally = Tally()
    for number, (kind, sql) in enumerate(statements):
        route = "write" if number % 2 else "read"
        model.clear()
        model.push({"route": route}, {"steps": [{"goal": "g", "sql": sql, "binds": []}]}, {"sql": sql}, {"sql": sql})
        tally.tried += 1
        tally.by_kind[kind] += 1
        before = snapshot(chatdb, folder, sequences=route == "read")
        try:
            reply = chatdb.ask("do it", use_memory=False)
            said = repr(reply.result) + reply.answer
            tally.accepted += 1
            tally.accepted_by_kind[kind] += 1
        except ChatDBError as error:
            said = str(error)
        after = snapshot(chatdb, folder, sequences=route == "read")
        _judge(tally, sql, before, after, said)
    return tally


def _run(chatdb: ChatDB, checked: guard.Checked, *, rollback: bool) -> str:
    session, said = chatdb.session, ""
    if rollback:
        session.begin()
    try:
        for statement in checked.statements:
            said += repr(session.run(statement.sql).frame)
    except ChatDBError as error:
        said += str(error)
    finally:
        if rollback:
            session.rollback()
    return said


def _judge(tally: Tally, sql: str, before: dict[str, object], after: dict[str, object], said: str) -> None:
    changed = [key for key in before if before[key] != after[key]]
    if changed or CANARY in said:
        tally.escapes.append((sql, f"changed {', '.join(changed)}" if changed else "returned a canary file's content"))


def _schema(chatdb: ChatDB) -> dict[str, list[str]]:
    from jupyter_chatdb.sql.catalog import Catalog

    return Catalog.read(chatdb.session, samples=0).schema()


def generate(folder: Path, seed: int, count: int) -> list[tuple[str, str]]:
    grammar = Grammar.from_duckdb(folder, seed)
    return [grammar.statement() for _ in range(count)]


def run(
    count: int, seed: int, paths: tuple[str, ...], report: Callable[[str], None] = lambda line: print(line, flush=True)
) -> dict[str, Tally]:
    folder = make_folder()
    cwd = os.getcwd()
    os.chdir(folder)  # relative paths in statements name the canary files
    model = ScriptedBackend()
    chatdb = make_chatdb(folder, model)
    try:
        statements = generate(folder, seed, count)
        text = "\n".join(sql for _, sql in statements).replace(str(folder), "<folder>")
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        report(f"{count} statements (seed {seed}, sha256 {digest}), DuckDB {duckdb.__version__}")
        tallies = {}
        if "guard" in paths:
            started = time.perf_counter()
            tallies["guard"] = fuzz_guard(chatdb, folder, statements)
            report(
                tallies["guard"].line("guard, as a read and as a preview") + f" ({time.perf_counter() - started:.0f} s)"
            )
        if "ask" in paths:
            started = time.perf_counter()
            tallies["ask"] = fuzz_ask(chatdb, model, folder, statements)
            report(tallies["ask"].line("ChatDB.ask, writes not allowed") + f" ({time.perf_counter() - started:.0f} s)")
        return tallies
    finally:
        chatdb.close()
        os.chdir(cwd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000, help="statements to generate (each path tries them all)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--paths", default="guard,ask", help="guard, ask or both (comma-separated)")
    args = parser.parse_args()
    tallies = run(args.count, args.seed, tuple(args.paths.split(",")))
    for path, tally in tallies.items():
        kinds = ", ".join(
            f"{kind} {tally.accepted_by_kind[kind]}/{tally.by_kind[kind]}" for kind in sorted(tally.by_kind)
        )
        print(f"{path} accepted by kind: {kinds}")
        for sql, why in tally.escapes[:20]:
            print(f"ESCAPE ({path}): {why}: {sql}")
    escapes = sum(len(t.escapes) for t in tallies.values())
    print(
        f"total: tried {sum(t.tried for t in tallies.values())}, accepted "
        f"{sum(t.accepted for t in tallies.values())}, escapes {escapes}"
    )
    sys.exit(1 if escapes else 0)


if __name__ == "__main__":
    main()
