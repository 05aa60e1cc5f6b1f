"""A write the user approved, made reusable: the values its request said become typed parameters, and the
statements repeated for each item ("3 kg of kiwi and 5 kg of pear": one insert per fruit) become one
group of steps run for each item of a list.

    request:  "We bought 3 kg of kiwi and 5 kg of pear from Calder"
    ran:      INSERT INTO lots (supplier, crop, kg) VALUES ('Calder', 'kiwi', 3), ('Calder', 'pear', 5)
    becomes:  INSERT INTO lots (supplier, crop, kg) VALUES ($supplier, $item_crop, $item_kg)   -- per item
              with supplier = 'Calder', items = [{crop: kiwi, kg: 3}, {crop: pear, kg: 5}]

A literal is a parameter only where the request says its value; other literals (a status, a unit) stay.
Every decision reads sqlglot's tree, never the SQL text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from ..errors import ChatDBError
from .catalog import Catalog
from .trees import DIALECT, WRITE_TYPES, table_key, target_table
from .trees import referenced_tables as tables_of_tree

ITEM_PREFIX = "item_"  # a parameter named so takes a value per item; its steps run once for each
ITEMS = "items"  # the list parameter of the values per item
PARAMETER_NAME = re.compile(r"[a-z_][a-z0-9_]*")
GENERIC_COLUMNS = frozenset({"name", "id", "title", "code", "label", "value"})
SCOPES = (exp.Select, exp.Update, exp.Delete)  # the statements whose FROM (or target) name a column's tables


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str  # "text" | "number"

    @property
    def per_item(self) -> bool:
        return self.name.startswith(ITEM_PREFIX)


@dataclass(frozen=True)
class GeneralStep:
    goal: str
    sql: str  # $parameters where the request's values were
    binds: tuple[str, ...] = ()  # result columns later steps use, as in the plan it came from
    loop: int = 0  # n > 0: run once for each item, with the other steps of loop n (0: once)

    @property
    def per_item(self) -> bool:
        return self.loop > 0


@dataclass(frozen=True)
class Generalized:
    steps: tuple[GeneralStep, ...]
    parameters: tuple[Parameter, ...]
    example: Mapping[str, object]  # the request's own values: the scalars, and "items" (a list of dicts)


def generalize(
    request: str, steps: Sequence[tuple[str, str, tuple[str, ...]]], today: dt.date | None = None
) -> Generalized:
    """The reusable form of the statements `steps` (goal, sql, binds) that carried out `request`.

    >>> g = generalize("Calder sent 3 kg of kiwi and 5 kg of pear", [
    ...     ("lots", "INSERT INTO lots (supplier, crop, kg) VALUES ('Calder', 'kiwi', 3), ('Calder', 'pear', 5)", ())])
    >>> [s.sql for s in g.steps], g.example
    (['INSERT INTO lots (supplier, crop, kg) VALUES ($supplier, $item_crop, $item_kg)'], \
{'supplier': 'Calder', 'items': [{'item_crop': 'kiwi', 'item_kg': 3}, {'item_crop': 'pear', 'item_kg': 5}]})
    """
    split = [part for goal, sql, binds in steps for part in _one_row_each(goal, sql, binds)]
    said = _Said(request)
    trees = [_parse(sql) for _, sql, _ in split]
    literals = [[node for tree in step for node in _literals(tree) if said.says(node)] for step in trees]
    runs = _repeated([_shape(step, found) for step, found in zip(trees, literals)])
    count = runs[0].count if runs else 1
    names = _Names()
    example: dict[str, object] = {}
    items: list[dict[str, object]] = [{} for _ in range(count)] if runs else []
    out: list[GeneralStep] = []
    today = today or dt.date.today()
    for index, ((goal, _, binds), step) in enumerate(zip(split, trees)):
        run = next((r for r in runs if r.start <= index < r.end), None)
        if run is not None and index >= run.start + run.length:
            continue  # a repeat: its values became items
        for position, node in enumerate(literals[index]):
            repeats = [literals[index + k * run.length][position] for k in range(count)] if run else [node]
            values = [_value(r) for r in repeats]
            if len(set(map(repr, values))) > 1:
                name = names.item(_hint(node), values)
                for item, each in zip(items, values):
                    item[name] = each
            else:
                name = names.scalar(_hint(node), values[0])
                example[name] = values[0]
            node.replace(exp.Placeholder(this=name))
        for tree in step:
            _today_as_current_date(tree, today)
        sql = "; ".join(tree.sql(dialect=DIALECT) for tree in step)
        out.append(GeneralStep(goal, sql, tuple(binds), runs.index(run) + 1 if run else 0))
    if items:
        example[ITEMS] = items
    return Generalized(tuple(out), names.parameters(), example)


def parameters_of(sql: str) -> list[str]:
    """The $parameters of `sql` in the order written (each once).

    >>> parameters_of("UPDATE t SET kg = kg + $item_kg WHERE crop = $item_crop AND kg > $item_kg")
    ['item_kg', 'item_crop']
    """
    found = [node.name for tree in _parse(sql) for node in tree.find_all(exp.Placeholder) if node.name]
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
    """
    known = {table.lower(): list(names) for table, names in (columns or {}).items()}
    found: dict[str, tuple[str | None, str]] = {}
    for tree in _parse(sql):
        select = tree.expression if isinstance(tree, exp.Insert) else None
        table = target_table(tree) if isinstance(tree, exp.Insert) else None
        if isinstance(select, exp.Select) and isinstance(tree.this, exp.Table) and table in known:
            for column, node in zip(known[table], select.expressions):
                if isinstance(node, exp.Placeholder) and node.name:
                    found.setdefault(node.name, (table, column))
        for node in tree.find_all(exp.Placeholder):
            column, said_by = _written_or_compared(node)
            if node.name and column != "value":
                found.setdefault(node.name, (_table_of(said_by, column, known), column))
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
    columns = {name: [c.name for c in table.columns] for name, table in catalog.tables.items()}
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
    return [table for tree in _parse(sql) if isinstance(tree, WRITE_TYPES) and (table := target_table(tree))]


def referenced_tables(sql: str) -> set[str]:
    """The tables `sql` reads or writes (the catalog's names), its common table expressions left out.

    >>> sorted(referenced_tables("WITH t AS (SELECT 1) UPDATE lots SET kg = 0 FROM crops, t"))
    ['crops', 'lots']
    """
    return set().union(*(tables_of_tree(tree) for tree in _parse(sql)))


def renamed(sql: str, names: Mapping[str, str]) -> str:
    """`sql` with each $parameter of `names` renamed.

    >>> renamed("INSERT INTO t VALUES ($item_kg, $kg)", {"item_kg": "item_kg_2"})
    'INSERT INTO t VALUES ($item_kg_2, $kg)'
    """

    def rename(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder) and node.name in names:
            return exp.Placeholder(this=names[node.name])
        return node

    return "; ".join(tree.transform(rename).sql(dialect=DIALECT) for tree in _parse(sql))


# -- the request's values ---------------------------------------------------------------------------


class _Said:
    """What a request says: its words, and its numbers."""

    def __init__(self, request: str) -> None:
        self.text = " ".join(re.findall(r"\w+", request.casefold()))
        self.numbers = {float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", request.replace(",", ""))}

    def says(self, literal: exp.Literal) -> bool:
        if literal.is_string:
            words = " ".join(re.findall(r"\w+", literal.this.casefold()))
            return bool(words) and re.search(rf"\b{re.escape(words)}\b", self.text) is not None
        try:
            return float(literal.this) in self.numbers
        except ValueError:
            return False


def _literals(tree: exp.Expr) -> list[exp.Literal]:
    """The literal values of a statement in the order written (not the numbers of LIMIT or OFFSET)."""
    return [node for node in tree.find_all(exp.Literal) if not isinstance(_outside(node)[1], (exp.Limit, exp.Offset))]


def _outside(node: exp.Expr) -> tuple[exp.Expr, exp.Expr | None]:
    """`node` with the casts, parentheses and signs around it, and what holds them."""
    parent = node.parent
    while isinstance(parent, (exp.Cast, exp.Paren, exp.Neg)):
        node, parent = parent, parent.parent
    return node, parent


def _value(literal: exp.Literal) -> object:
    """
    >>> _value(exp.Literal.number(3)), _value(exp.Literal.number("2.5")), _value(exp.Literal.string("x"))
    (3, 2.5, 'x')
    """
    if literal.is_string:
        return literal.this
    text = literal.this
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


def _hint(literal: exp.Literal) -> str:
    """The column a literal is written to or compared with, as a parameter's name ("value" if none); a
    column of a name every table has ("name", "id") with its table's: "suppliers_name"."""
    column = _column_of(literal)
    if column in GENERIC_COLUMNS:
        table = next(iter(literal.root().find_all(exp.Table)), None)
        return f"{table.name}_{column}" if table is not None else column
    return column


def _column_of(literal: exp.Expr) -> str:
    return _written_or_compared(literal)[0]


def _written_or_compared(literal: exp.Expr) -> tuple[str, exp.Expr | None]:
    """The column a literal (or placeholder) is written to or compared with ("value" if none), and what
    says its table: the INSERT or UPDATE writing it, or the column compared with."""
    literal, parent = _outside(literal)
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


class _Names:
    """Parameter names: a column's name, once per value (the same value twice is one parameter)."""

    def __init__(self) -> None:
        self.types: dict[str, str] = {}
        self.by_value: dict[str, str] = {}

    def scalar(self, hint: str, value: object) -> str:
        key = repr(value)
        if key not in self.by_value:
            self.by_value[key] = self._new(_identifier(hint), value)
        return self.by_value[key]

    def item(self, hint: str, values: Sequence[object]) -> str:
        """The parameter of a value that changes from item to item (`values`, one per item)."""
        key = repr(list(values))
        if key not in self.by_value:
            self.by_value[key] = self._new(ITEM_PREFIX + _identifier(hint), values[0])
        return self.by_value[key]

    def _new(self, base: str, value: object) -> str:
        name, n = base, 2
        while name in self.types:
            name, n = f"{base}_{n}", n + 1
        self.types[name] = "text" if isinstance(value, str) else "number"
        return name

    def parameters(self) -> tuple[Parameter, ...]:
        return tuple(Parameter(name, kind) for name, kind in self.types.items())


def _identifier(text: str) -> str:
    """
    >>> _identifier("Bales Left"), _identifier("2nd")
    ('bales_left', 'p_2nd')
    """
    name = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "value"
    return name if PARAMETER_NAME.fullmatch(name) else f"p_{name}"


# -- repeated steps -----------------------------------------------------------------------------------


def _one_row_each(goal: str, sql: str, binds: tuple[str, ...]) -> list[tuple[str, str, tuple[str, ...]]]:
    """A step that inserts several rows of values, as one step per row (so each row can be an item)."""
    trees = _parse(sql)
    if binds or len(trees) != 1 or not isinstance(trees[0], exp.Insert):
        return [(goal, sql, binds)]
    values = trees[0].expression
    if not isinstance(values, exp.Values) or len(values.expressions) < 2:
        return [(goal, sql, binds)]
    rows = []
    for row in values.expressions:
        one = trees[0].copy()
        one.expression.set("expressions", [row.copy()])
        rows.append((goal, one.sql(dialect=DIALECT), binds))
    return rows


@dataclass(frozen=True)
class _Run:
    start: int
    length: int  # steps per item
    count: int  # items

    @property
    def end(self) -> int:
        return self.start + self.length * self.count


def _repeated(shapes: list[str]) -> list[_Run]:
    """The runs of steps repeated per item, in order: each run is `count` >= 2 consecutive groups of
    steps of the same shapes, the run covering most steps first, then others of as many items."""
    runs: list[_Run] = []
    while True:
        taken = {i for run in runs for i in range(run.start, run.end)}
        best: _Run | None = None
        for length in range(1, len(shapes) // 2 + 1):
            for start in range(len(shapes) - length):
                group, count = shapes[start : start + length], 1
                while shapes[start + count * length : start + (count + 1) * length] == group:
                    count += 1
                run = _Run(start, length, count)
                if count < 2 or taken & set(range(start, run.end)) or (runs and count != runs[0].count):
                    continue
                if best is None or length * count > best.length * best.count:
                    best = run
        if best is None:
            return sorted(runs, key=lambda run: run.start)
        runs.append(best)


def _shape(step: list[exp.Expr], said: list[exp.Literal]) -> str:
    """A step's SQL with the request's values blanked: steps of one shape differ only in those values."""
    marked = {id(node) for node in said}
    shapes = []
    for tree in step:
        blanks = [i for i, node in enumerate(_literals(tree)) if id(node) in marked]
        copy = tree.copy()
        for i, node in enumerate(_literals(copy)):
            if i in blanks:
                node.replace(exp.Placeholder())
        shapes.append(copy.sql(dialect=DIALECT))
    return "; ".join(shapes)


def _today_as_current_date(tree: exp.Expr, today: dt.date) -> None:
    """A date literal of the day the write ran was "today": it stays so (CURRENT_DATE), not that day."""
    for node in list(tree.find_all(exp.Literal)):
        if node.is_string and node.this == today.isoformat():
            target = node.parent if isinstance(node.parent, exp.Cast) else node
            target.replace(exp.CurrentDate())


def _parse(sql: str) -> list[exp.Expr]:
    try:
        return [tree for tree in sqlglot.parse(sql, read=DIALECT) if tree is not None]
    except sqlglot.errors.ParseError as error:
        raise ChatDBError(f"The statements cannot be read as SQL: {str(error).splitlines()[0]}") from None
