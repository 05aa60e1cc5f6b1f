"""Fix-ups for habits of small models, as rules from one statement's tree to a fixed copy: other
dialects' SQL, invented joins, attached tables named without their database (values read as another
type: `value_types.py`).

A rule returns None when it has nothing to fix (or cannot fix it); it never changes the tree it is given.
The fixed tree goes through the guard like any other and is what the user sees in the step. Each rule
has input/expected fixtures in `tests/fixtures/fixups/`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import sqlglot
from sqlglot import exp

from ..errors import SQLRefused
from .names import split_table
from .trees import parse, table_key, written

SOURCE_DIALECTS = ("sqlite", "postgres", "mysql")  # MySQL last: it reads `||` as OR
Schema = Mapping[str, Sequence[str]]
TextColumns = Mapping[str, Mapping[str, bool]]  # table -> {text column (lower case): whether it holds numbers}
Fixed = TypeVar("Fixed")


def _tolerant(fixup: Callable[..., Fixed | None]) -> Callable[..., Fixed | None]:
    """A fix-up that sqlglot faults on (odd input) leaves the SQL as it is: the guard then decides about it."""

    @functools.wraps(fixup)
    def tolerant(*args: object, **kwargs: object) -> Fixed | None:
        try:
            return fixup(*args, **kwargs)
        except Exception:
            return None

    return tolerant


@_tolerant
def to_duckdb(sql: str) -> list[exp.Expr] | None:
    """The statements of `sql` read as another dialect's SQL and rewritten for DuckDB, as trees; None
    when no dialect reads them or the rewrite is the same text.

    >>> [t.sql("duckdb") for t in to_duckdb("SELECT `name` FROM band LIMIT 2, 5")]
    ['SELECT "name" FROM band LIMIT 5 OFFSET 2']
    >>> to_duckdb("SELEKT 1") is None
    True
    """
    for dialect in SOURCE_DIALECTS:
        try:
            statements = sqlglot.transpile(
                sql, read=dialect, write="duckdb", unsupported_level=sqlglot.ErrorLevel.RAISE
            )
            fixed = "; ".join(statements)
            trees = parse(fixed)
        except (sqlglot.errors.SqlglotError, SQLRefused):
            continue
        if fixed and fixed != sql:
            return trees
    return None


@_tolerant
def from_sqlite(sql: str) -> list[exp.Expr] | None:
    """SQLite SQL, as small models write it best, read into DuckDB's dialect with SQLite's meaning: LIKE
    ignores case (ILIKE); None when SQLite's dialect does not read it.

    >>> [written(t) for t in from_sqlite("SELECT name FROM t WHERE name LIKE '%ann%' LIMIT 1, 2")]
    ["SELECT name FROM t WHERE name ILIKE '%ann%' LIMIT 2 OFFSET 1"]
    """
    trees = [tree for tree in sqlglot.parse(sql, read="sqlite") if tree is not None]
    for tree in trees:
        for like in list(tree.find_all(exp.Like)):
            like.replace(exp.ILike(this=like.this, expression=like.expression))
    return [parse(written(tree))[0] for tree in trees] or None


@_tolerant
def quoted_strings(tree: exp.Expr, schema: Schema) -> exp.Expr | None:
    """SQLite reads a double-quoted name that is no column as a string (`WHERE year = "2014"`), and small
    models write strings so: in a comparison, such a name becomes the string it meant.

    >>> written(quoted_strings(parse('SELECT * FROM t WHERE city = "Oslo"')[0], {"t": ["city"]}))
    "SELECT * FROM t WHERE city = 'Oslo'"
    """
    tree = tree.copy()
    columns = {c.lower() for cols in schema.values() for c in cols}
    columns |= {alias.alias.lower() for alias in tree.find_all(exp.Alias)}
    changed = False
    for node in list(tree.find_all(exp.EQ, exp.NEQ, exp.In, exp.Like, exp.ILike)):
        for operand in [node.this, node.args.get("expression"), *node.args.get("expressions", [])]:
            if (
                isinstance(operand, exp.Column)
                and not operand.table
                and isinstance(operand.this, exp.Identifier)
                and operand.this.quoted
                and operand.name.lower() not in columns
            ):
                operand.replace(exp.Literal.string(operand.name))
                changed = True
    return tree if changed else None


def lowered_columns(schema: Schema) -> dict[str, set[str]]:
    """table -> its columns, all in lower case, as the rules compare names."""
    return {name.lower(): {c.lower() for c in cols} for name, cols in schema.items()}


def expression_key(node: exp.Expr) -> str:
    """How the rules tell whether two expressions are the same: their DuckDB text, in lower case."""
    return node.sql(dialect="duckdb").lower()


def table_of_column(column: exp.Column, tree: exp.Expr, schema: Schema) -> str | None:
    """The stored table a column belongs to: by its qualifier (alias or name), else the one table of the
    statement that has such a column."""
    names = {name.lower(): name for name in schema}
    tables = [t for t in tree.find_all(exp.Table) if table_key(t) in names]
    if column.table:
        for table in tables:
            if column.table.lower() in (table.alias_or_name.lower(), table.name.lower()):
                return names[table_key(table)]
        return None
    owners = {
        names[table_key(t)] for t in tables if column.name.lower() in {c.lower() for c in schema[names[table_key(t)]]}
    }
    return owners.pop() if len(owners) == 1 else None


@_tolerant
def drop_unknown_joins(tree: exp.Expr, schema: Schema) -> exp.Expr | None:
    """Small models join tables that do not exist (`JOIN products AS p`) or qualify columns with an alias
    they never defined. When every such column exists in the query's FROM table, drop the join and
    qualify the columns with that table; None when there is nothing to fix or it cannot be fixed.

    >>> schema = {"sales": ["product", "units", "price"]}
    >>> joined = "FROM sales AS s JOIN products AS p ON s.product = p.product"
    >>> drop_unknown_joins(parse(f"SELECT p.product, sum(p.units) {joined} GROUP BY p.product")[0], schema).sql("duckdb")
    'SELECT s.product, SUM(s.units) FROM sales AS s GROUP BY s.product'
    >>> drop_unknown_joins(parse("SELECT product FROM sales")[0], schema) is None
    True
    """
    tree = tree.copy()
    known = lowered_columns(schema)
    changed = False
    for select in list(tree.find_all(exp.Select)):
        source = select.args.get("from_")
        base = source.this if source is not None else None
        if not isinstance(base, exp.Table) or table_key(base) not in known:
            continue
        joins = select.args.get("joins") or []
        unknown = [
            j
            for j in joins
            if isinstance(j.this, exp.Table) and table_key(j.this) not in known and not _is_cte(tree, j.this.name)
        ]
        dropped = {id(j.this) for j in unknown}
        defined = {
            t.alias_or_name.lower() for t in tree.find_all(exp.Table) if id(t) not in dropped
        }  # outer queries too
        defined |= {s.alias.lower() for s in tree.find_all(exp.Subquery, exp.CTE) if s.alias}
        stray = [c for c in select.find_all(exp.Column) if c.table and c.table.lower() not in defined]
        if not unknown and not stray:
            continue
        if any(c.name.lower() not in known[table_key(base)] for c in stray):
            return None
        for column in stray:
            column.set("table", exp.to_identifier(base.alias_or_name))
        select.set("joins", [j for j in joins if j not in unknown] or None)
        changed = True
    return tree if changed else None


@_tolerant
def with_views(tree: exp.Expr, views: Mapping[str, str]) -> exp.Expr | None:
    """A query reading views the model was shown but that the session does not hold (`views`: name ->
    SELECT) gets each as a CTE of its own; None when it reads none. A statement that defines a CTE of
    the same name keeps its own.

    >>> views = {"busy": "SELECT day FROM lessons GROUP BY day HAVING count(*) > 2"}
    >>> written(with_views(parse("SELECT * FROM busy WHERE day <> 'Sunday'")[0], views))
    "WITH busy AS (SELECT day FROM lessons GROUP BY day HAVING COUNT(*) > 2) SELECT * FROM busy WHERE day <> 'Sunday'"
    """
    known = {name.lower(): (name, sql) for name, sql in views.items()}
    statements = split(tree)
    fixed, changed = [], False
    for statement in statements:
        used = dict.fromkeys(
            known[t.name.lower()]
            for t in statement.find_all(exp.Table)
            if not t.db and not t.catalog and t.name.lower() in known and not _is_cte(statement, t.name)
        )
        if used and isinstance(statement, exp.Query):
            statement = statement.copy()
            for name, sql in reversed(used):  # each before the ones already there
                with_ = statement.args.get("with_")
                cte = exp.CTE(this=parse(sql)[0], alias=exp.TableAlias(this=exp.to_identifier(name)))
                if with_ is None:
                    statement.set("with_", exp.With(expressions=[cte]))
                else:
                    with_.set("expressions", [cte, *with_.expressions])
            changed = True
        fixed.append(statement)
    return joined(fixed) if changed else None


@_tolerant
def qualify_tables(tree: exp.Expr, schema: Schema, shown: Sequence[str] = ()) -> exp.Expr | None:
    """Small models drop the database of an attached table (`FROM ferry` for `harbour.ferry`). A name
    that is no table of its own is given the database of the one table so named among the tables the
    model was `shown`, else among the tables of their databases, else among all; None when there is
    nothing to qualify or a name is ambiguous.

    >>> schema = {"harbour.ferry": ["name", "age"], "harbour.crossing": ["day"], "loch.ferry": ["name"]}
    >>> qualify_tables(parse("SELECT ferry.name FROM ferry ORDER BY age")[0], schema, ["harbour.ferry"]).sql("duckdb")
    'SELECT ferry.name FROM harbour.ferry AS ferry ORDER BY age'
    >>> qualify_tables(parse("SELECT name FROM ferry")[0], schema) is None  # two databases have one
    True
    """
    tree = tree.copy()
    known = {name.lower() for name in schema}
    shown_databases = {split_table(name)[0] for name in shown} - {""}
    searched = (shown, [name for name in schema if split_table(name)[0] in shown_databases], list(schema))
    changed = False
    for table in tree.find_all(exp.Table):
        if table.db or table.catalog or table_key(table) in known or _is_cte(tree, table.name):
            continue
        database = next(filter(None, (_database_of_only(table.name, tables) for tables in searched)), None)
        if database is None:
            continue
        named = any(c.table.lower() == table.name.lower() for c in tree.find_all(exp.Column))
        if named and not table.alias:
            table.set("alias", exp.TableAlias(this=exp.to_identifier(table.name)))
        table.set("db", exp.to_identifier(database))
        changed = True
    return tree if changed else None


def with_tables_qualified(trees: list[exp.Expr], schema: Schema, shown: Sequence[str] = ()) -> list[exp.Expr]:
    """`trees` with their attached tables qualified (`qualify_tables`)."""
    together = joined(trees)
    return split(qualify_tables(together, schema, shown) or together)


def joined(trees: Sequence[exp.Expr]) -> exp.Expr:
    """A step's statements as one tree, which the rules read together (a name one statement defines
    counts in the others)."""
    return trees[0] if len(trees) == 1 else exp.Block(expressions=list(trees))


def split(tree: exp.Expr) -> list[exp.Expr]:
    """The statements of a `joined` tree."""
    return list(tree.expressions) if isinstance(tree, exp.Block) else [tree]


def _database_of_only(name: str, tables: Sequence[str]) -> str | None:
    databases = [database for database, table in map(split_table, tables) if database and table.lower() == name.lower()]
    return databases[0] if len(databases) == 1 else None


def _is_cte(tree: exp.Expr, name: str) -> bool:
    return any(cte.alias_or_name.lower() == name.lower() for cte in tree.find_all(exp.CTE))


@_tolerant
def update_target_references(tree: exp.Expr) -> exp.Expr | None:
    """In an UPDATE, a column qualified by a name that no table, alias or subquery of the statement
    defines, and that begins the updated table's name ("horse" or "h" for horses), means the updated row.

    >>> written(update_target_references(parse("UPDATE hay SET n = (SELECT count(*) FROM bales b WHERE b.hay = h.id)")[0]))
    'UPDATE hay SET n = (SELECT COUNT(*) FROM bales AS b WHERE b.hay = hay.id)'
    """
    if not isinstance(tree, exp.Update) or not isinstance(tree.this, exp.Table):
        return None
    target = tree.this.name.lower()
    defined = {name.lower() for t in tree.find_all(exp.Table) for name in (t.name, t.alias_or_name)}
    defined |= {node.alias.lower() for node in tree.find_all(exp.Subquery, exp.CTE) if node.alias}
    fixed = tree.copy()
    wrong = [
        c
        for c in fixed.find_all(exp.Column)
        if c.table and c.table.lower() not in defined and target.startswith(c.table.lower())
    ]
    if not wrong:
        return None
    for column in wrong:
        column.set("table", exp.to_identifier(tree.this.alias_or_name))
    return fixed
