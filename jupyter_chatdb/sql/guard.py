"""The SQL guard: only SQL that passed here is ever executed.

A pipeline of small checks over sqlglot's syntax tree (DuckDB dialect): parse, classify each
statement, apply the allow-list, refuse file access, and check that every table and column exists.
Each refusal says why and, where a name is wrong, suggests the closest real one.

>>> check("SELECT name FROM singer", {"singer": ["name", "age"]}).statements[0].kind
<Kind.READ: 'read'>
>>> check("SELECT nme FROM singer", {"singer": ["name", "age"]})
Traceback (most recent call last):
...
jupyter_chatdb.errors.SQLRefused: Unknown column 'nme' in singer; did you mean 'name'?
"""

from __future__ import annotations

import difflib
import enum
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from ..errors import SQLRefused

DIALECT = "duckdb"
Schema = Mapping[str, Sequence[str]]  # table name -> column names

logging.getLogger("sqlglot").setLevel(logging.ERROR)  # it warns on every unsupported statement


class Kind(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    DDL = "ddl"
    OTHER = "other"


@dataclass(frozen=True)
class Statement:
    sql: str
    kind: Kind
    tables: tuple[str, ...]  # tables it reads or writes
    returns_rows: bool = False  # a write with RETURNING
    target: str | None = None  # the table a write or CREATE changes
    unbounded: bool = False  # UPDATE or DELETE without WHERE: every row of the table
    conditional: bool = False  # an INSERT that may add nothing by design (ON CONFLICT, WHERE NOT EXISTS)
    creates: str | None = None  # TABLE or SEQUENCE for a CREATE

    @property
    def is_write(self) -> bool:
        return self.kind in (Kind.WRITE, Kind.DDL)


@dataclass(frozen=True)
class Checked:
    statements: tuple[Statement, ...]

    @property
    def writes(self) -> bool:
        return any(s.is_write for s in self.statements)


READ_TYPES = (exp.Select, exp.SetOperation, exp.Subquery, exp.Describe, exp.Summarize)
WRITE_TYPES = (exp.Insert, exp.Update, exp.Delete)
PRIVATE_SCHEMA = "chatdb_journal"
DDL_TYPES = (exp.Create, exp.Drop, exp.Alter, exp.TruncateTable)
FILE_FUNCTION_PREFIXES = ("read_", "parquet_", "sqlite_", "postgres_", "mysql_", "iceberg_", "delta_")
FILE_FUNCTIONS = frozenset({"glob", "sniff_csv", "query_table", "query", "getenv", "load_aws_credentials"})
FILE_SUFFIXES = (".csv", ".tsv", ".parquet", ".json", ".jsonl", ".ndjson", ".xlsx", ".db", ".duckdb", ".sqlite", ".gz")


def check(sql: str, schema: Schema | None = None, *, allow_writes: bool = False) -> Checked:
    """Parse and check `sql`; return its statements or raise SQLRefused saying why."""
    trees = parse(sql)
    statements = tuple(_statement(tree, sql if len(trees) == 1 else None) for tree in trees)
    _check_policy(statements, trees, allow_writes)
    for tree in trees:
        _check_file_access(tree)
    if schema is not None:
        _check_names(trees, {name.lower(): [c.lower() for c in cols] for name, cols in schema.items()})
    return Checked(statements)


def parse(sql: str) -> list[exp.Expression]:
    try:
        # a trailing comment after the last ';' parses as an empty Semicolon statement
        trees = [tree for tree in sqlglot.parse(sql, read=DIALECT) if tree is not None and not isinstance(tree, exp.Semicolon)]
    except sqlglot.errors.ParseError as error:
        detail = error.errors[0] if error.errors else {}
        where = f" at line {detail.get('line')}, column {detail.get('col')}" if detail else ""
        reason = detail.get("description", str(error).splitlines()[0]) if detail else str(error)
        raise SQLRefused(f"The SQL does not parse{where}: {reason}.", fixable=True) from None
    if not trees:
        raise SQLRefused("There is no SQL statement to run.", fixable=True)
    return trees


def classify(tree: exp.Expression) -> Kind:
    """
    >>> classify(sqlglot.parse_one("WITH a AS (SELECT 1) SELECT * FROM a"))
    <Kind.READ: 'read'>
    >>> classify(sqlglot.parse_one("DELETE FROM t"))
    <Kind.WRITE: 'write'>
    """
    if isinstance(tree, READ_TYPES):
        return Kind.READ
    if isinstance(tree, WRITE_TYPES):
        return Kind.WRITE
    if isinstance(tree, DDL_TYPES):
        return Kind.DDL
    return Kind.OTHER


def statement_name(tree: exp.Expression) -> str:
    """The SQL keyword that starts the statement, for messages: ATTACH, COPY, PRAGMA ..."""
    if isinstance(tree, exp.Command):
        return str(tree.this).upper()
    if isinstance(tree, (exp.Transaction, exp.Commit, exp.Rollback)):
        return "Transaction control"
    return tree.key.upper()


def _statement(tree: exp.Expression, original: str | None) -> Statement:
    tables = tuple(dict.fromkeys(table_key(t) for t in tree.find_all(exp.Table) if t.name))
    sql = original.strip().rstrip(";").strip() if original else tree.sql(dialect=DIALECT)
    returning = isinstance(tree, WRITE_TYPES) and tree.args.get("returning") is not None
    unbounded = isinstance(tree, (exp.Update, exp.Delete)) and tree.args.get("where") is None
    conditional = isinstance(tree, exp.Insert) and (
        tree.args.get("conflict") is not None or any(isinstance(e.parent, exp.Not) for e in tree.find_all(exp.Exists))
    )
    creates = str(tree.args.get("kind", "")).upper() if isinstance(tree, exp.Create) else None
    return Statement(sql, classify(tree), tables, returning, _target(tree), unbounded, conditional, creates)


def _target(tree: exp.Expression) -> str | None:
    """
    >>> _target(sqlglot.parse_one("INSERT INTO t (a) SELECT a FROM s"))
    't'
    """
    if not isinstance(tree, (*WRITE_TYPES, exp.Create)):
        return None
    node = tree.this
    table = node.this if isinstance(node, exp.Schema) else node
    return table_key(table) if isinstance(table, exp.Table) else None


def table_key(table: exp.Table) -> str:
    """The catalog's name of a table: `table`, or `database.table` for one of an attached database.

    >>> [table_key(t) for t in sqlglot.parse_one("SELECT * FROM Sales, archive.Orders, archive.main.items, main.x").find_all(exp.Table)]
    ['sales', 'archive.orders', 'archive.items', 'x']
    """
    qualifiers = [part for part in (table.catalog, table.db) if part and part.lower() != "main"]
    return ".".join([*qualifiers[:1], table.name]).lower()


def _check_policy(statements: Sequence[Statement], trees: Sequence[exp.Expression], allow_writes: bool) -> None:
    for statement, tree in zip(statements, trees):
        if statement.kind is Kind.OTHER:
            raise SQLRefused(
                f"{statement_name(tree)} statements are not allowed: ChatDB only reads and writes "
                "the tables of its session."
            )
        if any(t.db.lower() == PRIVATE_SCHEMA for t in tree.find_all(exp.Table)):
            raise SQLRefused(f"The {PRIVATE_SCHEMA} schema holds ChatDB's journal; use history(), undo() and restore().")
        if statement.target and "." in statement.target:
            raise SQLRefused(f"{statement.target} is in an attached database, which ChatDB only reads.")
        if statement.kind is Kind.DDL and not _allowed_ddl(tree):
            raise SQLRefused(
                f"{statement_name(tree)} is not allowed in a request: only CREATE TABLE and CREATE SEQUENCE are; "
                "drop, alter or truncate tables yourself in a code cell."
            )
    if allow_writes:
        return
    if len(statements) > 1:
        raise SQLRefused(
            f"Only one statement can run without writes allowed, and this SQL has {len(statements)}: "
            "ask for one thing at a time."
        )
    if statements[0].is_write:
        raise SQLRefused(
            f"This request would change data ({statement_name(trees[0])}); allow writes to run it: "
            "`ask(..., allow_writes=True)` or `%%chatdb --write`."
        )


def _allowed_ddl(tree: exp.Expression) -> bool:
    """Only CREATE TABLE / CREATE SEQUENCE (a new memory's schema); views, macros and the rest are refused."""
    return isinstance(tree, exp.Create) and str(tree.args.get("kind", "")).upper() in ("TABLE", "SEQUENCE")


def _check_file_access(tree: exp.Expression) -> None:
    for function in tree.find_all(exp.Func):
        name = (function.name if isinstance(function, exp.Anonymous) else function.sql_name()).lower()
        if name.startswith(FILE_FUNCTION_PREFIXES) or name in FILE_FUNCTIONS:
            raise SQLRefused(f"{name}() is not allowed: ChatDB queries only the tables of its session.")
    for table in tree.find_all(exp.Table):
        if table.name.lower().endswith(FILE_SUFFIXES) or "/" in table.name:
            raise SQLRefused(f"Reading the file {table.name!r} is not allowed: load it into a DataFrame first.")


# -- names ---------------------------------------------------------------------------------------


def _check_names(trees: Sequence[exp.Expression], schema: dict[str, list[str]]) -> None:
    known = dict(schema)
    for tree in trees:
        created = _created_table(tree)
        if created:  # later statements of the same request may use it
            known[created[0]] = created[1]
        _check_tables(tree, known, skip={created[0]} if created else set())
        _check_columns(tree, known)


def _created_table(tree: exp.Expression) -> tuple[str, list[str]] | None:
    if not isinstance(tree, exp.Create):
        return None
    target = tree.this
    table = target.this if isinstance(target, exp.Schema) else target
    columns = [c.name.lower() for c in target.expressions] if isinstance(target, exp.Schema) else []
    if isinstance(tree.expression, exp.Query):
        columns += [name.lower() for name in tree.expression.named_selects]
    return (table_key(table), columns) if isinstance(table, exp.Table) else None


def _cte_names(tree: exp.Expression) -> set[str]:
    return {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}


def _check_tables(tree: exp.Expression, known: Mapping[str, Sequence[str]], skip: set[str]) -> None:
    local = _cte_names(tree) | skip
    for table in tree.find_all(exp.Table):
        name = table_key(table)
        if not table.name or name in local or name in known:
            continue
        written = ".".join(part for part in (table.catalog, table.db, table.name) if part)
        raise SQLRefused(f"Unknown table {written!r}{_suggestion(name, known)}", fixable=True)


def _check_columns(tree: exp.Expression, known: Mapping[str, Sequence[str]]) -> None:
    aliases = _table_aliases(tree, known)
    used = {table for table in aliases.values() if table}
    in_scope = {column for table in used for column in known[table]}
    in_scope |= _output_names(tree)
    for column in tree.find_all(exp.Column):
        name = column.name.lower()
        if not name or name == "*":
            continue
        table = aliases.get(column.table.lower()) if column.table else None
        candidates = set(known[table]) if table else in_scope
        if name in candidates or (column.table and not table):
            continue  # a CTE's or derived table's column, or struct field access (s.field)
        where = table or (next(iter(used)) if len(used) == 1 else None)
        raise SQLRefused(_unknown_column(column, where, candidates), fixable=True)


def _table_aliases(tree: exp.Expression, known: Mapping[str, Sequence[str]]) -> dict[str, str | None]:
    """alias or name -> real table (None for CTEs and derived tables)."""
    aliases: dict[str, str | None] = {}
    for table in tree.find_all(exp.Table):
        real = table_key(table) if table_key(table) in known else None
        aliases[table.name.lower()] = real
        aliases[table.alias_or_name.lower()] = real
    for node in tree.find_all(exp.Subquery, exp.CTE):
        if node.alias:
            aliases.setdefault(node.alias.lower(), None)
    return aliases


def _output_names(tree: exp.Expression) -> set[str]:
    """Names a query defines itself: select aliases, CTE and derived-table column lists."""
    names = {alias.alias.lower() for alias in tree.find_all(exp.Alias)}
    for table_alias in tree.find_all(exp.TableAlias):
        names |= {column.name.lower() for column in table_alias.columns}
    return names


def _unknown_column(column: exp.Column, table: str | None, candidates: Iterable[str]) -> str:
    where = f" in {table}" if table else ""
    message = f"Unknown column {column.name!r}{where}{_suggestion(column.name.lower(), candidates)}"
    if isinstance(column.this, exp.Identifier) and column.this.quoted and not column.table:
        message += f" (string literals take single quotes: '{column.name}')"
    return message


def _suggestion(name: str, candidates: Iterable[str]) -> str:
    options = sorted(candidates)
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]!r}?"
    if options:
        listed = ", ".join(options[:12]) + (", ..." if len(options) > 12 else "")
        return f"; available: {listed}."
    return "."
