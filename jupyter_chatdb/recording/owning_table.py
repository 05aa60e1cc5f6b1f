"""The table a change belongs to, where the model read it on a table that only refers to the row it names.

A small model reading "12 May | moved | SG-7 | to North jetty" may pick a table that holds the code SG-7
as a reference (the log of SG-7's outings) rather than the table SG-7 is a row of (the boats), and then
put the new value in a reference column of the wrong kind (North jetty into the outing's skipper). The
data settles it: where every pick names the rows by one reference column, and each setting's value is no
row of the table its column refers to, but is a row of a table the referenced row has exactly one
reference to (a jetty), or names another row of the referenced table ("the skipper of SG-9"), the change
is to the referenced row: that reference set to the value, or copied from the row named. A copy from rows
named only by the row they refer to, that are not one row of the table read, is a copy between the rows
referred to. Otherwise the reading stands as the model gave it. `refer_named_row` reads the other way
round: a change of the row given as the new value, as the named row set to refer to it. `linked` reads
a change whose named row is no row of the table read ("PN-4 | now Ivo Lehto" read as a change of the
tuners, PN-4 a piano) as a change of the row that joins the two rows named: the piano's tuning set to
Ivo Lehto. `on_the_table_it_sets` reads a change that sets only columns the table read lacks ("Ria's
dinghy | on the water" read as the dinghy's state) as a change of the one table referring to it that has
them (the dinghy's hire).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..sql.names import quote_identifier
from .named_rows import NamedRow
from .related import reachable
from .resolve import StoredRows
from .row_changes import Pick, Reading, Setting
from .shapes import Field, Shape, is_temporal, shape_named


def on_the_table_it_names(
    reading: Reading, shapes: Mapping[str, Shape], stored: StoredRows
) -> tuple[Reading, list[str]]:
    """`reading`, moved to the table of the row its picks name through a reference where its settings
    fit that row and not the table read, with a note for each day left behind (the record's day read
    into the table read's date); as it is otherwise, with no notes."""
    shape = shapes.get(reading.table)
    if reading.does != "change" or shape is None or not reading.which or not reading.settings:
        return reading, []
    if len({p.column.lower() for p in reading.which}) != 1:
        return reading, []
    via = shape.field(reading.which[0].column)
    if via is None or via.reference is None or not via.reference.name:
        return reading, []
    owner = shape_named(shapes, via.reference.table)
    if owner is None:
        return reading, []
    naming = via.reference.name
    if any(stored.find(owner.table, (naming,), p.value, naming) is None for p in reading.which):
        return reading, []
    days = [s for s in reading.settings if _a_day_of_its_own(s, shape, owner)]
    moved = [
        _on_the_owner(s, shape, owner, naming, reading.which, shapes, stored) for s in reading.settings if s not in days
    ]
    if not moved or any(m is None for m in moved):
        return reading, []
    which = tuple(Pick(naming, p.value) for p in reading.which)
    notes = [f"{s.value} read as the day of the record, not a new {shape.table}.{s.column}" for s in days]
    return Reading("change", owner.table, which, tuple(m for m in moved if m is not None)), notes


def _a_day_of_its_own(setting: Setting, shape: Shape, owner: Shape) -> bool:
    """Whether the setting gives a day to a date of the table read that the owner has no column for."""
    field = shape.field(setting.column)
    return (
        field is not None
        and field.reference is None
        and is_temporal(field)
        and setting.how == "to"
        and owner.field(setting.column) is None
    )


def _on_the_owner(
    setting: Setting,
    shape: Shape,
    owner: Shape,
    naming: str,
    which: Sequence[Pick],
    shapes: Mapping[str, Shape],
    stored: StoredRows,
) -> Setting | None:
    """The setting as one of the owner's, where it fits no row of the table read; None where it may."""
    if setting.how == "copy":
        return _copied_on_the_owner(setting, shape, owner, naming, which, stored)
    if setting.how == "to" and setting.value:
        return _set_on_the_owner(setting, shape, owner, naming, which, shapes, stored)
    return None


def _copied_on_the_owner(
    setting: Setting, shape: Shape, owner: Shape, naming: str, which: Sequence[Pick], stored: StoredRows
) -> Setting | None:
    """A reference copied from rows named only by the owner row they refer to, where they are not one row
    of the table read ("SG-7 is skippered by whoever skippers SG-9"): copied from that owner row."""
    read = shape.field(setting.column)
    if read is None or read.reference is None or not setting.source:
        return None
    columns = [f.column for p in setting.source if (f := shape.field(p.column)) is not None]
    if len(columns) != len(setting.source):
        return None
    holds = " AND ".join(f"{quote_identifier(column)} = ?" for column in columns)
    if stored.count(shape.table, holds, {}, [p.value for p in setting.source]) == 1:
        return None  # one row of the table read to copy from: the reading may mean it
    via = {p.column.lower() for p in which}
    same = owner.references_to(read.reference.table)
    if len(same) != 1 or any(p.column.lower() not in via for p in setting.source):
        return None
    return Setting(same[0].name, "copy", source=tuple(Pick(naming, p.value) for p in setting.source))


def _set_on_the_owner(
    setting: Setting,
    shape: Shape,
    owner: Shape,
    naming: str,
    which: Sequence[Pick],
    shapes: Mapping[str, Shape],
    stored: StoredRows,
) -> Setting | None:
    """A value no row of the kind its column refers to: a row of a table the owner refers to once (set
    to it), or words naming another owner row (that row's reference of the same kind, copied)."""
    read = shape.field(setting.column)
    if read is not None and (read.reference is None or _row_of(read, setting.value, stored) is not None):
        return None  # a value the table read may hold
    for table in _tables_holding(setting.value, shapes, stored):
        refers = owner.references_to(table)
        if len(refers) == 1:
            return Setting(refers[0].name, "to", setting.value)
    if read is None or read.reference is None:
        return None
    same = owner.references_to(read.reference.table)
    other = stored.named_in(owner.table, (naming,), setting.value, naming)
    if len(same) == 1 and other is not None and all(str(other) != p.value for p in which):
        return Setting(same[0].name, "copy", source=(Pick(naming, str(other)),))
    return None


def _row_of(field: Field, said: str, stored: StoredRows) -> object | None:
    assert field.reference is not None
    reference = field.reference
    return stored.find(reference.table, reference.labels or (reference.name,), said, reference.key)


def _tables_holding(said: str, shapes: Mapping[str, Shape], stored: StoredRows) -> Sequence[str]:
    """The tables one of whose rows `said` names exactly, by a column naming one row (its code, its name)."""
    return [s.table for s in shapes.values() if _holding(s, said, stored)]


def refer_named_row(
    reading: Reading, shapes: Mapping[str, Shape], named: Sequence[NamedRow], stored: StoredRows
) -> Reading | None:
    """Where the model read a change of the row the request gives as a new value ("yacht SG-7 | new skipper:
    Ann Roe" read as a change of Ann Roe's own row), the change of the one kept row of another table the
    request names by its name or code, whose one reference to the reading's table is set to that row (or,
    where it has none, the rows of the one table joining the two: a piano's tuning given a tuner);
    None unless the data reads exactly one such row, referring now to another."""
    shape = shapes.get(reading.table)
    if reading.does != "change" or shape is None or len(reading.which) != 1:
        return None
    (pick,) = reading.which
    if all(stored.named_exactly(shape.table, (c,), pick.value, c) is None for c in shape.naming):
        return None
    found = []
    for row in named:
        other = shapes.get(row.table)
        if other is None or other.table == shape.table or row.column not in other.naming:
            continue
        refers = other.references_to(shape.table)
        if not refers:  # the rows joining the named row to the reading's table: a piano's tuning
            found += _joined(other, shape, row, pick, shapes)
            continue
        if len(refers) != 1 or refers[0].reference is None:
            continue
        now = stored.values_of(other.table, row.column, row.value, [refers[0].column])
        target = stored.find(shape.table, shape.naming, pick.value, refers[0].reference.key)
        if now is not None and target is not None and now[refers[0].column] != target:
            found.append(
                Reading(
                    "change",
                    other.table,
                    (Pick(row.column, str(row.value)),),
                    (Setting(refers[0].name, "to", pick.value),),
                )
            )
    return found[0] if len(found) == 1 else None


def _joined(other: Shape, shape: Shape, row: NamedRow, pick: Pick, shapes: Mapping[str, Shape]) -> list[Reading]:
    """The change of the rows of the one table that refers once to `other` (the named row's table) and
    once to `shape`, picked by the named row and set to refer to `pick`'s row; none where no one table
    joins them."""
    joined = _joining(shapes, other.table, shape.table)
    if joined is None:
        return []
    link, by, to = joined
    return [Reading("change", link, (Pick(by.name, str(row.value)),), (Setting(to.name, "to", pick.value),))]


def _joining(shapes: Mapping[str, Shape], one: str, other: str) -> tuple[str, Field, Field] | None:
    """The one table that refers once to `one` and once to `other`, with those two references; None where
    no one table does."""
    joining = [s for s in shapes.values() if len(s.references_to(one)) == 1 and len(s.references_to(other)) == 1]
    if len(joining) != 1:
        return None
    link = joining[0]
    return link.table, link.references_to(one)[0], link.references_to(other)[0]


def linked(reading: Reading, shapes: Mapping[str, Shape], stored: StoredRows) -> Reading | None:
    """Where the one row a change names is no row of the table read, but one row of another table, and
    the one value it sets is one row of a third ("PN-4 | now Ivo Lehto", read as the tuners' row PN-4
    renamed Ivo Lehto): the change of the row that joins them, the one table that refers once to
    each, its reference to the named row's table picking the rows, its reference to the value's set to
    it; None unless the data reads exactly that, and the named row has no reference of its own to the
    value's table."""
    shape = shapes.get(reading.table)
    if reading.does != "change" or shape is None or len(reading.which) != 1 or len(reading.settings) != 1:
        return None
    (pick,), (setting,) = reading.which, reading.settings
    if setting.how != "to" or not setting.value or _holding(shape, pick.value, stored):
        return None
    named = [s for s in shapes.values() if _holding(s, pick.value, stored)]
    values = [s for s in shapes.values() if _holding(s, setting.value, stored)]
    if len(named) != 1 or len(values) != 1 or named[0].table == values[0].table:
        return None
    owner, kind = named[0].table, values[0].table
    if named[0].references_to(kind):
        return None  # the named row's own reference to that kind may be meant as well
    joined = _joining(shapes, owner, kind)
    if joined is None:
        return None
    link, by, to = joined
    return Reading("change", link, (Pick(by.name, pick.value),), (Setting(to.name, "to", setting.value),))


def _holding(shape: Shape, said: str, stored: StoredRows) -> bool:
    """Whether `said` names exactly one row of the table, by a column that names one row."""
    return any(stored.named_exactly(shape.table, (column,), said, column) is not None for column in shape.naming)


def on_the_table_it_sets(reading: Reading, shapes: Mapping[str, Shape]) -> Reading | None:
    """Where every column a change sets is one the table read lacks, and exactly one table that refers to
    it has them all ("Ria's dinghy is out on the water" read as the dinghy's state, which its hires
    keep), the change of that table's rows, named as the model named the row they refer to (through it,
    `related.path_to`); None otherwise."""
    name = _the_one_table_setting(reading, shapes, referring=True) if reading.which else None
    if name is None or not all(reachable(shapes, name, p.column) for p in reading.which):
        return None
    return Reading("change", name, reading.which, reading.settings)


def on_the_table_named(reading: Reading, shapes: Mapping[str, Shape], named: Sequence[NamedRow]) -> Reading | None:
    """Where every column a change sets is one the table read lacks, and exactly one table has them all,
    the change of that table's rows the request names: by their own code, or by the rows they refer to
    ("Ola Berg's sea kayak | repair cost up by 10" read on the payments: the repair of the kayak
    described); None where the request names none of them, or names one column two ways."""
    name = _the_one_table_setting(reading, shapes, referring=False)
    if name is None:
        return None
    target = shapes[name]
    picks: dict[str, str] = {}
    for row in named:
        table = shapes[row.table].table if row.table in shapes else row.table
        if table.lower() == target.table.lower():
            columns = [row.column] if row.column in target.naming else []
        else:
            columns = [
                f.column
                for f in target.references_to(table)
                if f.reference is not None and f.reference.key.lower() == row.column.lower()
            ]
        for column in columns:
            if picks.setdefault(column, str(row.value)) != str(row.value):
                return None  # two rows named for one column: the request does not say which
    if not picks:
        return None
    return Reading("change", name, tuple(Pick(c, v) for c, v in picks.items()), reading.settings)


def _the_one_table_setting(reading: Reading, shapes: Mapping[str, Shape], referring: bool) -> str | None:
    """For a change every column of which the table read lacks, the one other table (one referring to the
    table read, with `referring`) that has them all; None otherwise."""
    shape = shapes.get(reading.table)
    if reading.does != "change" or shape is None or not reading.settings:
        return None
    if any(shape.field(s.column) is not None for s in reading.settings):
        return None
    holding = [
        name
        for name, other in shapes.items()
        if other.table != shape.table
        and (not referring or other.references_to(shape.table))
        and all(other.field(s.column) is not None for s in reading.settings)
    ]
    return holding[0] if len(holding) == 1 else None
