"""A procedure's SQL, read from sqlglot's trees: its $parameters in the order written (`parameters_of`), the
column and table each is written to or compared with (`parameter_targets`), which of them are numbers
(`parameter_types`), the tables it writes and reads, and its parameters renamed (`renamed`: one item's copy
of a step run per item). `generalize.py` reads the same columns to name the parameters it makes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import sqlglot
from sqlglot import exp

from ..errors import ChatDBError
from ..sql.catalog import Catalog
from ..sql.trees import DIALECT, WRITE_TYPES, table_key, target_table
from ..sql.trees import referenced_tables as tables_of_tree

SCOPES = (exp.Select, exp.Update, exp.Delete)  # the statements whose FROM (or target) name a column's tables


def parameters_of(sql: str) -> list[str]:
    """The $parameters of `sql` in the order written (each once).

    >>> parameters_of("UPDATE t SET kg = kg + $item_kg WHERE crop = $item_crop AND kg > $item_kg")
    ['item_kg', 'item_crop']
    """
    found = [node.name for tree in parse_statements(sql) for node in tree.find_all(exp.Placeholder) if node.name]
    return list(dict.fromkeys(found))


def parameter_columns(sql: str, columns: Mapping[str, Sequence[str]] | None = None) -> dict[str, str]:
    """Each $parameter of `sql` -> the column it is written to or compared with (where one is); with the
    tables' `columns`, also what an INSERT ... SELECT without a column list writes it to.

    >>> parameter_columns("INSERT INTO lots (crop, kg) VALUES ($item_crop, $item_kg)")
    {'item_crop': 'crop', 'item_kg': 'kg'}
    >>> parameter_columns("INSERT INTO lots SELECT id, $kg FROM crops", {"lots": ["crop_id", "kg"]})
    {'kg': 'kg'}
    """
    return {name: column for name, (_, column) in parameter_targets(sql, columns).items()}


def parameter_targets(
    sql: str, columns: Mapping[str, Sequence[str]] | None = None
) -> dict[str, tuple[str | None, str]]:
    """Each $parameter of `sql` -> (table, column): the column it is written to or compared with, and the
    table that column is of, found through the statement's tables and their aliases (None where the
    statement does not say: a column of no table or of several of `columns`, the tables' columns).

    >>> parameter_targets("UPDATE shelves AS s SET n = $n FROM parts AS p WHERE s.code = $shelf AND p.code = $part")
    {'n': ('shelves', 'n'), 'shelf': ('shelves', 'code'), 'part': ('parts', 'code')}
    >>> parameter_targets("SELECT * FROM parts, shelves WHERE code = $code AND bay = $bay", {"shelves": ["code"]})
    {'code': ('shelves', 'code'), 'bay': (None, 'bay')}
    >>> parameter_targets("INSERT INTO lots VALUES ($crop, CAST($day AS DATE), 3 * $kg)", {"lots": ["crop", "day", "kg"]})
    {'crop': ('lots', 'crop'), 'day': ('lots', 'day')}
    >>> parameter_targets("INSERT INTO fees (stay, nights) SELECT stay, $nights FROM stays WHERE dog = $dog")
    {'nights': ('fees', 'nights'), 'dog': (None, 'dog')}
    """
    known = {table.lower(): list(names) for table, names in (columns or {}).items()}
    found: dict[str, tuple[str | None, str]] = {}
    for tree in parse_statements(sql):
        select = tree.expression if isinstance(tree, exp.Insert) else None
        table = target_table(tree) if isinstance(tree, exp.Insert) else None
        listed = [_column_name(c) for c in tree.this.expressions] if isinstance(tree.this, exp.Schema) else None
        if table is not None and (listed or table in known):  # the column list, else the table's own, in order
            rows = (
                select.expressions
                if isinstance(select, exp.Values)
                else [select]
                if isinstance(select, exp.Select)
                else []
            )
            for row in rows:
                for column, node in zip(listed or known[table], row.expressions):
                    placeholder = node if isinstance(node, exp.Placeholder) else node.find(exp.Placeholder)
                    if placeholder is not None and placeholder.name and outside(placeholder)[0] is node:
                        found.setdefault(placeholder.name, (table, column))
        for node in tree.find_all(exp.Placeholder):
            column, said_by = written_or_compared(node)
            if node.name and column != "value":
                found.setdefault(node.name, (_table_of(said_by, column, known), column))
    return found


def compared_parameters(sql: str) -> set[str]:
    """The $parameters of `sql` compared with a column (naming kept rows), not only written to one.

    >>> sorted(compared_parameters("INSERT INTO loans SELECT id, $day FROM members WHERE name = $member"))
    ['member']
    """
    return {
        node.name
        for tree in parse_statements(sql)
        for node in tree.find_all(exp.Placeholder)
        if node.name and isinstance(written_or_compared(node)[1], exp.Column)
    }


def equated_parameters(sql: str, columns: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, str]]:
    """The $parameters of `sql` a column must equal to name a kept row: `column = $name` in a WHERE, joined
    by AND only (not under NOT, OR, EXISTS or CASE: a row that must not be held, or one of several), each
    -> (table, column) of the column it equals, resolved through the statement's tables and aliases
    (`columns`: table (lower case) -> its columns); a table the statement does not say is left out.

    >>> cols = {"loans": ["item", "due"], "items": ["item", "title"], "bans": ["item"]}
    >>> equated_parameters("UPDATE loans SET due = $d WHERE item = (SELECT item FROM items WHERE title = $t)", cols)
    {'t': ('items', 'title')}
    >>> equated_parameters("DELETE FROM loans WHERE item = $i AND NOT EXISTS (SELECT 1 FROM bans WHERE item = $b)", cols)
    {'i': ('loans', 'item')}
    """
    known = {table.lower(): list(names) for table, names in columns.items()}
    found: dict[str, tuple[str, str]] = {}
    for tree in parse_statements(sql):
        for node in tree.find_all(exp.Placeholder):
            _, parent = outside(node)
            if not node.name or not isinstance(parent, exp.EQ) or node.find_ancestor(exp.Where) is None:
                continue
            column = parent.left if isinstance(parent.left, exp.Column) else parent.right
            if not isinstance(column, exp.Column) or node.find_ancestor(exp.Not, exp.Or, exp.Exists, exp.Case):
                continue
            table = _table_of(column, column.name, known)
            if table in known:
                found.setdefault(node.name, (table, column.name))
    return found


def parameter_types(statements: Sequence[str], catalog: Catalog) -> dict[str, str]:
    """$parameter -> "number" where it is written to or compared with a numeric column of `catalog`: the
    column of the table the statement says, through its aliases, not another table's column of that name.
    A column the statement leaves unresolved is numeric where it is in every table that has one so named.

    >>> from jupyter_chatdb.sql.catalog import Column, Table
    >>> catalog = Catalog([Table("shelves", (Column("code", "VARCHAR"),), 0), Table("parts", (Column("code", "INT"),), 0)])
    >>> parameter_types(["UPDATE shelves SET code = $code", "DELETE FROM parts AS p WHERE p.code = $part"], catalog)
    {'part': 'number'}
    """
    numeric: dict[tuple[str, str], bool] = {
        (name.lower(), c.name.lower()): exp.DataType.build(c.type, dialect=DIALECT).is_type(*exp.DataType.NUMERIC_TYPES)
        for name, table in catalog.tables.items()
        for c in table.columns
    }
    columns = catalog.schema()
    types: dict[str, str] = {}
    for statement in statements:
        for name, (table, column) in parameter_targets(statement, columns).items():
            column = column.lower()
            if table is not None:
                number = numeric.get((table, column), False)
            else:
                kinds = [is_numeric for (_, named), is_numeric in numeric.items() if named == column]
                number = bool(kinds) and all(kinds)
            if number:
                types[name] = "number"
    return types


def written_tables(sql: str) -> list[str]:
    """The tables `sql` inserts into, updates or deletes from, in order.

    >>> written_tables("INSERT INTO lots SELECT 1; UPDATE crops SET kg = 0 WHERE kg < 0")
    ['lots', 'crops']
    """
    return [table for tree in parse_statements(sql) if isinstance(tree, WRITE_TYPES) and (table := target_table(tree))]


def referenced_tables(sql: str) -> set[str]:
    """The tables `sql` reads or writes (the catalog's names), its common table expressions left out.

    >>> sorted(referenced_tables("WITH t AS (SELECT 1) UPDATE lots SET kg = 0 FROM crops, t"))
    ['crops', 'lots']
    """
    return set().union(*(tables_of_tree(tree) for tree in parse_statements(sql)))


def renamed(sql: str, names: Mapping[str, str]) -> str:
    """`sql` with each $parameter of `names` renamed.

    >>> renamed("INSERT INTO t VALUES ($item_kg, $kg)", {"item_kg": "item_kg_2"})
    'INSERT INTO t VALUES ($item_kg_2, $kg)'
    """

    def rename(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder) and node.name in names:
            return exp.Placeholder(this=names[node.name])
        return node

    return "; ".join(tree.transform(rename).sql(dialect=DIALECT) for tree in parse_statements(sql))


# -- the column a value is written to or compared with ------------------------------------------------


def outside(node: exp.Expr) -> tuple[exp.Expr, exp.Expr | None]:
    """`node` with the casts, parentheses and signs around it, and what holds them."""
    parent = node.parent
    while isinstance(parent, (exp.Cast, exp.Paren, exp.Neg)):
        node, parent = parent, parent.parent
    return node, parent


def written_or_compared(literal: exp.Expr) -> tuple[str, exp.Expr | None]:
    """The column a literal (or placeholder) is written to or compared with ("value" if none), and what
    says its table: the INSERT or UPDATE writing it, or the column compared with."""
    literal, parent = outside(literal)
    if isinstance(parent, exp.Tuple) and isinstance(parent.parent, exp.Values):
        insert = parent.find_ancestor(exp.Insert)
        schema = insert.this if insert is not None else None
        if isinstance(schema, exp.Schema):
            position = parent.expressions.index(literal)
            columns = schema.expressions
            if position < len(columns):
                return _column_name(columns[position]), insert
    if isinstance(parent, exp.EQ) and isinstance(parent.parent, exp.Update) and isinstance(parent.left, exp.Column):
        return parent.left.name, parent.parent  # SET column = $value
    if isinstance(parent, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike)):
        other = parent.left if parent.right is literal else parent.right
        if isinstance(other, exp.Column):
            return other.name, other
    set_item = literal.find_ancestor(exp.EQ)
    if set_item is not None and isinstance(set_item.parent, exp.Update) and isinstance(set_item.left, exp.Column):
        return set_item.left.name, set_item.parent
    return "value", None


def _table_of(said_by: exp.Expr | None, column: str, columns: Mapping[str, Sequence[str]]) -> str | None:
    """The table (lower case) whose `column` it is: the one a write (`said_by`) changes, or for a column
    compared with, the table its qualifier names (a name or an alias) or else the one table of the
    innermost query around it that has a column so named (`columns`: table (lower case) -> its columns)."""
    if isinstance(said_by, (exp.Insert, exp.Update)):
        return target_table(said_by)
    if not isinstance(said_by, exp.Column):
        return None
    qualifier, name = said_by.table.lower(), column.lower()
    scope = said_by.find_ancestor(*SCOPES)
    while scope is not None:
        tables = [t for t in scope.find_all(exp.Table) if t.find_ancestor(*SCOPES) is scope]
        if qualifier:
            named = [t for t in tables if t.alias_or_name.lower() == qualifier]
            if named:
                return table_key(named[0])
        else:
            having = [key for key in map(table_key, tables) if name in {c.lower() for c in columns.get(key, ())}]
            if having:
                return having[0] if len(having) == 1 else None  # several: the statement is ambiguous
        scope = scope.find_ancestor(*SCOPES)  # a correlated subquery's column of the query around it
    return None


def _column_name(node: exp.Expr) -> str:
    return node.name if isinstance(node, (exp.Column, exp.Identifier)) else "value"


def parse_statements(sql: str) -> list[exp.Expr]:
    try:
        return [tree for tree in sqlglot.parse(sql, read=DIALECT) if tree is not None]
    except sqlglot.errors.ParseError as error:
        raise ChatDBError(f"The statements cannot be read as SQL: {str(error).splitlines()[0]}") from None
