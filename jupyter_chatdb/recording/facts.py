"""Writes from facts: rows the model extracted from a request, turned into statements by code.

A small model plans multi-table writes badly (it forgets a table, invents an id, confuses a reference), but
it reads facts out of a sentence well when the answer's shape is fixed. So for a write, the model may
instead fill, per stored table, the rows the request states (`shapes.json_schema`), where a reference to
another table is given by that table's natural key ("the stable": its name) rather than an id, and a value
the schema lists is picked from its list. This module then writes the statements (`statements`):

- parents before children; each value naming a kept row is read as that row is named (`named_as_stored`:
  "glasshouse 12" is 'G-012'); a row naming a kept row changes it (`changes.py`), never adds one;
- a row of a table with a natural key is added unless one of its name exists, and the other values it
  gives are set on it (a price for a hay kind already kept);
- a kept row read once per line of a list, a number differing each time (a part's price read into the kite's span), is
  one change, made with the values the readings agree on; without its lines, it is read again for them;
- a row of a table without one (a delivery) is added, and its new key is bound for the rows after it
  that reference that table (its lines);
- a referenced name no row has yet is added first, where its table needs nothing else (a new hay kind);
- a line's required number it does not state comes from the row it names (`_takeable`: an order line's
  price_charged from its hay's price);
- every value is a bound parameter, cast to its column's type.

What this cannot express (a change that names no one kept row, a row missing a value its table requires)
raises NotExpressible: the request is then planned as before. Columns a rule keeps true (`sql/rules.py`)
and keys from sequences are never asked for. What the model may read is narrowed first by the tables the
request names (`scope.py`), and held to what it says after (`stated.py`, `agreement.py`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ..language.dates import days_said, opening_days
from ..language.words import words
from ..sql.names import quote_identifier, quote_table
from .changes import Changes, Write, bind_name
from .described import described_in
from .moments import leading_day
from .named_rows import NamedRow, new_codes_said
from .reading_errors import NotExpressible, WithoutItsRows
from .related import path_to, through
from .resolve import StoredRows, squeezed
from .shapes import CLEARED, Field, Shape, is_temporal, json_type


def statements(
    shapes: Mapping[str, Shape],
    rows: Mapping[str, object],
    stored: StoredRows | None = None,
    set_aside: list[str] | None = None,
    text: str = "",
    read_for_lines: bool = False,
    named: Sequence[NamedRow] = (),
    belongs_to: tuple[Shape, str] | None = None,
) -> tuple[list[Write], dict[str, object]]:
    """The statements that write `rows` (table -> list of {field: value}), and the values they bind.
    `stored`: lookups of the rows kept now, to name a stored row as the request does and to change one it
    names rather than add one (without it, every row is added); `set_aside` gets the values read that
    are not written (one no kept row a change names agrees with); `text`: the request; `read_for_lines`:
    the rows were read again for a header's lines (`WithoutItsRows`), which are not asked for twice;
    `named`: the kept rows the request names, to find the kept row a new row belongs to where the reading
    gives none; `belongs_to`: a kept table's shape and the WHERE naming its one row that the new rows
    belong to (the loan a change returns, for its fine), its parameters bound by the caller."""
    given = {t: listed for t, v in rows.items() if t in shapes and (listed := _rows(v))}
    if not given:
        raise NotExpressible("the model found no rows to add")
    writer = _Writer(shapes, stored, text, named)
    if belongs_to is not None:
        writer.bind_one(*belongs_to)
    for table in [t for t in shapes if t in given]:  # parents first
        shape, has_children = shapes[table], bool(children(shapes, table, given))
        # a row that says only part of what another says is that row again (a header stated once per line)
        given[table] = _widest(given[table])
        if _read_once_per_line(shapes, table, given[table], has_children):
            if not has_children and _is_header(shapes, table) and not read_for_lines:
                raise WithoutItsRows(table)  # its lines read into it, a number each time: read again for them
            given[table] = [_agreed(given[table])]
        if shape.returned_key and len(given[table]) > 1 and has_children:
            raise NotExpressible(f"several new {table} rows, and their rows after them cannot tell which is theirs")
        for row in given[table]:
            writer.row(shape, row, has_children)
    if len(writer.writes) == (belongs_to is not None):  # none but the row they belong to, found
        raise NotExpressible("the rows read are kept already, with the values read")
    if set_aside is not None:
        set_aside += writer.set_aside
    return writer.writes, writer.params


class _Writer(Changes):
    def __init__(
        self,
        shapes: Mapping[str, Shape],
        stored: StoredRows | None = None,
        text: str = "",
        named: Sequence[NamedRow] = (),
    ) -> None:
        self.shapes = shapes
        self.stored = stored
        self.text = text
        self.named_rows = named  # the kept rows the request names
        self.writes: list[Write] = []
        self.params: dict[str, object] = {}
        self.added: dict[str, str] = {}  # table -> the parameter bound to the key of its row added here
        self.named: set[tuple[str, str]] = set()  # (table, name) rows made sure of
        self.composed: dict[tuple[str, str], object] = {}  # (table, as said) -> a new row's code as written
        self.set_aside: list[str] = []

    def value(self, field: Field, value: object) -> str:
        """A bound parameter holding `value`, cast to the field's column type."""
        name = f"p{len(self.params) + 1}"
        self.params[name] = None if value is CLEARED else value
        return f"CAST(${name} AS {field.type})"

    def row(self, shape: Shape, row: Mapping[str, object], has_children: bool) -> None:
        row = self.named_as_stored(shape, row)
        values = {f.column: v for f in shape.fields if (v := row.get(f.name)) is not None}
        if self.change_of_a_named_row(shape, values):
            return
        missing = lacks(self.shapes, shape.table, row)
        if missing and self.stored is not None and shape.returned_key and not shape.natural_key:
            self.change_of_a_kept_row(shape, values, has_children, fill_in=may_fill_in(shape, row))
            return
        if missing:
            raise NotExpressible(f"a {shape.table} row without {', '.join(missing)}")
        if _is_header(self.shapes, shape.table) and not has_children and not self.may_stand_alone(shape):
            self.change(shape, values, has_children)  # a delivery undone: its stable, day and undone date
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
            parameter = self.added.get(field.reference.table) or self.kept_parent(field.reference.table, values)
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
            bind = bind_name(shape.table, shape.returned_key)
            returning = f" RETURNING {quote_identifier(shape.returned_key)} AS {quote_identifier(bind)}"
            self.writes.append(Write(goal, f"INSERT INTO {target} ({listed}) SELECT {selected}{returning}", (bind,)))
            self.added[shape.table] = bind
        else:
            self.writes.append(Write(goal, f"INSERT INTO {target} ({listed}) SELECT {selected}"))

    def kept_parent(self, table: str, values: Mapping[str, object]) -> str | None:
        """The parameter bound to the key of the one kept row of `table` that the kept rows the request names
        point to, through the references of `table` (a payment "for the work on SG-31": the one job on
        that sign), narrowed where need be by a listed kind the request names; None where they point to
        no one row. A day the request gives that the new row (`values`: column -> value) does not hold is
        the kept row's: it must hold it (lines dated only by their header belong to a new header)."""
        parent = self.shapes.get(table)
        if parent is None or self.stored is None or not parent.returned_key:
            return None
        kept = dict(self.params)
        names: list[str] = []
        kinds: list[str] = []  # a listed kind ("gilding") only narrows what the names leave
        for row in self.named_rows:
            own = parent.field(row.column) if row.table.lower() == table.lower() else None
            related = None if own is not None else path_to(self.shapes, table, row.column, row.table)
            if own is not None:
                field, condition = own, f"{quote_identifier(own.column)} = {self.bound(row.value)}"
            elif related is not None:
                hops, field = related
                condition = through(hops, f"{quote_identifier(field.column)} = {self.bound(row.value)}")
            else:
                continue
            (kinds if field.allowed and field.reference is None else names).append(condition)
        named = " AND ".join(names)
        own_days = {leading_day(value) for value in values.values()}
        left = days_said(self.text) - own_days
        days = ", ".join(self.bound(day) for day in sorted(left))
        dated = [
            f"CAST({quote_identifier(f.column)} AS DATE)"  # a moment's day too (a visit at 13:00 on 22 April)
            for f in parent.fields
            if is_temporal(f) and f.reference is None
        ]
        where = named
        if named and days:  # the day left must be the kept row's ("SG-7 (planned for 31 March)")
            on_its_day = " OR ".join(f"{column} IN ({days})" for column in dated) or "FALSE"
            where = f"{named} AND ({on_its_day})"
            if left <= opening_days(self.text) and not self.stored.count(table, where, self.params):
                where = named  # only the day the record opens with, which no such row holds: the record's own
        for condition in kinds if where else ():
            if self.stored.count(table, where, self.params) < 2:
                break
            if self.stored.count(table, f"{where} AND {condition}", self.params):
                where = f"{where} AND {condition}"
        if not where or self.stored.count(table, where, self.params) != 1:
            self.params = kept  # the values bound for a lookup that names no one row
            return None
        self.bind_one(parent, where)
        return self.added[table]

    def bound(self, value: object) -> str:
        """A bound parameter holding `value`, as it is."""
        name = f"p{len(self.params) + 1}"
        self.params[name] = value
        return f"${name}"

    def named_as_stored(self, shape: Shape, row: Mapping[str, object]) -> dict[str, object]:
        """`row` with each reference, and each value of a naming column, as the kept row it names is named
        ("glasshouse 12" -> 'G-012'; "birchwood" -> 'Birchwood'; a name given with its code, "Copper Beech
        G-012", -> 'Copper Beech'; a row described by the row it refers to, `described`); a new row's code
        as kept ones are written. A reference naming no kept row, to a table that needs more than a name
        to add one, and not added by this request, is not written by code."""
        named = dict(row)
        if self.stored is None:
            return named
        for field in shape.fields:
            value = named.get(field.name)
            if value is None:
                continue
            if field.reference is not None and field.reference.name:
                reference = field.reference
                found = self.composed.get((reference.table, str(value))) or self.stored.find(
                    reference.table, reference.labels or (reference.name,), value, reference.name
                )
                if found is None:  # "Ola Berg's sea kayak": the one row it describes
                    found = described_in(self.shapes, reference.table, str(value), self.stored, reference.name)
                if found is None and self.needs_more_than_a_name(reference.table, value):
                    raise NotExpressible(f"no {reference.table} row is named {value!r}")
            elif field.column in shape.unique:
                found = self.stored.find(shape.table, (field.column,), value, field.column)
                if found is None and len(shape.unique) > 1:  # named by another of its naming columns
                    other = self.stored.find(shape.table, shape.unique, value, field.column)
                    if other is not None and squeezed(str(other)) not in squeezed(str(value)):
                        other = self.stored.named_exactly(shape.table, shape.unique, value, field.column)
                    found = other  # a name given with its code, or another name of one row (its title)
                if found is None:
                    found = self.stored.composed(shape.table, field.column, value)  # a new row's code
                    if found is not None:
                        self.composed[(shape.table, str(value))] = found  # for the rows that refer to it
            else:
                continue
            if found is not None:
                named[field.name] = found
        return named

    def needs_more_than_a_name(self, table: str, name: object) -> bool:
        """Whether a row of `table` named `name` is neither added by this request nor addable by its name."""
        parent = self.shapes.get(table)
        if (table, str(name)) in self.named:
            return False
        if parent is None:
            return True  # a table not offered to this reading: no row of it is added here
        return any(f.required and f.column != parent.natural_key for f in parent.fields)

    def upsert(self, shape: Shape, name: object, pairs: list[tuple[str, str]]) -> None:
        """Add the row named `name` unless one is; set the other values it gives (`pairs`) on it. A name no
        constraint holds unique that several kept rows share names no one row: not code's to write."""
        target, key = quote_table(shape.table), quote_identifier(shape.natural_key)
        if self.stored is not None and shape.natural_key not in shape.unique:
            if self.stored.count(shape.table, f"{key} = ?", {}, [name]) > 1:
                raise NotExpressible(f"several {shape.table} rows are named {name!r}")
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
                    sets=tuple(f"{shape.table}.{column}" for column, _ in changed),
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


def changes_a_kept_row(shapes: Mapping[str, Shape], table: str, row: Mapping[str, object], stored: StoredRows) -> bool:
    """Whether `row`, lacking what a new row of `table` needs, names one kept row by all its values but one
    (`Changes.differing`): a change to that row, not a row made up."""
    shape = shapes[table]
    if not shape.returned_key or shape.natural_key:
        return False
    writer = _Writer(shapes, stored)
    try:
        named = writer.named_as_stored(shape, row)
        values = {f.column: v for f in shape.fields if (v := named.get(f.name)) is not None}
        return len(writer.differing(shape, values)) == 1
    except NotExpressible:
        return False


def may_fill_in(shape: Shape, row: Mapping[str, object]) -> bool:
    """Whether `row`, lacking values its table needs, may fill in a kept row's empty values (`_Writer.change`):
    its table's keys are generated and it gives a value that names the row and one to set."""
    given = {f.column for f in shape.fields if row.get(f.name) is not None}
    named = any(f.required and f.column in given for f in shape.fields)
    filled = any(not f.required and f.column in given for f in shape.fields)
    return bool(shape.returned_key) and not shape.natural_key and named and filled


def with_codes_said(shapes: Mapping[str, Shape], read: dict, text: str, stored: StoredRows) -> dict:
    """`read` (table -> rows), each new row that needs and lacks a code of its own given the words the
    request says it in, where the request says one code no row holds ("2024-04-06 new item: board game,
    game 46": 'game 46', written 'G-046' as the kept codes are); a row left as it is otherwise."""
    filled = {}
    said: dict[tuple[str, str], dict[str, str]] = {}  # (table, column) -> its new codes said, found once
    for table, listed in read.items():
        shape = shapes.get(table)
        if shape is None or not isinstance(listed, list):
            filled[table] = listed
            continue
        rows = []
        for row in listed:
            missing = lacks(shapes, table, row) if isinstance(row, dict) else []
            for field in (f for f in shape.fields if f.name in missing and f.reference is None):
                if field.column not in shape.naming:
                    continue
                where = (shape.table, field.column)
                codes = said[where] if where in said else said.setdefault(where, new_codes_said(text, *where, stored))
                if len(codes) == 1:
                    row = {**row, field.name: next(iter(codes.values()))}
            rows.append(row)
        filled[table] = rows
    return filled


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
        if json_type(field) not in ("number", "integer"):
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
        if f.reference is None and not f.counter and json_type(f) in ("number", "integer")
    }
    best = max(shared.values(), default=0)
    found = [column for column, count in shared.items() if count == best]
    return found[0] if best and len(found) == 1 else ""


def _widest(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """`rows`, each once (a small model caught in a loop writes one row again and again until it is cut
    off), less each that says only part of what another says.

    >>> _widest([{"stable": "Calder", "on": "2024-05-01"}, {"on": "2024-05-01"}, {"stable": "Calder", "on": "2024-05-01"}])
    [{'stable': 'Calder', 'on': '2024-05-01'}]
    >>> _widest([{"fee": 3}, {"fee": 3}, {"fee": 4}])
    [{'fee': 3}, {'fee': 4}]
    """
    unique = list({json.dumps(r, sort_keys=True, default=str): r for r in rows}.values())
    return [r for r in unique if not any(o is not r and r.items() <= o.items() for o in unique)]


def _read_once_per_line(
    shapes: Mapping[str, Shape], table: str, rows: list[dict[str, object]], has_children: bool
) -> bool:
    """Whether `rows` are one kept row read again for each line of the request, a value differing each time
    (a part's price read into the kite's span): each lacks what a new row needs (a change), and
    rows read with them belong to it, or they differ in one number only."""
    if len(rows) < 2 or not all(lacks(shapes, table, row) for row in rows):
        return False
    differing = {field for row in rows for field in row if any(o.get(field) != row.get(field) for o in rows)}
    numbers = all(isinstance(r.get(f), int | float) for r in rows for f in differing)
    return has_children or (len(differing) == 1 and numbers)


def _agreed(rows: list[dict[str, object]]) -> dict[str, object]:
    """The values every one of `rows` gives alike.

    >>> _agreed([{"stall": "Ann", "on": "2024-05-01", "mins": 30}, {"stall": "Ann", "on": "2024-05-01", "mins": 55}])
    {'stall': 'Ann', 'on': '2024-05-01'}
    """
    first, *others = rows
    return {field: value for field, value in first.items() if all(o.get(field) == value for o in others)}


def _rows(value: object) -> list[dict[str, object]]:
    """The rows of a table's reading that give a value."""
    if isinstance(value, dict):
        value = [value]
    listed = value if isinstance(value, list) else []
    return [row for row in listed if isinstance(row, dict) and any(v is not None for v in row.values())]


def _is_header(shapes: Mapping[str, Shape], table: str) -> bool:
    """Whether rows of other tables belong to a row of `table` added with them, several to one (a delivery's
    lines; not a run's one invoice, whose reference is unique): a row of it stated alone changes a kept one."""
    return any(
        f.reference is not None and f.reference.table == table and f.column not in s.unique
        for s in shapes.values()
        for f in s.required_references
    )


def children(shapes: Mapping[str, Shape], table: str, given: Mapping[str, object]) -> list[str]:
    """The tables of `given` whose rows reference the row `table` adds here (its lines)."""
    return [
        name
        for name in given
        if any(f.reference is not None and f.reference.table == table for f in shapes[name].required_references)
    ]
