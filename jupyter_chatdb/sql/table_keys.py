"""What the journal reads of a stored table: its columns, the ones DuckDB computes, the key that finds a
row again, and the order of tables along their references."""

from __future__ import annotations

from sqlglot import exp

from ..errors import ChatDBError
from .session import Session
from .trees import parse

OWN = "database_name = current_database() AND schema_name = 'main' AND table_name = ?"
GENERATED = (exp.GeneratedAsIdentityColumnConstraint, exp.ComputedColumnConstraint)


def primary_key(session: Session, table: str) -> tuple[str, ...]:
    rows = session.rows(
        f"SELECT constraint_column_names FROM duckdb_constraints() WHERE {OWN} AND constraint_type = 'PRIMARY KEY'",
        [table],
    )
    return tuple(rows[0][0]) if rows else ()


def row_key(session: Session, table: str) -> tuple[str, ...]:
    """The columns that find one row of `table` again: its primary key, else its first UNIQUE constraint
    whose columns are all NOT NULL; () when it has neither.

    >>> s = Session()
    >>> _ = s.rows("CREATE TABLE kites (tag VARCHAR NOT NULL UNIQUE, name VARCHAR UNIQUE, span INTEGER)")
    >>> row_key(s, "kites")
    ('tag',)
    """
    key = primary_key(session, table)
    if key:
        return key
    constraints = session.rows(
        f"SELECT constraint_type, constraint_column_names FROM duckdb_constraints() WHERE {OWN}"
        " AND constraint_type IN ('UNIQUE', 'NOT NULL') ORDER BY constraint_index",
        [table],
    )
    required = {column for kind, columns in constraints if kind == "NOT NULL" for column in columns}
    unique = [tuple(columns) for kind, columns in constraints if kind == "UNIQUE"]
    return next((columns for columns in unique if set(columns) <= required), ())


def columns(session: Session, table: str) -> list[str]:
    return [
        name
        for (name,) in session.rows(
            f"SELECT column_name FROM duckdb_columns() WHERE {OWN} ORDER BY column_index", [table]
        )
    ]


def generated_columns(session: Session, table: str) -> set[str]:
    """The columns DuckDB computes (`GENERATED ALWAYS AS`): no statement may set them.

    >>> s = Session()
    >>> _ = s.rows("CREATE TABLE hives (frames INTEGER, bees INTEGER GENERATED ALWAYS AS (frames * 2000))")
    >>> generated_columns(s, "hives")
    {'bees'}
    """
    rows = session.rows(f"SELECT sql FROM duckdb_tables() WHERE {OWN}", [table])
    if not rows or not rows[0][0]:
        return set()
    try:
        trees = parse(rows[0][0])
    except ChatDBError:
        return set()
    return {
        definition.name
        for definition in trees[0].find_all(exp.ColumnDef)
        if any(isinstance(constraint.args.get("kind"), GENERATED) for constraint in definition.constraints)
    }


def writable_columns(session: Session, table: str) -> list[str]:
    """The columns a statement may set, in order: all but the generated ones."""
    generated = generated_columns(session, table)
    return [name for name in columns(session, table) if name not in generated]


def children_first_levels(session: Session, tables: list[str]) -> list[list[str]]:
    """`tables` in levels: each level's tables are referenced by no table of a later level.

    A cycle of references ends the ordering: the tables left form the last level.
    """
    references = {
        t: {
            r
            for (r,) in session.rows(
                f"SELECT referenced_table FROM duckdb_constraints() WHERE {OWN} AND constraint_type = 'FOREIGN KEY'",
                [t],
            )
        }
        - {t}
        for t in tables
    }
    levels: list[list[str]] = []
    left = list(tables)
    while left:
        referenced = set().union(*(references[t] for t in left))
        level = [t for t in left if t not in referenced] or left
        levels.append(level)
        left = [t for t in left if t not in level]
    return levels
