"""The columns a write fills from a sequence: where an approval may find other numbers than its preview.

A preview spends the numbers a sequence hands out (DuckDB does not roll sequences back), so the approved
run gets the next ones. Only a column the statements fill with `nextval(...)` or `currval(...)`, whose
default calls nextval, that references such a column, or that a step fills with a value an earlier step
read (`$name`: the approval checks that value moved with the sequence) may differ by that; a count read
in the same row that moved as much must still differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from sqlglot import exp

from ..errors import ChatDBError
from .session import Session
from .trees import parse, target_table

SEQUENCE_FUNCTIONS = ("nextval", "currval")


@dataclass(frozen=True)
class SequenceFill:
    """Where the statements of one write put numbers a sequence handed out (tables and columns lower case)."""

    columns: Mapping[str, frozenset[str]] = field(default_factory=dict)  # table -> columns filled from a sequence
    # table -> column -> the earlier results ($name) it is filled with: from a sequence when those moved with it
    parameters: Mapping[str, Mapping[str, frozenset[str]]] = field(default_factory=dict)

    def allows(self, table: str, column: str, fresh: Iterable[str]) -> bool:
        """Whether `table.column` may hold the approved run's sequence numbers, `fresh` being the names
        of the earlier results that moved with the sequence."""
        table, column = table.lower(), column.lower()
        return column in self.columns.get(table, ()) or bool(
            self.parameters.get(table, {}).get(column, frozenset()) & set(fresh)
        )


def sequence_columns(session: Session, statements: Iterable[str]) -> SequenceFill:
    """Where `statements` put a sequence's numbers: each column an INSERT or UPDATE gives `nextval(...)` or
    `currval(...)`, each column of a written table whose default calls nextval, and each column referencing
    one of those; and the columns they fill with earlier results (`$name`). A statement calling nextval
    where no column can be told (a CTE, a set operation) counts every column of its table.

    >>> s = Session()
    >>> _ = s.rows("CREATE SEQUENCE n; CREATE TABLE kites (kite_id INTEGER, span INTEGER, tag INTEGER DEFAULT nextval('n'))")
    >>> fill = sequence_columns(s, ["INSERT INTO kites (kite_id, span) SELECT nextval('n'), (SELECT count(*) FROM kites)"])
    >>> sorted(fill.columns["kites"]), fill.allows("kites", "span", ())
    (['kite_id', 'tag'], False)
    """
    filled: dict[str, set[str]] = {}
    parameters: dict[str, dict[str, frozenset[str]]] = {}
    for sql in statements:
        try:
            trees = parse(sql)
        except ChatDBError:
            continue
        for tree in trees:
            table = target_table(tree)
            if table is None or not isinstance(tree, (exp.Insert, exp.Update)):
                continue
            columns = _table_columns(session, table)
            found = filled.setdefault(table, set())
            found |= {name for name, default in columns.items() if default is not None and _calls_sequence(default)}
            for column, value in _values_set(tree, list(columns)):
                if value is None or _calls_sequence_anywhere(value):
                    found.add(column)
                elif names := frozenset(p.name for p in value.find_all(exp.Placeholder) if p.name):
                    parameters.setdefault(table, {})[column] = names | parameters.get(table, {}).get(
                        column, frozenset()
                    )
    return SequenceFill(_with_references(session, filled), parameters)


def _values_set(tree: exp.Insert | exp.Update, columns: list[str]) -> list[tuple[str, exp.Expr | None]]:
    """(column, the expression `tree` sets it to); None where it cannot be told (a CTE, a set operation,
    BY NAME), for each column the statement may fill."""
    if isinstance(tree, exp.Update):
        return [
            (assignment.this.name.lower(), assignment.expression)
            for assignment in tree.expressions
            if isinstance(assignment, exp.EQ)
        ]
    schema = tree.this
    named = [c.name.lower() for c in schema.expressions] if isinstance(schema, exp.Schema) else columns
    source = tree.expression
    if isinstance(source, exp.Values):
        rows = [row.expressions for row in source.expressions if isinstance(row, exp.Tuple)]
    elif isinstance(source, exp.Select) and not tree.args.get("by_name"):
        rows = [source.expressions]
    else:
        return [(column, None) for column in named] if _calls_sequence_anywhere(tree) else []
    return [(column, value) for row in rows for column, value in zip(named, row)]


def _with_references(session: Session, filled: dict[str, set[str]]) -> dict[str, frozenset[str]]:
    """`filled` and every written table's columns that reference a filled column."""
    if not any(filled.values()):
        return {table: frozenset(columns) for table, columns in filled.items()}
    rows = session.rows(
        "SELECT lower(table_name), constraint_column_names, lower(referenced_table), referenced_column_names"
        " FROM duckdb_constraints() WHERE database_name = current_database() AND constraint_type = 'FOREIGN KEY'"
    )
    for table, columns, target, keys in rows:
        if table in filled:
            filled[table] |= {c.lower() for c, k in zip(columns, keys) if k.lower() in filled.get(target, set())}
    return {table: frozenset(columns) for table, columns in filled.items()}


def _calls_sequence_anywhere(node: exp.Expr) -> bool:
    return any(call.name.lower() in SEQUENCE_FUNCTIONS for call in node.find_all(exp.Anonymous))


def _calls_sequence(default: str) -> bool:
    """Whether a column default (DuckDB's text of it) calls a sequence."""
    try:
        return any(_calls_sequence_anywhere(tree) for tree in parse(f"SELECT {default}"))
    except ChatDBError:
        return False


def _table_columns(session: Session, table: str) -> Mapping[str, str | None]:
    """The session's own table's columns (lower case, in order) -> their defaults."""
    rows = session.rows(
        "SELECT column_name, column_default FROM duckdb_columns() WHERE database_name = current_database()"
        " AND schema_name = 'main' AND lower(table_name) = ? ORDER BY column_index",
        [table.lower()],
    )
    return {name.lower(): default for name, default in rows}
