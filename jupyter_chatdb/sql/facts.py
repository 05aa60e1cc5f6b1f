"""Writes from facts: rows the model extracted from a request, turned into statements by code.

A small model plans multi-table writes badly (it forgets a table, invents an id, confuses a reference), but
it reads facts out of a sentence well when the answer's shape is fixed. So for a write, the model may
instead fill, per stored table, the rows the request states (`json_schema`), where a reference to another
table is given by that table's natural key ("the stable": its name) rather than an id. This module then
writes the statements (`statements`):

- parents before children; a row of a table with a natural key is added unless one of its name exists,
  and the other values it gives are set on it (a price for a hay kind already kept);
- a row of a table without one (a delivery) is added, and its new key is bound for the rows after it
  that reference that table (its lines);
- a referenced name no row has yet is added first (a new hay kind);
- a line's required number it does not state comes from the row it names (`_takeable`: an order line's
  price_charged from its hay's price);
- a header row stated without lines (a delivery sent back) changes the row its required values name,
  setting the values it gives that the row lacks yet (`_Writer.change`);
- every value is a bound parameter, cast to its column's type.

What this cannot express (a change to a row that names no row, a row missing a value its table requires)
raises NotExpressible: the request is then planned as before. Columns a rule keeps true (`sql/rules.py`)
and keys from sequences are never asked for. What the model may read is narrowed first by the tables the
request names (`facts_scope.py`), and held to what it says after (`grounding/stated_values.py`,
`facts_agreement.py`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..grounding.words import words
from ..llm.base import JSONSchema
from .catalog import TEXT_TYPES, Catalog, Table
from .names import quote_identifier, quote_table
from .session import Session

NUMBER_TYPES = ("DECIMAL", "DOUBLE", "FLOAT", "REAL", "NUMERIC")
INTEGER_TYPES = ("INTEGER", "BIGINT", "SMALLINT", "TINYINT", "HUGEINT", "UBIGINT", "UINTEGER")


class NotExpressible(Exception):
    """The extracted rows cannot be written by code: plan the request instead."""


@dataclass(frozen=True)
class Reference:
    table: str  # the referenced table
    key: str  # its column the reference holds
    name: str  # its natural key column, or "" when it has none (then: the row this request adds)


@dataclass(frozen=True)
class Field:
    name: str  # as the model fills it: the column, or for a reference its name without "_id"
    column: str
    type: str
    required: bool  # NOT NULL without a default
    reference: Reference | None = None
    counter: bool = False  # has a default the database starts it at (a stock count starting at 0)


@dataclass(frozen=True)
class Shape:
    """What the model may state about one table's rows."""

    table: str
    fields: tuple[Field, ...]  # what the model fills in
    natural_key: str  # the column that names a row ("" when none does)
    returned_key: str  # the key bound after adding a row, for the rows that reference it ("" when none)
    required_references: tuple[Field, ...] = ()  # references to rows of this request, never filled in


def shapes(session: Session, catalog: Catalog, derived: Mapping[str, Sequence[str]] = {}) -> dict[str, Shape]:
    """The shape of each stored table, parents first. `derived`: table -> the columns rules keep true."""
    info = {
        (table, column): (data_type, nullable, default)
        for table, column, data_type, nullable, default in session.rows(
            "SELECT table_name, column_name, data_type, is_nullable, column_default FROM duckdb_columns()"
            " WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal"
        )
    }
    unique = {
        (table, columns[0])
        for table, columns in session.rows(
            "SELECT table_name, constraint_column_names FROM duckdb_constraints() WHERE database_name ="
            " current_database() AND schema_name = 'main' AND constraint_type IN ('UNIQUE', 'PRIMARY KEY')"
        )
        if len(columns) == 1
    }
    stored = [t for t in catalog.tables.values() if not t.is_frame and "." not in t.name]
    names = {t.name: _natural_key(t.name, [c.name for c in t.columns], info, unique) for t in stored}
    made: dict[str, Shape] = {}
    for table in _parents_first(stored):
        references = {
            key.columns[0]: Reference(key.table, key.references[0], names.get(key.table, ""))
            for key in table.foreign_keys
            if len(key.columns) == 1
        }
        fields, inner = [], []
        for column in table.columns:
            data_type, nullable, default = info.get((table.name, column.name), (column.type, True, None))
            if column.name in derived.get(table.name, ()) or _from_sequence(default):
                continue
            required = not nullable and default is None
            reference = references.get(column.name)
            if reference is not None and not reference.name:
                inner.append(Field(column.name, column.name, data_type, required, reference))
                continue
            name = _reference_name(column.name, [c.name for c in table.columns]) if reference else column.name
            fields.append(Field(name, column.name, data_type, required, reference, default is not None))
        key = table.primary_key[0] if len(table.primary_key) == 1 else ""
        generated = bool(key) and _from_sequence(info.get((table.name, key), ("", True, None))[2])
        made[table.name] = Shape(table.name, tuple(fields), names[table.name], key if generated else "", tuple(inner))
    return made


def json_schema(shapes: Mapping[str, Shape]) -> JSONSchema:
    """Per table, an optional list of rows; each row's fields optional, typed by their columns."""
    return {
        "type": "object",
        "properties": {
            name: {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {f.name: {"type": _json_type(f)} for f in shape.fields},
                    "additionalProperties": False,
                },
            }
            for name, shape in shapes.items()
            if shape.fields
        },
        "additionalProperties": False,
    }


def describe(shapes: Mapping[str, Shape]) -> str:
    """The fields of each table's rows, for the model, one table a line.

    >>> stables = Shape("stables", (Field("name", "name", "VARCHAR", True),), "name", "")
    >>> horses = Shape("horses", (Field("stable", "stable_id", "INTEGER", True, Reference("stables", "stable_id", "name")),
    ...     Field("born", "born", "DATE", False)), "", "")
    >>> print(describe({"stables": stables, "horses": horses}))
    stables: name (names the row, text)
    horses: stable (the name of a stables row), born (date)
    """
    lines = []
    for shape in shapes.values():
        fields = ", ".join(f"{f.name} ({_field_kind(f, shape)})" for f in shape.fields)
        belongs = "".join(
            f"; each belongs to the {f.reference.table} row added with it"
            for f in shape.required_references
            if f.reference is not None
        )
        lines.append(f"{shape.table}: {fields}{belongs}")
    return "\n".join(lines)


def _field_kind(field: Field, shape: Shape) -> str:
    if field.reference is not None:
        return f"the name of a {field.reference.table} row"
    kind = _json_type(field)
    if kind == "string":
        kind = "date" if field.type.upper().startswith(("DATE", "TIMESTAMP")) else "text"
    return f"names the row, {kind}" if field.column == shape.natural_key else kind


@dataclass(frozen=True)
class Write:
    goal: str
    sql: str  # with $parameters
    binds: tuple[str, ...] = ()  # the key it returns, bound for later statements


def statements(shapes: Mapping[str, Shape], rows: Mapping[str, object]) -> tuple[list[Write], dict[str, object]]:
    """The statements that write `rows` (table -> list of {field: value}), and the values they bind."""
    given = {t: listed for t, v in rows.items() if t in shapes and (listed := _rows(v))}
    if not given:
        raise NotExpressible("the model found no rows to add")
    writer = _Writer(shapes)
    for table in [t for t in shapes if t in given]:  # parents first
        shape, has_children = shapes[table], bool(_children(shapes, table, given))
        if has_children:  # a header stated once per line is one header, the lines' part of it included
            given[table] = _widest(given[table])
        if shape.returned_key and len(given[table]) > 1 and has_children:
            raise NotExpressible(f"several new {table} rows, and their rows after them cannot tell which is theirs")
        for row in given[table]:
            writer.row(shape, row, has_children)
    return writer.writes, writer.params


class _Writer:
    def __init__(self, shapes: Mapping[str, Shape]) -> None:
        self.shapes = shapes
        self.writes: list[Write] = []
        self.params: dict[str, object] = {}
        self.added: dict[str, str] = {}  # table -> the parameter bound to the key of its row added here
        self.named: set[tuple[str, str]] = set()  # (table, name) rows made sure of

    def value(self, field: Field, value: object) -> str:
        """A bound parameter holding `value`, cast to the field's column type."""
        name = f"p{len(self.params) + 1}"
        self.params[name] = value
        return f"CAST(${name} AS {field.type})"

    def row(self, shape: Shape, row: Mapping[str, object], has_children: bool) -> None:
        values = {f.column: v for f in shape.fields if (v := row.get(f.name)) is not None}
        missing = lacks(self.shapes, shape.table, row)
        if missing:
            raise NotExpressible(f"a {shape.table} row without {', '.join(missing)}")
        if _is_header(self.shapes, shape.table) and not has_children:
            self.change(shape, values)
            return
        taken = self.taken_from_references(shape, values)
        pairs = [
            (f.column, self.reference(f, values[f.column]) if f.reference else self.value(f, values[f.column]))
            for f in shape.fields
            if f.column in values
        ]
        pairs += [(column, expression) for column, (expression, _) in taken.items()]
        for field in shape.required_references:
            assert field.reference is not None
            parameter = self.added.get(field.reference.table)
            if parameter is None and field.required:
                raise NotExpressible(f"a {shape.table} row, and no {field.reference.table} row added with it")
            if parameter is not None:
                pairs.append((field.column, f"${parameter}"))
        if shape.natural_key:
            self.upsert(shape, values[shape.natural_key], pairs)
            return
        target = quote_table(shape.table)
        listed = ", ".join(quote_identifier(column) for column, _ in pairs)
        selected = ", ".join(expression for _, expression in pairs)
        goal = f"add the {shape.table} row" + "".join(f"; {column}: {source}" for column, (_, source) in taken.items())
        if has_children and not shape.returned_key:
            raise NotExpressible(f"a new {shape.table} row has rows after it, but no key of its own to give them")
        if has_children:
            bind = f"{shape.table}_{shape.returned_key}"
            returning = f" RETURNING {quote_identifier(shape.returned_key)} AS {quote_identifier(bind)}"
            self.writes.append(Write(goal, f"INSERT INTO {target} ({listed}) SELECT {selected}{returning}", (bind,)))
            self.added[shape.table] = bind
        else:
            self.writes.append(Write(goal, f"INSERT INTO {target} ({listed}) SELECT {selected}"))

    def change(self, shape: Shape, values: Mapping[str, object]) -> None:
        """A row of a table other rows belong to, stated without rows of its own: a change to the row its
        required values name (a delivery undone: its stable and day), setting the values it gives that the
        row lacks yet. The first such row is changed; none found fails the step."""
        identifying = [f for f in shape.fields if f.required and f.column in values]
        changed = [f for f in shape.fields if not f.required and f.column in values]
        if not shape.returned_key or not identifying or not changed:
            raise NotExpressible(f"a {shape.table} row without rows of its own, and not a change this can write")
        target, key = quote_table(shape.table), quote_identifier(shape.returned_key)
        found = " AND ".join(
            [
                f"{quote_identifier(f.column)} = "
                + (self.reference(f, values[f.column], add=False) if f.reference else self.value(f, values[f.column]))
                for f in identifying
            ]
            + [f"{quote_identifier(f.column)} IS NULL" for f in changed]
        )
        assignments = ", ".join(f"{quote_identifier(f.column)} = {self.value(f, values[f.column])}" for f in changed)
        self.writes.append(
            Write(
                f"set {', '.join(f.column for f in changed)} on the {shape.table} row it names",
                f"UPDATE {target} SET {assignments} WHERE {key} = (SELECT min({key}) FROM {target} WHERE {found})",
            )
        )

    def upsert(self, shape: Shape, name: object, pairs: list[tuple[str, str]]) -> None:
        """Add the row named `name` unless one is; set the other values it gives (`pairs`) on it."""
        target, key = quote_table(shape.table), quote_identifier(shape.natural_key)
        named = dict(pairs)[shape.natural_key]
        listed = ", ".join(quote_identifier(column) for column, _ in pairs)
        selected = ", ".join(expression for _, expression in pairs)
        self.writes.append(
            Write(
                f"add {shape.table} {name!r} unless it exists",
                f"INSERT INTO {target} ({listed}) SELECT {selected}"
                f" WHERE NOT EXISTS (SELECT 1 FROM {target} WHERE {key} = {named})",
            )
        )
        self.named.add((shape.table, str(name)))
        changed = [(column, expression) for column, expression in pairs if column != shape.natural_key]
        if changed:
            assignments = ", ".join(f"{quote_identifier(column)} = {expression}" for column, expression in changed)
            self.writes.append(
                Write(
                    f"set what the request says of {shape.table} {name!r}",
                    f"UPDATE {target} SET {assignments} WHERE {key} = {named}",
                )
            )

    def taken_from_references(self, shape: Shape, values: Mapping[str, object]) -> dict[str, tuple[str, str]]:
        """The line's required numbers it does not state, from the rows it names (`_takeable`): column ->
        (its SQL, where it comes from)."""
        taken: dict[str, tuple[str, str]] = {}
        for field, reference, parent, source in _takeable(self.shapes, shape, values):
            name = self.value(Field(parent.natural_key, parent.natural_key, "VARCHAR", True), values[reference.column])
            sql = (
                f"(SELECT {quote_identifier(source)} FROM {quote_table(parent.table)}"
                f" WHERE {quote_identifier(parent.natural_key)} = {name})"
            )
            taken[field.column] = (sql, f"the {parent.table} row's {source}")
        return taken

    def reference(self, field: Field, value: object, add: bool = True) -> str:
        """The referenced row's key, found by its name; with `add`, a row of that name is added first when
        its table needs nothing else."""
        reference = field.reference
        assert reference is not None and reference.name
        parent = self.shapes.get(reference.table)
        name = self.value(Field(reference.name, reference.name, "VARCHAR", True), value)  # bound once, used twice
        if add and parent is not None and (reference.table, str(value)) not in self.named:
            if not any(f.required and f.column != reference.name for f in parent.fields):
                self.upsert(parent, value, [(reference.name, name)])
        table, key = quote_table(reference.table), quote_identifier(reference.key)
        return f"(SELECT min({key}) FROM {table} WHERE {quote_identifier(reference.name)} = {name})"


def lacks(shapes: Mapping[str, Shape], table: str, row: Mapping[str, object]) -> list[str]:
    """The fields a row of `table` needs and does not give (nor can take from the rows it names)."""
    shape = shapes[table]
    values = {f.column: v for f in shape.fields if (v := row.get(f.name)) is not None}
    taken = {field.column for field, *_ in _takeable(shapes, shape, values)}
    missing = [f.name for f in shape.fields if f.required and f.column not in values and f.column not in taken]
    if shape.natural_key and shape.natural_key not in values and shape.natural_key not in missing:
        missing.append(shape.natural_key)
    return missing


def _takeable(
    shapes: Mapping[str, Shape], shape: Shape, values: Mapping[str, object]
) -> list[tuple[Field, Field, Shape, str]]:
    """A line's required numbers it does not state that the row it names keeps, a number column of the
    same words (an order line's price_charged from its item's list_price, as a shop charges the listed price):
    (the field, the reference, the referenced shape, its column). Lines only: rows that belong to a row
    added with them."""
    if not shape.required_references:
        return []
    found = []
    for field in shape.fields:
        if not field.required or field.reference is not None or field.column in values:
            continue
        if _json_type(field) not in ("number", "integer"):
            continue
        for reference in shape.fields:
            parent = shapes.get(reference.reference.table) if reference.reference else None
            if parent is not None and parent.natural_key and reference.column in values:
                source = same_kind_of_number(field, parent)
                if source:
                    found.append((field, reference, parent, source))
                    break
    return found


def same_kind_of_number(field: Field, parent: Shape) -> str:
    """The one number column of `parent` sharing the most words with `field`'s name ("" when none or a tie),
    counters aside: a line copies its item's price, never its stock.

    >>> hay = Shape("hay", (Field("kind", "kind", "VARCHAR", True), Field("list_price", "list_price", "DECIMAL(8,2)", False),
    ...     Field("bales_kept", "bales_kept", "INTEGER", True, counter=True)), "kind", "")
    >>> same_kind_of_number(Field("price_charged", "price_charged", "DECIMAL(8,2)", True), hay)
    'list_price'
    >>> same_kind_of_number(Field("bale_cost", "bale_cost", "DECIMAL(8,2)", True), hay)
    ''
    >>> same_kind_of_number(Field("bales", "bales", "INTEGER", True), hay)
    ''
    """
    wanted = set(words(field.column).split()) - {"id"}
    shared = {
        f.column: len(wanted & set(words(f.column).split()))
        for f in parent.fields
        if f.reference is None and not f.counter and _json_type(f) in ("number", "integer")
    }
    best = max(shared.values(), default=0)
    found = [column for column, count in shared.items() if count == best]
    return found[0] if best and len(found) == 1 else ""


def _widest(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """`rows` less each that says only part of what another says.

    >>> _widest([{"stable": "Calder", "on": "2024-05-01"}, {"on": "2024-05-01"}, {"stable": "Calder", "on": "2024-05-01"}])
    [{'stable': 'Calder', 'on': '2024-05-01'}]
    """
    unique = list({json.dumps(r, sort_keys=True, default=str): r for r in rows}.values())
    return [r for r in unique if not any(o is not r and r.items() <= o.items() for o in unique)]


def _rows(value: object) -> list[dict[str, object]]:
    if isinstance(value, dict):
        value = [value]
    return [row for row in value if isinstance(row, dict) and row] if isinstance(value, list) else []


def _from_sequence(default: object) -> bool:
    """Whether a column default hands out keys from a sequence (`nextval('...')`)."""
    return "nextval(" in str(default or "")


def _is_header(shapes: Mapping[str, Shape], table: str) -> bool:
    """Whether other tables' rows belong to a row of `table` added with them (a delivery's lines)."""
    return any(
        f.reference is not None and f.reference.table == table for s in shapes.values() for f in s.required_references
    )


def _children(shapes: Mapping[str, Shape], table: str, given: Mapping[str, object]) -> list[str]:
    """The tables of `given` whose rows reference the row `table` adds here."""
    return [
        name
        for name in given
        if any(f.reference is not None and f.reference.table == table for f in shapes[name].required_references)
    ]


def _natural_key(
    table: str, columns: Sequence[str], info: Mapping[tuple[str, str], tuple], unique: set[tuple[str, str]]
) -> str:
    """The text column that names a row: a unique one, else the first required one (a person's name)."""
    text = [c for c in columns if str(info.get((table, c), ("",))[0]).upper().startswith(TEXT_TYPES)]
    for column in text:
        if (table, column) in unique:
            return column
    required = [c for c in text if not info.get((table, c), ("", True))[1]]
    return required[0] if required else ""


def _reference_name(column: str, columns: Sequence[str]) -> str:
    """
    >>> _reference_name("stable_id", ["stable_id", "kg"]), _reference_name("paid", ["paid"])
    ('stable', 'paid')
    """
    name = re.sub(r"_id$", "", column, flags=re.I) or column
    return name if name not in columns else column


def _json_type(field: Field) -> str:
    kind = field.type.upper()
    if field.reference is None and kind.startswith(INTEGER_TYPES):
        return "integer"
    if field.reference is None and kind.startswith(NUMBER_TYPES):
        return "number"
    if kind == "BOOLEAN":
        return "boolean"
    return "string"


def _parents_first(tables: Sequence[Table]) -> list[Table]:
    """Tables ordered so that each comes after the tables it references."""
    left, ordered = list(tables), []
    while left:
        ready = [
            t for t in left if all(k.table == t.name or k.table not in {u.name for u in left} for k in t.foreign_keys)
        ]
        ready = ready or left[:1]  # a cycle: the first table left
        ordered += ready
        left = [t for t in left if t not in ready]
    return ordered
