"""Rows named by what a row they refer to holds: "the lesson on Ria's boat" names a lesson by its boat's owner.

A change's reading may name its rows by a column of another table ("owner_name": "Ria Sand" for a lesson); the
rows meant are those whose chain of references reaches a row holding that value. The chain is the one
shortest path of references from the table to a table with that column, of at most `MAX_HOPS` steps;
where two paths of that length reach such a column, the pick names nothing (it is not guessed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..sql.names import quote_identifier, quote_table
from .shapes import Field, Shape

MAX_HOPS = 3


@dataclass(frozen=True)
class Hop:
    """One reference followed: `column` of `table` holds `key` of `to`."""

    table: str
    column: str
    to: str
    key: str


def reachable(shapes: Mapping[str, Shape], table: str, column: str) -> bool:
    """Whether rows of `table` may be named by `column`: a column of their own, or one of a row they refer
    to (`path_to`)."""
    shape = shapes.get(table)
    return shape is not None and (shape.field(column) is not None or path_to(shapes, table, column) is not None)


def path_to(shapes: Mapping[str, Shape], table: str, column: str, to: str = "") -> tuple[tuple[Hop, ...], Field] | None:
    """The one shortest chain of references from `table` to a table with a field called `column` (by its
    name or its column), and that field; None where there is none, or two of the same length. `to`: that
    table, where the column is known to be its ("name" of patients, not of therapists).

    >>> from jupyter_chatdb.recording.shapes import Reference
    >>> owners = Shape("owners", (Field("owner_name", "owner_name", "VARCHAR", True),), "owner_name", "owner_id")
    >>> boats = Shape("boats", (Field("owner", "owner_id", "INTEGER", True, Reference("owners", "owner_id", "owner_name")),
    ...     Field("hull", "hull", "VARCHAR", True)), "hull", "")
    >>> trips = Shape("trips", (Field("hull", "hull", "VARCHAR", True, Reference("boats", "hull", "hull")),), "", "trip_id")
    >>> hops, field = path_to({"owners": owners, "boats": boats, "trips": trips}, "trips", "owner_name")
    >>> [(h.table, h.column, h.to) for h in hops], field.column
    ([('trips', 'hull', 'boats'), ('boats', 'owner_id', 'owners')], 'owner_name')
    >>> path_to({"owners": owners, "boats": boats, "trips": trips}, "trips", "owner_name", "boats") is None
    True
    """
    edges = {
        name: [
            Hop(name, f.column, f.reference.table, f.reference.key)
            for f in (*shape.fields, *shape.required_references)
            if f.reference is not None and f.reference.table in shapes and f.reference.table != name
        ]
        for name, shape in shapes.items()
    }
    paths: list[tuple[Hop, ...]] = [()]
    for _ in range(MAX_HOPS):
        paths = [(*path, hop) for path in paths for hop in edges.get(path[-1].to if path else table, ())]
        paths = [path for path in paths if path[-1].to != table and len({h.to for h in path}) == len(path)]
        found = [
            (path, field)
            for path in paths
            if (field := shapes[path[-1].to].field(column)) is not None
            and (not to or shapes[path[-1].to].table.lower() == to.lower())
        ]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def through(hops: tuple[Hop, ...], condition: str) -> str:
    """The condition on the first table's rows whose chain of references `hops` reaches a row meeting
    `condition` (a condition on the last table's rows).

    >>> print(through((Hop("trips", "hull", "boats", "hull"),), '"owner_id" = $c1'))
    "hull" IN (SELECT "hull" FROM "boats" WHERE "owner_id" = $c1)
    """
    for hop in reversed(hops):
        condition = (
            f"{quote_identifier(hop.column)} IN (SELECT {quote_identifier(hop.key)}"
            f" FROM {quote_table(hop.to)} WHERE {condition})"
        )
    return condition
