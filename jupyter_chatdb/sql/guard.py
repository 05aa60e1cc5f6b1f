"""The SQL guard: only SQL that passed here is ever executed, and what runs is what was checked.

An allow-list over sqlglot's syntax tree (DuckDB dialect), a pipeline of small checks:
parse (`trees.py`: any tokenizer or parser error is a refusal), allow the statement's kind for the request's
mode, allow each function (`functions.py`: only functions that compute), resolve every table by
scope (a CTE's name counts only inside its query) to a table of the session, and check columns
(`guard_names.py`).
The statement that runs is written back from the checked tree (no comments, one statement, which
DuckDB's own parser must read as the same kind), so no parser difference can smuggle anything past.
Each refusal says why and, where a name is wrong, suggests the closest real one.

>>> check("SELECT name FROM kites", {"kites": ["name", "span"]}).statements[0].kind
<Kind.READ: 'read'>
>>> check("SELECT nme FROM kites", {"kites": ["name", "span"]})
Traceback (most recent call last):
...
jupyter_chatdb.errors.UnknownName: Unknown column 'nme' in kites; did you mean 'name'?
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import duckdb
import sqlglot
from sqlglot import exp
from sqlglot.tokens import TokenType

from ..errors import NotAllowed, SQLRefused, SQLSyntaxError
from .functions import SEQUENCE_FUNCTIONS, TABLE_FUNCTIONS, is_computing
from .guard_names import check_names
from .trees import (
    DDL_TYPES,
    DIALECT,
    READ_TYPES,
    WRITE_TYPES,
    as_written,
    name_parts,
    parse,
    table_key,
    table_references,
    target_table,
    written,
)

Schema = Mapping[str, Sequence[str]]  # table name -> column names


class Kind(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    DDL = "ddl"
    OTHER = "other"


class Mode(str, enum.Enum):
    """What the user allowed, never what the model chose."""

    READ = "read"  # one SELECT (or DESCRIBE/SUMMARIZE of a table)
    PREVIEW = "preview"  # reads and INSERT/UPDATE/DELETE, tried in a transaction that is rolled back
    WRITE = "write"  # also CREATE TABLE / CREATE SEQUENCE, committed


@dataclass(frozen=True)
class Statement:
    sql: str  # written back from the checked tree: exactly what runs
    kind: Kind
    tables: tuple[str, ...]  # tables it reads or writes
    returns_rows: bool = False  # a write with RETURNING
    target: str | None = None  # the table a write or CREATE changes
    unbounded: bool = False  # UPDATE or DELETE without WHERE: every row of the table
    conditional: bool = False  # an INSERT that may add nothing by design (ON CONFLICT, WHERE NOT EXISTS)
    creates: str | None = None  # TABLE or SEQUENCE for a CREATE
    parameters: tuple[str, ...] = ()  # the $name parameters it takes, bound when it runs
    matches_rows: bool = False  # an UPDATE or DELETE: the count it returns is of the rows it matched

    @property
    def is_write(self) -> bool:
        return self.kind in (Kind.WRITE, Kind.DDL)


@dataclass(frozen=True)
class Checked:
    statements: tuple[Statement, ...]

    @property
    def writes(self) -> bool:
        return any(s.is_write for s in self.statements)


PRIVATE_SCHEMA = "chatdb_journal"
STATEMENT_TYPES = (*WRITE_TYPES, *DDL_TYPES, exp.Command, exp.Into, exp.Transaction, exp.Commit, exp.Rollback)
FILE_MARKS = ("/", "\\", ".", "*", "?", ":", "~")  # in a single name part: a path, a glob or a URL, not a table
DUCKDB_KINDS = {  # how DuckDB's own parser must read the statement written back
    Kind.READ: {"SELECT"},
    Kind.WRITE: {"INSERT", "UPDATE", "DELETE"},
    Kind.DDL: {"CREATE"},
}


def check(
    sql: str | Sequence[exp.Expr],
    schema: Schema | None = None,
    *,
    allow_writes: bool = False,
    mode: Mode | None = None,
) -> Checked:
    """Check `sql` (text, or the statements' trees as `parse` returned them and fix-ups changed them);
    return its statements or raise SQLRefused saying why: SQLSyntaxError, UnknownName or NotAllowed.

    `mode`: what the user allowed (default: WRITE with `allow_writes`, else READ). Without a
    `schema` the names are not checked, but tables must still be plain names.
    """
    mode = mode or (Mode.WRITE if allow_writes else Mode.READ)
    try:
        trees = parse(sql) if isinstance(sql, str) else list(sql)
        if not trees:
            raise SQLSyntaxError("There is no SQL statement to run.")
        statements = tuple(_statement(tree) for tree in trees)
        _check_policy(statements, trees, mode, schema)
        for tree in trees:
            _check_functions(tree, mode)
            _check_sources(tree)
        if schema is not None:
            check_names(trees, {name.lower(): [c.lower() for c in cols] for name, cols in schema.items()})
        for statement in statements:
            _check_duckdb_reads_the_same(statement)
    except SQLRefused:
        raise
    except Exception as error:  # a parser or generator fault: what cannot be checked does not run
        raise NotAllowed(f"This SQL cannot be checked ({type(error).__name__}): write it more plainly.") from None
    return Checked(statements)


def classify(tree: exp.Expr) -> Kind:
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


def statement_name(tree: exp.Expr) -> str:
    """The SQL keyword that starts the statement, for messages: ATTACH, COPY, PRAGMA ..."""
    if isinstance(tree, exp.Command):
        return str(tree.this).upper()
    if isinstance(tree, (exp.Transaction, exp.Commit, exp.Rollback)):
        return "Transaction control"
    return tree.key.upper()


def _statement(tree: exp.Expr) -> Statement:
    tables = tuple(dict.fromkeys(table_key(t) for t in table_references(tree)))
    returning = isinstance(tree, WRITE_TYPES) and tree.args.get("returning") is not None
    unbounded = isinstance(tree, (exp.Update, exp.Delete)) and tree.args.get("where") is None
    conditional = isinstance(tree, exp.Insert) and (
        tree.args.get("conflict") is not None or any(isinstance(e.parent, exp.Not) for e in tree.find_all(exp.Exists))
    )
    creates = str(tree.args.get("kind", "")).upper() if isinstance(tree, exp.Create) else None
    parameters = tuple(dict.fromkeys(p.name for p in tree.find_all(exp.Placeholder) if p.name))
    return Statement(
        written(tree),
        classify(tree),
        tables,
        returning,
        target_table(tree),
        unbounded,
        conditional,
        creates,
        parameters,
        isinstance(tree, (exp.Update, exp.Delete)),
    )


# -- statement kinds and modes -------------------------------------------------------------------


def _check_policy(
    statements: Sequence[Statement], trees: Sequence[exp.Expr], mode: Mode, schema: Schema | None
) -> None:
    for statement, tree in zip(statements, trees):
        if statement.kind is Kind.OTHER:
            raise NotAllowed(
                f"{statement_name(tree)} statements are not allowed: ChatDB only reads and writes "
                "the tables of its session."
            )
        nested = next((node for node in tree.find_all(*STATEMENT_TYPES) if node is not tree), None)
        if nested is not None:
            raise NotAllowed(
                f"A {statement_name(nested)} inside another statement is not allowed: write one statement per step."
            )
        if any(t.db.lower() == PRIVATE_SCHEMA or t.catalog.lower() == PRIVATE_SCHEMA for t in tree.find_all(exp.Table)):
            raise NotAllowed(
                f"The {PRIVATE_SCHEMA} schema holds ChatDB's journal and rules; "
                "use history(), undo(), restore() and %chatdb rules."
            )
        if statement.target and "." in statement.target:
            raise NotAllowed(f"{statement.target} is in an attached database, which ChatDB only reads.")
        if isinstance(tree, (exp.Describe, exp.Summarize)):
            _check_described(tree)
        if statement.kind is Kind.DDL:
            _check_ddl(tree, statement, mode, schema)
    if mode is Mode.WRITE:
        return
    if mode is Mode.READ and len(statements) > 1:
        raise NotAllowed(
            f"Only one statement can run without writes allowed, and this SQL has {len(statements)}: "
            "ask for one thing at a time."
        )
    write = next((tree for statement, tree in zip(statements, trees) if statement.is_write), None)
    if mode is Mode.READ and write is not None:
        raise NotAllowed(
            f"This request would change data ({statement_name(write)}); allow writes to run it: "
            "`ask(..., allow_writes=True)` or `%%chatdb --write`."
        )


def _check_ddl(tree: exp.Expr, statement: Statement, mode: Mode, schema: Schema | None) -> None:
    """Only CREATE TABLE / CREATE SEQUENCE of a new name, with writes allowed (a new memory's schema)."""
    if not (isinstance(tree, exp.Create) and statement.creates in ("TABLE", "SEQUENCE")):
        raise NotAllowed(
            f"{statement_name(tree)} is not allowed in a request: only CREATE TABLE and CREATE SEQUENCE are; "
            "drop, alter or truncate tables yourself in a code cell."
        )
    if mode is not Mode.WRITE:
        raise NotAllowed(
            f"This request would create a {statement.creates.lower()}; allow writes to run it: "
            "`ask(..., allow_writes=True)` or `%%chatdb --write` (a preview only inserts, updates and deletes rows)."
        )
    properties = tree.args.get("properties")
    if properties is not None and any(isinstance(p, exp.TemporaryProperty) for p in properties.expressions):
        raise NotAllowed("Temporary tables are not allowed in a request: create a table (it can be undone).")
    known = {name.lower() for name in schema or {}}
    if tree.args.get("replace") and statement.target in known:
        raise NotAllowed(
            f"CREATE OR REPLACE would replace the table {statement.target} and all its rows, which cannot be undone: "
            "change its rows with UPDATE, DELETE and INSERT instead."
        )


def _check_described(tree: exp.Expr) -> None:
    """DESCRIBE and SUMMARIZE only of a table by name (not of a file, a query or a function)."""
    operand = tree.this
    if not (isinstance(operand, exp.Table) and isinstance(operand.this, exp.Identifier)):
        raise NotAllowed(f"{statement_name(tree)} works here only on a table of the session, by its name.")


# -- functions -----------------------------------------------------------------------------------


def _check_functions(tree: exp.Expr, mode: Mode) -> None:
    for function in tree.find_all(exp.Func):
        name = called_name(function)
        if name is None:
            continue  # syntax (CASE, operators, [lists]) whose parts are checked on their own
        if _in_from(function):
            if name not in TABLE_FUNCTIONS:
                raise NotAllowed(
                    f"{name}() is not allowed as a table: ChatDB queries only the tables of its session "
                    f"(and {', '.join(sorted(TABLE_FUNCTIONS))})."
                )
        elif name in SEQUENCE_FUNCTIONS:
            if mode is Mode.READ:
                raise NotAllowed(f"{name}() advances or reads a sequence: it is allowed only in a request that writes.")
        elif not is_computing(name):
            raise NotAllowed(f"{name}() is not allowed: only functions that compute on their arguments are.")


_TOKENIZER = sqlglot.Dialect.get_or_raise(DIALECT).tokenizer_class()


def called_name(function: exp.Func) -> str | None:
    """The name DuckDB will call for `function` as it is written back (lower case), or None when it
    is written as syntax rather than a call.

    >>> tree = sqlglot.parse_one('SELECT upper(a), approx_count_distinct(b), a::INT, "read_text"(1)', read="duckdb")
    >>> [called_name(f) for f in tree.find_all(exp.Func)]
    ['upper', 'approx_count_distinct', 'cast', 'read_text']
    """
    if isinstance(function, exp.Anonymous):
        return function.name.lower()
    tokens = _TOKENIZER.tokenize(written(function))
    if len(tokens) > 1 and tokens[1].token_type is TokenType.L_PAREN:
        return tokens[0].text.lower()
    return None


def _in_from(function: exp.Func) -> bool:
    """Whether `function` is used as a table (FROM range(3), JOIN unnest(...), LATERAL ...)."""
    parent = function.parent
    return isinstance(parent, exp.Table) or (
        isinstance(function, exp.Unnest) and isinstance(parent, (exp.From, exp.Join, exp.Lateral))
    )


# -- tables --------------------------------------------------------------------------------------


def _check_sources(tree: exp.Expr) -> None:
    """Every table is named, never a file path, a string or a glob (DuckDB would read the file)."""
    for table in tree.find_all(exp.Table):
        named = isinstance(table.this, exp.Func) or (isinstance(table.this, exp.Identifier) and bool(table.name))
        if named and not any(mark in part for part in name_parts(table) for mark in FILE_MARKS):
            continue
        name = as_written(table) or table.sql(dialect=DIALECT)
        raise NotAllowed(f"Reading the file {name!r} is not allowed: load it into a DataFrame first.")


def _check_duckdb_reads_the_same(statement: Statement) -> None:
    """DuckDB's own parser must read the written-back SQL as one statement of the same kind."""
    try:
        parsed = duckdb.extract_statements(statement.sql)
    except duckdb.Error as error:
        raise SQLSyntaxError(f"DuckDB cannot parse this SQL: {str(error).splitlines()[0]}") from None
    kinds = [str(p.type.name) for p in parsed]
    if len(kinds) != 1 or kinds[0] not in DUCKDB_KINDS.get(statement.kind, set()):
        raise NotAllowed(
            f"DuckDB reads this SQL as {', '.join(kinds) or 'nothing'}, not as one {statement.kind.value}: it is not run."
        )
