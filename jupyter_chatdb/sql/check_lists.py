"""The values a CHECK constraint lists for a column (`coat IN ('bay', 'grey')`, or
`coat = 'bay' OR coat = 'grey'`), read from the database's constraints."""

from __future__ import annotations

import sqlglot
from sqlglot import expressions as exp

from .session import Session


def check_lists(session: Session) -> dict[tuple[str, str], tuple[str, ...]]:
    """(table, column) -> the text values a CHECK constraint allows it, for every stored table.

    >>> from jupyter_chatdb.sql.session import Session
    >>> s = Session()
    >>> _ = s.run("CREATE TABLE mares (coat TEXT CHECK (coat IN ('bay', 'grey')), hands INT CHECK (hands > 0),"
    ...     " tack TEXT, CHECK (tack = 'wood' OR tack = 'steel'))")
    >>> check_lists(s)
    {('mares', 'coat'): ('bay', 'grey'), ('mares', 'tack'): ('wood', 'steel')}
    """
    found: dict[tuple[str, str], tuple[str, ...]] = {}
    for table, expression in session.rows(
        "SELECT table_name, expression FROM duckdb_constraints() WHERE database_name = current_database()"
        " AND schema_name = 'main' AND constraint_type = 'CHECK'"
    ):
        column, values = listed_values(str(expression))
        if column and values:
            found[(table, column)] = values
    return found


def listed_values(expression: str) -> tuple[str, tuple[str, ...]]:
    """The one column a CHECK expression holds to a list of text values, and the list; ("", ()) otherwise.

    >>> listed_values("(grade IN ('gold', 'silver'))"), listed_values("((c = 'p') OR (c = 'q'))")
    (('grade', ('gold', 'silver')), ('c', ('p', 'q')))
    >>> listed_values("(amount > 0)"), listed_values("((a = 'p') OR (b = 'q'))")
    (('', ()), ('', ()))
    """
    try:
        tree = sqlglot.parse_one(expression, read="duckdb")
    except sqlglot.errors.ParseError:
        return "", ()
    while isinstance(tree, exp.Paren):
        tree = tree.this
    pairs: list[tuple[str, str]] = []
    if isinstance(tree, exp.In) and isinstance(tree.this, exp.Column):
        items = tree.expressions
        if items and all(isinstance(i, exp.Literal) and i.is_string for i in items):
            pairs = [(tree.this.name, i.this) for i in items]
    else:
        for part in _alternatives(tree):
            if not (isinstance(part, exp.EQ) and isinstance(part.this, exp.Column)):
                return "", ()
            literal = part.expression
            if not (isinstance(literal, exp.Literal) and literal.is_string):
                return "", ()
            pairs.append((part.this.name, literal.this))
    columns = {column for column, _ in pairs}
    if len(columns) != 1:
        return "", ()
    return columns.pop(), tuple(dict.fromkeys(value for _, value in pairs))


def _alternatives(tree: exp.Expr) -> list[exp.Expr]:
    while isinstance(tree, exp.Paren):
        tree = tree.this
    if isinstance(tree, exp.Or):
        return _alternatives(tree.this) + _alternatives(tree.expression)
    return [tree]
