"""The guard's check of names (`guard.check` with a schema): every table a statement reads or writes is one
of the session's (or a CTE it can see, or the table a CREATE makes), and every column is one of those
tables' or one the query defines itself. A wrong name is refused with UnknownName, which suggests the
closest real name (or lists the names there are) and says which other table has a column so named.

>>> import sqlglot
>>> check_names([sqlglot.parse_one("SELECT nme FROM kites")], {"kites": ["name", "span"]})
Traceback (most recent call last):
...
jupyter_chatdb.errors.UnknownName: Unknown column 'nme' in kites; did you mean 'name'?
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence

from sqlglot import exp

from ..errors import UnknownName
from .trees import as_written, is_cte_reference, table_key, table_references, target_table


def check_names(trees: Sequence[exp.Expr], schema: dict[str, list[str]]) -> None:
    """Refuse the first unknown table or column of `trees` (`schema` in lower case); a table that a CREATE
    makes is known to the statements after it."""
    known = dict(schema)
    for tree in trees:
        created = _created_table(tree, known)
        _check_tables(tree, known)
        if created:  # later statements of the same request may use it
            known[created[0]] = created[1]
        _check_columns(tree, known)


def _created_table(tree: exp.Expr, known: Mapping[str, Sequence[str]]) -> tuple[str, list[str]] | None:
    """The name and columns of the table a CREATE TABLE makes (`SELECT *` expanded from the tables it reads).

    >>> import sqlglot
    >>> _created_table(sqlglot.parse_one("CREATE TABLE few AS SELECT * FROM c WHERE id = 1"), {"c": ["id", "name"]})
    ('few', ['id', 'name'])
    """
    if not isinstance(tree, exp.Create):
        return None
    target = tree.this
    table = target.this if isinstance(target, exp.Schema) else target
    columns = [c.name.lower() for c in target.expressions] if isinstance(target, exp.Schema) else []
    if isinstance(tree.expression, exp.Query):
        for name in tree.expression.named_selects:
            if name == "*":
                read = [table_key(t) for t in table_references(tree.expression)]
                columns += [c for t in read for c in known.get(t, [])]
            else:
                columns.append(name.lower())
    return (table_key(table), columns) if isinstance(table, exp.Table) else None


def _check_tables(tree: exp.Expr, known: Mapping[str, Sequence[str]]) -> None:
    created = target_table(tree) if isinstance(tree, exp.Create) else None
    for table in table_references(tree):
        name = table_key(table)
        if name in known or is_cte_reference(table) or (name == created and table.parent is _created_node(tree)):
            continue
        close = _closest(name, known)
        raise UnknownName(
            f"Unknown table {as_written(table)!r}{_suggestion(name, known)}", kind="table", name=name, suggestion=close
        )


def _created_node(tree: exp.Expr) -> exp.Expr:
    """The node that holds a CREATE's table: the statement, or its column list."""
    return tree.this if isinstance(tree.this, exp.Schema) else tree


def _check_columns(tree: exp.Expr, known: Mapping[str, Sequence[str]]) -> None:
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
        owners = [t for t, columns in known.items() if name in columns and t != where][:3]
        raise UnknownName(
            _unknown_column(column, where, candidates) + (f" It is a column of {', '.join(owners)}." if owners else ""),
            kind="column",
            name=name,
            suggestion=_closest(name, candidates),
        )


def _table_aliases(tree: exp.Expr, known: Mapping[str, Sequence[str]]) -> dict[str, str | None]:
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


def _output_names(tree: exp.Expr) -> set[str]:
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


def _closest(name: str, candidates: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return close[0] if close else None


def _suggestion(name: str, candidates: Iterable[str]) -> str:
    options = sorted(candidates)
    close = _closest(name, options)
    if close:
        return f"; did you mean {close!r}?"
    if options:
        listed = ", ".join(options[:12]) + (", ..." if len(options) > 12 else "")
        return f"; available: {listed}."
    return "."
