"""Which tables a request's rows may go to, by the tables it names its things by.

A yard buys hay from stables and sells it to riders: `deliveries` hang off `stables`, `orders` off
`riders`, and the lines of both name a hay. A small model reads "rider 'Ann Lee' bought 3 bales" as a
delivery as often as an order, because "bought" fits both. But the request names a rider: riders and
stables are *alternatives* (each is the party of records that meet in a common table, hay, and no record
has both), so when a request names one and not the other, the tables that hang off the other are not
offered (`in_scope`). Nothing here knows any table: the alternatives are read from the references.
"""

from __future__ import annotations

from collections.abc import Mapping

from .shapes import Shape


def parents(shape: Shape) -> set[str]:
    """The tables a row of `shape` references."""
    fields = (*shape.fields, *shape.required_references)
    return {f.reference.table for f in fields if f.reference is not None and f.reference.table != shape.table}


def ancestors(shapes: Mapping[str, Shape]) -> dict[str, set[str]]:
    """Each table -> every table it references, directly or through others."""
    found: dict[str, set[str]] = {}

    def visit(table: str, path: frozenset[str]) -> set[str]:
        if table not in found:
            direct = parents(shapes[table]) if table in shapes else set()
            found[table] = set(direct)
            for parent in direct - path:
                found[table] |= visit(parent, path | {table})
        return found[table]

    for table in shapes:
        visit(table, frozenset())
    return found


def alternatives(shapes: Mapping[str, Shape]) -> dict[str, set[str]]:
    """Table -> the tables that play the same part beside it: two tables whose rows have names (a natural
    key) that no table references both of, while tables referencing each meet in a third one."""
    above = ancestors(shapes)
    below: dict[str, set[str]] = {table: set() for table in shapes}
    for table, over in above.items():
        for parent in over:
            below.setdefault(parent, set()).add(table)
    parties = [table for table, shape in shapes.items() if shape.natural_key and below.get(table)]
    found: dict[str, set[str]] = {table: set() for table in parties}
    for first in parties:
        for second in parties:
            if first >= second or any({first, second} <= above[t] | {t} for t in shapes):
                continue  # one references the other, or a third references both
            meet = {c for t in below[first] for c in above[t]} & {c for t in below[second] for c in above[t]}
            if meet - above[first] - above[second] - {first, second}:
                found[first].add(second)
                found[second].add(first)
    return found


def in_scope(shapes: Mapping[str, Shape], named: set[str]) -> dict[str, Shape]:
    """`shapes` without the tables hanging off an alternative of a table the request names (lower-case
    names, `grounding.named_tables`) that it does not name itself; all of them when it names none."""
    lower = {table.lower(): table for table in shapes}
    said = {lower[name] for name in named if name in lower}
    above, beside = ancestors(shapes), alternatives(shapes)
    left_out = {other for table in said for other in beside.get(table, set()) if other not in said}
    return {table: shape for table, shape in shapes.items() if table not in left_out and not above[table] & left_out}


def around(shapes: Mapping[str, Shape], table: str) -> dict[str, Shape]:
    """`table`, the tables whose rows refer to its rows (its lines, a new member's first loan) and those
    whose rows refer to theirs, and every table those reference: where a record's rows may go when it is
    read as adding to `table`.

    >>> from jupyter_chatdb.recording.shapes import Field, Reference
    >>> def shape(name, *refs):
    ...     return Shape(name, tuple(Field(r, r, "INTEGER", True, Reference(r, r, "name")) for r in refs), "", "")
    >>> shapes = {"owners": shape("owners"), "kites": shape("kites", "owners"), "flights": shape("flights", "kites", "fields"),
    ...     "fields": shape("fields"), "fairs": shape("fairs"), "stalls": shape("stalls", "fairs")}
    >>> sorted(around(shapes, "flights")), sorted(around(shapes, "owners"))
    (['fields', 'flights', 'kites', 'owners'], ['fields', 'flights', 'kites', 'owners'])
    """
    name_of = {shape.table: name for name, shape in shapes.items()}
    above = ancestors(shapes)

    def referring(names: set[str]) -> set[str]:
        return {name for name, other in shapes.items() if {shapes[n].table for n in names} & parents(other)}

    kept = {table} | referring({table})
    kept |= referring(kept - {table})  # the lines of those (a new customer's first sale, and its lines)
    for name in list(kept):
        kept |= {name_of.get(t, t) for t in above.get(name, set())}
    return {name: shape for name, shape in shapes.items() if name in kept}
