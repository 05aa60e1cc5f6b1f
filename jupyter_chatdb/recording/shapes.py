"""The shape of the rows a request may state, read from the schema: per stored table, the fields the model
fills in, typed by their columns, with what the schema allows them to hold.

- Keys from sequences and columns a rule keeps true are never asked for.
- A reference to another table is named by that table's natural key (a stable: its name), never by an id.
- A column a CHECK lists the values of, and a reference to a small table of rows kept from the start (a
  paddock, a feed grade), shows the model what is stored or allowed (`allowed.py`); code maps what it
  reads to the list (`picks.py`).
- A column named like another table's key (`paddock_code` beside `paddocks.paddock_code`) refers to it even
  where no REFERENCES clause says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..llm.base import JSONSchema
from ..sql.catalog import TEXT_TYPES, Catalog, Table
from ..sql.check_lists import check_lists
from ..sql.session import Session
from .allowed import choices

NUMBER_TYPES = ("DECIMAL", "DOUBLE", "FLOAT", "REAL", "NUMERIC")
INTEGER_TYPES = ("INTEGER", "BIGINT", "SMALLINT", "TINYINT", "HUGEINT", "UBIGINT", "UINTEGER")


class Cleared:
    """A value read as nothing, for a column the request says to empty ("remove her email")."""

    def __repr__(self) -> str:
        return "CLEARED"


CLEARED = Cleared()


@dataclass(frozen=True)
class Reference:
    table: str  # the referenced table
    key: str  # its column the reference holds
    name: str  # its natural key column, or "" when it has none (then: the row this request adds)
    labels: tuple[str, ...] = ()  # its columns that name a row, for finding one by what the request says


@dataclass(frozen=True)
class Field:
    name: str  # as the model fills it: the column, or for a reference its name without "_id"
    column: str
    type: str
    required: bool  # NOT NULL without a default
    reference: Reference | None = None
    counter: bool = False  # has a default the database starts it at (a stock count starting at 0)
    allowed: tuple[str, ...] = ()  # the values it may hold (a CHECK list, a small table's names); () any
    nullable: bool = True  # may be empty (NULL)
    default: str | None = None  # the text its column's DEFAULT gives, where that is a quoted literal
    checked: bool = False  # a CHECK list (its own or its referenced key's) says the values it may hold


@dataclass(frozen=True)
class Shape:
    """What the model may state about one table's rows."""

    table: str
    fields: tuple[Field, ...]  # what the model fills in
    natural_key: str  # the column that names a row ("" when none does)
    returned_key: str  # the key bound after adding a row, for the rows that reference it ("" when none)
    required_references: tuple[Field, ...] = ()  # references to rows of this request, never filled in
    unique: tuple[str, ...] = ()  # columns a UNIQUE or PRIMARY KEY holds to name at most one row

    @property
    def naming(self) -> list[str]:
        """The columns each of which names one row: its natural key, then its unique columns."""
        return [c for c in dict.fromkeys((self.natural_key, *self.unique)) if c]

    @property
    def telling(self) -> list[str]:
        """The columns that tell its rows apart as a person says them: its naming columns, then those
        holding a listed entry of its own (a kind, a state)."""
        listed = (f.column for f in self.fields if f.allowed and f.reference is None)
        return list(dict.fromkeys((*self.naming, *listed)))

    def field(self, name: str) -> Field | None:
        """The field the model or a reading calls `name`: by its name or its column, case aside."""
        lowered = name.lower()
        return next((f for f in self.fields if lowered in (f.name.lower(), f.column.lower())), None)

    def references_to(self, table: str) -> list[Field]:
        """The fields that refer to rows of `table`."""
        return [f for f in self.fields if f.reference is not None and f.reference.table.lower() == table.lower()]


def shapes_of(session: Session, catalog: Catalog, derived: Mapping[str, Sequence[str]] = {}) -> dict[str, Shape]:
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
    listed = check_lists(session)
    stored = [t for t in catalog.tables.values() if not t.is_frame and "." not in t.name]
    referenced = {key.table for t in stored for key in t.foreign_keys if key.table != t.name}
    names = {t.name: _natural_key(t, stored, info, unique, listed, t.name in referenced) for t in stored}
    picked = {t.name: _picked_among(session, t, names[t.name], info, unique) for t in stored}
    made: dict[str, Shape] = {}
    for table in _parents_first(stored):
        references = references_of(table, stored)
        fields, inner = [], []
        for column in table.columns:
            data_type, nullable, default = info.get((table.name, column.name), (column.type, True, None))
            if column.name in derived.get(table.name, ()) or _from_sequence(default):
                continue
            required = not nullable and default is None
            target = references.get(column.name)
            if target is not None and not names.get(target[0]):
                inner.append(Field(column.name, column.name, data_type, required, Reference(*target, "")))
                continue
            reference = None
            allowed = listed.get((table.name, column.name), ())
            checked = bool(allowed) or target in listed
            if target is not None:
                labels = _labels(target[0], stored, unique, names[target[0]])
                reference = Reference(*target, names[target[0]], labels)
                allowed = allowed or picked.get(target[0], ())
            name = _reference_name(column.name, [c.name for c in table.columns]) if reference else column.name
            counter = default is not None
            given = _quoted(default)
            fields.append(
                Field(
                    name, column.name, data_type, required, reference, counter, allowed, bool(nullable), given, checked
                )
            )
        key = table.primary_key[0] if len(table.primary_key) == 1 else ""
        generated = bool(key) and _from_sequence(info.get((table.name, key), ("", True, None))[2])
        own = tuple(c.name for c in table.columns if (table.name, c.name) in unique)  # each names one row
        made[table.name] = Shape(
            table.name, tuple(fields), names[table.name], key if generated else "", tuple(inner), own
        )
    return made


DAY_TYPES = ("DATE", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE")  # the types of a day or a moment

# the grammar's bound on a table's rows, so a small model caught in a loop (the same row again and again)
# stops within the reading's tokens
MAX_ROWS_PER_TABLE = 10


def shape_named(shapes: Mapping[str, Shape], table: str) -> Shape | None:
    """The shape among `shapes` of `table`, its name in the database in any case; None where there is none."""
    return next((s for s in shapes.values() if s.table.lower() == table.lower()), None)


def each_row(
    shapes: Mapping[str, Shape], read: Mapping[str, object], change: Callable[[Shape, dict], dict]
) -> dict[str, object]:
    """A reading (table -> rows), each row of a table of `shapes` as `change` makes it; the rest as read.

    >>> kites = Shape("kites", (), "", "")
    >>> each_row({"kites": kites}, {"kites": [{"n": 1}, "x"], "other": [{"n": 2}]}, lambda s, r: {**r, "n": 0})
    {'kites': [{'n': 0}, 'x'], 'other': [{'n': 2}]}
    """
    return {
        table: [change(shapes[table], row) if isinstance(row, dict) else row for row in listed]
        if table in shapes and isinstance(listed, list)
        else listed
        for table, listed in read.items()
    }


def shown_order(shapes: Mapping[str, Shape]) -> dict[str, Shape]:
    """`shapes` in the order the model is shown them: each table followed at once by the tables whose rows
    belong to its rows (a run's stops right after the runs), so a header and its lines read as one record.

    >>> run = Field("run", "run_id", "INT", True, Reference("runs", "run_id", ""))
    >>> runs, stops = Shape("runs", (), "", "run_id"), Shape("stops", (), "", "", (run,))
    >>> list(shown_order({"runs": runs, "notes": Shape("notes", (), "", ""), "stops": stops}))
    ['runs', 'stops', 'notes']
    """
    belongs = {
        name: {f.reference.table for f in shape.required_references if f.reference is not None}
        for name, shape in shapes.items()
    }
    ordered: dict[str, Shape] = {}
    for name, shape in shapes.items():
        if name in ordered or (belongs[name] & set(shapes)):
            continue
        ordered[name] = shape
        for child, parents in belongs.items():
            if name in parents and child not in ordered:
                ordered[child] = shapes[child]
    ordered.update({name: shape for name, shape in shapes.items() if name not in ordered})
    return ordered


def json_schema(shapes: Mapping[str, Shape], required: Sequence[str] = ()) -> JSONSchema:
    """Per table, a list of rows, optional but for the `required` tables (then one row at least); each row's
    fields optional, typed by their columns."""
    schema: JSONSchema = {
        "type": "object",
        "properties": {
            name: {
                "type": "array",
                "maxItems": MAX_ROWS_PER_TABLE,
                "items": {
                    "type": "object",
                    "properties": {f.name: _property(f) for f in shape.fields},
                    "additionalProperties": False,
                },
            }
            | ({"minItems": 1} if name in required else {})
            for name, shape in shapes.items()
            if shape.fields
        },
        "additionalProperties": False,
    }
    wanted = [name for name in shapes if name in required and shapes[name].fields]
    return schema | ({"required": wanted} if wanted else {})


def _property(field: Field) -> JSONSchema:
    """A field's JSON type; a listed field's value is read in the request's words and mapped to its list by
    code (`picks.py`): a grammar holding it to the list makes a small model start a value it did not mean."""
    return {"type": json_type(field)}


def describe(shapes: Mapping[str, Shape]) -> str:
    """The fields of each table's rows, for the model, one table a line.

    >>> stables = Shape("stables", (Field("name", "name", "VARCHAR", True),), "name", "")
    >>> horses = Shape("horses", (Field("stable", "stable_id", "INTEGER", True, Reference("stables", "stable_id", "name")),
    ...     Field("born", "born", "DATE", False), Field("coat", "coat", "VARCHAR", False, allowed=("bay", "grey"))), "", "")
    >>> print(describe({"stables": stables, "horses": horses}))
    stables: name (names the row, text)
    horses: stable (the name of a stables row), born (date), coat (one of: bay, grey)
    """
    lines = []
    for shape in shapes.values():
        fields = ", ".join(f"{f.name} ({_field_kind(f, shape)})" for f in shape.fields)
        belongs = "".join(
            f"; each belongs to the {f.reference.table} row given with it (new, or kept and named by its values)"
            for f in shape.required_references
            if f.reference is not None
        )
        lines.append(f"{shape.table}: {fields}{belongs}")
    return "\n".join(lines)


def _field_kind(field: Field, shape: Shape) -> str:
    if field.allowed:
        return "one of: " + ", ".join(field.allowed)
    if field.reference is not None:
        return f"the name of a {field.reference.table} row"
    kind = json_type(field)
    if kind == "string":
        upper = field.type.upper()
        kind = "date and time" if upper.startswith("TIMESTAMP") else "date" if upper.startswith("DATE") else "text"
    return f"names the row, {kind}" if field.column == shape.natural_key else kind


def is_temporal(field: Field) -> bool:
    """Whether a field holds a day or a moment (DATE, TIMESTAMP and its kinds)."""
    return field.type.upper().startswith(("DATE", "TIMESTAMP"))


def json_type(field: Field) -> str:
    kind = field.type.upper()
    if field.reference is None and kind.startswith(INTEGER_TYPES):
        return "integer"
    if field.reference is None and kind.startswith(NUMBER_TYPES):
        return "number"
    if kind == "BOOLEAN":
        return "boolean"
    return "string"


def _quoted(default: object) -> str | None:
    """The text a column's DEFAULT gives where it is a quoted literal ("'shelved'"); None otherwise.

    >>> _quoted("'on_shelf'"), _quoted("0"), _quoted(None), _quoted("'it''s'")
    ('on_shelf', None, None, "it's")
    """
    text = str(default).strip() if default is not None else ""
    if len(text) < 2 or text[0] != "'" or text[-1] != "'" or "'" in text[1:-1].replace("''", ""):
        return None
    return text[1:-1].replace("''", "'")


def _from_sequence(default: object) -> bool:
    """Whether a column default hands out keys from a sequence (`nextval('...')`)."""
    return "nextval(" in str(default or "")


def _natural_key(
    table: Table,
    stored: Sequence[Table],
    info: Mapping[tuple[str, str], tuple],
    unique: set[tuple[str, str]],
    listed: Mapping[tuple[str, str], tuple[str, ...]],
    referenced: bool,
) -> str:
    """The text column that names a row: a unique one, else, in a table other tables refer to (a party, a
    thing), the first required one that refers to no other table and is no CHECK-listed kind (a person's
    name, not the code of the paddock a grazing is in, declared or named like another table's key, nor the way
    a fee was paid). A row of a table nobody refers to (a session), or of one that ties two other tables'
    rows together on a day (a lesson booked on a boat with an instructor), is named by no text of its own: its
    required text is data (the lesson's topic)."""
    references = {c for key in table.foreign_keys for c in key.columns} | set(_named_like_a_key(table, stored, {}))
    referring = references | {c for t, c in listed if t == table.name}
    text = [
        c.name for c in table.columns if str(info.get((table.name, c.name), ("",))[0]).upper().startswith(TEXT_TYPES)
    ]
    for column in text:
        if (table.name, column) in unique:
            return column
    required = [c for c in text if not info.get((table.name, c), ("", True))[1] and c not in referring]
    dated = any(
        not info.get((table.name, c.name), ("", True))[1] and str(info[(table.name, c.name)][0]).upper() in DAY_TYPES
        for c in table.columns
    )
    return required[0] if required and referenced and not (dated and len(references) > 1) else ""


def _labels(table: str, stored: Sequence[Table], unique: set[tuple[str, str]], natural: str) -> tuple[str, ...]:
    """The columns of `table` a request may name one of its rows by: its natural key and its other unique
    columns (a code and a title)."""
    found = next((t for t in stored if t.name == table), None)
    own = [c.name for c in found.columns if (table, c.name) in unique] if found else []
    return tuple(dict.fromkeys(([natural] if natural else []) + own))


def _picked_among(
    session: Session,
    table: Table,
    natural: str,
    info: Mapping[tuple[str, str], tuple],
    unique: set[tuple[str, str]],
) -> tuple[str, ...]:
    """The names of `table`'s rows, when a reference to it picks one of them: a small table of rows kept
    from the start (no key of it is handed out by a sequence), named by a text column; a label people use
    (a unique name beside a code) is offered rather than the code."""
    if not natural or table.row_count == 0:
        return ()
    if any(_from_sequence(info.get((table.name, c.name), ("", True, None))[2]) for c in table.columns):
        return ()
    return choices(session, table.name, label_column(table, natural, info, unique))


def label_column(
    table: Table, natural: str, info: Mapping[tuple[str, str], tuple], unique: set[tuple[str, str]]
) -> str:
    """The unique text column people name a row by: one beside a coded primary key (a paddock's name beside
    its code), else the natural key."""
    text_unique = [
        c.name
        for c in table.columns
        if (table.name, c.name) in unique
        and str(info.get((table.name, c.name), ("",))[0]).upper().startswith(TEXT_TYPES)
        and table.primary_key != (c.name,)
    ]
    return text_unique[0] if text_unique else natural


def references_of(table: Table, stored: Sequence[Table]) -> dict[str, tuple[str, str]]:
    """The columns of `table` that refer to a row of another of `stored`: column -> (that table, its key
    column), by a one-column REFERENCES clause or, without one, by its name (`_named_like_a_key`)."""
    references = {key.columns[0]: (key.table, key.references[0]) for key in table.foreign_keys if len(key.columns) == 1}
    references.update(_named_like_a_key(table, stored, references))
    return references


def _named_like_a_key(
    table: Table, stored: Sequence[Table], declared: Mapping[str, tuple[str, str]]
) -> dict[str, tuple[str, str]]:
    """Columns of `table` with no REFERENCES clause named exactly like another table's one-column primary
    key of two or more words (`paddock_code` beside `paddocks.paddock_code`; never a bare `name` or `id`):
    column -> (that table, its key)."""
    keys = {t.primary_key[0]: t.name for t in stored if len(t.primary_key) == 1 and t.name != table.name}
    return {
        c.name: (keys[c.name], c.name)
        for c in table.columns
        if c.name in keys and c.name not in declared and table.primary_key != (c.name,) and "_" in c.name.strip("_")
    }


def _reference_name(column: str, columns: Sequence[str]) -> str:
    """
    >>> _reference_name("stable_id", ["stable_id", "kg"]), _reference_name("paid", ["paid"])
    ('stable', 'paid')
    """
    name = re.sub(r"_id$", "", column, flags=re.I) or column
    return name if name not in columns else column


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
