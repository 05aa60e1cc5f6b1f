"""A procedure's values read by the schema, before they are bound (issue 52): each parameter is typed by
the column it lands in (written to or compared with, `INSERT ... SELECT` included: `parameter_targets`),
read from the live catalog, not from what the procedure was kept with.

- a CHECK-listed column takes one of its entries: the words the model copied from the request are mapped
  onto the list (`picks.mapped`: "a reading group" -> 'reading group'); words that map to none are
  returned apart (`Unlisted`), for the model to read once more among the entries;
- a date column takes a day said in any form ("31 March 2024" -> '2024-03-31'), a timestamp column a day and
  a time said together ("10 May 2024 09:15" -> '2024-05-10 09:15:00');
- a number column takes a number said in words ("three" -> 3);
- a value compared with a text column names a kept row: it is that row's value as kept, where the words
  name one ("glasshouse 12" -> 'G-012', "ann roe" -> 'Ann Roe': `StoredRows.find`); so does a value for a
  column referring to a table the procedure adds no row to, by that table's key, named by any of its
  texts ("Ida Moss" -> 'IMO'), the reference declared or named like the key (`_kept_references`).

A value already of its column's form is left as it is. What the request may not say is found apart
(`procedure_doubts`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ..kernel_memory.generalize import ITEMS
from ..kernel_memory.procedure_sql import compared_parameters, parameter_targets, parameters_of, written_tables
from ..kernel_memory.procedures import Procedure
from ..language.dates import days_said
from ..language.moments import day_first, iso_moment, moments_said, slashed_days
from ..language.spoken import spelled_numbers
from ..recording.picks import mapped
from ..recording.reading_errors import NotExpressible
from ..recording.resolve import StoredRows
from ..recording.shapes import INTEGER_TYPES, NUMBER_TYPES, references_of
from ..recording.stated import is_stated
from ..sql.catalog import TEXT_TYPES, Catalog
from ..sql.check_lists import check_lists
from ..sql.session import Session


@dataclass(frozen=True)
class Unlisted:
    """Words filled for a CHECK-listed column that map to none of its entries."""

    parameter: str
    item: int | None  # the item it is of (None: a scalar)
    column: str
    said: str
    entries: tuple[str, ...]


@dataclass(frozen=True)
class ParameterColumns:
    """What the schema says of a procedure's parameters, read once per procedure filled: each one's (table,
    column) in lower case, the columns' types and CHECK lists, and the parameters compared with a column."""

    targets: dict[str, tuple[str, str]]
    types: dict[tuple[str, str], str]
    listed: dict[tuple[str, str], tuple[str, ...]]
    compared: set[str]
    day_first: bool | None = None  # days with slashes put the day first ("09/04/2024"), as the procedure's request did
    # (table, column) -> the table it refers to, its key and its text columns, where the procedure adds no row
    # of that table: a value there names a kept row
    kept_references: dict[tuple[str, str], tuple[str, str, tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def of(cls, procedure: Procedure, session: Session, catalog: Catalog) -> ParameterColumns:
        columns = catalog.schema()
        targets: dict[str, tuple[str, str]] = {}
        for step in procedure.steps:
            for name, (table, column) in parameter_targets(step.sql, columns).items():
                if table is not None:
                    targets.setdefault(name, (table.lower(), column.lower()))
        types = {
            (name.lower(), c.name.lower()): c.type.upper()
            for name, table in catalog.tables.items()
            for c in table.columns
        }
        listed = {(table.lower(), column.lower()): entries for (table, column), entries in check_lists(session).items()}
        listed.update(_listed_by_reference(catalog, listed))
        compared = set().union(*(compared_parameters(step.sql) for step in procedure.steps if step.sql))
        return cls(targets, types, listed, compared, _day_first(procedure), _kept_references(procedure, catalog))

    def type_of(self, parameter: str) -> str:
        """The type (upper case) of the column `parameter` lands in; "" where it lands in none."""
        target = self.targets.get(parameter)
        return self.types.get(target, "") if target is not None else ""

    def kept_rows_of(self, parameter: str) -> tuple[str, str, tuple[str, ...]] | None:
        """The kept rows the column `parameter` lands in refers to (`kept_references`), if it does."""
        target = self.targets.get(parameter)
        return self.kept_references.get(target) if target is not None else None


def _listed_by_reference(
    catalog: Catalog, listed: Mapping[tuple[str, str], tuple[str, ...]]
) -> dict[tuple[str, str], tuple[str, ...]]:
    """The CHECK list of each column that refers to a listed one (a coaching's `kind` referring to the
    rates' listed kinds holds one of them), for columns without a list of their own (lower case)."""
    inherited: dict[tuple[str, str], tuple[str, ...]] = {}
    for name, table in catalog.tables.items():
        for key in table.foreign_keys:
            if len(key.columns) != 1 or len(key.references) != 1:
                continue
            own = (name.lower(), key.columns[0].lower())
            entries = listed.get((key.table.lower(), key.references[0].lower()))
            if entries and own not in listed:
                inherited[own] = entries
    return inherited


def _kept_references(procedure: Procedure, catalog: Catalog) -> dict[tuple[str, str], tuple[str, str, tuple[str, ...]]]:
    """Each column (lower case) referring to a row of a table the procedure adds no row to, declared or
    named like that table's key (`shapes.references_of`: a stay's `walker_code` beside `walkers.walker_code`):
    -> that table, its key, and its text columns, which name its rows."""
    written = {table.lower() for step in procedure.steps if step.sql for table in written_tables(step.sql)}
    stored = [t for t in catalog.tables.values() if not t.is_frame and "." not in t.name]
    found: dict[tuple[str, str], tuple[str, str, tuple[str, ...]]] = {}
    for table in stored:
        for column, (target, key) in references_of(table, stored).items():
            referred = catalog.tables.get(target)
            if referred is None or target.lower() in written:
                continue
            texts = tuple(c.name for c in referred.columns if c.type.upper().startswith(TEXT_TYPES))
            found[(table.name.lower(), column.lower())] = (target, key, texts)
    return found


def read_by_columns(
    values: Mapping[str, object], columns: ParameterColumns, session: Session
) -> tuple[dict[str, object], list[Unlisted]]:
    """`values` as filled, each read by its parameter's column, and the words for a listed column that map
    to none of its entries (left as filled)."""
    targets, listed, compared = columns.targets, columns.listed, columns.compared
    stored = StoredRows(session)
    unlisted: list[Unlisted] = []

    def read(name: str, value: object, item: int | None = None) -> object:
        target = targets.get(name)
        if target is None or not isinstance(value, str) or not value.strip():
            return value
        entries = listed.get(target)
        if entries:
            entry = mapped(value, entries)
            if entry is None:
                unlisted.append(Unlisted(name, item, target[1], value, entries))
            return value if entry is None else entry
        kind = columns.type_of(name)
        if kind.startswith("TIMESTAMP"):  # a day and a time said together: "10 May 2024 09:15"
            if iso_moment(value):
                return value
            moments = moments_said(value, columns.day_first)
            return moments[0].isoformat(sep=" ") if len(moments) == 1 else value
        if kind == "DATE":
            days = days_said(value) or (
                slashed_days(value, columns.day_first) if columns.day_first is not None else set()
            )
            return days.pop().isoformat() if len(days) == 1 else value
        if kind.startswith((*INTEGER_TYPES, *NUMBER_TYPES)):  # an INTERVAL is no number
            spelled = spelled_numbers(value)
            if len(spelled) == 1 and not any(ch.isdigit() for ch in value):
                return int(spelled[0]) if spelled[0].is_integer() else spelled[0]
        referred = columns.kept_rows_of(name)
        if kind.startswith(TEXT_TYPES) and (name in compared or referred):
            table, key, naming = referred if referred and name not in compared else (*target, (target[1],))
            try:
                kept = stored.find(table, naming, value, key)
            except NotExpressible:
                kept = None
            return kept if isinstance(kept, str) else value
        return value

    read_values = {name: read(name, value) for name, value in values.items() if name != ITEMS}
    items = values.get(ITEMS)
    if isinstance(items, list):
        read_values[ITEMS] = [
            {name: read(name, value, number) for name, value in item.items()} if isinstance(item, Mapping) else item
            for number, item in enumerate(items)
        ]
    return read_values, unlisted


def _day_first(procedure: Procedure) -> bool | None:
    """Whether the procedure's first request wrote days with slashes day first, as its kept values say."""
    request = procedure.requests[0] if procedure.requests else ""
    for value in procedure.example.values():
        try:
            day = dt.date.fromisoformat(str(value)[:10])
        except ValueError:
            continue
        if (first := day_first(request, day)) is not None:
            return first
    return None


def with_entry(values: dict[str, object], parameter: str, item: int | None, entry: object) -> None:
    """Set the value of `parameter` (of the `item`th item, or a scalar for None) to `entry`, in place."""
    if item is None:
        values[parameter] = entry
    else:
        items = values[ITEMS]
        assert isinstance(items, list)
        items[item][parameter] = entry


def filled(values: Mapping[str, object]) -> Iterator[tuple[str, object, int | None]]:
    """Each value of `values` with its parameter and the item it is of (None: a scalar)."""
    for name, value in values.items():
        if name != ITEMS:
            yield name, value, None
    items = values.get(ITEMS)
    for number, item in enumerate(items if isinstance(items, list) else []):
        for name, value in item.items() if isinstance(item, Mapping) else ():
            yield name, value, number


def unsaid_steps(procedure: Procedure, values: Mapping[str, object], request: str) -> list[int]:
    """The steps of `procedure` (by index) that are optional parts `request` gives nothing for: each of
    their own parameters (used by no other step) filled as the number zero, which the request does not
    state (a fine of 0 for a return in good time, where the procedure was kept from a late one). A step
    whose own values were filled otherwise (an empty text, the first request's phone copied) or left out is
    kept, for the checks on what the request says; so is a step run per item, binding results or without
    values of its own, and one step at least.

    >>> from jupyter_chatdb.kernel_memory.generalize import GeneralStep, Parameter
    >>> fee = GeneralStep("fee", "INSERT INTO fees VALUES ($boat, $fee)")
    >>> steps = (fee, GeneralStep("back", "UPDATE boats SET back = $day WHERE boat = $boat"))
    >>> given = (Parameter("boat", "text"), Parameter("fee", "number"), Parameter("day", "text"))
    >>> back = Procedure("back", steps, given, ())
    >>> unsaid_steps(back, {"boat": "Otter", "fee": 0, "day": "2024-06-05"}, "Otter back on 2024-06-05, on time")
    [0]
    >>> unsaid_steps(back, {"boat": "Otter", "fee": 0, "day": "2024-06-05"}, "Otter back on 2024-06-05, fee 0")
    []
    >>> unsaid_steps(back, {"boat": "Otter", "fee": "", "day": "2024-06-05"}, "Otter back on 2024-06-05")
    []
    """
    today = dt.date.today()
    used = [set(parameters_of(step.sql)) if step.sql else set() for step in procedure.steps]
    left: list[int] = []
    for index, step in enumerate(procedure.steps):
        others = set().union(*(names for at, names in enumerate(used) if at != index))
        own = used[index] - others
        if step.per_item or step.binds or not own:
            continue
        if all(name in values and _zero(values[name]) and not is_stated(values[name], request, today) for name in own):
            left.append(index)
    return left if len(left) < len(procedure.steps) else []


def _zero(value: object) -> bool:
    """A number filled as zero: what the model gives for an amount the request has none of."""
    return not isinstance(value, bool) and isinstance(value, int | float) and value == 0
