"""Changes to kept rows, read from a request's rows: the part of the writer (`facts._Writer`) that finds the
kept row a row names and sets what it says on it, rather than adding a row.

- a row that names a kept row by a column naming one row (its code, its title) changes that row;
- a row of a table with generated keys that lacks what a new row needs fills in the empty values of the
  one kept row its other values name (a run dropped off), else sets the one value that differs on the
  one kept row its two or more other values name (an observing session moved to another telescope; a
  date the request does not name the column of goes to that row's one empty date instead: the day a kite
  came back read as the day it went out), else fills in the one kept row all its values but one name (the
  one read from another number of the request, set aside);
- a header row (a delivery, whose lines belong to it) stated alone changes the row it names, unless kept
  rows show it may stand alone (a run with no stops yet).
Each change must name exactly one kept row, checked on the data before it is written; otherwise the
reading is not written by code (`NotExpressible`) and the request is planned.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..sql.names import quote_identifier, quote_table
from .kept import column_said
from .picks import entry_said
from .reading_errors import NotExpressible, WithoutItsRows
from .resolve import StoredRows
from .shapes import Field, Shape


@dataclass(frozen=True)
class Write:
    goal: str
    sql: str  # with $parameters
    binds: tuple[str, ...] = ()  # the key it returns, bound for later statements
    sets: tuple[str, ...] = ()  # "table.column" for each column it sets on a kept row
    finds: tuple[str, str] = ("", "")  # (table, WHERE) of the one kept row whose key it binds, for rows of it


class Changes:
    """Writing changes to kept rows; the writer that mixes it in gives values and references."""

    shapes: Mapping[str, Shape]
    stored: StoredRows | None
    writes: list[Write]
    params: dict[str, object]
    added: dict[str, str]
    named: set[tuple[str, str]]
    set_aside: list[str]  # "table.field = value": values read that no kept row it names agrees with
    text: str  # the request

    def value(self, field: Field, value: object) -> str:
        raise NotImplementedError

    def reference(self, field: Field, value: object, add: bool = True) -> str:
        raise NotImplementedError

    def change_of_a_named_row(self, shape: Shape, values: Mapping[str, object]) -> bool:
        """A row that names a stored row by a column naming one row (its code, its title) is a change to
        that row: the other values it gives are set on it, nothing is added. False when it names none."""
        if self.stored is None:
            return False
        naming = next((c for c in shape.unique if c in values and self.stored.exists(shape.table, c, values[c])), None)
        if naming is None:
            return False
        by_column = {f.column: f for f in shape.fields}
        changed = [by_column[c] for c in values if c != naming and c in by_column]
        self.named.add((shape.table, str(values[naming])))
        if not changed:
            return True  # named only, as the row another row refers to
        target = quote_table(shape.table)
        assignments = ", ".join(
            f"{quote_identifier(f.column)} = {self.expression(f, values[f.column])}" for f in changed
        )
        named = self.value(by_column.get(naming) or Field(naming, naming, "VARCHAR", True), values[naming])
        self.writes.append(
            Write(
                f"set {', '.join(f.column for f in changed)} on {shape.table} {values[naming]!r}",
                f"UPDATE {target} SET {assignments} WHERE {quote_identifier(naming)} = {named}",
                sets=tuple(f"{shape.table}.{f.column}" for f in changed),
            )
        )
        return True

    def may_stand_alone(self, shape: Shape) -> bool:
        """Whether a row of a header table may be kept without rows of its own: some kept row has none (an
        run with no stops yet), read from the data; never known without lookups."""
        if self.stored is None or not shape.returned_key:
            return False
        children = [
            (s.table, f.column)
            for s in self.shapes.values()
            for f in s.required_references
            if f.reference is not None and f.reference.table == shape.table
        ]
        return any(self.stored.some_row_has_none(shape.table, shape.returned_key, *child) for child in children)

    def change_of_a_kept_row(
        self, shape: Shape, values: Mapping[str, object], has_children: bool, fill_in: bool
    ) -> None:
        """A row of a table with generated keys that lacks values its table needs: a change to the one kept
        row the rest of its values name. Its empty values filled in (a run dropped off) where it gives
        some, or, read with lines and nothing to set, the one kept row named for them (a visit's
        treatments); else the one value it gives that differs on the one row its two or more other values
        name (an observing session moved to another telescope); else its empty values filled in on the one
        row all its values but one name (that one read from another number of the request)."""
        if (fill_in or has_children) and self._tried(lambda: self.change(shape, values, has_children)):
            return  # a kept row's empty values filled in, or the kept row its lines belong to named
        if self._one_that_differs(shape, values, has_children):
            return
        if fill_in and self._tried(lambda: self.change(shape, values, has_children, narrow=True)):
            return
        raise NotExpressible(f"the {shape.table} row to change: its values name no one kept row")

    def _tried(self, write: Callable[[], None]) -> bool:
        """Whether `write` wrote its change; if not, the values it bound are let go."""
        kept = dict(self.params)
        try:
            write()
            return True
        except NotExpressible:
            self.params = kept  # the values bound for the change it was not
            return False

    def _one_that_differs(self, shape: Shape, values: Mapping[str, object], has_children: bool) -> bool:
        """Set the one value `values` gives that differs on the one kept row its two or more other values
        name (an observing session moved to another telescope); False where there is none such."""
        named = self.differing(shape, values)
        if len(named) > 1:
            raise NotExpressible(f"a {shape.table} row: its values name kept rows in {len(named)} ways")
        if not named:
            return False
        changed, identifying = named[0]
        where = f"{self.condition(identifying, values)} AND ({self.differs([changed], values)})"
        if changed.type.upper() == "DATE" and not column_said(changed.column, self.text):
            return self._dated_where_empty(shape, changed, values, where, has_children)
        assignment = f"{quote_identifier(changed.column)} = {self.expression(changed, values[changed.column])}"
        self.update_one(shape, where, assignment, [changed.column], has_children)
        return True

    def differing(self, shape: Shape, values: Mapping[str, object]) -> list[tuple[Field, list[Field]]]:
        """Each (value, the others) where the others, two or more, name one kept row on which that value
        differs. A listed entry the request does not say in words (a state a small model filled in) names
        no row."""
        given = [f for f in shape.fields if f.column in values]
        naming = [
            f for f in given if f.reference is not None or not f.allowed or entry_said(values[f.column], self.text)
        ]
        named = []
        for changed in given:
            identifying = [f for f in naming if f is not changed]
            if len(identifying) >= 2 and any(f.required or f.reference for f in identifying):
                kept = dict(self.params)
                where = f"{self.condition(identifying, values)} AND ({self.differs([changed], values)})"
                if self.stored is not None and self.stored.count(shape.table, where, self.params) == 1:
                    named.append((changed, identifying))
                self.params = kept
        return named

    def _dated_where_empty(
        self, shape: Shape, read: Field, values: Mapping[str, object], where: str, has_children: bool
    ) -> bool:
        """A date read for a column that holds another on the kept row and that the request does not name
        (the day a kite came back read as the day it went out) is the kept row's one empty date: set there,
        the kept one untouched; False where it has no one such."""
        if self.stored is None:
            return False
        dates = [f for f in shape.fields if f.type.upper() == "DATE" and f.nullable and f.column not in values]
        empty = [f for f in dates if self.stored.count(shape.table, f"{where} AND {_empty(f)}", self.params) == 1]
        if len(empty) != 1:
            return False
        target = empty[0]
        assignment = f"{quote_identifier(target.column)} = {self.value(target, values[read.column])}"
        self.update_one(shape, f"{where} AND {_empty(target)}", assignment, [target.column], has_children)
        return True

    def condition(self, fields: Sequence[Field], values: Mapping[str, object]) -> str:
        """SQL that holds for the rows having each of `fields` as `values` gives it."""
        return " AND ".join(f"{quote_identifier(f.column)} = {self.expression(f, values[f.column])}" for f in fields)

    def differs(self, fields: Sequence[Field], values: Mapping[str, object]) -> str:
        return " OR ".join(
            f"{quote_identifier(f.column)} IS DISTINCT FROM {self.expression(f, values[f.column])}" for f in fields
        )

    def expression(self, field: Field, value: object) -> str:
        return self.reference(field, value, add=False) if field.reference else self.value(field, value)

    def update_one(
        self, shape: Shape, where: str, assignments: str, columns: Sequence[str], has_children: bool
    ) -> None:
        """Set `assignments` on the one kept row `where` holds for (checked to be one), and bind its key for
        rows belonging to it: found first, then updated by it, since DuckDB refuses an UPDATE ... RETURNING
        on a table other tables reference ("key is still referenced")."""
        target, key = quote_table(shape.table), quote_identifier(shape.returned_key)
        goal = f"set {', '.join(columns)} on the {shape.table} row it names"
        sets = tuple(f"{shape.table}.{column}" for column in columns)
        if has_children:
            self.bind_one(shape, where)
            one = f"${self.added[shape.table]}"
        else:
            one = f"(SELECT min({key}) FROM {target} WHERE {where})"
        self.writes.append(Write(goal, f"UPDATE {target} SET {assignments} WHERE {key} = {one}", sets=sets))

    def bind_one(self, shape: Shape, where: str) -> None:
        """Bind the key of the one kept row `where` holds for, for the rows belonging to it; nothing changes."""
        target, key = quote_table(shape.table), quote_identifier(shape.returned_key)
        bind = bind_name(shape.table, shape.returned_key)
        one = f"(SELECT min({key}) FROM {target} WHERE {where})"
        sql = f"SELECT {key} AS {quote_identifier(bind)} FROM {target} WHERE {key} = {one}"
        self.writes.append(Write(f"find the {shape.table} row it names", sql, (bind,), finds=(shape.table, where)))
        self.added[shape.table] = bind

    def change(
        self, shape: Shape, values: Mapping[str, object], has_children: bool = False, narrow: bool = False
    ) -> None:
        """A row of a table with generated keys stated without all its table needs: a change to the row its
        required values name (a delivery undone: its stable and day; a session held: its observer and day),
        setting the values it gives (an empty one only where the row lacks it yet: a run dropped off). With
        lookups, the values must name one kept row (with `narrow`, all of them but one no kept row agrees
        with: `all_but_one`); its key is bound for rows belonging to it."""
        identifying = [f for f in shape.fields if f.required and f.column in values]
        changed = [f for f in shape.fields if not f.required and f.column in values]
        if not shape.returned_key or not identifying:
            raise NotExpressible(f"a {shape.table} row without rows of its own, and not a change this can write")
        if not changed and not has_children:
            raise WithoutItsRows(shape.table)
        empty = [f"{quote_identifier(f.column)} IS NULL" for f in changed if f.nullable]  # a value it lacks yet
        found = " AND ".join([self.condition(identifying, values), *empty])
        if not changed:  # named only, as the kept row the lines read beside it belong to (a visit's treatments)
            if self.stored is not None and self.stored.count(shape.table, found, self.params) != 1:
                raise NotExpressible(f"the {shape.table} row its lines belong to: its values name no one kept row")
            self.bind_one(shape, found)
            return
        if self.stored is not None:
            matched = self.stored.count(shape.table, found, self.params)
            if matched != 1:
                identifying = self.all_but_one(shape, identifying, values, empty) if narrow else []
                if not identifying:
                    what = "no row" if not matched else f"{matched} rows"
                    raise NotExpressible(f"the {shape.table} row to change: its values name {what}, not one")
                found = " AND ".join([self.condition(identifying, values), *empty])
        assignments = ", ".join(f"{quote_identifier(f.column)} = {self.value(f, values[f.column])}" for f in changed)
        self.update_one(shape, found, assignments, [f.column for f in changed], has_children)

    def all_but_one(
        self, shape: Shape, identifying: list[Field], values: Mapping[str, object], empty: list[str]
    ) -> list[Field]:
        """The `identifying` fields less the one value that differs on the one kept row all the others name
        (a length read from another number of the request: "£30" as 30 minutes), where one such row is;
        [] otherwise. The value left is not written (`set_aside`)."""
        if self.stored is None or len(identifying) < 3:
            return []
        fits = []
        for left in identifying:
            rest = [f for f in identifying if f is not left]
            kept = dict(self.params)
            if self.stored.count(shape.table, " AND ".join([self.condition(rest, values), *empty]), self.params) == 1:
                fits.append((left, rest))
            self.params = kept
        if len(fits) != 1:
            return []
        left, rest = fits[0]
        self.set_aside.append(f"{shape.table}.{left.name} = {values[left.column]!r}")
        return rest


def _empty(field: Field) -> str:
    return f"{quote_identifier(field.column)} IS NULL"


def bind_name(table: str, key: str) -> str:
    """The name a row's new key is bound by for later statements: letters, digits and underscores only.

    >>> bind_name("bale runs", "run id")
    'bale_runs_run_id'
    """
    return re.sub(r"\W", "_", f"{table}_{key}")
